"""Followers: a screen on another machine draws the board's state from OSC, with the board's clock estimated."""
import time

import pytest

from scoreboard.app.board import Board
from scoreboard.app.start import open_session
from scoreboard.app.config import default_config
from scoreboard.app.follow import ClockEstimate, Follower, parse_target
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme
from scoreboard.engine.commands import make

links = pytest.importorskip("scoreboard.links")
osc_client = pytest.importorskip("scoreboard.links.osc.client")


def test_clock_estimate_keeps_the_freshest_offset_and_resyncs_back_after_a_board_restart():
    """GIVEN revs received at local times WHEN an old rev is re-sent later THEN the offset does not go back; WHEN a
    new rev is a few ms late over the network THEN the estimate keeps the larger; WHEN a new rev puts the board's clock
    clearly behind (a restarted board continues from its journal's last event) THEN the clock re-syncs back."""
    now = [100.0]
    clock = ClockEstimate(lambda: now[0])
    clock.observe({"rev": 5, "time": 12.0})
    now[0] = 103.0
    assert clock.now() == pytest.approx(15.0)
    clock.observe({"rev": 5, "time": 12.0})     # the once-a-second re-send of the same rev says nothing new
    assert clock.now() == pytest.approx(15.0)
    clock.observe({"rev": 6, "time": 14.9})     # a fresh event a little late over the network: keep the larger
    assert clock.now() == pytest.approx(15.0)
    now[0] = 130.0                              # the board was down 25 s; it comes back paused at its last event
    clock.observe({"rev": 7, "time": 15.5})
    assert clock.now() == pytest.approx(15.5)


class SilentClient:
    """An OSC client's surface as the follower reads it: `state` is replaced by each /sg/state received."""
    question = None

    def __init__(self, snapshot):
        self.latest = (snapshot["rev"], snapshot)

    def hear(self, snapshot):
        self.latest = (snapshot["rev"], dict(snapshot))


def test_follower_says_no_link_when_the_board_is_silent_and_draws_it_again_when_back():
    """GIVEN a follower drawing a board's state WHEN no state comes for longer than the board's re-send period allows
    THEN the screen says «нет связи» over the last picture; WHEN a state arrives again (even the same rev) THEN the
    board's state is drawn without it."""
    from scoreboard.app.follow import SILENT_AFTER
    from scoreboard.session import Session
    session = Session()
    session.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9"))
    snap = session.snapshot()
    now = [50.0]
    client = SilentClient(snap)
    follower = Follower(client, Screen(ScreenSpec("audience", size=(320, 180)), load_theme("classic"), window=False),
                        clock=lambda: now[0], out=lambda *_: None)
    follower.step()
    assert not follower.silent and not follower.overlay_log
    now[0] += SILENT_AFTER + 0.1
    assert follower.step() and follower.silent
    assert [d.text for d in follower.overlay_log if d.tag == "follow:no_link"] == ["нет связи"]
    follower.overlay_log = []
    client.hear(snap)
    now[0] += 0.1
    assert follower.step() and not follower.silent and not follower.overlay_log


def test_parse_target_refuses_what_is_not_host_port():
    """GIVEN follow targets WHEN parsed THEN host:port works and anything else names the expected form."""
    assert parse_target("192.168.1.20:9000") == ("192.168.1.20", 9000)
    for bad in ("board", "board:", ":9000", "board:99999", "board:x"):
        with pytest.raises(ValueError, match="BOARD:PORT"):
            parse_target(bad)


def test_follower_draws_the_boards_state_over_real_udp(tmp_path):
    """GIVEN a board with its OSC server on loopback and a follower connected as a view session WHEN the host
    names a player and starts THEN the follower receives that rev and draws it, the name on its screen."""
    config = default_config()
    config["board"].update(journal=str(tmp_path / "g.sqlite"), sounds=False)
    config["osc"].update(bind="127.0.0.1", port=0, passcode="1234", view_passcode="0000", state_interval=0.1)
    session, _, start = open_session(config["board"], out=lambda *_: None)
    epoch = time.monotonic() - start
    inbox = links.Inbox()
    board_links = links.Links({"osc": config["osc"], "buttons": config["buttons"]}, inbox, lambda: time.monotonic() - epoch)
    board_links.start()
    theme = load_theme("classic")
    board = Board(config, session, epoch, [Screen(ScreenSpec("audience", size=(320, 180)), theme, window=False)],
                  theme, inbox, board_links, out=lambda *_: None)
    host, port = board_links.status()["osc_address"]
    client = osc_client.OscClient("127.0.0.1", port, "0000", role="view")
    try:
        client.connect(timeout=30)
        session.submit(make(board.now(), "/sg/player/name", 1, "Зоя"))
        session.submit(make(board.now(), "/sg/game/start"))   # round_intro: the score bar is on screen
        board.frame()                                        # publishes the new rev
        follower = Follower(client, Screen(ScreenSpec("audience", size=(480, 270)), theme, window=False))
        snap = client.wait_state(lambda s: s["rev"] == session.rev, timeout=20.0)
        assert snap["players"][0]["name"] == "Зоя"
        assert follower.step() and follower.rev == session.rev
        assert "Зоя" in [d.text for d in follower.screen.last_log if d.tag == "name:1"]
    finally:
        client.close()
        board_links.stop()
        session.close()
