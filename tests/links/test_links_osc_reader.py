"""The OSC client's reader survives its protocol (issue 23; model: pyserial's `serial.threaded.ReaderThread`): whatever
the client's own code raises on the reader's thread ends the reader and comes back as "connection lost" — a callback,
the `lost` state with its reason, an event — never a client that still says "connected". PROTOCOL.md §2, on real
UDP sockets on loopback against the board's real OSC server."""
from __future__ import annotations

import queue
import threading
import time

import pytest

from linkhelp import wait_until
from scoreboard.links import Inbox, Links
from scoreboard.links.osc import client_rx
from scoreboard.links.osc.client import OscClient
from scoreboard.links.osc.messages import Event
from scoreboard.session import Session

PASS = "s3cret"


@pytest.fixture
def osc_links():
    """The board's OSC server on loopback, pushing a real (empty) game's state every 0.2 s."""
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS, "state_interval": 0.2}}, Inbox(),
                  time.monotonic)
    links.start()
    links.publish(Session().snapshot(), None)
    yield links
    links.stop()


@pytest.fixture
def broken_check(monkeypatch):
    """The snapshot check the client runs on its reader thread for every state, made to raise (as a bug would) while
    the returned event is set."""
    armed = threading.Event()
    real = client_rx.check_snapshot

    def check(snapshot):
        if armed.is_set():
            raise KeyError("a bug in the snapshot check")
        return real(snapshot)
    monkeypatch.setattr(client_rx, "check_snapshot", check)
    return armed


def events_of(client: OscClient) -> list[Event]:
    found = []
    while True:
        try:
            found.append(client.events.get_nowait())
        except queue.Empty:
            return found


def test_proto2_a_handler_that_raises_ends_the_reader_and_the_client_says_lost(osc_links, broken_check):
    """GIVEN a client connected to the board WHEN a handler raises on its reader thread (the state's check, at the
    board's next push) THEN `on_connection_lost` gets the error, the client says `lost` and not connected with the
    reason, and its events say so; it does not pretend to reconnect by itself. WHEN its owner connects again THEN a
    new reader opens a session and the client is connected, with no reason left."""
    lost: list[BaseException] = []
    client = OscClient("127.0.0.1", osc_links.osc.address[1], PASS, on_connection_lost=lost.append)
    try:
        client.connect(timeout=30)
        assert client.connected and client.state in ("connected", "retrying") and client.lost_reason == ""
        assert client.wait_state(lambda snapshot: True, timeout=30)
        events_of(client)

        broken_check.set()
        assert wait_until(lambda: lost, 30)
        assert isinstance(lost[0], KeyError)
        assert client.state == "lost" and not client.connected
        assert client.lost_reason == "KeyError: 'a bug in the snapshot check'"
        assert Event("connection", "lost", client.lost_reason) in events_of(client)
        time.sleep(0.5)                     # two more pushes: nothing brings a dead reader back by itself
        assert client.state == "lost" and not client.connected

        broken_check.clear()
        assert client.connect(timeout=30) is not None
        assert client.connected and client.lost_reason == ""
        assert client.wait_state(lambda snapshot: True, timeout=30)
    finally:
        client.close()
    assert client.state == "idle" and client.lost_reason == ""


def test_proto2_a_timer_turn_that_raises_is_reported_as_lost_too(osc_links, monkeypatch):
    """GIVEN a connected client WHEN its timer turn (re-sends, keep-alive) raises on the reader thread THEN the reader
    ends and the client says `lost` with the reason, as for a datagram's handler."""
    client = OscClient("127.0.0.1", osc_links.osc.address[1], PASS)
    try:
        client.connect(timeout=30)
        real, armed = OscClient.due, threading.Event()

        def due(self):
            if armed.is_set():
                raise RuntimeError("a bug in the retry clock")
            return real(self)
        monkeypatch.setattr(OscClient, "due", due)
        armed.set()
        assert wait_until(lambda: client.state == "lost", 30)
        assert not client.connected and client.lost_reason == "RuntimeError: a bug in the retry clock"
    finally:
        client.close()
