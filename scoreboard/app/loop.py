"""`Board.run`'s loop: commands on their own thread, drawing on the main thread (issue 11 item 9).

A flip of a 1080p window costs 15–50 ms under X (the server copies 8 MB) and a vsync'd one waits for the screen; a
command that arrived meanwhile used to wait for it, with its ack. So the board's input — drain the inbox, apply and
journal the batch (one fsync), answer every command, fire deadlines, publish the state — runs on the *input pump*
thread as soon as anything arrives, and never waits for drawing. The main thread (pygame must stay there) handles
window events and draws the latest state: at most one full redraw per frame period, whatever the number of commands
applied in it; a new state after a quiet period is drawn at once, and so is a new answering player (a press). Both share the session through `Board.lock`, which
the drawing never holds while it draws or flips.

The GIL: drawing is Python and C that holds it, the flip releases it. The board asks for a 1 ms switch interval
(default 5 ms), so a command waits at most about that for the interpreter while a frame is drawn.
"""
from __future__ import annotations

import sys
import threading
import time

SWITCH_INTERVAL = 0.001   # seconds a thread may hold the GIL while another waits (Python's default: 0.005)


class InputPump(threading.Thread):
    """The board's input turn, run whenever the inbox has something (or every frame period, for deadlines, status
    and held-back commands); wakes the drawing thread when the picture changed."""

    def __init__(self, board, period: float):
        super().__init__(name="board-input", daemon=True)
        self.board, self.period = board, period
        self.changed = threading.Event()
        self.failure: BaseException | None = None
        self._running = True

    def run(self) -> None:
        board = self.board
        try:
            while self._running:
                board.inbox.wait(board.input_timeout(self.period))
                if not self._running:
                    return
                if board.take_input():
                    self.changed.set()
        except BaseException as error:   # the loop's end: the main thread sees it and stops the board
            self.failure = error
            self.changed.set()
            raise

    def stop(self) -> None:
        self._running = False
        self.board.inbox.nudge()
        if self.is_alive():
            self.join(timeout=5)


class Loop:
    """The main thread's turns: window events, then drawing, then the rest of the frame slept (woken early when the
    input pump has a new picture). `turn()` is one of them; benches drive it as `Board.run` does."""

    def __init__(self, board, period: float):
        self.board, self.period = board, period
        self.pump = InputPump(board, period)
        self._previous_interval = sys.getswitchinterval()

    def start(self) -> "Loop":
        sys.setswitchinterval(SWITCH_INTERVAL)
        self.pump.start()
        return self

    def turn(self) -> None:
        started = time.perf_counter()
        self.pump.changed.clear()
        self.board.events()
        self.board.draw()
        if self.pump.failure is not None:
            raise RuntimeError("the board's input thread failed") from self.pump.failure
        self.pump.changed.wait(max(0.0, started + self.period - time.perf_counter()))
        # at most one full redraw per frame period: a flood of commands costs one picture a frame
        rest = self.board.full_drawn_at + self.period - time.perf_counter()
        if rest > 0 and self.board.picture_changed():
            self.pump.changed.clear()
            self.pump.changed.wait(rest)   # (a new answering player cuts the wait short: picture_changed)
            rest = self.board.full_drawn_at + self.period - time.perf_counter()
            if rest > 0 and self.board.picture_changed():
                time.sleep(rest)

    def stop(self) -> None:
        self.pump.stop()
        sys.setswitchinterval(self._previous_interval)
