"""The remote when its client's reader dies (issue 23): the screen shows a lost link as it shows a board that went
away — «нет связи» in the lost colour — with the reason in the status line; never «на связи» over a dead reader."""
import threading

from host_remote.app import RemoteApp
from host_remote.ui import widgets as w
from host_remote.ui.control_screen import STATE_LABELS
from scoreboard.links.osc import client_rx
from scoreboard.links.osc.client import OscClient

from remote_board_double import BoardDouble


def test_a_reader_that_died_shows_no_link_with_the_reason(pygame_display, monkeypatch):
    """GIVEN the app on the play screen, connected over loopback UDP WHEN a handler raises on the client's reader
    thread (the check of the board's next state) THEN the client is not connected, the play screen's link reads
    «нет связи» in the lost colour, as for a board gone silent, and the status line says why."""
    armed = threading.Event()
    real = client_rx.check_snapshot

    def check(snapshot):
        if armed.is_set():
            raise KeyError("a bug in the snapshot check")
        return real(snapshot)
    monkeypatch.setattr(client_rx, "check_snapshot", check)
    board = BoardDouble()
    app = RemoteApp(auth="off")
    try:
        app.connect("127.0.0.1", board.address[1], "1234")

        def on_play_screen():
            app.pump()
            return app.control is not None and app.control.snapshot is not None \
                and app.control.connection == "connected"
        assert app.client.wait_for(on_play_screen, 30)

        armed.set()
        board.send_state(app.client.local_address)

        def shown_lost():
            app.pump()
            return app.control.connection == "lost"
        assert app.client.wait_for(shown_lost, 30)
        assert not app.client.connected
        assert STATE_LABELS[app.control.connection] == "нет связи"
        assert w.STATE_COLOURS[app.control.connection] == w.STATE_COLOURS["lost"]
        assert app.control.last_ack == "нет связи: KeyError: 'a bug in the snapshot check'"
        assert app.control.last_ack_ok is False
        app.render()                        # the play screen draws the lost link without error
    finally:
        app.close()
        board.close()


def test_a_reader_that_dies_while_connecting_says_so_on_the_connect_screen(pygame_display, monkeypatch):
    """GIVEN the connect screen WHEN the client's reader dies on the board's first answer (its handler raises) THEN the
    connect screen says the link to the board was lost, with the reason, instead of waiting for an answer."""
    def broken(self, address, *args):
        raise ValueError("a bug in the connect answer")
    monkeypatch.setattr(OscClient, "_on_connected", broken)
    board = BoardDouble()
    app = RemoteApp(auth="off")
    try:
        app.connect("127.0.0.1", board.address[1], "1234")

        def told():
            app.pump()
            return app.connect_screen.message_bad
        assert app.client.wait_for(told, 30)
        assert app.control is None and app.client.state == "lost"
        assert app.connect_screen.message == "Связь с табло потеряна: ValueError: a bug in the connect answer"
    finally:
        app.close()
        board.close()
