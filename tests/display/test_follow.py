"""Followers: a screen on another machine draws the board's state from OSC, with the board's clock estimated."""
import time

import pytest

from scoreboard.display.board import Board, open_session
from scoreboard.display.config import default_config
from scoreboard.display.follow import ClockEstimate, Follower, parse_target
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme import load_theme
from scoreboard.engine.commands import make

links = pytest.importorskip("scoreboard.links")
osc_client = pytest.importorskip("scoreboard.links.osc_client")


def test_clock_estimate_keeps_the_freshest_offset():
    """GIVEN revs received at local times WHEN an old rev is re-sent later THEN the offset does not go back."""
    now = [100.0]
    clock = ClockEstimate(lambda: now[0])
    clock.observe({"rev": 5, "time": 12.0})
    now[0] = 103.0
    assert clock.now() == pytest.approx(15.0)
    clock.observe({"rev": 5, "time": 12.0})     # the once-a-second re-send of the same rev says nothing new
    assert clock.now() == pytest.approx(15.0)
    clock.observe({"rev": 6, "time": 14.9})     # a fresh event a little late over the network: keep the larger
    assert clock.now() == pytest.approx(15.0)


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
        client.connect()
        session.submit(make(board.now(), "/sg/player/name", 1, "Зоя"))
        session.submit(make(board.now(), "/sg/game/start"))   # round_intro: the score bar is on screen
        board.frame()                                        # publishes the new rev
        follower = Follower(client, Screen(ScreenSpec("audience", size=(480, 270)), theme, window=False))
        snap = client.wait_state(lambda s: s["rev"] == session.rev, timeout=3.0)
        assert snap["players"][0]["name"] == "Зоя"
        assert follower.step() and follower.rev == session.rev
        assert "Зоя" in [d.text for d in follower.screen.last_log if d.tag == "name:1"]
    finally:
        client.close()
        board_links.stop()
        session.close()
