"""Issue 11 item 6 (client side): the project's one OSC client (scoreboard/links/osc/client.py, used by the remote)
signs its commands, over real UDP on loopback against the real links OSC server and a real `Session`
(scoreboard/bench/remote_harness.py). The sniffer is a relay the client talks through: it keeps every datagram and can send from
the client's address as the board sees it (spoofing the host)."""
from __future__ import annotations

import socket
import time

import pytest

from scoreboard.bench.real_board import free_port
from scoreboard.bench.remote_harness import PASSCODE, BoardLoop, LossyRelay
from pythonosc.osc_message import OscMessage
from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.osc.client import OscClient
from scoreboard.engine.commands import make
from scoreboard.links.osc.messages import build
from scoreboard.session import Session


def wait(predicate, what: str, timeout: float = 30.0):
    """Poll a condition; the deadline only bounds a hang."""
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.005)


def new_board(**osc) -> BoardLoop:
    """The board's real side in `setup` of a new game (names can be given), with these `[osc]` keys."""
    session = Session()
    session.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9", 3, 0))
    return BoardLoop(session, osc=osc).start()


def names_applied(board: BoardLoop, name: str) -> int:
    return sum(1 for c in board.applied if c.address == "/sg/player/name" and c.args[1] == name)


def parsed(datagram: bytes) -> tuple[str, list]:
    message = OscMessage(datagram)
    return message.address, list(message.params)


@pytest.fixture
def signed_board():
    board = new_board(require_auth=True)
    relay = LossyRelay(board.address, drop=0, duplicate=0, max_delay=0, record=True)
    yield board, relay
    relay.close()
    board.stop()


def test_issue11_6_remote_client_signs_on_a_require_auth_board_and_never_sends_the_passcode(signed_board):
    """GIVEN a board with `[osc] require_auth = true` WHEN the project's client connects (auth "auto", the remote's
    default) and names a player THEN the command is applied and acked ok; on the wire the passcode never appears,
    the connect is the authenticated handshake and the command went out signed (`/sg/sig/...`)."""
    board, relay = signed_board
    client = OscClient(*relay.address, passcode=PASSCODE)
    try:
        client.connect(timeout=30)
        assert client.signed
        assert client.command("/sg/player/name", 1, "Вера", timeout=30) == (True, None)
        wait(lambda: names_applied(board, "Вера") == 1, "the name applied")
        up = [parsed(data) for direction, data in relay.seen if direction == "up"]
        assert not any(PASSCODE.encode() in data for _, data in relay.seen)
        assert [a for a, _ in up if a.startswith("/sg/auth/")][:2] == ["/sg/auth/hello", "/sg/auth/connect"]
        assert "/sg/connect" not in [a for a, _ in up]
        assert [a for a, _ in up if "player" in a] == ["/sg/sig/player/name"]
        assert board.links.osc.status()["unsigned_refused"] == 0
    finally:
        client.close()


