"""A sniffed handshake does not give the passcode away (issue 24 item 6; osc/auth.py, docs/SECURITY.md): the project's
own client connects through a wire that keeps a copy of every datagram, as a laptop on the venue's Wi-Fi would, and
the copy is attacked offline. One board (the OSC server on loopback) for the module."""
from __future__ import annotations

import hashlib
import hmac
import socket
import threading
import time

import pytest

from scoreboard.links import Inbox
from scoreboard.links.config import resolve
from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.osc.client import OscClient
from scoreboard.links.osc.server import OscServer

PASS = "k7m2p9qx"                       # as `config init` makes them: 8 characters of 32
KEY = osc_auth.key_text(osc_auth.PROCESS_KEY)     # the module's board names no key: it has the one of its start
GUESSES = ["k7m2p9qy", PASS]      # the attacker's list (short: each stretched guess costs 0.1 s of a core here)


@pytest.fixture(scope="module")
def board():
    server = OscServer(resolve({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS}})["osc"], Inbox(),
                       time.monotonic)
    server.start()
    yield server
    server.stop()


class Wire:
    """The path between one client and the board, with a sniffer on it: every datagram relayed, and kept."""

    def __init__(self, board_address):
        self.board = board_address
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.05)
        self.client = None
        self.seen: list[bytes] = []
        self.running = True
        self.thread = threading.Thread(target=self._relay, daemon=True)
        self.thread.start()

    @property
    def port(self) -> int:
        return self.sock.getsockname()[1]

    def _relay(self) -> None:
        while self.running:
            try:
                data, sender = self.sock.recvfrom(65535)
            except socket.timeout:
                continue
            except OSError:
                return
            self.seen.append(data)
            if sender == self.board:
                if self.client is not None:
                    self.sock.sendto(data, self.client)
            else:
                self.client = sender
                self.sock.sendto(data, self.board)

    def messages(self, address: str) -> list[list]:
        from pythonosc.osc_message import OscMessage
        out = []
        for data in self.seen:
            try:
                message = OscMessage(data)
            except Exception:           # a bundle or other shape: not a handshake message
                continue
            if message.address == address:
                out.append(list(message.params))
        return out

    def close(self) -> None:
        self.running = False
        self.thread.join(2)
        self.sock.close()


