"""The authenticated OSC mode (osc/auth.py, docs/LINKS.md): the passcode is proven, never sent; every command is
signed with the session's key, so a datagram sniffed on the venue's Wi-Fi can be neither forged nor replayed."""
import pytest

from linkhelp import RawPeer, of, wait_until
from scoreboard.links.osc import auth as osc_auth
from test_links_osc import PASS, osc_board  # noqa: F401  (the fixture)


def auth_connect(peer: RawPeer, passcode=PASS, role="host"):
    """The client's side of the handshake; returns (sid, key) or the denial."""
    peer.send("/sg/auth/hello")
    got = peer.receive(10.0, until=lambda m: of(m, "/sg/auth/challenge"))
    bnonce, seen_as, salt, _ = of(got, "/sg/auth/challenge")[0]
    cnonce, secret = osc_auth.new_nonce(), osc_auth.stretch(passcode, bytes.fromhex(salt))
    peer.send("/sg/auth/connect", role, bnonce, cnonce, osc_auth.connect_proof(secret, role, bnonce, cnonce, seen_as),
              salt)
    got = peer.receive(10.0, until=lambda m: of(m, "/sg/connected") or of(m, "/sg/denied"))
    if of(got, "/sg/denied"):
        return of(got, "/sg/denied")[0][0]
    sid, snonce = of(got, "/sg/connected")[0][:2]
    return sid, osc_auth.session_key(secret, sid, snonce, cnonce), seen_as


def signed(peer, sid, key, seen_as, cid, address, *args):
    mac = osc_auth.command_mac(key, sid, cid, address, seen_as, args)
    peer.send("/sg/sig/" + address[4:], sid, cid, *args, mac)


def test_proto2_signed_command_applied_once_and_its_ack_signed(osc_board):
    """GIVEN a host connected by the authenticated handshake WHEN it sends a signed command twice
    (the second after the first ack) THEN it is applied once, and both acks carry the session's MAC over the answer."""
    links, board = osc_board
    peer = RawPeer(("127.0.0.1", links.osc.address[1]))
    try:
        sid, key, seen_as = auth_connect(peer)
        signed(peer, sid, key, seen_as, 5, "/sg/player/name", 1, "Вера")
        got = peer.receive(10.0, until=lambda m: of(m, "/sg/ack"))
        signed(peer, sid, key, seen_as, 5, "/sg/player/name", 1, "Вера")          # a retry after the ack
        got += peer.receive(10.0, until=lambda m: of(m, "/sg/ack"))
        assert [a[:2] for a in of(got, "/sg/ack")] == [[5, "ok"], [5, "ok"]]
        assert all(osc_auth.same(a[2], osc_auth.ack_mac(key, sid, 5, True, "")) for a in of(got, "/sg/ack"))
        assert wait_until(lambda: sum(c.address == "/sg/player/name" for c in board.applied) == 1)
    finally:
        peer.close()


def test_proto2_forged_altered_and_replayed_signed_datagrams_are_refused(osc_board):
    """GIVEN a signed session WHEN a sniffer alters a signed datagram's argument, signs with a guessed key, or
    replays the datagram after the session ended and a new one began THEN none is applied; the wrong passcode's
    proof is denied."""
    links, board = osc_board
    peer = RawPeer(("127.0.0.1", links.osc.address[1]))
    try:
        assert auth_connect(RawPeer(("127.0.0.1", links.osc.address[1])), passcode="guess") == "wrong passcode"
        sid, key, seen_as = auth_connect(peer)
        mac = osc_auth.command_mac(key, sid, 7, "/sg/player/name", seen_as, (1, "Вера"))
        peer.send("/sg/sig/player/name", sid, 7, 1, "Взлом", mac)                        # altered
        bad = osc_auth.command_mac(b"0" * 32, sid, 8, "/sg/player/name", seen_as, (1, "Взлом"))
        peer.send("/sg/sig/player/name", sid, 8, 1, "Взлом", bad)                         # forged
        got = peer.receive(10.0, until=lambda m: len(of(m, "/sg/error")) == 2)
        assert [e[:2] for e in of(got, "/sg/error")] == [["/sg/player/name", "bad signature"]] * 2
        peer.send("/sg/sig/disconnect", sid, 9, osc_auth.command_mac(key, sid, 9, "/sg/disconnect", seen_as, ()))
        again = auth_connect(peer)
        assert isinstance(again, tuple), again
        sid2 = again[0]
        assert sid2 != sid
        peer.send("/sg/sig/player/name", sid, 7, 1, "Вера", mac)                          # replay, old session
        got = peer.receive(10.0, until=lambda m: of(m, "/sg/error"))
        assert [e[:2] for e in of(got, "/sg/error")] == [["/sg/player/name", "bad signature"]]
        assert not any(c.address == "/sg/player/name" for c in board.applied)
        assert links.osc.status()["forged"] == 3
    finally:
        peer.close()