def test_issue11_6_sniffed_signed_datagram_replayed_and_forgeries_are_refused(signed_board):
    """GIVEN the remote's client signed in on a require_auth board, and a sniffer that captured its signed
    `/sg/player/name 1 Вера` WHEN the sniffer replays it from the host's address, re-sends its arguments unsigned
    (`/sg/cmd/...`), signs a new command with a guessed key, replays it from its own address, and replays it again
    after the remote disconnected and a new remote session began at that address
    THEN the name is applied exactly once: the replay is answered as the duplicate it is, the unsigned and forged
    ones are refused and counted, the others find no session or a session they were not signed for; meanwhile the
    real remote's next command is still applied."""
    board, relay = signed_board
    client = OscClient(*relay.address, passcode=PASSCODE)
    stranger = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    stranger.bind(("127.0.0.1", 0))
    stranger.settimeout(10)
    try:
        client.connect(timeout=30)
        assert client.command("/sg/player/name", 1, "Вера", timeout=30) == (True, None)
        sniffed = next(data for direction, data in relay.seen
                       if direction == "up" and data.startswith(b"/sg/sig/player/name"))
        _, (sid, cid, *_rest) = parsed(sniffed)
        status = board.links.osc.status
        before = status()
        relay.back.sendto(sniffed, board.address)                                  # replayed by the host's address
        wait(lambda: status()["duplicates"] > before["duplicates"], "the replay answered as a duplicate")
        relay.back.sendto(build("/sg/cmd/player/name", cid + 1000, 1, "Взлом"), board.address)   # unsigned
        wait(lambda: status()["unsigned_refused"] == before["unsigned_refused"] + 1, "the unsigned copy refused")
        peer = client.peer                                                         # how the board sees the host
        guess = osc_auth.command_mac(b"guessed key" * 3, sid, cid + 2000, "/sg/player/name", peer, (1, "Взлом"))
        relay.back.sendto(build("/sg/sig/player/name", sid, cid + 2000, 1, "Взлом", guess), board.address)
        wait(lambda: status()["forged"] == before["forged"] + 1, "the forgery refused")
        stranger.sendto(sniffed, board.address)                                    # replayed from elsewhere
        assert parsed(stranger.recvfrom(65535)[0])[1][0].startswith("not connected")
        assert client.command("/sg/player/name", 2, "Борис", timeout=30) == (True, None)   # the host goes on

        client.close()                                                             # /sg/disconnect
        wait(lambda: status()["host_sessions"] == 0, "the session ended")
        relay.back.sendto(sniffed, board.address)                                  # no session at that address
        again = OscClient(*relay.address, passcode=PASSCODE)                        # same relay: same address
        try:
            again.connect(timeout=30)
            assert again.session != sid
            forged_before = status()["forged"]
            relay.back.sendto(sniffed, board.address)                              # signed for the ended session
            wait(lambda: status()["forged"] == forged_before + 1, "the old session's datagram refused")
            assert again.command("/sg/player/name", 3, "Анна", timeout=30) == (True, None)
        finally:
            again.close()
        wait(lambda: names_applied(board, "Анна") == 1, "the new session's command applied")   # acked, then listed
        assert names_applied(board, "Вера") == 1 and names_applied(board, "Взлом") == 0
        assert names_applied(board, "Борис") == 1
    finally:
        stranger.close()
        client.close()


def test_issue11_6_plain_third_party_osc_still_works_when_require_auth_is_off():
    """GIVEN a board with require_auth off (the default) WHEN a third-party controller connects with the plain
    passcode and sends a plain command, and the remote's client connects alongside THEN the plain command is applied;
    the client signs anyway (the board offers the mode) and its command is applied too."""
    board = new_board()
    controller = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    controller.bind(("127.0.0.1", 0))
    controller.settimeout(10)
    client = OscClient(*board.address, passcode=PASSCODE)
    try:
        controller.sendto(build("/sg/connect", PASSCODE, "host"), board.address)
        while parsed(controller.recvfrom(65535)[0])[0] != "/sg/connected":
            pass
        controller.sendto(build("/sg/player/name", 2, "Глеб"), board.address)
        wait(lambda: names_applied(board, "Глеб") == 1, "the plain command applied")
        client.connect(timeout=30)
        assert client.signed
        assert client.command("/sg/player/name", 3, "Дина", timeout=30) == (True, None)
        wait(lambda: names_applied(board, "Дина") == 1, "the signed command applied")   # acked before it is listed
    finally:
        client.close()
        controller.close()
        board.stop()


def test_issue11_6_a_forged_ok_ack_is_not_taken_for_the_boards(signed_board):
    """GIVEN the client signed in and a command of its waiting (the board is made not to answer: its relay drops
    everything from now on) WHEN someone sends the client an unsigned `/sg/ack id ok` from the board's address
    THEN the client does not take it: the command stays pending and the datagram is counted as ignored."""
    board, relay = signed_board
    client = OscClient(*relay.address, passcode=PASSCODE)
    try:
        client.connect(timeout=30)
        relay.drop = 1.0
        command_id = client.send("/sg/player/name", 1, "Вера")
        ignored = client.ignored
        relay.front.sendto(build("/sg/ack", command_id, "ok"), client.local_address)   # "from the board"
        wait(lambda: client.ignored > ignored, "the forged ack dropped")
        assert client.pending_count() == 1 and client.ack(command_id) is None
    finally:
        client.close()


