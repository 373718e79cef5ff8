"""Fault tests: random OSC datagrams and random serial lines leave the board running and the game unchanged.

OSC: 100,000 datagrams go to the server's handler in-process (fast) and 2,000 over a real UDP socket. Serial:
100,000 lines go over a real pty through the box reader. In both, a board loop drains the inbox into a real
Session in a live buzz window, where one valid press or command would change the game.
"""
import random
import struct
import time

from linkhelp import RawPeer, of, session_in_buzz_window, start_links, wait_until
from scoreboard.engine.commands import SPEC, Refused
from scoreboard.links import Inbox, Links
from scoreboard.links.config import resolve
from scoreboard.links.osc.messages import build
from scoreboard.links.serial.buttons import SerialButtons

PASS = "s3cret"
ADDRESSES = list(SPEC) + ["/sg/connect", "/sg/ping", "/sg/sync", "/sg/disconnect", "/sg/ack", "/x", ""]


def random_datagram(rng: random.Random) -> bytes:
    """Random bytes, a mutated valid message, or a well-formed message with random address and arguments."""
    kind = rng.random()
    if kind < 0.4:
        return rng.randbytes(rng.randrange(0, 96))
    address = rng.choice(ADDRESSES)
    if rng.random() < 0.5 and address.startswith("/sg/") and address != "/sg/connect":
        address = "/sg/cmd/" + address[4:]
    args = []
    for _ in range(rng.randrange(0, 5)):
        args.append(rng.choice([rng.randrange(-2**31, 2**31), rng.random() * 1e6, "", "guess", "host", "x" * 40,
                                float("nan"), True, b"\x00\x01"]))
    try:
        data = build(address or "/", *args)
    except Exception:
        data = rng.randbytes(16)
    if kind < 0.7:                                   # flip, cut or stretch it
        data = bytearray(data)
        for _ in range(rng.randrange(1, 4)):
            action = rng.random()
            if action < 0.5 and data:
                data[rng.randrange(len(data))] = rng.randrange(256)
            elif action < 0.75:
                data = data[:rng.randrange(len(data) + 1)]
            else:
                data += struct.pack(">i", rng.randrange(-2**31, 2**31))
        data = bytes(data)
    if rng.random() < 0.05:                          # wrapped in a bundle, sometimes nested
        inner = b"#bundle\x00" + b"\x00" * 8 + struct.pack(">i", len(data)) + data
        data = inner if rng.random() < 0.5 else b"#bundle\x00" + b"\x00" * 8 + struct.pack(">i", len(inner)) + inner
    return data


def test_proto2_100k_random_datagrams_change_nothing_and_server_keeps_serving():
    """GIVEN a running OSC server with a host session, and a real session in buzz_window (engine time 9 s;
    the links stamp 10 s, inside the 5 s window: a valid /sg/button would make that seat answer) that a board
    loop feeds from the inbox after every 10,000 datagrams and every UDP batch
    WHEN 100,000 random datagrams come from a stranger (in-process) and random bytes from the host's own
    address (in-process), then 2,000 more from the stranger over real UDP
    THEN the board loop never drained a single item, the game is unchanged, and the host's own command
    afterwards does reach it (seat 2 answers) and is acked."""
    rng = random.Random(20261129)
    inbox = Inbox()
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS}}, inbox, lambda: 10.0)
    links.start()
    server = links.osc
    session = session_in_buzz_window(at=9.0)
    before = session.snapshot()
    host, stranger = RawPeer(("127.0.0.1", server.address[1])), RawPeer(("127.0.0.1", server.address[1]))
    try:
        host.send("/sg/connect", PASS)
        assert of(host.receive(20.0, until=lambda m: of(m, "/sg/connected")), "/sg/connected")
        stray: list = []

        def board_loop_step() -> None:              # what the board does each frame
            for item in inbox.drain():
                stray.append((item.source, item.cmd))
                try:
                    session.submit(item.cmd)
                except Refused:
                    pass

        for block in range(9):
            for _ in range(10_000):
                server.handle_datagram(random_datagram(rng), stranger.addr)
            board_loop_step()
        for _ in range(10_000):
            server.handle_datagram(rng.randbytes(rng.randrange(0, 64)), host.addr)
        board_loop_step()
        for batch in range(20):                      # paced so the socket buffer never overflows
            for _ in range(100):
                stranger.send_raw(random_datagram(rng))
            expected = 100_001 + 100 * (batch + 1)
            assert wait_until(lambda: server.status()["packets"] >= expected, timeout=30), server.status()
            board_loop_step()
        assert stray == []
        assert session.snapshot() == before
        counts = server.status()
        assert counts["bad_packets"] > 30_000 and counts["unauthorized"] > 10_000
        assert counts["sessions"] == 1                # the stranger never got one
        host.send("/sg/cmd/button", 9, 2)
        assert wait_until(lambda: len(inbox) == 1)
        (item,) = inbox.drain()
        session.submit(item.cmd)
        item.on_result(True, None)
        assert of(host.receive(20.0, until=lambda m: of(m, "/sg/ack")), "/sg/ack") == [[9, "ok"]]
        assert session.snapshot()["answering"] == 2
    finally:
        host.close()
        stranger.close()
        links.stop()


