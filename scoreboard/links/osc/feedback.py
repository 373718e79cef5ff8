"""What the board sends back to its OSC sessions: the ack of every command (signed for a signed session, so a forged
«ok» cannot mislead the host) and the latest state, pushed to every session when it changes and once a second.

The board's thread publishes (`publish` only encodes and stores; the server's thread pushes). Replies go out through
the transport's `send(dgram, addr)`, which picks UDP, TCP or WebSocket by the address; an ack goes out on whichever
thread resolved its command (the board's, for a command the game applied).
"""
from __future__ import annotations

import json
import threading
from typing import Callable, Optional

from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.osc.messages import build
from scoreboard.links.osc.sessions import Session, SessionTable

MAX_DATAGRAM = 65_000        # the largest state we try to send in one UDP datagram (IPv4 limit minus headers)


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
        self._state: Optional[bytes] = None
        self._question: Optional[bytes] = None
        self._dirty = False

    def publish(self, snapshot: dict, host_question: Optional[dict]) -> None:
        """Remember the latest state (any thread); `take_dirty` tells the server's thread to push it."""
        rev = int(snapshot.get("rev", 0))
        # default=str: a value JSON cannot carry (a Path in a question's media) is sent as text rather than
        # raising into the board's frame loop.
        encode = lambda value: json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)  # noqa
        state = build("/sg/state", rev, encode(snapshot))
        question = build("/sg/host/question", encode(host_question), rev)
        with self._lock:
            self._state, self._question = state, question
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
                state, question = self._state, self._question
            if state is None:
                return
            if len(state) > MAX_DATAGRAM:
                self._count("state_too_big")
                return
            self._count("states_sent")
            self.send(state, session.addr)
            if session.is_host and question is not None and len(question) <= MAX_DATAGRAM:
                self.send(question, session.addr)

    def ack(self, session: Session, cid: int, ok: bool, reason: Optional[str]) -> None:
        if session.key is not None:         # signed, so a forged "ok" cannot mislead the host
            mac = osc_auth.ack_mac(session.key, session.sid, cid, ok, "" if ok else reason or "refused")
            message = (build("/sg/ack", cid, "ok", mac) if ok else
                       build("/sg/ack", cid, "error", reason or "refused", mac))
        else:
            message = build("/sg/ack", cid, "ok") if ok else build("/sg/ack", cid, "error", reason or "refused")
        self._count("acks_sent")
        self.send(message, session.addr)
