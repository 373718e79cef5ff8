"""Headless pygame for the tests that draw (display, app, demo, bench): SDL's dummy video and audio drivers, set
before pygame starts, pygame initialised for the session, and the fixtures they share. A directory's conftest takes
them with `from tests.headless import *`."""
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from functools import cache  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from scoreboard.demo.game import play  # noqa: E402
from scoreboard.demo.simulated import Director  # noqa: E402
from scoreboard.session import Session  # noqa: E402

REGULATIONS = ("novosibirsk-2007", "america-2005", "samara-2003")

__all__ = ["REGULATIONS", "_pygame", "games", "board_factory"]


@pytest.fixture(scope="session", autouse=True)
def _pygame():
    pygame.init()
    yield
    pygame.quit()


@cache
def demo_games() -> dict:
    """Played once a process, whichever directory asks first."""
    out = {}
    for regulation in REGULATIONS:
        session = Session()
        frames = []
        play(session, Director(regulation), lambda at, snap, step: frames.append((snap, session.host_question(), at)))
        out[regulation] = frames
    return out


@pytest.fixture(scope="session")
def games():
    """For each regulation: every (snapshot, host_question, engine time) of a whole simulated game on a real Session."""
    return demo_games()


@pytest.fixture
def board_factory(tmp_path):
    """make(grace=…, screens=…, **[board] options) → a test board (tests/app/boards.py); sessions closed after."""
    from tests.app.boards import make_board
    pygame.init()       # again: a test elsewhere in this process may have quit pygame (idempotent when it is up)
    made = []

    def make(**options):
        made.append(make_board(tmp_path / f"game{len(made)}.sqlite", **options))
        return made[-1]
    yield make
    for b in made:
        b.session.close()
