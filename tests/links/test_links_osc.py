"""The OSC server (PROTOCOL.md §2) on real UDP sockets on 127.0.0.1, with a real session behind the inbox."""
import json
import time

import pytest

from linkhelp import board_on_loopback, RawPeer, of, wait_until
from scoreboard.links import Inbox, Links
from scoreboard.links.config import resolve
from scoreboard.links.osc.client import NotConnected, OscClient
from scoreboard.links.osc.server import OscServer

PASS = "s3cret"


@pytest.fixture
def osc_board():
    """The board: OSC links + a loop thread submitting to a real session with a game set up (G1: 3 seats)."""
    with board_on_loopback({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS, "view_passcode": "look",
                           "state_interval": 0.2}}) as (links, board):
        yield links, board


def board_addr(links):
    return ("127.0.0.1", links.osc.address[1])


def connected_peer(links, role="host", passcode=PASS) -> RawPeer:
    peer = RawPeer(board_addr(links))
    peer.send("/sg/connect", passcode, role)
    got = peer.receive(20.0, until=lambda m: of(m, "/sg/connected") and of(m, "/sg/state"))
    assert of(got, "/sg/connected"), got
    return peer


def test_g8_host_command_with_id_is_applied_and_acked(osc_board):
    """GIVEN a host session WHEN it sends /sg/cmd/player/name id 1 Анна THEN the board applies it,
    acks ok, and the next state carries the name."""
    links, board = osc_board
    client = OscClient(*board_addr(links), PASS, bind=("127.0.0.1", 0))
    try:
        client.connect(timeout=30)
        assert client.command("/sg/player/name", 1, "Анна", timeout=30) == (True, None)
        state = client.wait_state(lambda s: s["players"][0]["name"] == "Анна", timeout=30)
        assert state["rev"] == board.session.rev
        ok, reason = client.command("/sg/judge/right", timeout=30)
        assert not ok and reason                  # refused by the game in setup, with its reason
    finally:
        client.close()


def test_proto2_duplicates_applied_once_every_copy_answered(osc_board):
    """GIVEN a host session WHEN the same (session, id) arrives three times, and after a reconnect from the
    same address once more THEN the board applies it once and answers every copy with the same ack."""
    links, board = osc_board
    peer = connected_peer(links)
    try:
        rev_before = board.session.rev        # the session's rev moves before an ack is sent (board.applied after)
        peer.send("/sg/cmd/player/name", 77, 2, "Борис")
        first = peer.receive(20.0, until=lambda m: of(m, "/sg/ack"))
        assert of(first, "/sg/ack") == [[77, "ok"]]
        peer.send("/sg/cmd/player/name", 77, 2, "Борис")
        peer.send("/sg/cmd/player/name", 77, 2, "Борис")
        peer.send("/sg/connect", PASS, "host")    # a retried connect keeps the session and its ids
        peer.send("/sg/cmd/player/name", 77, 2, "Борис")
        more = peer.receive(20.0, until=lambda m: len(of(m, "/sg/ack")) == 3)
        assert of(more, "/sg/ack") == [[77, "ok"]] * 3
        assert board.session.rev - rev_before == 1
        assert links.status()["osc"]["duplicates"] == 3
    finally:
        peer.close()


def test_proto2_ack_is_sent_only_after_the_board_applied_it():
    """GIVEN a server whose board loop has not drained the inbox WHEN a command (and a copy) arrive
    THEN no ack is sent; WHEN the board reports the result THEN the ack goes out, with the reason."""
    inbox = Inbox()
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS}}, inbox, lambda: 5.0)
    links.start()
    peer = RawPeer(board_addr(links))
    try:
        peer.send("/sg/connect", PASS)
        assert of(peer.receive(20.0, until=lambda m: of(m, "/sg/connected")), "/sg/connected")
        peer.send("/sg/cmd/undo", 5)
        peer.send("/sg/cmd/undo", 5)
        assert wait_until(lambda: len(inbox) == 1)
        assert of(peer.receive(0.2), "/sg/ack") == []
        (item,) = inbox.drain()
        # stamped when it reached the machine, on the board's clock (a fixed 5.0 here): the kernel's stamp is a little
        # before the reading (osc/rxstamp.py)
        assert item.cmd.address == "/sg/undo" and 4.75 <= item.cmd.at <= 5.0 and item.source.startswith("osc:")
        item.on_result(False, "nothing to undo")
        assert of(peer.receive(20.0, until=lambda m: of(m, "/sg/ack")), "/sg/ack") == [
            [5, "error", "nothing to undo"]]
    finally:
        peer.close()
        links.stop()


