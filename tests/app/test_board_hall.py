"""The board loop's duties to the hall (issue 9 items 3, 4): a window uncovered is drawn again; the host's screen —
and only it — shows how the remote connects (the board's address and passcode)."""
import pygame
import pytest

from scoreboard.app.board import Board
from scoreboard.app.start import open_session
from scoreboard.app.config import default_config
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme

Inbox = pytest.importorskip("scoreboard.links").Inbox


class Links:
    """The network side as the board sees it: a status with the OSC server's bound address."""
    osc, osc_error = None, None

    def publish(self, snapshot, host_question):
        self.published = snapshot

    def status(self):
        return {"buttons_online": True, "buttons_configured": False, "osc_address": ["127.0.0.1", 9123]}

    def stop(self):
        pass


@pytest.fixture
def board(tmp_path):
    config = default_config()
    config["board"].update(journal=str(tmp_path / "game.sqlite"), sounds=False)
    config["osc"].update(bind="127.0.0.1", passcode="k7pq2mzx")
    session, _, start = open_session(config["board"], out=lambda *_: None)
    theme = load_theme("classic")
    screens = [Screen(ScreenSpec("audience", size=(640, 360)), theme),
               Screen(ScreenSpec("host", size=(640, 360)), theme)]
    b = Board(config, session, 0.0, screens, theme, Inbox(), Links(), clock=lambda: 5.0, out=lambda *_: None)
    yield b
    for screen in screens:
        screen.close()
    session.close()


def texts(screen):
    return " ".join(d.text for d in screen.last_log if d.kind == "text")


def test_host_screen_shows_address_and_passcode_the_audience_never(board):
    """GIVEN a board in set-up with OSC on 127.0.0.1:9123 and a passcode WHEN a frame is drawn THEN the host screen
    says «адрес 127.0.0.1:9123, пароль k7pq2mzx»; the audience screen and the published snapshot hold no passcode."""
    board.frame()
    audience, host = board.screens
    assert "127.0.0.1:9123" in texts(host) and "k7pq2mzx" in texts(host)
    assert "k7pq2mzx" not in texts(audience)
    assert "k7pq2mzx" not in repr(board.links.published) and "k7pq2mzx" not in repr(board.status)


def test_an_exposed_window_is_drawn_again(board):
    """GIVEN an idle board that has drawn its frames (nothing changes, so nothing is redrawn)
    WHEN the system says the host's window was uncovered (WINDOWEXPOSED) THEN that window alone is drawn again."""
    board.frame()
    board.frame()
    audience, host = board.screens
    before = (audience.frames, host.frames)
    board.frame()
    assert (audience.frames, host.frames) == before
    pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED, window=host.window))
    board.frame()
    assert (audience.frames, host.frames) == (before[0], before[1] + 1)
