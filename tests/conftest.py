"""Shared by every test package: Debian tools the real-path tests drive, and a real X display under Xvfb.

A test that needs a Debian package calls `need("xvfb")`: when the package is missing it is skipped with the line that
installs it, except under CI (`CI` set), where a missing tool is a failure — CI installs every package in
`.ci/debian-packages`, so a skip there would hide a broken set-up.
"""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The user's folders (scoreboard/folders.py: config, journals, packs, caches) of every test and every process a test
# starts are a temporary home of this run's own, never the real user's; `SCOREBOARD_CONFIG` is left to the tests.
# The real user's cache folder, for tools' own caches only (uv's, in tests/test_wheel.py).
TOOLS_CACHE = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
_HOME = tempfile.mkdtemp(prefix="scoreboard-tests-home-")
atexit.register(shutil.rmtree, _HOME, True)
for _name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
    os.environ[_name] = os.path.join(_HOME, _name.split("_")[1].lower())
os.environ.pop("SCOREBOARD_CONFIG", None)


def _probes() -> dict[str, str]:
    out = {}
    for line in (ROOT / ".ci" / "debian-packages").read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if parts and not parts[0].startswith("#"):
            out[parts[0]] = parts[1]
    return out


def need(*packages: str) -> None:
    """Skip (or, under CI, fail) unless every Debian package named is installed."""
    probes = _probes()
    missing = []
    for package in packages:
        if package not in probes:
            raise KeyError(f"{package} is not listed in .ci/debian-packages")
        if not Path(probes[package]).exists():
            missing.append(package)
    if missing:
        line = f"apt-get install -y {' '.join(missing)}"
        if os.environ.get("CI"):
            pytest.fail(f"needed Debian packages are missing under CI: {line}")
        pytest.skip(f"needs Debian packages: {line}")


@contextmanager
def xvfb(screens: tuple[tuple[int, int], ...] = ((1920, 1080),), xinerama: bool = False) -> Iterator[str]:
    """A real X server for the duration: yields its DISPLAY (":N"). Xvfb writes the display number to a pipe once it
    accepts clients (-displayfd), so nothing here waits on wall time."""
    need("xvfb")
    read_end, write_end = os.pipe()
    args = ["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp", "-noreset"]
    for index, (w, h) in enumerate(screens):
        args += ["-screen", str(index), f"{w}x{h}x24"]
    if xinerama:
        args.append("+xinerama")
    proc = subprocess.Popen(args, pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(write_end)
    try:
        with os.fdopen(read_end, "rb") as pipe:
            number = pipe.readline().strip().decode()
        if not number:
            err = proc.stderr.read().decode(errors="replace") if proc.poll() is not None else ""
            raise RuntimeError(f"Xvfb did not start: {err.strip()}")
        yield f":{number}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def x_display() -> Iterator[str]:
    """One 1920×1080 Xvfb display for this test; its DISPLAY string."""
    with xvfb() as display:
        yield display
