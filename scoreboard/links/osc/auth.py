"""The authenticated OSC mode (docs/LINKS.md, "Authenticated sessions"; PROTOCOL.md §2 ext; docs/SECURITY.md): shared
by the board's server and the project's client, so that both sides compute the same bytes.

Theory of operation. Plain OSC names no session in a command and carries no proof: anyone on the venue's Wi-Fi who
sniffs a datagram can send it again, or forge one from the host's address. The authenticated mode never sends the
passcode; it proves knowledge of a *secret* with HMAC-SHA256. The secret is either the board's key (≥ 128 random
bits, carried by the QR code and the link on the host's screen: `http://BOARD:8080/#k=KEY`) or the typed passcode
stretched by scrypt with the board's salt, so a sniffed handshake is a guessing target only through scrypt:

    client -> board   /sg/auth/hello
    board  -> client  /sg/auth/challenge bnonce peer salt kdf   (peer: "ip:port" as the board sees the client;
                                                                 salt: hex; kdf: "scrypt-32768-8-1")
    client -> board   /sg/auth/connect role bnonce cnonce proof salt
                      secret = the board's key                          (from the link or QR code)
                             | scrypt(passcode, salt, N=32768, r=8, p=1, 32 bytes)   (a typed passcode)
                      proof  = hex HMAC(secret, "sg-connect" role bnonce cnonce peer)
    board  -> client  /sg/connected sid snonce
                      key    = HMAC(secret, "sg-session" sid snonce cnonce)      (never sent)
    client -> board   /sg/sig/<address without /sg> sid id args… mac               (mac: 16-byte blob)
                      mac    = HMAC(key, canonical(sid, id, address, peer, args))[:16]
    board  -> client  /sg/ack id ok|error [reason] mac                              (mac over the answer)

The board's challenge is stateless (its own MAC over the peer and a time, valid CHALLENGE_TTL seconds), so a flood
of hellos costs the board no memory; its salt is derived from its key (one per board, public), and it stretches
its own passcodes once (`Verifier`, cached), so a stranger's connect costs it HMACs only. The kdf is fixed by the
protocol: a client takes no other (a spoofed challenge cannot talk it into a cheaper stretch). Within a session
every id is applied once (the board remembers the ids) and an id older than the remembered window is refused; a
datagram of an ended session names a session id that is no longer live (ids are random and never reused) and its
key is gone with it. The canonical form is a JSON array, so a third-party implementation needs no OSC encoder of
ours; floats are signed as the float32 OSC carries.

Library: the standard library's `hashlib.scrypt` (OpenSSL's, memory-hard: 32 MiB a guess, which is what costs a
GPU most) and `hmac`; the page uses the audited noble-hashes (scoreboard/links/web/vendor/), the same functions.
"""
from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import json
import secrets
import struct
import threading
import time
from typing import Any, Iterable

MAC_BYTES = 16
CHALLENGE_TTL = 30.0
SIG_PREFIX = "/sg/sig/"
KEY_BYTES = 16              # the board's key: 128 random bits
SALT_BYTES = 16
KDF = "scrypt-32768-8-1"    # a typed passcode's stretch: scrypt N=2**15, r=8, p=1 (32 MiB, ~0.1 s here), 32 bytes
SCRYPT = {"n": 2**15, "r": 8, "p": 1, "dklen": 32, "maxmem": 64 * 1024 * 1024}
# A board whose config names no key draws one when it starts (its QR code and salt last as long as the process).
PROCESS_KEY = secrets.token_bytes(KEY_BYTES)


def _mac(key: bytes, *parts: str) -> bytes:
    return hmac.new(key, "\n".join(parts).encode("utf-8"), hashlib.sha256).digest()


def peer_text(addr: tuple) -> str:
    return f"{addr[0]}:{addr[1]}"


# --- the secrets ---------------------------------------------------------------------------------------------
def new_key() -> str:
    """A board key as the config and the link carry it: 128 random bits, base64url without padding (22 chars)."""
    return key_text(secrets.token_bytes(KEY_BYTES))