def test_issue11_6_reconnect_keeps_the_session_and_re_signs_what_waits(signed_board):
    """GIVEN the client signed in on a require_auth board WHEN the network drops everything until the client counts
    the link lost, a command is tapped meanwhile, and the network comes back THEN the client does the handshake
    again, gets the same session (the board kept it) under a new key, and the waiting command, signed again with
    that key, is applied exactly once."""
    board, relay = signed_board
    client = OscClient(*relay.address, passcode=PASSCODE, quiet_after=0.2, lost_after=0.5)
    try:
        sid = client.connect(timeout=30)
        relay.drop = 1.0
        wait(lambda: client.state == "lost", "the link lost")
        command_id = client.send("/sg/player/name", 1, "Вера")
        hellos = sum(1 for direction, data in relay.seen if data.startswith(b"/sg/auth/hello"))
        relay.drop = 0.0
        wait(lambda: client.ack(command_id) is not None, "the waiting command acked")
        assert client.ack(command_id).ok and client.session == sid and client.signed
        assert sum(1 for direction, data in relay.seen if data.startswith(b"/sg/auth/hello")) > hellos
        wait(lambda: names_applied(board, "Вера") == 1, "the name applied")
        assert board.links.osc.status()["forged"] == 0
    finally:
        client.close()


def test_issue24_5_one_stray_not_connected_does_not_turn_the_remote_plain(signed_board):
    """Issue 24 items 5–6 (found as a flake of the test above under load): GIVEN a require_auth board behind a relay
    and the remote connecting with auth "auto" WHEN one «not connected» reaches it from the board's address before
    the board's challenge (the late answer to another datagram from that address, or a spoofer's) THEN it still
    connects signed: it goes plain only when the board answers two hellos so (a board without the mode), so it is
    never refused as «authenticated connect only», and the passcode never goes out in the clear."""
    board, relay = signed_board
    port = free_port()                                     # the client's own port, known before it starts
    client = OscClient(*relay.address, passcode=PASSCODE, bind=("127.0.0.1", port))
    seen_before, dropped = len(relay.seen), relay.counts["dropped"]
    try:
        relay.drop = 1.0                                   # the board hears nothing yet: the stray comes first
        client.connect()
        relay.front.sendto(build("/sg/denied", "not connected: send /sg/connect passcode [host|view]"),
                           ("127.0.0.1", port))
        # the hello, then what the stray made the client send at once (a hello again, or the plain connect)
        assert client.wait_for(lambda: relay.counts["dropped"] >= dropped + 2, 30)
        relay.drop = 0.0
        assert client.wait_for(lambda: client.state in ("connected", "denied"), 30)
        assert client.state == "connected", client.denied_reason
        assert client.signed
        up = [parsed(data) for direction, data in relay.seen[seen_before:] if direction == "up"]
        assert "/sg/connect" not in [a for a, _ in up]
    finally:
        relay.drop = 0.0
        client.close()


def test_hall_signed_pongs_a_forged_or_replayed_pong_does_not_hide_a_silent_board():
    """GIVEN a remote signed in to a board that re-sends its state rarely (so the keepalive's pongs are what the
    remote hears), a sniffer recording the link WHEN the board answers pings THEN its pongs are signed and keep the
    remote connected; WHEN the board then falls silent (its relay drops everything) and someone sends the remote
    pongs from the board's address — plain ones, and the sniffed signed ones played again — THEN none counts: the
    remote shows the link lost after `lost_after`, as it would with nobody forging (docs/SECURITY.md)."""
    board = new_board(require_auth=True, state_interval=60.0)
    relay = LossyRelay(board.address, drop=0, duplicate=0, max_delay=0, record=True)
    client = OscClient(*relay.address, passcode=PASSCODE, keepalive=0.1, quiet_after=0.6, lost_after=1.5)
    try:
        client.connect(timeout=30)
        signed = lambda: [data for way, data in relay.seen if way == "down" and parsed(data)[0] == "/sg/pong"
                          and len(parsed(data)[1]) == 2]
        wait(lambda: len(signed()) >= 3, "three signed pongs")
        assert client.state == "connected"
        relay.drop = 1.0
        ignored, silent_since = client.ignored, time.monotonic()
        while client.state != "lost":
            assert time.monotonic() - silent_since < 30, "the forged pongs held the link up"
            for datagram in [build("/sg/pong"), *signed()[-3:]]:
                relay.front.sendto(datagram, client.local_address)     # "from the board"
            wait(lambda: client.ignored >= ignored + 4 or client.state == "lost", "the forged pongs dropped", 10)
            ignored = client.ignored
        assert client.ignored > 0
    finally:
        client.close()
        relay.close()
        board.stop()
