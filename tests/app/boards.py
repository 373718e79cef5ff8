"""One test board for the board-loop tests (test_board, test_board_timing): a real Session on a real SQLite journal,
the links' real Inbox, offscreen screens, a clock the test moves, and links that only record what is published."""
from __future__ import annotations

from scoreboard.app.board import Board
from scoreboard.app.start import open_session
from scoreboard.app.config import default_config
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme


class FakeLinks:
    """The network side stands in: publish recorded as (snapshot, host_question); `grace` is the event box's
    `buttons.grace` (0: no box, nothing waits)."""

    def __init__(self, grace: float = 0.0):
        self.deadline_grace = grace
        self.published = []
        self.osc, self.osc_error = None, None   # OSC listening as far as the board can tell

    def publish(self, snapshot, host_question):
        self.published.append((snapshot, host_question))

    def status(self):
        return {"buttons_online": True}

    def stop(self):
        pass


class FakeClock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def make_board(journal, *, grace: float = 0.0, screens=(("audience", (480, 270)), ("host", (480, 270))),
               **board_options) -> Board:
    """A board on `journal`; `board.fake_clock.t` moves its clock. The caller closes `board.session`."""
    from scoreboard.links import Inbox
    config = default_config()
    config["board"].update(journal=str(journal), sounds=False, **board_options)
    clock = FakeClock()
    session, _, start = open_session(config["board"], out=lambda *_: None)
    theme = load_theme("classic")
    shown = [Screen(ScreenSpec(role, size=size), theme, window=False) for role, size in screens]
    b = Board(config, session, clock.t - start, shown, theme, Inbox(), FakeLinks(grace), clock=clock,
              out=lambda *_: None)
    b.fake_clock = clock
    return b