def key_text(key: bytes) -> str:
    return base64.urlsafe_b64encode(key).rstrip(b"=").decode("ascii")


def parse_key(text: Any) -> bytes:
    """The bytes of a key written as `new_key` writes it; ValueError (with the reason) otherwise."""
    if not isinstance(text, str) or not text.isascii():
        raise ValueError("expected the board's key as base64url text")
    try:
        key = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url text") from None
    if len(key) < KEY_BYTES:
        raise ValueError(f"too short: {len(key) * 8} bits, at least {KEY_BYTES * 8} needed")
    return key


def board_key(configured: str) -> bytes:
    """The key of a board: `[osc] key`, or the one drawn when this process started."""
    return parse_key(configured) if configured else PROCESS_KEY


def seat_key(key: bytes, seat: int) -> bytes:
    """A seat's key (docs/PHONE_BUTTONS.md): 128 bits drawn from the board's key, one per seat, so the seat's link
    (`…/seat.html#s=N&k=KEY`) proves that seat and no other, and tells nothing of the board's key."""
    return _mac(key, "sg-seat", str(seat))[:KEY_BYTES]


def board_salt(key: bytes) -> bytes:
    """The board's public salt for stretching passcodes: one per board key, telling nothing of it."""
    return _mac(key, "sg-salt")[:SALT_BYTES]


@functools.lru_cache(maxsize=16)
def stretch(passcode: str, salt: bytes) -> bytes:
    """The secret of a typed passcode: scrypt with the board's salt (slow on purpose; cached per process)."""
    return hashlib.scrypt(passcode.encode("utf-8"), salt=salt, **SCRYPT)


def connect_proof(secret: bytes, role: str, bnonce: str, cnonce: str, peer: str) -> str:
    if not isinstance(secret, (bytes, bytearray)):
        raise TypeError("connect_proof takes the secret (the key, or stretch(passcode, salt)), never the passcode")
    return _mac(bytes(secret), "sg-connect", role, bnonce, cnonce, peer).hex()


def session_key(secret: bytes, sid: int, snonce: str, cnonce: str) -> bytes:
    if not isinstance(secret, (bytes, bytearray)):
        raise TypeError("session_key takes the secret (the key, or stretch(passcode, salt)), never the passcode")
    return _mac(bytes(secret), "sg-session", str(sid), snonce, cnonce)


def _canonical_arg(arg: Any) -> Any:
    if isinstance(arg, float):
        return struct.unpack(">f", struct.pack(">f", arg))[0]     # what an OSC float32 carries
    if isinstance(arg, (bytes, bytearray)):
        return {"blob": bytes(arg).hex()}
    return arg


def canonical(sid: int, cid: int, address: str, peer: str, args: Iterable[Any]) -> str:
    return json.dumps([sid, cid, address, peer, [_canonical_arg(a) for a in args]],
                      ensure_ascii=False, separators=(",", ":"))


def command_mac(key: bytes, sid: int, cid: int, address: str, peer: str, args: Iterable[Any]) -> bytes:
    return _mac(key, "sg-sig", canonical(sid, cid, address, peer, args))[:MAC_BYTES]


def time_mac(key: bytes, sid: int, n: int, prev: int, hold_us: int, sent: str) -> bytes:
    """A phone's clock sample `/sg/phone/time n prev hold_us sent mac` (docs/PHONE_BUTTONS.md): signed, so a sniffer
    holding the phone's socket token cannot change the link the board measures for it."""
    return _mac(key, "sg-time", str(sid), str(n), str(prev), str(hold_us), sent)[:MAC_BYTES]


def ack_mac(key: bytes, sid: int, cid: int, ok: bool, reason: str) -> bytes:
    return _mac(key, "sg-ack", str(sid), str(cid), "ok" if ok else "error", reason)[:MAC_BYTES]