def test_proto2_unauthenticated_sender_changes_nothing(osc_board):
    """GIVEN a stranger on the network WHEN it sends plain and id commands, /sg/clock and a wrong passcode
    THEN it is told "not connected" once (replies to a stranger are rate-limited) and "wrong passcode",
    never gets state, nothing reaches the game (rev and scores unchanged), and every packet is counted."""
    links, board = osc_board
    rev = board.session.rev
    before = board.session.snapshot()
    stranger = RawPeer(board_addr(links))
    try:
        stranger.send("/sg/player/name", 1, "Мэллори")
        stranger.send("/sg/cmd/score/adjust", 1, 1, 500)
        stranger.send("/sg/clock")
        stranger.send("/sg/connect", "guess")
        # both answers, however long a loaded machine takes; then a moment more to see nothing else comes
        got = stranger.receive(30.0, until=lambda m: len(of(m, "/sg/denied")) >= 2)
        got += stranger.receive(0.2)
        assert of(got, "/sg/denied") == [["not connected: send /sg/connect passcode [host|view]"],
                                         ["wrong passcode"]]
        assert not of(got, "/sg/state") and not of(got, "/sg/host/question") and not of(got, "/sg/ack")
        counts = links.status()["osc"]
        assert counts["unauthorized"] == 3 and counts["denied"] == 1 and counts["sessions"] == 0
        # a barrier instead of a wait: the host's command is on the inbox after anything the stranger's could have
        # put there, so once it is acked the board has dealt with everything before it
        host = OscClient(*board_addr(links), PASS, bind=("127.0.0.1", 0))
        try:
            host.connect(timeout=30)
            assert host.command("/sg/player/name", 3, "Барьер", timeout=30) == (True, None)
        finally:
            host.close()
        assert [cmd.address for cmd in board.applied] == ["/sg/player/name"] and not board.refused
        assert board.session.rev == rev + 1
        assert board.session.snapshot()["players"][:2] == before["players"][:2]
    finally:
        stranger.close()


def test_proto2_view_session_watches_but_cannot_command(osc_board):
    """GIVEN a view session (view passcode) WHEN it commands THEN it is refused; it gets state but never
    the host's question; the view passcode cannot open a host session."""
    links, board = osc_board
    rev = board.session.rev
    view = connected_peer(links, role="view", passcode="look")
    try:
        view.send("/sg/cmd/player/name", 1, 1, "X")
        view.send("/sg/player/name", 1, "X")
        got = view.receive(30.0, until=lambda m: of(m, "/sg/ack") and of(m, "/sg/error") and of(m, "/sg/state"))
        got += view.receive(0.2)
        assert of(got, "/sg/ack") == [[1, "error", "a view session may not send commands"]]
        assert of(got, "/sg/error") == [["/sg/player/name", "a view session may not send commands"]]
        assert of(got, "/sg/state") and not of(got, "/sg/host/question")
        assert board.session.rev == rev
        with pytest.raises(NotConnected, match="wrong passcode"):
            OscClient(*board_addr(links), "look", role="host", bind=("127.0.0.1", 0)).connect(timeout=30)
    finally:
        view.close()