def test_proto2_require_auth_refuses_plain_host_connects():
    """GIVEN `[osc] require_auth = true` WHEN a host connects with the plain passcode THEN it is denied and told
    to use the authenticated connect; a view session may still connect plainly; the signed handshake works."""
    import time
    from scoreboard.links import Inbox
    from scoreboard.links.config import resolve
    from scoreboard.links.osc.server import OscServer
    server = OscServer(resolve({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS, "view_passcode": "look",
                                        "require_auth": True}})["osc"], Inbox(), time.monotonic)
    server.start()
    host, viewer = RawPeer(("127.0.0.1", server.address[1])), RawPeer(("127.0.0.1", server.address[1]))
    try:
        host.send("/sg/connect", PASS, "host")
        got = host.receive(10.0, until=lambda m: of(m, "/sg/denied"))
        assert of(got, "/sg/denied")[0][0].startswith("this board takes the authenticated connect only")
        viewer.send("/sg/connect", "look", "view")
        assert of(viewer.receive(10.0, until=lambda m: of(m, "/sg/connected")), "/sg/connected")
        assert isinstance(auth_connect(host), tuple)
    finally:
        host.close()
        viewer.close()
        server.stop()


def test_proto2_a_challenge_is_fresh_at_once_and_stale_after_its_time():
    """GIVEN the board's stateless challenge (stamped to the millisecond) WHEN it is checked a hair after it was
    issued (its stamp rounded up past the clock), after 31 s, or for another peer THEN fresh, stale, foreign."""
    now = [100.0006]
    challenger = osc_auth.Challenger(lambda: now[0])
    bnonce = challenger.issue("127.0.0.1:5000")              # stamped "100.001": later than the clock
    now[0] = 100.0007
    assert challenger.fresh(bnonce, "127.0.0.1:5000")
    assert not challenger.fresh(bnonce, "127.0.0.1:5001")
    now[0] += 31
    assert not challenger.fresh(bnonce, "127.0.0.1:5000")


def test_proto2_a_signed_sessions_address_takes_no_unsigned_command(osc_board):
    """GIVEN a host connected by the authenticated handshake on a board that does not require it
    WHEN datagrams from its address (a spoofed source, a sniffed WebSocket token) carry unsigned commands, with and
    without an id THEN neither is applied, each is refused and counted; the read-only set-up catalogue request still
    goes plain, and the session's signed commands still work."""
    links, board = osc_board
    peer = RawPeer(("127.0.0.1", links.osc.address[1]))
    try:
        sid, key, seen_as = auth_connect(peer)
        peer.send("/sg/cmd/player/name", 3, 1, "Взлом")
        peer.send("/sg/player/name", 1, "Взлом")
        got = peer.receive(10.0, until=lambda m: len(of(m, "/sg/error")) == 2)
        assert [e[0] for e in of(got, "/sg/error")] == ["/sg/cmd/player/name", "/sg/player/name"]
        assert all("signed commands only" in e[1] for e in of(got, "/sg/error"))
        assert links.osc.status()["unsigned_refused"] == 2
        signed(peer, sid, key, seen_as, 4, "/sg/player/name", 1, "Вера")
        assert wait_until(lambda: [c.args for c in board.applied if c.address == "/sg/player/name"] == [(1, "Вера")])
    finally:
        peer.close()


def test_proto2_a_retried_auth_connect_keeps_the_key_and_a_new_handshake_re_keys(osc_board):
    """GIVEN a host's authenticated connect WHEN the same `/sg/auth/connect` arrives twice (its answer was lost and
    the client retried) THEN both answers carry the same session and snonce, so the client's key stays the board's;
    WHEN the client does a new handshake (a new cnonce) THEN the session is re-keyed: a command signed with the old
    key is refused as forged, one signed with the new key is applied."""
    links, board = osc_board
    peer = RawPeer(("127.0.0.1", links.osc.address[1]))
    try:
        peer.send("/sg/auth/hello")
        bnonce, seen_as, salt, _ = of(peer.receive(10.0, until=lambda m: of(m, "/sg/auth/challenge")),
                                      "/sg/auth/challenge")[0]
        cnonce, secret = osc_auth.new_nonce(), osc_auth.stretch(PASS, bytes.fromhex(salt))
        proof = osc_auth.connect_proof(secret, "host", bnonce, cnonce, seen_as)
        answers = []
        for _ in range(2):
            peer.send("/sg/auth/connect", "host", bnonce, cnonce, proof, salt)
            answers += of(peer.receive(10.0, until=lambda m: of(m, "/sg/connected")), "/sg/connected")
        assert answers[0] == answers[1]
        sid, snonce = answers[0][:2]
        old_key = osc_auth.session_key(secret, sid, snonce, cnonce)
        again = auth_connect(peer)                                   # a new handshake: a new cnonce
        assert isinstance(again, tuple) and again[0] == sid and again[1] != old_key
        signed(peer, sid, old_key, seen_as, 11, "/sg/player/name", 1, "Старый")
        assert [e[:2] for e in of(peer.receive(10.0, until=lambda m: of(m, "/sg/error")), "/sg/error")] == [
            ["/sg/player/name", "bad signature"]]
        signed(peer, sid, again[1], seen_as, 12, "/sg/player/name", 1, "Новый")
        assert [a[:2] for a in of(peer.receive(10.0, until=lambda m: of(m, "/sg/ack")), "/sg/ack")] == [[12, "ok"]]
        assert wait_until(lambda: any(c.address == "/sg/player/name" and c.args[1] == "Новый" for c in board.applied))
        assert not any(c.address == "/sg/player/name" and c.args[1] == "Старый" for c in board.applied)
    finally:
        peer.close()
