"""The remote's OSC client against a board double on 127.0.0.1 (real UDP sockets).

These pin the client's own behaviour; the fault test (test_relay_faults.py) runs it against the real board server.
"""
import json
import socket
import time

import pytest

from scoreboard.links.osc.client import OscClient, build_message, cmd_address

from remote_board_double import BoardDouble, build


@pytest.fixture
def board():
    double = BoardDouble()
    yield double
    double.close()


class JumpClock:
    """Monotonic time plus `jump` seconds: the test moves the client's clock on, the client thread reads it."""

    def __init__(self):
        self.jump = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.jump


def connected_client(board, **kwargs):
    client = OscClient("127.0.0.1", board.address[1], passcode="1234", **kwargs)
    client.connect()
    assert client.wait_for(lambda: client.state == "connected" and client.snapshot is not None, 30)
    return client


def test_connect_gets_session_state_and_host_question(board):
    """Issue 11 item 6: GIVEN a board with passcode 1234 that does not know the authenticated mode (it answers the
    hello «not connected», as boards before it did) WHEN the remote connects with auth "auto"
    THEN it asked for the signed handshake first, fell back to the plain connect, and has a session, the board's
    state (rev) and the host question; its commands are unsigned."""
    client = connected_client(board)
    try:
        assert client.session == "s1" and not client.signed
        assert client.rev == 0 and client.snapshot["phase"] == "choosing"
        assert client.wait_for(lambda: client.question == {"text": "Q", "answer": "A"}, 30)
        assert board.received[0] == ("/sg/auth/hello", [])
        assert next(r for r in board.received if r[0] != "/sg/auth/hello") == ("/sg/connect", ["1234", "host"])
    finally:
        client.close()


def test_auth_on_never_sends_the_passcode_to_a_board_without_the_mode(board):
    """Issue 11 item 6: GIVEN the same board WHEN the remote connects with auth "on" THEN it keeps asking for the
    handshake and stays connecting: the passcode never goes out in the clear."""
    client = OscClient("127.0.0.1", board.address[1], passcode="1234", auth="on")
    try:
        client.connect()
        assert client.wait_for(lambda: sum(r[0] == "/sg/auth/hello" for r in board.received) >= 3, 30)
        assert client.state == "connecting"
        assert not any(r[0] == "/sg/connect" or "1234" in r[1] for r in board.received)
    finally:
        client.close()


def test_wrong_passcode_is_denied_with_reason(board):
    """GIVEN a wrong passcode WHEN the remote connects THEN it is denied, with the board's reason, and stops asking."""
    client = OscClient("127.0.0.1", board.address[1], passcode="nope")
    client.connect()
    try:
        assert client.wait_for(lambda: client.state == "denied", 30)
        assert client.denied_reason == "wrong passcode"
        asked = sum(1 for address, _ in board.received if address == "/sg/connect")
        client.wait_for(lambda: False, 0.3)
        assert sum(1 for address, _ in board.received if address == "/sg/connect") == asked
    finally:
        client.close()


def test_command_uses_exactly_once_form_and_is_acked(board):
    """GIVEN a connected remote WHEN it sends /sg/score/adjust 2 30
    THEN the board gets /sg/cmd/score/adjust id 2 30, applies it, and the client records the ok ack and new rev."""
    client = connected_client(board)
    try:
        command_id = client.send("/sg/score/adjust", 2, 30)
        assert client.wait_for(lambda: client.last_ack is not None and client.rev == 1, 30)
        assert ("/sg/cmd/score/adjust", [command_id, 2, 30]) in board.received
        assert client.last_ack.ok and client.last_ack.id == command_id
        assert client.snapshot["players"][1]["score"] == 30
        assert client.pending_count() == 0
    finally:
        client.close()


def test_refused_command_reports_the_reason(board):
    """GIVEN a connected remote WHEN the board refuses a command THEN the last ack says error and carries the reason."""
    client = connected_client(board)
    try:
        client.send("/sg/judge/right")
        assert client.wait_for(lambda: client.last_ack is not None, 30)
        assert not client.last_ack.ok
        assert "does not fit now" in client.last_ack.reason
        assert "refused" in client.last_ack.describe()
    finally:
        client.close()


def test_lost_copies_are_retried_with_backoff_and_applied_once(board):
    """GIVEN a board that ignores the first 3 copies of every command WHEN the remote sends one
    THEN the client re-sends until acked, the board applies it once, and the ack counts the attempts."""
    board.drop_first = 3
    client = connected_client(board)
    try:
        client.send("/sg/score/adjust", 1, 10)
        assert client.wait_for(lambda: client.last_ack is not None, 30)
        assert client.last_ack.attempts >= 4
        assert board.scores[1] == 10
        # Backoff: 4 copies took at least 0.05 + 0.1 + 0.2 (minus jitter) seconds.
        assert client.last_ack.acked_at - client.last_ack.sent_at >= 0.25
    finally:
        client.close()