def test_proto2_host_gets_question_and_state_pushed_every_interval(osc_board):
    """GIVEN a host and a view session and an open question (BZ1) WHEN state_interval (0.2 s) passes a few
    times with no change THEN /sg/state rev json keeps coming to both, and /sg/host/question with the open
    question follows each state, to the host only."""
    links, board = osc_board
    client = OscClient(*board_addr(links), PASS, bind=("127.0.0.1", 0))
    view = connected_peer(links, role="view", passcode="look")
    try:
        client.connect(timeout=30)
        for address, *args in [("/sg/topics", "A", "B", "C", "D"), ("/sg/game/start",), ("/sg/chooser", 1),
                               ("/sg/select", 2, 3)]:
            assert client.command(address, *args, timeout=30) == (True, None), address
        client.wait_state(lambda state: state["rev"] == board.session.rev and state["question"] is not None, timeout=30)
        host = connected_peer(links)
        got = host.receive(30.0, until=lambda m: len(of(m, "/sg/state")) >= 3
                           and len(of(m, "/sg/host/question")) >= len(of(m, "/sg/state")))
        states = of(got, "/sg/state")
        questions = of(got, "/sg/host/question")
        assert len(states) >= 3 and len(questions) >= len(states)
        assert all(rev == board.session.rev and json.loads(text)["rev"] == rev for rev, text in states)
        assert all(json.loads(text)["topic"] == 2 and json.loads(text)["index"] == 3 for text, _ in questions)
        seen_by_view = view.receive(30.0, until=lambda m: len(of(m, "/sg/state")) >= 2)
        assert len(of(seen_by_view, "/sg/state")) >= 2 and not of(seen_by_view, "/sg/host/question")
        assert client.question["topic"] == 2
        host.close()
    finally:
        client.close()
        view.close()


def test_proto2_internal_clock_and_bad_arguments_refused(osc_board):
    """GIVEN a host session WHEN it sends /sg/clock, a bad seat, an unknown address, a non-int id
    THEN each is refused with a reason and the game is unchanged."""
    links, board = osc_board
    rev = board.session.rev
    host = connected_peer(links)
    try:
        host.send("/sg/cmd/clock", 1)
        host.send("/sg/cmd/player/name", 2, 0, "Ноль")
        host.send("/sg/cmd/nonsense", 3)
        host.send("/sg/cmd/undo", "four")
        host.send("/sg/clock")
        got = host.receive(30.0, until=lambda m: {a[0] for a in of(m, "/sg/ack")} >= {1, 2, 3}
                           and len(of(m, "/sg/error")) >= 2)
        acks = {a[0]: a for a in of(got, "/sg/ack")}
        assert acks[1][1:] == ["error", "/sg/clock is internal to the board"]
        assert "seat is 1 or more" in acks[2][2] and "unknown address" in acks[3][2]
        errors = of(got, "/sg/error")
        assert ["/sg/undo", "the first argument of /sg/cmd/... must be an int id"] in errors
        assert ["/sg/clock", "/sg/clock is internal to the board"] in errors
        assert board.session.rev == rev
    finally:
        host.close()


def test_proto2_plain_command_refused_by_game_gets_error(osc_board):
    """GIVEN a host session WHEN a plain /sg/game/start is refused by the game... or accepted
    THEN a refusal comes back as /sg/error address reason, an accepted one brings a new state."""
    links, board = osc_board
    host = connected_peer(links)
    try:
        host.send("/sg/judge/wrong")               # nobody is answering in setup
        got = host.receive(20.0, until=lambda m: of(m, "/sg/error"))
        assert of(got, "/sg/error")[0][0] == "/sg/judge/wrong"
        host.send("/sg/player/name", 3, "Вера")
        got = host.receive(20.0, until=lambda m: any("Вера" in p[1] for p in of(m, "/sg/state")))
        assert any("Вера" in p[1] for p in of(got, "/sg/state"))
    finally:
        host.close()