@pytest.fixture(scope="module")
def sniffed(board) -> dict[str, Wire]:
    """The host's remote connecting with the typed passcode, and with the QR code's key, each through a sniffed
    wire (at once: the module's time is the slower of the two)."""
    wires: dict[str, Wire] = {}
    ways = {"typed": {"passcode": PASS}, "key": {"key": KEY, "auth": "on"}}
    threads = [threading.Thread(target=lambda n=name, c=client: wires.__setitem__(n, sniff_a_connect(board, **c)))
               for name, client in ways.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert set(wires) == set(ways)
    return wires


def sniff_a_connect(board, **client) -> Wire:
    """The project's client connects through the wire and sends one command; what the wire saw."""
    wire = Wire(("127.0.0.1", board.address[1]))
    remote = OscClient("127.0.0.1", wire.port, **client)
    try:
        remote.connect(timeout=10)
        assert remote.command("/sg/ping", timeout=5)[0] in (True, False)
    finally:
        remote.close()
        wire.close()
    return wire


def todays_attack(wire: Wire) -> list[str]:
    """The passcodes of the list whose HMAC gives the sniffed proof, as `proof = HMAC(passcode, …)` allowed."""
    challenge, connect = wire.messages("/sg/auth/challenge")[0], wire.messages("/sg/auth/connect")[0]
    role, bnonce, cnonce, proof = connect[:4]
    text = "\n".join(["sg-connect", role, bnonce, cnonce, challenge[1]]).encode()
    return [g for g in GUESSES if hmac.new(g.encode(), text, hashlib.sha256).hexdigest() == proof]


def stretched_attack(wire: Wire) -> list[str]:
    """The same list tried the only way left: each guess stretched with the sniffed salt (a scrypt each)."""
    challenge, connect = wire.messages("/sg/auth/challenge")[0], wire.messages("/sg/auth/connect")[0]
    role, bnonce, cnonce, proof = connect[:4]
    salt = bytes.fromhex(challenge[2])
    return [g for g in GUESSES if osc_auth.connect_proof(hashlib.scrypt(g.encode(), salt=salt, **osc_auth.SCRYPT),
                                                         role, bnonce, cnonce, challenge[1]) == proof]


def test_hall6_a_sniffed_typed_passcode_handshake_costs_a_scrypt_per_guess(sniffed):
    """Issue 24 item 6: GIVEN the host's remote connecting with the typed passcode through a sniffed wire WHEN the
    attacker runs today's attack (an HMAC per guess) over a list holding the passcode THEN it finds nothing, and the
    passcode is in no datagram; only a scrypt per guess with the board's salt finds it (32 MiB of memory a guess,
    what a GPU pays most for), and one such guess costs over 1,000 of today's."""
    wire = sniffed["typed"]
    assert not any(PASS.encode() in data for data in wire.seen)
    assert todays_attack(wire) == []
    assert stretched_attack(wire) == [PASS]
    assert 128 * osc_auth.SCRYPT["n"] * osc_auth.SCRYPT["r"] >= 32 * 2**20
    text = b"sg-connect\nhost\n" + b"x" * 80
    started = time.perf_counter()
    for _ in range(2000):
        hmac.new(b"guess", text, hashlib.sha256).digest()
    one_hmac = (time.perf_counter() - started) / 2000
    started = time.perf_counter()
    hashlib.scrypt(b"guess", salt=b"s" * 16, **osc_auth.SCRYPT)
    assert time.perf_counter() - started > 1000 * one_hmac


def test_hall6_a_sniffed_handshake_with_the_qr_codes_key_holds_nothing_of_the_passcode(sniffed):
    """Issue 24 item 6: GIVEN the host's remote connecting with the board's key (the QR code's link; 128 random
    bits) through a sniffed wire WHEN the attacker runs either attack over a list holding the passcode THEN neither
    finds anything (the proof stands on the key, not on the passcode), and neither the key nor the passcode is in
    any datagram."""
    wire = sniffed["key"]
    secret = osc_auth.parse_key(KEY)
    assert len(secret) * 8 >= 128
    assert not any(PASS.encode() in data or secret in data or KEY.encode() in data for data in wire.seen)
    assert todays_attack(wire) == [] and stretched_attack(wire) == []


def test_hall6_every_board_salts_its_own_and_the_older_handshake_is_refused(board):
    """Issue 24 item 6: GIVEN two boards with the same passcode (different keys) WHEN each is asked for a challenge
    THEN their salts differ (no table computed for one board serves another); WHEN a client sends the older
    four-argument connect (a proof an HMAC of the passcode, which a sniffer could turn into the passcode) THEN it is
    denied without being evaluated, naming the cause."""
    from linkhelp import RawPeer, of
    other = OscServer(resolve({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS,
                                       "key": osc_auth.new_key()}})["osc"], Inbox(), time.monotonic)
    other.start()
    peers = [RawPeer(("127.0.0.1", board.address[1])), RawPeer(("127.0.0.1", other.address[1]))]
    try:
        salts = []
        for peer in peers:
            peer.send("/sg/auth/hello")
            challenge = of(peer.receive(5.0, until=lambda m: of(m, "/sg/auth/challenge")), "/sg/auth/challenge")[0]
            assert challenge[3] == osc_auth.KDF
            salts.append(challenge[2])
        assert salts[0] != salts[1] and all(len(bytes.fromhex(s)) == osc_auth.SALT_BYTES for s in salts)
        bnonce, seen = challenge[:2]
        old_proof = hmac.new(PASS.encode(), "\n".join(["sg-connect", "host", bnonce, "c" * 32, seen]).encode(),
                             hashlib.sha256).hexdigest()
        peers[1].send("/sg/auth/connect", "host", bnonce, "c" * 32, old_proof)
        denied = of(peers[1].receive(5.0, until=lambda m: of(m, "/sg/denied")), "/sg/denied")[0][0]
        assert denied.startswith("usage: /sg/auth/connect role bnonce cnonce proof salt") and "update" in denied
    finally:
        for peer in peers:
            peer.close()
        other.stop()


def test_hall6_the_qr_codes_link_carries_the_key_the_board_takes(board):
    """Issue 24 item 6: GIVEN a board with no key in its config (one is drawn when it starts) WHEN the host's
    screen builds its QR code's link (app/status.py connect_hint) THEN the link is the page's address with the key
    after `#` (a fragment: never sent by a browser), of 128 bits, and a remote given that key alone connects."""
    from scoreboard.app.status import connect_hint
    hint = connect_hint({"osc": {"passcode": PASS}}, {"osc_address": list(board.address),
                                                     "remote_web": {"urls": ["http://192.168.1.20:8080/"]}})
    page, _, fragment = hint["qr"].partition("#k=")
    assert page == hint["web"] == "http://192.168.1.20:8080/"
    assert len(osc_auth.parse_key(fragment)) == 16
    remote = OscClient("127.0.0.1", board.address[1], key=fragment, auth="on")
    try:
        assert isinstance(remote.connect(timeout=10), int) and remote.signed
    finally:
        remote.close()
