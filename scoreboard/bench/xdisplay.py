"""A real X display for benches that measure the real board process (`scoreboard bench remote-web`, …).

Xvfb writes its display number to a pipe once it accepts clients (`-displayfd`), so nothing waits on wall time.
Debian: `apt-get install xvfb`.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager


class NoXvfb(RuntimeError):
    pass


@contextmanager
def virtual_display(width: int = 1920, height: int = 1080) -> Iterator[str]:
    """Yields the DISPLAY (":N") of a fresh Xvfb screen of this size; stops it afterwards."""
    if shutil.which("Xvfb") is None:
        raise NoXvfb("Xvfb is not installed: apt-get install -y xvfb")
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp", "-noreset",
                             "-screen", "0", f"{width}x{height}x24"],
                            pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(write_end)
    try:
        with os.fdopen(read_end, "rb") as pipe:
            number = pipe.readline().strip().decode()
        if not number:
            raise NoXvfb(f"Xvfb did not start: {proc.stderr.read().decode(errors='replace').strip()}")
        yield f":{number}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
