"""The authenticated OSC mode (docs/LINKS.md, "Authenticated sessions"; PROTOCOL.md §2 ext): shared by the board's
server and the project's client, so that both sides compute the same bytes.

Theory of operation. Plain OSC names no session in a command and carries no proof: anyone on the venue's Wi-Fi who
sniffs a datagram can send it again, or forge one from the host's address. The authenticated mode never sends the
passcode; it proves knowledge of it with HMAC-SHA256:

    client -> board   /sg/auth/hello
    board  -> client  /sg/auth/challenge bnonce peer          (peer: "ip:port" as the board sees the client)
    client -> board   /sg/auth/connect role bnonce cnonce proof
                      proof = hex HMAC(passcode, "sg-connect" role bnonce cnonce peer)
    board  -> client  /sg/connected sid snonce
                      key   = HMAC(passcode, "sg-session" sid snonce cnonce)      (never sent)
    client -> board   /sg/sig/<address without /sg> sid id args… mac               (mac: 16-byte blob)
                      mac   = HMAC(key, canonical(sid, id, address, peer, args))[:16]
    board  -> client  /sg/ack id ok|error [reason] mac                              (mac over the answer)

The board's challenge is stateless (its own MAC over the peer and a time, valid CHALLENGE_TTL seconds), so a flood
of hellos costs the board no memory. Within a session every id is applied once (the board remembers the ids) and an
id older than the remembered window is refused; a datagram of an ended session names a session id that is no
longer live (ids are random and never reused) and its key is gone with it. The canonical form is a JSON array, so a
third-party implementation needs no OSC encoder of ours; floats are signed as the float32 OSC carries.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import struct
import time
from typing import Any, Iterable

MAC_BYTES = 16
CHALLENGE_TTL = 30.0
SIG_PREFIX = "/sg/sig/"


def _mac(key: bytes, *parts: str) -> bytes:
    return hmac.new(key, "\n".join(parts).encode("utf-8"), hashlib.sha256).digest()


def _text_key(passcode: str) -> bytes:
    return passcode.encode("utf-8")


def peer_text(addr: tuple) -> str:
    return f"{addr[0]}:{addr[1]}"


def connect_proof(passcode: str, role: str, bnonce: str, cnonce: str, peer: str) -> str:
    return _mac(_text_key(passcode), "sg-connect", role, bnonce, cnonce, peer).hex()


def session_key(passcode: str, sid: int, snonce: str, cnonce: str) -> bytes:
    return _mac(_text_key(passcode), "sg-session", str(sid), snonce, cnonce)


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


def ack_mac(key: bytes, sid: int, cid: int, ok: bool, reason: str) -> bytes:
    return _mac(key, "sg-ack", str(sid), str(cid), "ok" if ok else "error", reason)[:MAC_BYTES]


# What the board sends a signed session is signed with the session's key too (docs/LINKS.md, "Signed both ways"):
# a spoofed state, question, error or connect answer is dropped by the client, whichever transport carried it.
def state_mac(key: bytes, sid: int, rev: int, state_json: str) -> bytes:
    return _mac(key, "sg-state", str(sid), str(rev), state_json)[:MAC_BYTES]


def question_mac(key: bytes, sid: int, rev: int, question_json: str) -> bytes:
    return _mac(key, "sg-question", str(sid), str(rev), question_json)[:MAC_BYTES]


def error_mac(key: bytes, sid: int, address: str, reason: str) -> bytes:
    return _mac(key, "sg-error", str(sid), address, reason)[:MAC_BYTES]


def connected_mac(key: bytes, sid: int, snonce: str, port: int | None = None) -> bytes:
    """The board's `/sg/connected sid snonce [port] mac`: it shows the board knew the passcode (the client's key
    checks); `port`, the sessions' own UDP port, is told UDP sessions only."""
    return _mac(key, "sg-connected", str(sid), snonce, *([] if port is None else [str(port)]))[:MAC_BYTES]


def same(given: Any, expected: bytes) -> bool:
    return isinstance(given, (bytes, bytearray)) and hmac.compare_digest(bytes(given), expected)


def new_nonce() -> str:
    return secrets.token_hex(16)


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
    once the board answered `/sg/connected sid snonce`."""

    MARGIN = 5.0        # seconds: a retried connect must reach the board before its challenge goes stale

    def __init__(self, passcode: str, role: str, clock=time.monotonic):
        self.passcode, self.role, self._clock = passcode, role, clock
        self.restart()

    def restart(self) -> None:
        self.bnonce: str | None = None
        self.peer: str | None = None          # how the board sees this client ("ip:port"); part of every MAC
        self.cnonce = new_nonce()
        self._challenged_at = 0.0

    def challenged(self, bnonce: Any, peer: Any) -> bool:
        """The board's `/sg/auth/challenge bnonce peer`; False if malformed or not needed (one is kept)."""
        if self.bnonce is not None or not isinstance(bnonce, str) or not isinstance(peer, str):
            return False
        self.bnonce, self.peer, self._challenged_at = bnonce, peer, self._clock()
        return True

    def message(self) -> tuple[str, tuple]:
        if self.bnonce is not None and self._clock() - self._challenged_at > CHALLENGE_TTL - self.MARGIN:
            self.restart()
        if self.bnonce is None:
            return "/sg/auth/hello", ()
        proof = connect_proof(self.passcode, self.role, self.bnonce, self.cnonce, self.peer)
        return "/sg/auth/connect", (self.role, self.bnonce, self.cnonce, proof)

    def key(self, sid: int, snonce: Any) -> bytes | None:
        if self.bnonce is None or not isinstance(snonce, str):
            return None
        return session_key(self.passcode, sid, snonce, self.cnonce)