def test_proto2_allowlist_drops_other_addresses():
    """GIVEN osc.allow = 10.0.0.0/8 WHEN 127.0.0.1 connects with the right passcode
    THEN nothing is answered and it is counted as unauthorized."""
    inbox = Inbox()
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS, "allow": ["10.0.0.0/8"]}},
                  inbox, lambda: 1.0)
    links.start()
    peer = RawPeer(board_addr(links))
    try:
        peer.send("/sg/connect", PASS)
        assert peer.receive(0.3) == []
        assert links.status()["osc"]["unauthorized"] == 1 and links.status()["osc"]["sessions"] == 0
    finally:
        peer.close()
        links.stop()


def test_proto2_idle_session_expires_and_passcode_guessing_is_throttled():
    """GIVEN idle_timeout 30 s on a fake clock WHEN 31 s pass without a packet THEN the session is gone and
    its commands are denied; GIVEN five wrong passcodes from an IP THEN that IP gets one evaluated try a second
    (a guesser is slowed to a crawl) but the right passcode on that try gets in: no lock-out of the real host."""
    now = [100.0]
    inbox = Inbox()
    server = OscServer(resolve({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS}})["osc"],
                       inbox, lambda: 1.0, monotonic=lambda: now[0])
    server.start()
    peer = RawPeer(("127.0.0.1", server.address[1]))
    try:
        peer.send("/sg/connect", PASS)
        assert of(peer.receive(20.0, until=lambda m: of(m, "/sg/connected")), "/sg/connected")
        now[0] += 31
        peer.send("/sg/cmd/undo", 1)
        got = peer.receive(20.0, until=lambda m: of(m, "/sg/denied"))
        assert of(got, "/sg/denied")[0][0].startswith("not connected") and len(inbox) == 0
        for _ in range(5):
            peer.send("/sg/connect", "wrong")
        got = peer.receive(20.0, until=lambda m: len(of(m, "/sg/denied")) == 5)
        assert of(got, "/sg/denied") == [["wrong passcode"]] * 5
        peer.send("/sg/connect", "wrong")          # throttled: this one is evaluated (the second's try) ...
        peer.send("/sg/connect", PASS)             # ... and this one, in the same second, is not
        got = peer.receive(20.0, until=lambda m: len(of(m, "/sg/denied")) == 2)
        assert of(got, "/sg/denied") == [["wrong passcode"],
                                         ["too many wrong passcodes from this address: one try a second"]]
        now[0] += 1.0
        peer.send("/sg/connect", PASS)             # the next second's try, with the right passcode
        assert of(peer.receive(20.0, until=lambda m: of(m, "/sg/connected")), "/sg/connected")
    finally:
        peer.close()
        server.stop()


def test_proto2_view_sessions_never_take_the_host_slots():
    """GIVEN max_sessions 16 WHEN viewers connect until refused THEN they stop short of the host's reserved
    slots, and a host still connects."""
    inbox = Inbox()
    server = OscServer(resolve({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS,
                                        "view_passcode": "look", "max_sessions": 16}})["osc"], inbox, lambda: 1.0)
    server.start()
    peers = []
    try:
        for _ in range(16):
            peer = RawPeer(("127.0.0.1", server.address[1]))
            peers.append(peer)
            peer.send("/sg/connect", "look", "view")
        answers = [p.receive(1.0, until=lambda m: of(m, "/sg/connected") or of(m, "/sg/denied")) for p in peers]
        viewers = sum(1 for got in answers if of(got, "/sg/connected"))
        assert viewers == 16 - server.table.host_reserve == 12
        assert all(of(got, "/sg/denied")[0][0].startswith("too many view sessions")
                   for got in answers if not of(got, "/sg/connected"))
        host = RawPeer(("127.0.0.1", server.address[1]))
        peers.append(host)
        host.send("/sg/connect", PASS, "host")
        assert of(host.receive(1.0, until=lambda m: of(m, "/sg/connected")), "/sg/connected")
    finally:
        for peer in peers:
            peer.close()
        server.stop()


