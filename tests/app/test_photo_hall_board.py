"""Issue 27 item 2 end to end (BZ11): the host sends the photo finish to the hall's screens over real sockets — the
real board loop with its audience and host screens (pygame's dummy driver), the real links with OSC on loopback, the
host's OSC client and a `view` session (what `scoreboard follow` and the extra screens read) — and takes it away."""
from __future__ import annotations

import time

import pygame

from scoreboard.app.board import Board
from scoreboard.app.config import default_config
from scoreboard.app.start import open_session
from scoreboard.display import compose
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme
from scoreboard.engine.commands import make
from scoreboard.links import Inbox, Links
from scoreboard.links.osc.client import OscClient
from scoreboard.snapshot_check import check_snapshot

PASS, LOOK = "tablet", "look"


def test_issue27_bz11_the_host_sends_the_photo_finish_to_the_hall_over_osc_and_takes_it_away(tmp_path):
    """GIVEN the real board (audience and host screens), OSC on loopback, the host and a view session connected, and a
    close call (seat 1's key, seat 2's phone 6 ms later) WHEN the host sends `/sg/photo/show` THEN it is acked, the
    journal holds it, the hall's screen draws the photo finish scene with both presses, the host's screen says it is
    on the hall's screens, and the view session's state carries `photo` (the snapshot check takes it); WHEN the host sends `/sg/photo/hide` THEN the hall's screen draws the answering scene again and
    the view session's `photo` is null."""
    pygame.init()
    config = default_config()
    config["board"].update(journal=str(tmp_path / "game.sqlite"), sounds=False)
    session, _, start = open_session(config["board"], out=lambda *_: None)
    epoch = time.monotonic() - start
    inbox = Inbox()
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS, "view_passcode": LOOK}}, inbox,
                  lambda: time.monotonic() - epoch)
    theme = load_theme("classic")
    screens = [Screen(ScreenSpec("audience", size=(960, 540)), theme, window=False),
               Screen(ScreenSpec("host", size=(960, 540)), theme, window=False)]
    board = Board(config, session, epoch, screens, theme, inbox, links, out=lambda *_: None)
    links.start()
    port = links.osc.address[1]
    host = OscClient("127.0.0.1", port, PASS, bind=("127.0.0.1", 0))
    view = OscClient("127.0.0.1", port, LOOK, role="view", bind=("127.0.0.1", 0))

    def until(predicate, what, within=30.0):
        deadline = time.monotonic() + within
        while not predicate():
            assert time.monotonic() < deadline, what
            board.frame()
            time.sleep(0.002)

    def command(address, *args):
        cid = host.send(address, *args)
        until(lambda: host.ack(cid) is not None, f"{address} acked")
        assert host.ack(cid).ok, (address, host.ack(cid).reason)

    try:
        for client in (host, view):
            client.connect(timeout=30)
        for address, *args in [("/sg/player/name", 2, "Борис"), ("/sg/game/start",), ("/sg/chooser", 1),
                               ("/sg/select", 1, 1)]:
            command(address, *args)
        at = board.now()
        for seat, source, bound, later in ((1, "key", 17, 0.0), (2, "phone", 40, 0.006)):
            inbox.put(make(at + later, "/sg/button", seat, source, bound), "box")     # as the box's reader does
        until(lambda: board.snapshot["answering"] == 1 and board.session.presses_seen == 2, "the close call")
        audience, host_screen = board.screens
        assert not [d for d in audience.last_log if d.tag.startswith("photo:")]
        command("/sg/photo/show")
        until(lambda: compose.scene_name(board.snapshot) == "photo", "the hall's photo finish")
        board.draw()
        texts = {d.tag: d.text for d in audience.last_log if d.kind == "text"}
        assert texts["photo:1:name"] == "Борис" and texts["photo:1:gap"] == "+6,0 мс"
        assert texts["photo:1:device"] == "телефон ±40 мс" and texts["photo:close"].startswith("Спорно")
        assert any("на экране зала" in d.text for d in host_screen.last_log if d.tag == "host:photo:title")
        state = view.wait_state(lambda s: s.get("photo") is not None, timeout=30)
        assert check_snapshot(state) == [] and [p["seat"] for p in state["photo"]["presses"]] == [1, 2]
        assert "/sg/photo/show" in [row[0] for row in board.session.journal.db.execute("SELECT address FROM events")]
        command("/sg/photo/hide")
        until(lambda: compose.scene_name(board.snapshot) == "answering", "the game again on the hall's screen")
        board.draw()
        assert not [d for d in audience.last_log if d.tag.startswith("photo:")]
        assert view.wait_state(lambda s: "photo" in s and s["photo"] is None, timeout=30)["answering"] == 1
    finally:
        host.close()
        view.close()
        links.stop()
        for screen in screens:
            screen.close()
        session.close()

