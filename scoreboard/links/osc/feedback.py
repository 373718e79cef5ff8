"""What the board sends back to its OSC sessions: the ack of every command (signed for a signed session, so a forged
«ok» cannot mislead the host) and the latest state, pushed to every session when it changes and once a second.

The board's thread publishes (`publish` only encodes and stores; the server's thread pushes). Replies go out through
the transport's `send(dgram, addr)`, which picks UDP, TCP or WebSocket by the address; an ack goes out on whichever
thread resolved its command (the board's, for a command the game applied).

A signed session (osc/auth.py) gets everything it trusts signed with its key: the state, the question, acks and
errors. A state too large for one datagram is never dropped in silence: a UDP session gets it with its long texts
shortened (`shorten`, a warning added to the snapshot's `warnings`, `shortened` in the status for the host's
screen); TCP and WebSocket sessions get it whole.
"""
from __future__ import annotations

import json
import threading
from typing import Callable, Optional

from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.osc.messages import build
from scoreboard.links.osc.sessions import Session, SessionTable

MAX_DATAGRAM = 65_000        # the largest state we try to send in one UDP datagram (IPv4 limit minus headers)
SHORTEN_TO = (1024, 256, 64, 16)    # characters a text is cut to, tried in turn until the state fits
SHORTENED = "состояние не помещается в датаграмму UDP: {n} текст(ов) сокращено до {chars} знаков (TCP и WebSocket — целиком)"


def _encode(value) -> str:
    # default=str: a value JSON cannot carry (a Path in a question's media) is sent as text rather than raising into
    # the board's frame loop.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _cut(value, chars: int, cut: list):
    if isinstance(value, str):
        if len(value) <= chars:
            return value
        cut.append(1)
        return value[:chars - 1] + "…"
    if isinstance(value, dict):
        return {key: _cut(item, chars, cut) for key, item in value.items()}
    if isinstance(value, list):
        return [_cut(item, chars, cut) for item in value]
    return value


def shorten(value, fits: Callable[[str], bool], warn: bool) -> tuple[Optional[str], str]:
    """(json, what was done) of `value` with its long texts cut until `fits(json)`; (None, why) if even the shortest
    cut does not fit. `warn`: add the warning to the snapshot's `warnings` (the remote shows them)."""
    for chars in SHORTEN_TO:
        cut: list = []
        short = _cut(value, chars, cut)
        note = SHORTENED.format(n=len(cut), chars=chars)
        if warn and isinstance(short, dict):
            short["warnings"] = [*(short.get("warnings") or []), note]
        text = _encode(short)
        if fits(text):
            return text, note
    return None, "состояние не помещается в датаграмму UDP даже сокращённым"


class Feedback:
    def __init__(self, table: SessionTable, lock: threading.Lock, send: Callable[[bytes, tuple], None],
                 count: Callable[[str], None]):
        self.table = table
        self._lock = lock                   # the server's: the session table and the latest state
        self.send = send
        self._count = count
        # Pushes run on the server thread (publish only wakes it); the lock keeps a test or a future caller
        # on another thread from interleaving an older state after a newer one.
        self._push_lock = threading.RLock()
        self._rev = 0
        self._state: Optional[str] = None         # the latest state's JSON, and the host's question's
        self._question: Optional[str] = None
        self._udp: tuple = (None, None)           # what UDP peers get: the same, or shortened (None: cannot fit)
        self.shortened = ""                       # what was shortened (for the host's screen), "" when nothing
        self._dirty = False

    def publish(self, snapshot: dict, host_question: Optional[dict]) -> None:
        """Remember the latest state (any thread); `take_dirty` tells the server's thread to push it."""
        rev = int(snapshot.get("rev", 0))
        state, question = _encode(snapshot), _encode(host_question)
        udp_state, udp_question, note = state, question, ""
        tag = b"m" * osc_auth.MAC_BYTES     # room for a signed session's MAC
        fits = lambda text: len(build("/sg/state", rev, text, tag)) <= MAX_DATAGRAM  # noqa: E731
        if len(state) > MAX_DATAGRAM // 4 and not fits(state):      # (a UTF-8 character is at most 4 bytes)
            udp_state, note = shorten(snapshot, fits, warn=True)
        fits_q = lambda text: len(build("/sg/host/question", text, rev, tag)) <= MAX_DATAGRAM  # noqa: E731
        if len(question) > MAX_DATAGRAM // 4 and not fits_q(question):
            udp_question, note_q = shorten(host_question, fits_q, warn=False)
            note = note or note_q
        with self._lock:
            self._rev, self._state, self._question = rev, state, question
            self._udp = (udp_state, udp_question)
            self.shortened = note
            self._dirty = True

    def take_dirty(self) -> bool:
        """True once after each publish."""
        with self._lock:
            dirty, self._dirty = self._dirty, False
        return dirty

    def push_all(self) -> None:
        with self._push_lock:
            with self._lock:
                sessions = self.table.sessions()
            for session in sessions:
                self.send_state(session)

    def send_state(self, session: Session) -> None:
        with self._push_lock:
            with self._lock:
                rev, state, question, udp = self._rev, self._state, self._question, self._udp
            if state is None:
                return
            if len(session.addr) == 2:          # a UDP peer: the datagram's limit (streams carry any length)
                if udp[0] is not state:
                    self._count("state_shortened" if udp[0] is not None else "state_too_big")
                state, question = udp
            if state is not None:
                self._count("states_sent")
                self.send(self._signed(session, "/sg/state", rev, state, osc_auth.state_mac), session.addr)
            if session.is_host and question is not None:
                self.send(self._signed(session, "/sg/host/question", rev, question, osc_auth.question_mac),
                          session.addr)

    @staticmethod
    def _signed(session: Session, address: str, rev: int, text: str, mac) -> bytes:
        if session.key is None:
            return build(address, rev, text) if address == "/sg/state" else build(address, text, rev)
        tag = mac(session.key, session.sid, rev, text)
        return build(address, rev, text, tag) if address == "/sg/state" else build(address, text, rev, tag)

    def ack(self, session: Session, cid: int, ok: bool, reason: Optional[str]) -> None:
        if session.key is not None:         # signed, so a forged "ok" cannot mislead the host
            mac = osc_auth.ack_mac(session.key, session.sid, cid, ok, "" if ok else reason or "refused")
            message = (build("/sg/ack", cid, "ok", mac) if ok else
                       build("/sg/ack", cid, "error", reason or "refused", mac))
        else:
            message = build("/sg/ack", cid, "ok") if ok else build("/sg/ack", cid, "error", reason or "refused")
        self._count("acks_sent")
        self.send(message, session.addr)

    def error(self, session: Session, address: str, reason: str) -> None:
        """`/sg/error address reason [mac]`: signed for a signed session, so a forged refusal is never shown."""
        if session.key is not None:
            self.send(build("/sg/error", address, reason, osc_auth.error_mac(session.key, session.sid, address,
                                                                             reason)), session.addr)
        else:
            self.send(build("/sg/error", address, reason), session.addr)