def test_proto2_a_connected_host_is_not_throttled_by_a_guesser_on_its_ip():
    """GIVEN a connected host WHEN someone at the same IP sends five wrong passcodes and the host then reconnects
    from its own address THEN the host keeps its session at once (an address with a live session is never
    throttled)."""
    inbox = Inbox()
    server = OscServer(resolve({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS}})["osc"], inbox,
                       lambda: 1.0)
    server.start()
    host, guesser = (RawPeer(("127.0.0.1", server.address[1])) for _ in range(2))
    try:
        host.send("/sg/connect", PASS)
        sid = of(host.receive(1.0, until=lambda m: of(m, "/sg/connected")), "/sg/connected")[0][0]
        for _ in range(6):
            guesser.send("/sg/connect", "guess")
        guesser.receive(1.0, until=lambda m: len(of(m, "/sg/denied")) == 6)
        host.send("/sg/connect", PASS)
        assert of(host.receive(1.0, until=lambda m: of(m, "/sg/connected")), "/sg/connected") == [[sid]]
    finally:
        host.close()
        guesser.close()
        server.stop()


def test_proto2_a_replayed_datagram_of_an_ended_session_is_not_applied_again(osc_board):
    """GIVEN a host that applied command id 9, disconnected and connected again from the same address (a new,
    never-reused session id) WHEN a sniffer replays the old session's datagram THEN it is answered as a
    duplicate with the first result and not applied again."""
    links, board = osc_board
    peer = connected_peer(links)
    try:
        first_sid = of(peer.receive(0.3), "/sg/connected") or None
        peer.send("/sg/cmd/player/name", 9, 1, "Вера")
        assert [9, "ok"] in of(peer.receive(2.0, until=lambda m: [9, "ok"] in of(m, "/sg/ack")), "/sg/ack")
        assert wait_until(lambda: any(c.address == "/sg/player/name" for c in board.applied))
        before = len(board.applied)
        peer.send("/sg/disconnect")
        peer.send("/sg/connect", PASS, "host")
        got = peer.receive(2.0, until=lambda m: of(m, "/sg/connected"))
        assert of(got, "/sg/connected") and of(got, "/sg/connected") != first_sid
        peer.send("/sg/cmd/player/name", 9, 1, "Вера")             # the replay
        assert [9, "ok"] in of(peer.receive(2.0, until=lambda m: [9, "ok"] in of(m, "/sg/ack")), "/sg/ack")
        assert len(board.applied) == before
    finally:
        peer.close()


def test_proto2_empty_passcode_refuses_everyone():
    """GIVEN no osc.passcode configured WHEN anyone connects THEN they are denied with that reason."""
    inbox = Inbox()
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0}}, inbox, lambda: 1.0)
    links.start()
    try:
        with pytest.raises(NotConnected, match="no passcode"):
            OscClient(*board_addr(links), "", bind=("127.0.0.1", 0)).connect(timeout=30)
    finally:
        links.stop()


def test_proto2_exactly_once_under_any_interleaving():
    """GIVEN a host session WHEN copies of commands (each id sent 1–4 times) arrive in any order, interleaved
    with the board draining and applying at any point THEN each id reaches the game exactly once, and the
    acks sent are exactly one per resolution plus one per copy that arrived after its resolution."""
    from hypothesis import given, settings, strategies as st

    from scoreboard.links.osc.messages import build

    server = OscServer(resolve({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS}})["osc"],
                       Inbox(), lambda: 1.0)
    server.start()
    peer = RawPeer(("127.0.0.1", server.address[1]))
    try:
        peer.send("/sg/connect", PASS)
        assert of(peer.receive(20.0, until=lambda m: of(m, "/sg/connected")), "/sg/connected")

        fresh = iter(range(1, 10**9, 100))             # fresh ids for every example (the session remembers)

        @settings(max_examples=40, deadline=None)
        @given(st.lists(st.integers(1, 4), min_size=1, max_size=8), st.randoms(use_true_random=False))
        def run(copies, rng):
            base = next(fresh)
            events = [base + i for i, n in enumerate(copies) for _ in range(n)] + [None] * 3
            rng.shuffle(events)
            events.append(None)                        # None: the board drains and applies
            queued: list[int] = []                     # ids in the order their command reached the inbox
            resolved: set[int] = set()
            applied = late = 0
            acks_before = server.status()["acks_sent"]
            for cid in events:
                if cid is not None:
                    late += cid in resolved
                    known = cid in queued
                    server.handle_datagram(build("/sg/cmd/pause", cid), peer.addr)
                    if not known:
                        queued.append(cid)
                    continue
                for item in server.inbox.drain():
                    applied += 1
                    resolved.add(queued[len(resolved)])
                    item.on_result(True, None)
            assert applied == len(copies) == len(set(queued))
            assert server.status()["acks_sent"] - acks_before == len(copies) + late

        run()
    finally:
        peer.close()
        server.stop()


