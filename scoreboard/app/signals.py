"""SIGTERM and SIGINT (systemd stop, Ctrl-C) end the board cleanly: the frame finishes, the journal is closed and the
process exits 0 within 2 s (issue 9 item 3). Never the on-screen quit prompt, which is for the Esc key only.

Where other signals say "stop" they do the same (issue 25 item 4): SIGHUP when the terminal the board runs in is
closed (unless it was started under `nohup`, which ignores it), SIGBREAK on Windows — Ctrl-Break and closing the
console window (Windows never sends SIGTERM; Ctrl-C is SIGINT there too). Closing the board's last window is the
board's own (Board.stop)."""
from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

STOP_NAMES = ("SIGTERM", "SIGINT", "SIGHUP", "SIGBREAK")


def stop_signal_numbers(module=signal) -> tuple[int, ...]:
    """The stop signals this platform has; SIGHUP only when it is not ignored (nohup keeps a board running)."""
    found = []
    for name in STOP_NAMES:
        number = getattr(module, name, None)
        if number is None:
            continue
        if name == "SIGHUP" and module.getsignal(number) == module.SIG_IGN:
            continue
        found.append(number)
    return tuple(found)


@contextmanager
def stop_signals(handler: Callable[[int, object], None]) -> Iterator[None]:
    """`handler(signum, frame)` for every stop signal while inside; the previous handlers afterwards. Off the main
    thread (a test's board on a thread) nothing is installed: Python allows signal handlers only there."""
    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {signum: signal.signal(signum, handler) for signum in stop_signal_numbers()}
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old)


class EarlyStop:
    """A signal that arrives while the board starts is kept; once the board exists it is told at once."""

    def __init__(self):
        self.stopped = False
        self.board = None

    def __call__(self, signum=None, frame=None) -> None:
        self.stopped = True
        if self.board is not None:
            self.board.stop()
