"""The project's one OSC client of the board (PROTOCOL.md §2, docs/LINKS.md): the remote, followers, benches, tests.

Theory of operation. One UDP socket talks to one board and one background thread owns its receive side and the
retry clock. `connect()` opens a session: by default the authenticated handshake (osc/auth.py: the board's key, or
the passcode stretched with the board's salt, is proven, never sent; every command is then signed), or the plain `/sg/connect passcode role`, repeated with backoff
until the board answers. Every command goes out with an id — `/sg/sig/…` signed, or `/sg/cmd/…` — and is re-sent
(50 ms, doubling to 0.4 s, ±20 % jitter) until its `/sg/ack id …` arrives; the board applies each (session, id) once
and acks every copy. The thread also pings (the board expires idle sessions), asks `/sg/sync` when an ok ack is not
followed by a newer state, keeps the highest rev, and reconnects by itself when the board falls silent or forgets
the session. It never blocks its user: the UI drains `events`; scripts and tests may block on `command()`,
`connect(timeout=…)` and `wait_state()`.

Connection state (`state`): `idle`; `connecting`; `connected` (the board spoke within `quiet_after` and no command
is overdue); `retrying` (a command unacked past its second send, or the board quiet); `lost` (nothing for
`lost_after`: re-connecting; or the reader thread ended, `lost_reason` says why, and only `connect()` starts
again); `denied` (the passcode is wrong: not retried, it stays wrong). `connected` is True in the first two.

The thread is a `DatagramReader` (osc/reader.py, pyserial's ReaderThread): whatever the client's own code raises on
it ends it and comes back as `connection_lost(error)`, so the state follows the thread — a client whose reader died
says `lost` with the reason (and calls `on_connection_lost`), never "connected".

`auth`: `"auto"` (default) signs whenever the board answers `/sg/auth/hello` (every board of this version does) and
falls back to the plain connect only for a board that does not know the mode (it answers two hellos «not connected»);
once authenticated, never plain again. `"on"` never sends the passcode or an unsigned command. `"off"` is plain.
`key` (the board's, from its link `http://BOARD:8080/#k=KEY`) replaces the passcode and is never plain.

A reconnect that gets a *new* session id cannot know whether pending commands were applied under the old one (the
ack may be what was lost), so those are not re-sent: they are reported `unknown`. Re-sending could apply a command
twice, which is the one thing the protocol exists to prevent. The same session (the board kept it) gets them again,
signed with the new handshake's key.

The sessions' own port: a signed session is told a second board port in `/sg/connected` (osc/server.py: a flood on
the well-known port must not drown the host's datagrams). The client probes it with a ping and sends there only once
the board answered from it (a relay or NAT in between never does: the client stays on the well-known port); a
command unacked after four sends goes back to the well-known port. Connects always go to the well-known port.
"""
from __future__ import annotations

import logging
import queue
import random
import secrets
import socket
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.osc.client_rx import EVENTS_KEPT, Receiver
from scoreboard.links.osc.messages import Ack, Event, build_message, cmd_address, sig_address
from scoreboard.links.osc.reader import MAX_DATAGRAM, DatagramReader

log = logging.getLogger("scoreboard.links.osc")

__all__ = ["OscClient", "NotConnected", "OutcomeUnknown", "Ack", "Event", "build_message", "cmd_address"]

FIRST_RETRY = 0.05      # seconds before the first re-send of an unacked command
MAX_RETRY = 0.4         # the backoff ceiling: on a LAN a tap must not wait a second for its next try
QUIET_AFTER = 2.5       # the board pushes state once a second: this much silence is suspicious
LOST_AFTER = 5.0        # ... and this much means the link is gone
KEEPALIVE = 5.0         # /sg/ping this often: the board expires sessions idle for 30 s (docs/LINKS.md)
DOUBT_FOR = 1.0         # a signed session told «not connected» (unsigned: anyone can send it) checks for this long
AUTH_MODES = ("auto", "on", "off")


class NotConnected(Exception):
    """The board did not answer the connect, or refused it (str(e) says which)."""