def test_proto2_client_reconnects_after_the_board_restarts():
    """GIVEN a view client following a board WHEN the board's OSC server stops and a new one starts on the
    same port (a board restart: sessions are gone, a new game's revisions start lower) THEN the client
    connects again by itself and follows the new board's state."""
    inbox = Inbox()
    config = resolve({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS, "state_interval": 0.2}})["osc"]
    first = OscServer(config, inbox, lambda: 1.0)
    first.start()
    port = first.address[1]
    first.publish({"rev": 4, "phase": "setup"}, None)
    client = OscClient("127.0.0.1", port, PASS, role="view", bind=("127.0.0.1", 0), lost_after=0.6,
                       check=False)    # these hand-made states are not whole snapshots
    second = None
    try:
        old_session = client.connect(timeout=30)
        assert client.wait_state(lambda s: s["rev"] == 4, timeout=30)["phase"] == "setup"
        first.stop()
        time.sleep(0.3)
        second = OscServer({**config, "port": port}, inbox, lambda: 1.0)
        second.start()
        second.publish({"rev": 2, "phase": "round_intro"}, None)
        assert client.wait_state(lambda s: s["rev"] == 2, timeout=30)["phase"] == "round_intro"
        assert client.session not in (None, old_session) and second.status()["sessions"] == 1
    finally:
        client.close()
        if second is not None:
            second.stop()


def test_proto2_patterns_are_not_fanned_out_and_broken_text_is_counted_quietly(osc_board, capfd, caplog):
    """Why the server is not python-osc's (docs/LINKS.md, "Why not python-osc's server"), pinned down.
    GIVEN a host session on the real UDP server
    WHEN it sends the OSC address patterns /sg/* and /sg/{undo,pause} (a python-osc Dispatcher would call
    every handler they match), and two datagrams whose address / string argument is not UTF-8 (python-osc's
    parser raises UnicodeDecodeError, which its socketserver servers print as a traceback)
    THEN each pattern is refused as an unknown address with /sg/error and the game is unchanged; the two
    broken datagrams are counted in bad_packets; nothing reaches stderr and no warning is logged."""
    import logging
    import struct
    links, board = osc_board
    rev = board.session.rev
    host = connected_peer(links)
    caplog.set_level(logging.DEBUG)
    try:
        bad_before = links.status()["osc"]["bad_packets"]
        host.send("/sg/*")
        host.send("/sg/{undo,pause}")
        host.send_raw(b"/sg/\xff\x00\x00\x00,i\x00\x00" + struct.pack(">i", 1))
        host.send_raw(b"/sg/player/name\x00,is\x00" + struct.pack(">i", 1) + b"\xff\xfe\x00\x00")
        got = host.receive(20.0, until=lambda m: len(of(m, "/sg/error")) >= 2)
        errors = {address: reason for address, reason in of(got, "/sg/error")}
        assert set(errors) == {"/sg/*", "/sg/{undo,pause}"}
        assert all("unknown address" in reason for reason in errors.values()), errors
        assert wait_until(lambda: links.status()["osc"]["bad_packets"] == bad_before + 2), links.status()
        assert board.session.rev == rev
        assert capfd.readouterr().err == ""
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    finally:
        host.close()