# What the board sends a signed session is signed with the session's key too (docs/LINKS.md, "Signed both ways"):
# a spoofed state, question, error or connect answer is dropped by the client, whichever transport carried it.
def state_mac(key: bytes, sid: int, rev: int, state_json: str) -> bytes:
    return _mac(key, "sg-state", str(sid), str(rev), state_json)[:MAC_BYTES]


def question_mac(key: bytes, sid: int, rev: int, question_json: str) -> bytes:
    return _mac(key, "sg-question", str(sid), str(rev), question_json)[:MAC_BYTES]


def seats_mac(key: bytes, sid: int, seats_json: str) -> bytes:
    """`/sg/host/seats json mac`: the seats' links and codes, to the host alone (docs/PHONE_BUTTONS.md)."""
    return _mac(key, "sg-seats", str(sid), seats_json)[:MAC_BYTES]


def pong_mac(key: bytes, sid: int, nonce: str) -> bytes:
    """`/sg/pong nonce mac`, the answer to a signed session's `/sg/ping nonce`: the board is there (docs/LINKS.md)."""
    return _mac(key, "sg-pong", str(sid), nonce)[:MAC_BYTES]


def error_mac(key: bytes, sid: int, address: str, reason: str) -> bytes:
    return _mac(key, "sg-error", str(sid), address, reason)[:MAC_BYTES]


def connected_mac(key: bytes, sid: int, snonce: str, port: int | None = None) -> bytes:
    """The board's `/sg/connected sid snonce [port] mac`: it shows the board knew the passcode (the client's key
    checks); `port`, the sessions' own UDP port, is told UDP sessions only."""
    return _mac(key, "sg-connected", str(sid), snonce, *([] if port is None else [str(port)]))[:MAC_BYTES]


SEATS = 99                  # the highest seat a phone may take (the box's limit too)


def seat_of_role(role: Any) -> int | None:
    """`seat:N` (a player's phone, N in 1..SEATS) -> N; anything else -> None."""
    if isinstance(role, str) and role.startswith("seat:") and role[5:].isdigit() and len(role) <= 7:
        seat = int(role[5:])
        return seat if 1 <= seat <= SEATS else None
    return None


def same(given: Any, expected: bytes) -> bool:
    return isinstance(given, (bytes, bytearray)) and hmac.compare_digest(bytes(given), expected)


def new_nonce() -> str:
    return secrets.token_hex(16)


class Verifier:
    """The board's side of a proof: which of its secrets (the key, the stretched passcodes) a connect shows.

    The passcodes are stretched once, on a thread of their own at start (`warm`), and cached: a stranger's connect
    costs the board HMACs, never a stretch."""

    def __init__(self, passcode: str, view_passcode: str, key: bytes):
        self.passcode, self.view_passcode, self.key = passcode, view_passcode, key
        self.salt = board_salt(key)
        self.salt_text = self.salt.hex()
        threading.Thread(target=self.warm, name="osc-stretch", daemon=True).start()

    def warm(self) -> None:
        for code in (self.passcode, self.view_passcode):
            if code:
                stretch(code, self.salt)

    def challenge(self, bnonce: str, peer: str) -> tuple:
        """The arguments of `/sg/auth/challenge`."""
        return bnonce, peer, self.salt_text, KDF

    def proven(self, role: str, bnonce: str, cnonce: str, peer: str, proof: str) -> tuple[str, bytes] | None:
        """(the passcode the proof stands for, its secret), or None: a wrong passcode. The key stands for the host's
        passcode (so the session table's rules are the same for both)."""
        candidates = []
        seat = seat_of_role(role)
        if seat is not None:        # a player's phone proves its seat's key, never a passcode
            candidates.append((role, seat_key(self.key, seat)))
        elif self.passcode:
            candidates += [(self.passcode, self.key), (self.passcode, stretch(self.passcode, self.salt))]
        if role == "view" and self.view_passcode:
            candidates.append((self.view_passcode, stretch(self.view_passcode, self.salt)))
        for code, secret in candidates:
            if hmac.compare_digest(proof.encode("utf-8", "replace"),
                                   connect_proof(secret, role, bnonce, cnonce, peer).encode("ascii")):
                return code, secret
        return None


