"""OSC over TCP with SLIP framing (osc.tcp = true): the same sessions, acks and state as UDP, on a stream."""
import socket
import time

import pytest
from pythonosc import slip
from pythonosc.osc_message import OscMessage

from linkhelp import board_on_loopback, wait_until
from scoreboard.links import Inbox, Links
from scoreboard.links.osc import tcp as osc_tcp
from scoreboard.links.osc.messages import build

PASS = "stream"


class TcpPeer:
    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.settimeout(0.05)
        self.buffer = b""

    def send(self, address: str, *args) -> None:
        self.sock.sendall(slip.encode(build(address, *args)))

    def receive(self, wait: float = 1.0, until=None) -> list:
        messages, deadline = [], time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:                        # reset by the board: closed as well
                data = b""
            if not data:
                messages.append(("<closed>", []))
                break
            self.buffer += data
            while b"\xc0" in self.buffer:
                frame, self.buffer = self.buffer.split(b"\xc0", 1)
                if frame:
                    message = OscMessage(slip.decode(frame + b"\xc0"))
                    messages.append((message.address, list(message.params)))
            if until is not None and until(messages):
                break
        return messages


def of(messages, address):
    return [params for addr, params in messages if addr == address]


@pytest.fixture
def tcp_board():
    with board_on_loopback({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS, "tcp": True}}) as (links, board):
        yield links, board


def test_proto2_tcp_slip_session_command_ack_and_state(tcp_board):
    """GIVEN a board with osc.tcp WHEN a TCP client connects with the passcode (SLIP frames) and sends
    /sg/cmd/player/name, and the same id again after the ack THEN it gets connected, the state, one
    application, and an ack for each copy."""
    links, board = tcp_board
    peer = TcpPeer(links.osc.address[1])
    try:
        peer.send("/sg/connect", PASS)
        got = peer.receive(30.0, until=lambda m: of(m, "/sg/state"))
        assert of(got, "/sg/connected") and of(got, "/sg/state")
        applied = len(board.applied)
        peer.send("/sg/cmd/player/name", 3, 1, "Ада")
        got = peer.receive(20.0, until=lambda m: of(m, "/sg/ack") and any("Ада" in s[1] for s in of(m, "/sg/state")))
        peer.send("/sg/cmd/player/name", 3, 1, "Ада")
        got += peer.receive(20.0, until=lambda m: of(m, "/sg/ack"))
        assert of(got, "/sg/ack") == [[3, "ok"], [3, "ok"]]
        assert len(board.applied) - applied == 1
    finally:
        peer.sock.close()


def test_proto2_tcp_garbage_counted_and_closing_ends_the_session(tcp_board):
    """GIVEN a connected TCP client WHEN it sends broken SLIP and non-OSC frames THEN they are counted and
    nothing changes; WHEN it closes the connection THEN its session is gone; an endless frame is cut off."""
    links, board = tcp_board
    rev = board.session.rev
    peer = TcpPeer(links.osc.address[1])
    peer.send("/sg/connect", PASS)
    assert of(peer.receive(30.0, until=lambda m: of(m, "/sg/connected")), "/sg/connected")
    bad_before = links.status()["osc"]["bad_packets"]
    peer.sock.sendall(b"\xdb\x01\xc0" + b"not osc at all\xc0")
    assert wait_until(lambda: links.status()["osc"]["bad_packets"] == bad_before + 2)
    assert links.status()["osc"]["sessions"] == 1 and board.session.rev == rev
    peer.sock.close()
    assert wait_until(lambda: links.status()["osc"]["sessions"] == 0)
    flooder = TcpPeer(links.osc.address[1])
    try:
        flooder.sock.sendall(b"x" * 70_000)
        assert of(flooder.receive(20.0, until=lambda m: of(m, "<closed>")), "<closed>")
    finally:
        flooder.sock.close()


def test_proto2_tcp_connection_without_a_session_is_closed(tcp_board, monkeypatch):
    """GIVEN a board with osc.tcp (connections capped) WHEN a stranger opens a TCP connection and never connects
    a session, while a host does THEN the stranger's connection is closed after the connect window and the
    host's stays."""
    links, board = tcp_board
    port = links.osc.address[1]
    host = TcpPeer(port)
    stranger = None
    try:
        host.send("/sg/connect", PASS)
        assert any(a == "/sg/connected" for a, _ in host.receive(30.0, until=lambda m: any(a == "/sg/connected" for a, _ in m)))
        # the short window only once the host has its session (a stalled test thread must not lose the host's)
        monkeypatch.setattr(osc_tcp, "CONNECT_WITHIN", 0.3)   # the server reads it when it looks
        stranger = TcpPeer(port)
        got = stranger.receive(20.0, until=lambda m: any(a == "<closed>" for a, _ in m))
        assert ("<closed>", []) in got
        host.send("/sg/ping")
        assert any(a == "/sg/pong" for a, _ in host.receive(30.0, until=lambda m: any(a == "/sg/pong" for a, _ in m)))
    finally:
        if stranger is not None:
            stranger.sock.close()
        host.sock.close()


def test_proto2_any_port_skips_a_number_whose_tcp_twin_is_taken(monkeypatch):
    """GIVEN OSC on any port (0) with TCP, and another program holding the TCP port of the number the kernel first
    gives the UDP socket (a test worker's connection, say) WHEN the board starts THEN it gives that number back and
    listens on another, UDP and TCP on one number, instead of failing to start."""
    squatters, real = [], osc_tcp.SlipServer

    def first_twin_taken(bind, port, *args):
        if not squatters:                       # another program takes this number's TCP side first, for real
            squatter = socket.socket()
            squatter.bind((bind, port))
            squatter.listen(1)
            squatters.append(squatter)
        return real(bind, port, *args)

    monkeypatch.setattr("scoreboard.links.osc.server.SlipServer", first_twin_taken)
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS, "tcp": True}}, Inbox(), lambda: 1.0)
    try:
        links.start()
        port = links.osc.address[1]
        assert port != squatters[0].getsockname()[1]
        peer = TcpPeer(port)                    # the board's own TCP listener answers on the UDP number
        peer.send("/sg/connect", PASS)
        assert of(peer.receive(5, until=lambda got: of(got, "/sg/connected")), "/sg/connected")
        peer.sock.close()
    finally:
        links.stop()
        squatters[0].close()
