"""Issue 27 item 1: the Python remote's «Протокол» at game over, and the board's answer taken only when it is a link
on the board itself."""
from __future__ import annotations

import queue

import pytest

from host_remote.actions import TOOLS, allowed_actions, find
from scoreboard.links.osc.client import OscClient

from remote_board_double import BoardDouble, build
from remote_snapshots import base


@pytest.fixture
def board():
    double = BoardDouble()
    yield double
    double.close()


def test_item1_game_over_offers_the_protocol():
    """GIVEN game over WHEN the remote lists its actions THEN «Протокол» is a tool sending /sg/protocol; during play
    it is not offered."""
    action = find(allowed_actions(base("game_over", game_over=True, winner=2)), "protocol")
    assert action is not None and action.group == TOOLS and action.command() == ("/sg/protocol", ())
    assert find(allowed_actions(base("choosing")), "protocol") is None


def test_item1_the_protocol_link_is_taken_only_as_a_path_on_the_board(board):
    """GIVEN a connected remote WHEN the board's port sends `/sg/protocol/link` with a path elsewhere, a bad port, then
    the shelf's path THEN only the last becomes the remote's «protocol» event (nothing else is ever opened)."""
    client = OscClient("127.0.0.1", board.address[1], passcode="1234")
    client.connect()
    try:
        assert client.wait_for(lambda: client.state == "connected", 30)
        token = "A" * 32
        for args in (("http://evil.example/protocol/" + token, 8080), ("/protocol/../../etc", 8080),
                     ("/protocol/" + token, 0), ("/protocol/" + token, 8080)):
            board.sock.sendto(build("/sg/protocol/link", *args), client.local_address)
        seen = []
        while not seen:
            event = client.events.get(timeout=30)
            if event.kind == "protocol":
                seen.append(event.value)
        assert seen == [("/protocol/" + token, 8080)]
        with pytest.raises(queue.Empty):
            while True:
                event = client.events.get_nowait()
                assert event.kind != "protocol", event
    finally:
        client.close()
