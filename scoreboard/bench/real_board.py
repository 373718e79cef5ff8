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


# Numbers for boards in other processes come from a block of this process's own, below the kernel's ephemeral
# range: a number the kernel hands to bind(0) or to an outgoing connection (of a parallel test worker, a bench)
# could be taken between free_port() and the board's bind; one of these is never handed out that way.
_LOWEST, _BLOCK = 10_000, 2_000


def _blocks() -> int:
    try:
        ephemeral = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):     # not Linux: IANA's dynamic range starts at 49152
        ephemeral = 49_152
    return max(1, (min(ephemeral, 65_536) - _LOWEST) // _BLOCK)


def _own_numbers() -> Iterator[int]:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")          # gw0, gw1, …: one block a worker
    block = int(worker[2:]) if worker[2:].isdigit() else os.getpid()
    start = _LOWEST + block % _blocks() * _BLOCK
    offset = os.getpid() % _BLOCK              # a restarted process does not begin on its predecessor's numbers
    while True:
        offset = (offset + 1) % _BLOCK
        yield start + offset


_numbers = _own_numbers()


def _free_for_both(port: int) -> bool:
    for kind in (socket.SOCK_DGRAM, socket.SOCK_STREAM):
        with socket.socket(socket.AF_INET, kind) as probe:
            if kind == socket.SOCK_STREAM:       # as the board's listeners bind: a closed one's TIME_WAIT is no owner
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                return False
    return True


def free_port(kind: int = socket.SOCK_DGRAM) -> int:
    """A number on loopback free for UDP and TCP both (a board listens on both with one number), for a board in
    another process to bind (`kind` is kept for the callers that name one)."""
    for _ in range(_BLOCK):
        port = next(_numbers)
        if _free_for_both(port):
            return port
    raise OSError(f"no free port among this process's {_BLOCK} numbers")


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
            stop(process, 15)
            log.close()


def stop(process: subprocess.Popen, within: float = 60.0) -> None:
    """Stop a board (or the remote) as Ctrl-C or `systemctl stop` would; killed if it has not ended `within` s."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=within)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


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
