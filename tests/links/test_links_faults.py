"""Fault tests: random OSC datagrams and random serial lines leave the board running and the game unchanged.

The bulk (100,000 each) is fed to the real parsers in-process so the test stays fast; a smaller number goes
over a real UDP socket and a real pty to show the threads survive it too.
"""
import random
import struct

from linkhelp import RawPeer, drain_n, of, session_in_buzz_window, wait_until
from scoreboard.engine.commands import SPEC, Refused
from scoreboard.links import Inbox, Links
from scoreboard.links.config import resolve
from scoreboard.links.osc_server import build
from scoreboard.links.serial_buttons import SerialButtons

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
    """GIVEN a running OSC server with a host session and a real session in buzz_window
    WHEN 100,000 random datagrams come from a stranger (in-process) and random bytes from the host's own
    address (in-process), then 2,000 more from the stranger over real UDP
    THEN nothing reaches the inbox, the game is unchanged, and the host still commands and gets acks."""
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
        assert of(host.receive(1.0, until=lambda m: of(m, "/sg/connected")), "/sg/connected")
        for _ in range(90_000):
            server.handle_datagram(random_datagram(rng), stranger.addr)
        for _ in range(10_000):
            server.handle_datagram(rng.randbytes(rng.randrange(0, 64)), host.addr)
        for batch in range(20):                      # paced so the socket buffer never overflows
            for _ in range(100):
                stranger.send_raw(random_datagram(rng))
            expected = 100_001 + 100 * (batch + 1)
            assert wait_until(lambda: server.status()["packets"] >= expected, timeout=5), server.status()
        for item in inbox.drain():                   # anything that slipped through would be applied here
            try:
                session.submit(item.cmd)
            except Refused:
                pass
        assert session.snapshot() == before and len(inbox) == 0
        counts = server.status()
        assert counts["bad_packets"] > 30_000 and counts["unauthorized"] > 10_000
        assert counts["sessions"] == 1                # the stranger never got one
        host.send("/sg/cmd/button", 9, 2)
        assert wait_until(lambda: len(inbox) == 1)
        (item,) = inbox.drain()
        session.submit(item.cmd)
        item.on_result(True, None)
        assert of(host.receive(1.0, until=lambda m: of(m, "/sg/ack")), "/sg/ack") == [[9, "ok"]]
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


def test_proto5_100k_random_serial_lines_change_nothing(box, board):
    """GIVEN a session in buzz_window (a press would change it) and the links reading a real pty
    WHEN 100,000 random lines are fed to the box parser in-process and 2,000 go over the pty
    THEN no press reaches the game, they are counted as bad, and a real press afterwards still arrives."""
    rng = random.Random(5)
    links, inbox = board
    portless = SerialButtons(resolve({"buttons": {"port": "loop://"}})["buttons"], inbox, lambda: 3.0)
    portless.box_players = 4
    for _ in range(100_000):
        portless.feed(random_line(rng) + b"\n", now=1.0)
    assert portless.status()["bad_lines"] >= 99_000 and portless.status()["presses"] == 0
    chunk = b"".join(random_line(rng) + b"\n" for _ in range(2_000))
    for start in range(0, len(chunk), 4096):
        box.send_raw(chunk[start:start + 4096])
    assert wait_until(lambda: links.status()["bad_lines"] >= 1_900, timeout=5), links.status()
    session = session_in_buzz_window()
    before = session.snapshot()
    stray = inbox.drain()
    assert stray == []
    box.press(3)
    (item,) = drain_n(inbox, 1)
    assert item.cmd.args == (3,) and links.status()["buttons_online"]
    assert session.snapshot() == before


def test_proto5_digit_mode_garbage_is_counted():
    """GIVEN one-digit mode WHEN 100,000 random non-digit bytes arrive THEN no press, all counted."""
    rng = random.Random(9)
    inbox = Inbox()
    portless = SerialButtons(resolve({"buttons": {"port": "loop://", "mode": "digits"}})["buttons"], inbox,
                             lambda: 3.0)
    noise = bytes(b for b in rng.randbytes(100_000) if not 0x30 <= b <= 0x39 and b not in b"\r\n ")
    portless.feed(noise)
    assert len(inbox) == 0 and portless.status()["bad_lines"] == len(noise)
