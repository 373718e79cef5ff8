"""SIGTERM and SIGINT (systemd stop, Ctrl-C) end the board cleanly: the frame finishes, the journal is closed and the
process exits 0 within 2 s (issue 9 item 3). Never the on-screen quit prompt, which is for the Esc key only."""
from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


@contextmanager
def stop_signals(handler: Callable[[int, object], None]) -> Iterator[None]:
    """`handler(signum, frame)` for SIGTERM and SIGINT while inside; the previous handlers afterwards. Off the main
    thread (a test's board on a thread) nothing is installed: Python allows signal handlers only there."""
    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {signum: signal.signal(signum, handler) for signum in STOP_SIGNALS}
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