class OutcomeUnknown(TimeoutError):
    """The board's session changed while a command waited for its ack: it may or may not have been applied."""


@dataclass
class _Pending:
    id: int
    address: str
    args: tuple
    first_sent: float
    next_send: float
    delay: float
    cap: float
    retry: bool = True      # False: send_with_id's single copy (benches, tests)
    attempts: int = 1
    packet: bytes = b""
    gen: int = -1           # which session/key `packet` was encoded for


class OscClient(Receiver):
    """One connection to one board. Thread-safe; nothing here blocks unless asked to."""

    def __init__(self, host: str, port: int = 9000, passcode: str = "", role: str = "host", *,
                 key: str | bytes | None = None, auth: str = "auto", bind: tuple[str, int] | None = None, check: bool = True,
                 first_retry: float = FIRST_RETRY, max_retry: float = MAX_RETRY, quiet_after: float = QUIET_AFTER,
                 lost_after: float = LOST_AFTER, keepalive: float = KEEPALIVE, clock=time.monotonic,
                 on_connection_lost: Callable[[BaseException], None] | None = None) -> None:
        if role not in ("host", "view"):
            raise ValueError(f"role must be host or view, got {role!r}")
        if auth not in AUTH_MODES:
            raise ValueError(f"auth must be one of {', '.join(AUTH_MODES)}, got {auth!r}")
        if isinstance(key, str):
            key = osc_auth.parse_key(key)           # ValueError with the reason
        if key is not None and auth == "off":
            raise ValueError("the board's key proves itself by the authenticated mode only: not with auth off")
        self.board = (socket.gethostbyname(host), int(port))
        self.passcode, self.role, self.auth, self.check = passcode, role, auth, check
        self.first_retry, self.max_retry, self.keepalive = first_retry, max_retry, keepalive
        self.quiet_after, self.lost_after = quiet_after, lost_after
        self._clock = clock
        self.events: queue.Queue[Event] = queue.Queue(EVENTS_KEPT)
        self._lock = threading.Condition()      # guards everything below; notified on every change
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.bind(bind or ("127.0.0.1" if self.board[0] == "127.0.0.1" else "0.0.0.0", 0))
        self._sock.setblocking(False)
        self._pending: dict[int, _Pending] = {}
        self._acks: OrderedDict[int, Ack] = OrderedDict()
        self._unknown: set[int] = set()
        # Random, so that ids never restart at one address (the board keeps an ended session's ids, osc/sessions.py).
        self._next_id = secrets.randbelow(2**30) + 1
        self._state = "idle"
        self.session: Any = None
        self.rev = -1
        self.snapshot: dict | None = None
        self.latest: tuple[int, dict | None] = (-1, None)   # (rev, snapshot): a new tuple for every state heard
        self.question: dict | None = None
        self.last_ack: Ack | None = None
        self.denied_reason = ""
        self.ignored = 0                # datagrams that were malformed, foreign, forged or out of date
        self.errors: list[tuple[str, str]] = []     # /sg/error address reason
        self._handshake = osc_auth.ClientHandshake(passcode, role, clock, key)
        self._plain = auth == "off"     # auto: until a board shows it does not know the authenticated mode
        self._keyed = key is not None   # a key has no plain form: never fall back
        self._auth_known = False        # the board answered a hello: never fall back to plain
        self._hello_refusals = 0        # «not connected» answers to hellos (auto: plain after two, client_rx.py)
        self._key: bytes | None = None
        self._pings: list[str] = []     # a signed session's last keepalive nonces: only their signed pongs count
        self._gen = 0
        self._last_heard = self._last_sent = self._connect_started = self._connect_next = 0.0
        self._connect_delay = first_retry
        self._question_rev = -1
        self._sync: list | None = None  # after an ok ack: [rev at ack, next ask, delay, asks left]
        self._doubt: float | None = None    # when an unsigned «not connected» came to a signed session
        self._port: int | None = None       # the sessions' own board port, told by the board (see above)
        self._use_port = False              # ... and the board answered from it: commands go there
        self.on_connection_lost = on_connection_lost    # called on the reader's thread when it dies
        self._lost_reason = ""
        self._routes = self._answers()  # the board's answers → their handlers (osc/client_rx.py)
        self._reader = DatagramReader(self._sock, self)
        self._reader.start()

    # ---- public API -------------------------------------------------------------------------------------------
    @property
    def local_address(self) -> tuple[str, int]:
        return self._sock.getsockname()

    @property
    def state(self) -> str:
        """Follows the reader: a dead reader is `lost` whatever the last answer said."""
        with self._lock:
            if self._state != "idle" and not self._reader.alive:
                return "lost"
            return self._state

    @property
    def connected(self) -> bool:
        """A session is open and the reader runs (state `connected` or `retrying`)."""
        return self.state in ("connected", "retrying")

    @property
    def lost_reason(self) -> str:
        """Why the reader ended ("" while it runs): the client then says `lost` until `connect()`."""
        with self._lock:
            if self._reader.alive or self._state == "idle":
                return ""
            return self._lost_reason or "the client's reader thread ended"

    @property
    def signed(self) -> bool:
        """True while the session is an authenticated one (commands signed, acks checked)."""
        with self._lock:
            return self._key is not None

    @property
    def on_sessions_port(self) -> bool:
        """True while commands go to the board's sessions' own port (it answered from there)."""
        return self._use_port

    @property
    def peer(self) -> str | None:
        """How the board sees this client ("ip:port", from its challenge): part of every signature."""
        with self._lock:
            return self._handshake.peer

    def connecting_for(self) -> float:
        """Seconds since connect() while no answer has come (0 once connected)."""
        with self._lock:
            return self._clock() - self._connect_started if self._state == "connecting" else 0.0

    def pending_count(self) -> int:
        with self._lock:
            return len(self._pending)

    def connect(self, timeout: float | None = None):
        """Start (or restart) connecting. Without a timeout it returns at once (watch `state`/`events`); with one it
        blocks until the session is open and returns its id, or raises NotConnected (denied, or no answer)."""
        with self._lock:
            if not self._reader.alive and not self._reader.stopping:     # it died: the owner starts it again
                self._lost_reason = ""
                self._reader = DatagramReader(self._sock, self)
                self._reader.start()
            self.denied_reason = ""
            self._connect_started = self._clock()
            self._connect_delay, self._connect_next = self.first_retry, 0.0
            self._handshake.restart()
            self._set_state("connecting")
            # The first try at once: the reader may sleep up to a quarter of a second before its next turn.
            self._transmit(self._connect_packet(), main=True)
            self._connect_next = self._clock() + self._connect_delay
            if timeout is None:
                return None
            end = time.monotonic() + timeout
            while self._state == "connecting" and time.monotonic() < end:
                self._lock.wait(end - time.monotonic())
            if self._state in ("connected", "retrying"):
                return self.session
            if self._state == "denied":
                raise NotConnected(self.denied_reason)
            if not self._reader.alive:
                raise NotConnected(f"connection lost: {self._lost_reason or 'the reader thread ended'}")
            self._set_state("idle")
        raise NotConnected(f"no answer from {self.board[0]}:{self.board[1]} within {timeout} s")

    def send(self, address: str, *args: Any, first_retry: float | None = None) -> int:
        """Queue `address args…` for exactly-once delivery (re-sent until acked); returns the command id.
        Raises ValueError on a bad address or arguments. Sent once a session is open."""
        return self._queue(self.new_id(), address, args, first_retry or self.first_retry, True)

    def new_id(self) -> int:
        with self._lock:
            self._next_id += 1
            return self._next_id

    def send_with_id(self, cid: int, address: str, *args: Any) -> None:
        """One copy of a command with this id, not re-sent by the client (benches and tests that count copies);
        its ack is kept for ack(cid)."""
        self._queue(cid, address, args, self.first_retry, False)

    def ack(self, cid: int) -> Ack | None:
        with self._lock:
            return self._acks.get(cid)

    def command(self, address: str, *args: Any, timeout: float = 5.0,
                retry: float | None = None) -> tuple[bool, str | None]:
        """Send until acked and wait: (True, None) applied, (False, reason) refused. TimeoutError (the command is
        given up), or OutcomeUnknown when the board's session changed meanwhile."""
        cid = self.send(address, *args, first_retry=retry)
        end = time.monotonic() + timeout
        with self._lock:
            while True:
                ack = self._acks.get(cid)
                if ack is not None:
                    return ack.ok, None if ack.ok else ack.reason or "refused"
                if cid in self._unknown:
                    self._unknown.discard(cid)
                    raise OutcomeUnknown(f"{address} (id {cid}): the board's session changed before its ack")
                if time.monotonic() >= end:
                    self._pending.pop(cid, None)
                    raise TimeoutError(f"no ack for {address} (id {cid}) within {timeout} s")
                self._lock.wait(end - time.monotonic())

    def wait_state(self, predicate: Callable[[dict], bool], timeout: float = 3.0) -> dict:
        """Block until a received snapshot satisfies `predicate`; returns it (TimeoutError otherwise)."""
        with self._lock:
            if not self._lock.wait_for(lambda: self.snapshot is not None and predicate(self.snapshot), timeout):
                raise TimeoutError("the board's state did not reach the expected condition")
            return self.snapshot

    def wait_for(self, predicate, timeout: float) -> bool:
        """Poll `predicate()` until true or timeout (tests and scripts; the UI never blocks)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if predicate():
                return True
            time.sleep(0.005)
        return bool(predicate())

    def close(self) -> None:
        with self._lock:
            live = self._state in ("connected", "retrying")
            self._next_id += 1                      # a signed session ends by a signed disconnect only
            packet = self._signed("/sg/disconnect", self._next_id, ()) if self._key is not None else \
                build_message("/sg/disconnect", ())
        if live:
            self._transmit(packet)
        self._reader.stop()
        self._sock.close()
        with self._lock:
            self._set_state("idle")

    # ---- sending ----------------------------------------------------------------------------------------------
    def _queue(self, cid: int, address: str, args: tuple, first_retry: float, retry: bool) -> int:
        args = tuple(int(a) if isinstance(a, bool) else a for a in args)   # what the board receives and signs
        if len(build_message(cmd_address(address), (cid, *args))) > MAX_DATAGRAM - 64:
            raise ValueError(f"{address}: message too large for one datagram")
        with self._lock:
            now = self._clock()
            item = self._pending.get(cid)
            if item is None:
                item = _Pending(cid, address, args, now, now + first_retry, first_retry,
                                max(self.max_retry, first_retry), retry)
                self._pending[cid] = item
            packet = self._packet(item) if self._state in ("connected", "retrying") else None
        if packet is not None:
            self._transmit(packet)
        return cid

    def _packet(self, item: _Pending) -> bytes:
        """Caller holds the lock. Signed with the session's key in the authenticated mode."""
        if item.gen != self._gen:
            item.packet = build_message(cmd_address(item.address), (item.id, *item.args)) if self._key is None \
                else self._signed(item.address, item.id, item.args)
            item.gen = self._gen
        return item.packet

    def _signed(self, address: str, cid: int, args: tuple) -> bytes:
        """Caller holds the lock: `/sg/sig/…` of this session, signed with its key."""
        mac = osc_auth.command_mac(self._key, self.session, cid, address, self._handshake.peer, args)
        return build_message(sig_address(address), (self.session, cid, *args, mac))

    def _connect_packet(self) -> bytes:
        if self._plain:
            return build_message("/sg/connect", (self.passcode, self.role))
        return build_message(*self._handshake.message())

    def _transmit(self, packet: bytes, main: bool = False) -> None:
        """Send to the board: to the sessions' own port once it answered from there, unless `main` (a connect)."""
        to = (self.board[0], self._port) if self._use_port and not main else self.board
        try:
            self._sock.sendto(packet, to)
            self._last_sent = self._clock()
        except OSError:
            pass  # no route right now (or closed): the retry clock tries again

    # ---- the reader's protocol (its thread; datagram_received is in client_rx.py) ------------------------------
    def connection_lost(self, error: BaseException | None) -> None:
        """The reader ended: None when close() stopped it; else the client is not connected any more, says why,
        and tells `on_connection_lost` (on the reader's thread)."""
        if error is None:
            return
        reason = f"{type(error).__name__}: {error}"
        with self._lock:
            self._lost_reason = reason
            self._state = "lost"
            self._lock.notify_all()
        self._emit(Event("connection", "lost", reason))     # even from `lost`: the UI learns the reason
        if self.on_connection_lost is not None:
            try:
                self.on_connection_lost(error)
            except Exception:
                log.exception("on_connection_lost raised")

    def due(self) -> float:
        """The reader's timer turn: re-send what is due, update the connection state; how long it may sleep."""
        now = self._clock()
        due: list[bytes] = []
        with self._lock:
            wake = now + 0.25
            if self._state in ("connecting", "lost"):
                if now >= self._connect_next:
                    self._transmit(self._connect_packet(), main=True)
                    self._connect_next = now + self._connect_delay
                    self._connect_delay = min(self._connect_delay * 2, self.max_retry)
                wake = min(wake, self._connect_next)
            if self._state in ("connected", "retrying"):
                overdue = False
                for item in self._pending.values():
                    if item.retry and now >= item.next_send:
                        due.append(self._packet(item))
                        item.attempts += 1
                        # Backoff with jitter so that a burst of commands does not re-send in lockstep.
                        item.delay = min(item.delay * 2, item.cap)
                        item.next_send = now + item.delay * random.uniform(0.8, 1.2)
                    overdue = overdue or item.attempts > 2
                    if item.attempts >= 4 and self._use_port:     # the sessions' port stopped answering
                        self._use_port = False
                    if item.retry:
                        wake = min(wake, item.next_send)
                if self._sync is not None:
                    if self.rev > self._sync[0] or self._sync[3] <= 0:
                        self._sync = None
                    elif now >= self._sync[1]:
                        due.append(build_message("/sg/sync", ()))
                        self._sync[2] *= 2
                        self._sync[1] = now + self._sync[2]
                        self._sync[3] -= 1
                    if self._sync is not None:
                        wake = min(wake, self._sync[1])
                if self.keepalive and now - self._last_sent >= self.keepalive:
                    # One who just watches sends nothing; without this the board would expire the session.
                    due.append(self._ping())
                silent = now - self._last_heard
                # No signed word from the board since an unsigned «not connected» (osc/client_rx.py): it was true.
                doubted = self._doubt is not None and now - self._doubt >= DOUBT_FOR
                if silent >= self.lost_after or doubted:
                    self._lose(now)
                    wake = now
                else:
                    if self._doubt is not None:
                        wake = min(wake, self._doubt + DOUBT_FOR)
                    self._set_state("retrying" if overdue or silent >= self.quiet_after else "connected")
        for packet in due:
            self._transmit(packet)
        return max(0.0, min(wake - self._clock(), 0.25))

    def _ping(self) -> bytes:
        """Caller holds the lock. A signed session's ping carries a nonce the board signs back (`/sg/pong nonce
        mac`): a pong forged from the board's address cannot hold up «нет связи» while the board is silent."""
        if self._key is None:
            return build_message("/sg/ping", ())
        nonce = secrets.token_hex(8)
        self._pings = [*self._pings[-3:], nonce]
        return build_message("/sg/ping", (nonce,))

    def _lose(self, now: float) -> None:
        """Caller holds the lock: the session is gone or in doubt; connect again (a fresh handshake)."""
        self._doubt = None
        self._connect_delay, self._connect_next = self.first_retry, now
        self._handshake.restart()
        self._set_state("lost")

    def _set_state(self, state: str) -> None:
        """Caller holds the lock."""
        if state != self._state:
            self._state = state
            self._lock.notify_all()
            self._emit(Event("connection", state))