def random_line(rng: random.Random) -> bytes:
    """Random bytes, or protocol words in wrong orders, arities and with out-of-range numbers."""
    if rng.random() < 0.5:
        return rng.randbytes(rng.randrange(0, 120)).replace(b"\n", b"")
    words = ["EV", "PRESS", "PONG", "HELLO", "proto=1", "players=4", "-1", "4294967296", "0", "99",
             "1.5", "", "\x00", "EV1", "PRESS1", "\xff", "+3", "0x10", "١"]
    line = " ".join(rng.choice(words) for _ in range(rng.randrange(0, 7)))
    return line.encode("utf-8", "replace")[:200]


def test_proto5_100k_random_serial_lines_through_the_reader_change_no_game(box):
    """GIVEN a real Session in buzz_window at engine time 0 (any seat's press would make that seat answer),
    links reading a fake box on a real pty with the engine clock at 1.0 s, and a board loop that drains the
    inbox into the session as the board does
    WHEN 100,000 random lines go over the pty (whole lines per write, so the box's PONGs stay intact),
    then one real press of seat 3 behind them
    THEN the only thing that ever reached the inbox is that press, the game was untouched until it came,
    and afterwards the game equals a twin session that got only that press; the noise is counted as bad
    lines and the box stayed online."""
    import threading
    rng = random.Random(5)
    links, inbox = start_links(box.url, clock=lambda: 1.0)
    session, twin = session_in_buzz_window(), session_in_buzz_window()
    before = session.snapshot()
    lines = [random_line(rng) + b"\n" for _ in range(100_000)]
    seen: list = []                                # (item, the game untouched just before it was submitted)

    def board_loop_step() -> None:
        inbox.wait(0.01)
        for item in inbox.drain():
            seen.append((item, session.snapshot() == before))
            try:
                session.submit(item.cmd)
            except Refused:
                pass

    def write_noise() -> None:
        for start in range(0, len(lines), 100):
            box.send_raw(b"".join(lines[start:start + 100]))

    try:
        assert wait_until(lambda: links.status()["buttons_online"]), links.status()
        writer = threading.Thread(target=write_noise)
        writer.start()
        while writer.is_alive():
            board_loop_step()
        writer.join()
        box.press(3)                               # behind the noise on the same pty: read after all of it
        deadline = time.monotonic() + 60             # only bounds a hang
        while not seen and time.monotonic() < deadline:
            board_loop_step()
        for _ in range(5):                         # anything the reader still had would show up now
            board_loop_step()
        assert len(seen) == 1, [(item.source, item.cmd) for item, _ in seen]
        (press, untouched), = seen
        assert press.source == "serial" and press.cmd.args[0] == 3 and untouched
        twin.submit(press.cmd)
        assert session.snapshot() == twin.snapshot() and session.snapshot()["answering"] == 3
        status = links.status()
        assert status["bad_lines"] >= 99_000 and status["presses"] == 1 and status["buttons_online"], status
    finally:
        links.stop()


def test_proto5_digit_mode_garbage_is_counted():
    """GIVEN one-digit mode WHEN 100,000 random non-digit bytes arrive THEN no press, all counted."""
    rng = random.Random(9)
    inbox = Inbox()
    portless = SerialButtons(resolve({"buttons": {"port": "loop://", "mode": "digits"}})["buttons"], inbox,
                             lambda: 3.0)
    noise = bytes(b for b in rng.randbytes(100_000) if not 0x30 <= b <= 0x39 and b not in b"\r\n ")
    portless.feed(noise)
    assert len(inbox) == 0 and portless.status()["bad_lines"] == len(noise)