def test_older_state_after_a_newer_one_is_ignored(board):
    """GIVEN the remote shows rev 5 WHEN a reordered rev 3 arrives THEN it keeps rev 5's snapshot."""
    client = connected_client(board)
    try:
        sender = client.local_address
        board.send_state(sender, rev=5, snapshot={"phase": "reveal", "rev": 5, "players": []})
        assert client.wait_for(lambda: client.rev == 5, 30)
        board.send_state(sender, rev=3, snapshot={"phase": "reading", "rev": 3, "players": []})
        board.send_state(sender, rev=5, snapshot={"phase": "reveal", "rev": 5, "players": []})
        client.wait_for(lambda: False, 0.1)
        assert client.rev == 5 and client.snapshot["phase"] == "reveal"
    finally:
        client.close()


def test_datagrams_from_strangers_and_garbage_are_ignored(board):
    """GIVEN a connected remote WHEN a stranger sends it a state and the board's port sends garbage
    THEN neither changes what the remote shows, and both are counted."""
    client = connected_client(board)
    stranger = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        stranger.sendto(build("/sg/state", 99, json.dumps({"phase": "game_over"})), client.local_address)
        board.sock.sendto(b"\x00garbage", client.local_address)
        board.sock.sendto(build("/sg/state", 100, "{not json"), client.local_address)
        assert client.wait_for(lambda: client.ignored >= 3, 30)
        assert client.rev == 0 and client.snapshot["phase"] == "choosing"
    finally:
        stranger.close()
        client.close()


def test_silent_board_goes_retrying_then_lost_then_reconnects(board):
    """GIVEN a connected remote WHEN the board falls silent THEN the state goes retrying, then lost;
    WHEN the board answers again THEN the client reconnects by itself."""
    # The client's clock is the real one plus a jump the test makes: "retrying" after 0.2 s of real silence, "lost"
    # only when the test moves the clock past lost_after (a loaded machine cannot skip the retrying state).
    clock = JumpClock()
    client = connected_client(board, quiet_after=0.2, lost_after=30.0, clock=clock)
    try:
        board.silent = True
        assert client.wait_for(lambda: client.state == "retrying", 30)
        clock.jump += 30.0
        assert client.wait_for(lambda: client.state == "lost", 30)
        board.silent = False
        assert client.wait_for(lambda: client.state == "connected", 30)
        assert client.session == "s1"    # the same address keeps its session on this board
    finally:
        client.close()


def test_new_session_reports_pending_commands_unknown_instead_of_resending(board):
    """GIVEN a command the board never acked WHEN the link is lost and the reconnect gets a NEW session
    THEN the command is reported as unknown (it may have been applied) and never re-sent under the new session."""
    client = connected_client(board, quiet_after=0.2, lost_after=0.4)
    try:
        board.silent = True
        command_id = client.send("/sg/score/adjust", 3, 50)
        assert client.wait_for(lambda: client.state == "lost", 30)
        board.forget_sessions()
        board.silent = False
        assert client.wait_for(lambda: client.session == "s2", 30)
        events = []
        while not client.events.empty():
            events.append(client.events.get())
        assert any(e.kind == "unknown" and e.value == command_id for e in events)
        assert client.pending_count() == 0
        client.wait_for(lambda: False, 0.2)
        assert board.scores[3] == 0
    finally:
        client.close()


def test_commands_queued_before_connecting_go_out_once_connected(board):
    """GIVEN a command sent while still connecting WHEN the session opens THEN it is delivered and applied once."""
    client = OscClient("127.0.0.1", board.address[1], passcode="1234")
    try:
        client.send("/sg/score/adjust", 2, 20)
        client.connect()
        assert client.wait_for(lambda: client.last_ack is not None and client.last_ack.ok, 30)
        assert board.scores[2] == 20
    finally:
        client.close()


def test_addresses_and_arguments_are_checked_before_sending():
    """GIVEN malformed commands WHEN they are built THEN a ValueError names the problem; nothing is sent."""
    assert cmd_address("/sg/judge/right") == "/sg/cmd/judge/right"
    with pytest.raises(ValueError, match="not a plain"):
        cmd_address("/other/thing")
    with pytest.raises(ValueError, match="not a plain"):
        cmd_address("/sg/cmd/undo")
    with pytest.raises(ValueError, match="not an int"):
        build_message("/sg/score/adjust", (1, [2]))
    with pytest.raises(ValueError, match="role"):
        OscClient("127.0.0.1", 9, role="admin")


def test_malformed_state_is_refused_and_reported(board):
    """GIVEN a connected remote WHEN the board's port sends a state whose players field is not a list
    THEN the remote keeps the last good state and reports the problem naming the field."""
    client = connected_client(board)
    try:
        board.send_state(client.local_address, rev=7, snapshot={"phase": "reveal", "players": "x"})
        assert client.wait_for(lambda: client.ignored >= 1, 30)
        assert client.rev == 0 and client.snapshot["phase"] == "choosing"
        errors = []
        while not client.events.empty():
            event = client.events.get()
            if event.kind == "error":
                errors.append(event.value)
        assert errors and errors[0][0] == "/sg/state" and "players" in errors[0][1]
    finally:
        client.close()