class Challenger:
    """The board's stateless challenges: `issue(peer)` -> bnonce; `fresh(bnonce, peer)` checks it."""

    def __init__(self, clock=time.monotonic):
        self._secret = secrets.token_bytes(32)
        self._clock = clock

    def issue(self, peer: str) -> str:
        stamp = f"{self._clock():.3f}"
        return stamp + "." + _mac(self._secret, "sg-challenge", peer, stamp).hex()[:32]

    def fresh(self, bnonce: Any, peer: str) -> bool:
        if not isinstance(bnonce, str) or bnonce.count(".") != 2:
            return False
        stamp, _, tag = bnonce.rpartition(".")
        try:
            age = self._clock() - float(stamp)
        except ValueError:
            return False
        expected = _mac(self._secret, "sg-challenge", peer, stamp).hex()[:32]
        # the stamp is rounded to the millisecond, so a fresh one may read a hair in the future
        return -0.01 <= age <= CHALLENGE_TTL and hmac.compare_digest(tag, expected)


class ClientHandshake:
    """The client's side of the authenticated connect (the project's client, `osc/client.py`).

    `message()` is what to send next: `/sg/auth/hello` until a challenge came, then `/sg/auth/connect` with the
    proof (the same bytes on every retry, so a board that answers twice gives the same session key). A challenge
    older than CHALLENGE_TTL minus a margin is dropped and asked for again. `key(sid, snonce)` is the session key
    once the board answered `/sg/connected sid snonce`. With `key` (the board's, from its link) the passcode is not
    needed; else the passcode is stretched with the salt of the board's challenge."""

    MARGIN = 5.0        # seconds: a retried connect must reach the board before its challenge goes stale

    def __init__(self, passcode: str, role: str, clock=time.monotonic, key: bytes | None = None):
        self.passcode, self.role, self._clock, self.board_key = passcode, role, clock, key
        self.restart()

    def restart(self) -> None:
        self.bnonce: str | None = None
        self.peer: str | None = None          # how the board sees this client ("ip:port"); part of every MAC
        self.salt: str | None = None
        self.secret: bytes | None = None
        self.cnonce = new_nonce()
        self._challenged_at = 0.0

    def challenged(self, bnonce: Any, peer: Any, salt: Any = None, kdf: Any = None) -> bool:
        """The board's `/sg/auth/challenge bnonce peer salt kdf`; False if malformed, of another kdf (an older board,
        or a spoofed cheaper stretch) or not needed (one is kept)."""
        if self.bnonce is not None or not all(isinstance(x, str) for x in (bnonce, peer, salt)) or kdf != KDF:
            return False
        try:
            salt_bytes = bytes.fromhex(salt)
        except ValueError:
            return False
        if len(salt_bytes) != SALT_BYTES:
            return False
        self.bnonce, self.peer, self.salt, self._challenged_at = bnonce, peer, salt, self._clock()
        self.secret = self.board_key if self.board_key is not None else stretch(self.passcode, salt_bytes)
        return True

    def message(self) -> tuple[str, tuple]:
        if self.bnonce is not None and self._clock() - self._challenged_at > CHALLENGE_TTL - self.MARGIN:
            self.restart()
        if self.bnonce is None:
            return "/sg/auth/hello", ()
        proof = connect_proof(self.secret, self.role, self.bnonce, self.cnonce, self.peer)
        return "/sg/auth/connect", (self.role, self.bnonce, self.cnonce, proof, self.salt)

    def key(self, sid: int, snonce: Any) -> bytes | None:
        if self.bnonce is None or not isinstance(snonce, str):
            return None
        return session_key(self.secret, sid, snonce, self.cnonce)
