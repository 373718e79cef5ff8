"""The real `scoreboard run` process on a virtual X display, for the benches that must measure the board a venue runs
(`bench links --board`, `bench remote-web`), not an in-process stand-in.

    with real_board("pass", web=True) as board:      # board.process, board.osc_port, board.web_port, board.folder
        ...
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from scoreboard.bench.xdisplay import virtual_display


def free_port(kind: int = socket.SOCK_DGRAM) -> int:
    with socket.socket(socket.AF_INET, kind) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


VIEW_PASSCODE = "bench-view"


def board_toml(*, journal: Path, osc_port: int, passcode: str, regulation: str = "novosibirsk-2007",
               stage: str = "1/9", size: tuple[int, int] = (1920, 1080), fps: int | None = None,
               web_port: int | None = None, osc_extra: str = "", extra: str = "") -> str:
    """The config of a real board on loopback: one windowed audience screen of `size`, OSC on `osc_port` (plus
    `osc_extra` lines), the page on `web_port` (None: off), then `extra` sections. The benches and the end-to-end
    tests all start their board from this one text."""
    web = f'bind = "127.0.0.1"\nport = {web_port}' if web_port is not None else "enabled = false"
    return f'''
[board]
regulation = "{regulation}"
stage = "{stage}"
journal = "{journal}"
sounds = false
confirm_quit = false
{f"fps = {fps}" if fps is not None else ""}

[[screens]]
role = "audience"
size = [{size[0]}, {size[1]}]
fullscreen = false

[osc]
bind = "127.0.0.1"
port = {osc_port}
passcode = "{passcode}"
{osc_extra}

[remote_web]
{web}
{extra}'''


def write_config(folder: Path, osc_port: int, passcode: str, web_port: int | None, box: str | None = None,
                 journal_dir: Path | None = None, osc_extra: str = "", extra: str = "") -> Path:
    """The benches' board: novosibirsk 1/9, one 1920×1080 audience window at 60 fps, OSC (and the page) on loopback,
    a view passcode, and the button box at `box` (events mode) if given; the journal in `journal_dir` (default:
    `folder`)."""
    path = folder / "scoreboard.toml"
    path.write_text(board_toml(journal=(journal_dir or folder) / "bench.sqlite", osc_port=osc_port,
                               passcode=passcode, fps=60, web_port=web_port,
                               osc_extra=f'view_passcode = "{VIEW_PASSCODE}"\nadvertise = false\n{osc_extra}',
                               extra=(f'\n[buttons]\nport = "{box}"\nmode = "events"\n' if box is not None else "")
                               + extra),
                    encoding="utf-8")
    return path


@dataclass
class RealBoard:
    process: subprocess.Popen
    osc_port: int
    web_port: int | None
    folder: Path


@contextmanager
def real_board(passcode: str, web: bool = False, box: str | None = None,
               env: dict | None = None, journal_dir: Path | None = None, osc_extra: str = "",
               wrap: list[str] | None = None, extra: str = "") -> Iterator[RealBoard]:
    """Start the board (its Python may be wrapped by SCOREBOARD_BENCH_PYTHON_ARGS, e.g. "-m cProfile -o F", or by
    `wrap`), with the button box at `box`, `osc_extra` lines in `[osc]` and `env` added to its environment; stop it
    with SIGINT, as `systemctl stop` or Ctrl-C would."""
    with tempfile.TemporaryDirectory(prefix="real-board-") as tmp, virtual_display() as display:
        folder = Path(tmp)
        osc_port = free_port(socket.SOCK_DGRAM)
        web_port = free_port(socket.SOCK_STREAM) if web else None
        config = write_config(folder, osc_port, passcode, web_port, box, journal_dir, osc_extra, extra)
        env = {**os.environ, **(env or {}), "DISPLAY": display, "SDL_AUDIODRIVER": "dummy"}
        env.pop("SDL_VIDEODRIVER", None)
        wrap = wrap or os.environ.get("SCOREBOARD_BENCH_PYTHON_ARGS", "").split()
        # the board's log to a file, never an undrained pipe: a full pipe blocks the board's next log line
        log = open(folder / "board.log", "w", encoding="utf-8")   # noqa: SIM115 — closed below
        process = subprocess.Popen([sys.executable, *wrap, "-m", "scoreboard", "run", "--config", str(config)],
                                   env=env, stdout=subprocess.DEVNULL, stderr=log, text=True)
        try:
            yield RealBoard(process, osc_port, web_port, folder)
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.close()


def signed_host(board: RealBoard, passcode: str, within: float = 60.0):
    """The host's signed session on the real board (the project's client, UDP), retried until the board, still
    starting, answers; RuntimeError if it does not within `within` seconds or its process ended."""
    from scoreboard.links.osc.client import NotConnected, OscClient  # lazy: the harness's other users need no OSC
    host = OscClient("127.0.0.1", board.osc_port, passcode, auth="on", bind=("127.0.0.1", 0))
    deadline = time.monotonic() + within
    while True:
        try:
            host.connect(timeout=2.0)
            return host
        except NotConnected:
            if time.monotonic() > deadline or board.process.poll() is not None:
                host.close()
                raise RuntimeError(f"the board did not answer the host's connect in {within:g} s") from None
