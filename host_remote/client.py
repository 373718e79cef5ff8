"""The host remote's OSC client (PROTOCOL.md §2): connect, send commands exactly once, follow the board's state.

Theory of operation. One UDP socket talks to one board. `connect()` sends `/sg/connect passcode role` and repeats
it with backoff until the board answers `/sg/connected session_id` or `/sg/denied reason`. Every command goes out in
the exactly-once form `/sg/cmd/<address without /sg> id args…`; the board applies each (session, id) once and acks
every copy, so the client simply re-sends a command (50 ms, doubling to 0.4 s) until its `/sg/ack id …` arrives.

One background thread owns the socket's receive side and the retry clock. It never touches pygame: everything the
UI needs goes onto `events` (a queue the UI drains each frame), and a few summary fields (connection state, the
board's rev, the last ack) are readable from any thread under a lock.

Connection state, as the host sees it:
- `idle`       nothing asked yet, or `close()`d;
- `connecting` /sg/connect sent, no answer yet;
- `connected`  the board spoke within `quiet_after` seconds and no command is overdue;
- `retrying`   a command has gone unacked past its first retry, or the board has been quiet for `quiet_after`;
- `lost`       nothing from the board for `lost_after` seconds; the client keeps re-connecting by itself;
- `denied`     the board refused the passcode (no automatic retry: a wrong passcode stays wrong).

A reconnect that gets a *new* session id cannot know whether pending commands were applied under the old session
(the ack may be what was lost), so those are not re-sent: they are reported as `unknown` for the host to check on
the board. Re-sending them could apply a command twice, which is the one thing the protocol exists to prevent.
"""
from __future__ import annotations

import json
import queue
import random
import select
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

from pythonosc.osc_message import OscMessage, ParseError

from scoreboard.snapshot_check import check_host_question, check_snapshot

from .messages import Ack, Event, build_message, cmd_address

__all__ = ["RemoteClient", "Ack", "Event", "build_message", "cmd_address"]

FIRST_RETRY = 0.05      # seconds before the first re-send of an unacked command
MAX_RETRY = 0.4         # the backoff ceiling: on a LAN a tap must not wait a second for its next try
QUIET_AFTER = 2.5       # the board pushes state once a second: this much silence is suspicious
LOST_AFTER = 5.0        # ... and this much means the link is gone
SYNC_AFTER = 0.15       # no new state this long after an ok ack: ask for it
KEEPALIVE = 5.0         # /sg/ping this often: the board expires sessions idle for 30 s (docs/LINKS.md)
MAX_DATAGRAM = 65507


@dataclass
class _Pending:
    id: int
    address: str
    args: tuple
    packet: bytes
    first_sent: float
    next_send: float
    delay: float
    attempts: int = 1


class RemoteClient:
    """One connection from the host remote to one board. Thread-safe to call from the UI thread."""

    def __init__(self, host: str, port: int = 9000, *, passcode: str = "", role: str = "host",
                 first_retry: float = FIRST_RETRY, max_retry: float = MAX_RETRY,
                 quiet_after: float = QUIET_AFTER, lost_after: float = LOST_AFTER,
                 clock=time.monotonic) -> None:
        if role not in ("host", "view"):
            raise ValueError(f"role must be host or view, got {role!r}")
        self.board = (socket.gethostbyname(host), int(port))
        self.passcode = passcode
        self.role = role
        self.first_retry = first_retry
        self.max_retry = max_retry
        self.quiet_after = quiet_after
        self.lost_after = lost_after
        self._clock = clock
        self.events: queue.Queue[Event] = queue.Queue()
        self._lock = threading.Lock()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.bind(("0.0.0.0" if self.board[0] != "127.0.0.1" else "127.0.0.1", 0))
        self._sock.setblocking(False)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pending: dict[int, _Pending] = {}
        self._next_id = 1
        # Shared summary, guarded by _lock.
        self._state = "idle"
        self.session: str | None = None
        self.rev = -1
        self.snapshot: dict | None = None
        self.question: dict | None = None
        self.last_ack: Ack | None = None
        self.denied_reason = ""
        self.ignored = 0          # datagrams that were malformed, foreign or out of date
        self._last_heard = 0.0
        self._connect_next = 0.0
        self._connect_delay = first_retry
        self._connect_started = 0.0
        self._question_rev = -1
        self._last_sent = 0.0
        self.errors: list[tuple[str, str]] = []   # /sg/error address reason (a malformed command of ours)
        # After an ok ack the board's new state should follow at once; if it was lost, ask (/sg/sync) rather
        # than wait for the once-a-second push: [rev at ack, next ask, delay, asks left] or None.
        self._sync: list | None = None

    # ---- public API (UI thread) -------------------------------------------------------------------------------
    @property
    def local_address(self) -> tuple[str, int]:
        return self._sock.getsockname()

    @property
    def state(self) -> str:
        with self._lock:
            return self._state

    def connecting_for(self) -> float:
        """Seconds since connect() while no answer has come (0 once connected)."""
        with self._lock:
            return self._clock() - self._connect_started if self._state == "connecting" else 0.0

    def pending_count(self) -> int:
        with self._lock:
            return len(self._pending)

    def connect(self) -> None:
        """Start (or restart) connecting; returns at once. Watch `events` / `state` for the outcome."""
        with self._lock:
            self.denied_reason = ""
            self._connect_started = self._clock()
            self._connect_delay = self.first_retry
            self._connect_next = 0.0
            self._set_state("connecting")
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="remote-osc", daemon=True)
            self._thread.start()

    def send(self, address: str, *args: Any) -> int:
        """Queue `address args…` for exactly-once delivery; returns the command id. Raises ValueError on bad args."""
        with self._lock:
            command_id = self._next_id
            packet = build_message(cmd_address(address), (command_id, *args))
            if len(packet) > MAX_DATAGRAM:
                raise ValueError(f"{address}: message too large for one datagram")
            self._next_id += 1
            now = self._clock()
            self._pending[command_id] = _Pending(command_id, address, tuple(args), packet, now,
                                                 now + self.first_retry, self.first_retry)
            ready = self._state in ("connected", "retrying")
        if ready:
            self._transmit(packet)
        return command_id

    def wait_for(self, predicate, timeout: float) -> bool:
        """Poll `predicate()` until true or timeout (tests and scripts; the UI never blocks)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if predicate():
                return True
            time.sleep(0.005)
        return bool(predicate())

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        self._sock.close()
        with self._lock:
            self._set_state("idle")

    # ---- the background thread ---------------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            timeout = self._housekeeping()
            try:
                readable, _, _ = select.select([self._sock], [], [], timeout)
            except (OSError, ValueError):
                return  # the socket was closed under us: close() is on its way
            if not readable:
                continue
            while True:
                try:
                    data, sender = self._sock.recvfrom(MAX_DATAGRAM)
                except BlockingIOError:
                    break
                except OSError:
                    break  # ICMP port unreachable (the board is down) surfaces here on some systems
                self._receive(data, sender)

    def _housekeeping(self) -> float:
        """Re-send what is due, update the connection state; return how long the thread may sleep."""
        now = self._clock()
        due: list[bytes] = []
        with self._lock:
            wake = now + 0.25
            if self._state in ("connecting", "lost") and now >= self._connect_next:
                due.append(build_message("/sg/connect", (self.passcode, self.role)))
                self._connect_next = now + self._connect_delay
                self._connect_delay = min(self._connect_delay * 2, self.max_retry)
            if self._state in ("connecting", "lost"):
                wake = min(wake, self._connect_next)
            if self._state in ("connected", "retrying"):
                silent = now - self._last_heard
                overdue = False
                for item in self._pending.values():
                    if now >= item.next_send:
                        due.append(item.packet)
                        item.attempts += 1
                        # Backoff with jitter so that a burst of commands does not re-send in lockstep.
                        item.delay = min(item.delay * 2, self.max_retry)
                        item.next_send = now + item.delay * random.uniform(0.8, 1.2)
                    overdue = overdue or item.attempts > 2
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
                if now - self._last_sent >= KEEPALIVE:
                    # A host who just watches sends nothing; without this the board would expire the session
                    # and the next tap would come back "not connected".
                    due.append(build_message("/sg/ping", ()))
                if silent >= self.lost_after:
                    self._connect_delay = self.first_retry
                    self._connect_next = now
                    self._set_state("lost")
                    wake = now
                elif overdue or silent >= self.quiet_after:
                    self._set_state("retrying")
                else:
                    self._set_state("connected")
        for packet in due:
            self._transmit(packet)
        return max(0.0, min(wake - self._clock(), 0.25))

    def _transmit(self, packet: bytes) -> None:
        try:
            self._sock.sendto(packet, self.board)
            self._last_sent = self._clock()
        except OSError:
            pass  # no route right now: the retry clock tries again

    def _receive(self, data: bytes, sender: tuple) -> None:
        # Only the board may steer the remote: a datagram from anyone else is dropped.
        if (sender[0], sender[1]) != self.board:
            self._ignore()
            return
        try:
            message = OscMessage(data)
            address, args = message.address, list(message.params)
        except (ParseError, IndexError, ValueError, TypeError, UnicodeDecodeError):
            self._ignore()
            return
        handler = {"/sg/connected": self._on_connected, "/sg/denied": self._on_denied,
                   "/sg/ack": self._on_ack, "/sg/state": self._on_state,
                   "/sg/host/question": self._on_question, "/sg/error": self._on_error,
                   "/sg/pong": self._on_pong, "/sg/setup/catalog": self._on_catalog}.get(address)
        if handler is None or not handler(args):
            self._ignore()

    def _ignore(self) -> None:
        with self._lock:
            self.ignored += 1

    def _heard(self) -> None:
        self._last_heard = self._clock()
        if self._state in ("retrying", "lost"):
            self._set_state("connected")

    def _on_connected(self, args: list) -> bool:
        if not args:
            return False
        session = str(args[0])
        unknown: list[_Pending] = []
        with self._lock:
            if self._state not in ("connecting", "lost") and session == self.session:
                self._heard()
                return True   # a duplicate of the answer we already have
            if self.session is not None and session != self.session:
                # A new session cannot tell us what the old one applied: hand those back to the host.
                unknown = list(self._pending.values())
                self._pending.clear()
                self.rev = -1  # a restarted board may count revisions from scratch
                self._question_rev = -1
            self.session = session
            self._last_heard = self._clock()
            self._set_state("connected")
            resend = [item.packet for item in self._pending.values()]
        for item in unknown:
            self.events.put(Event("unknown", item.id, item.address))
        for packet in resend:
            self._transmit(packet)
        return True

    def _on_denied(self, args: list) -> bool:
        reason = str(args[0]) if args else "denied"
        with self._lock:
            if self._state in ("connected", "retrying"):
                # A live session the board no longer knows (it restarted or the session expired): connect again.
                self._connect_next = self._clock()
                self._set_state("lost")
                return True
            self.denied_reason = reason
            self._set_state("denied")
        return True

    def _on_ack(self, args: list) -> bool:
        if len(args) < 2 or not isinstance(args[0], int) or args[1] not in ("ok", "error"):
            return False
        with self._lock:
            self._heard()
            item = self._pending.pop(args[0], None)
            if item is None:
                return True   # a duplicate ack of a command already settled
            now = self._clock()
            reason = " ".join(str(a) for a in args[2:]) if args[1] == "error" else ""
            ack = Ack(item.id, item.address, args[1] == "ok", reason, item.first_sent, now, item.attempts)
            self.last_ack = ack
            if ack.ok:
                # At most 3 asks: if the new state overtook this ack, rev is already the new one and the asks
                # only fetch the same state again.
                self._sync = [self.rev, now + SYNC_AFTER, SYNC_AFTER, 3]
        self.events.put(Event("ack", ack))
        return True

    def _on_state(self, args: list) -> bool:
        if len(args) < 2 or not isinstance(args[0], int) or not isinstance(args[1], str):
            return False
        try:
            snapshot = json.loads(args[1])
        except (ValueError, RecursionError):   # deeply nested JSON from a hostile datagram
            return False
        found = check_snapshot(snapshot)
        if found:
            # Keep the last good state on screen and say why this one was refused.
            self.events.put(Event("error", ("/sg/state", "; ".join(found))))
            return False
        with self._lock:
            self._heard()
            if args[0] < self.rev:
                return True   # a reordered, older state: the newer one is already shown
            fresh = args[0] > self.rev or self.snapshot is None
            self.rev = args[0]
            self.snapshot = snapshot
        if fresh:
            self.events.put(Event("state", snapshot, args[0]))
        return True

    def _on_question(self, args: list) -> bool:
        # `/sg/host/question json [rev]`: the rev (the links server sends it) lets a reordered old one be dropped.
        if not args or not isinstance(args[0], str):
            return False
        try:
            question = json.loads(args[0])
        except (ValueError, RecursionError):
            return False
        found = check_host_question(question)
        if found:
            self.events.put(Event("error", ("/sg/host/question", "; ".join(found))))
            return False
        rev = args[1] if len(args) > 1 and isinstance(args[1], int) else None
        with self._lock:
            self._heard()
            if rev is not None:
                if rev < self._question_rev:
                    return True
                self._question_rev = rev
            changed = question != self.question
            self.question = question
        if changed:
            self.events.put(Event("question", question))
        return True

    def _on_error(self, args: list) -> bool:
        if len(args) < 2:
            return False
        error = (str(args[0]), " ".join(str(a) for a in args[1:]))
        with self._lock:
            self._heard()
            self.errors.append(error)
            del self.errors[:-20]
        self.events.put(Event("error", error))
        return True

    def _on_catalog(self, args: list) -> bool:
        # `/sg/setup/catalog json` (ext): the board's regulations, packs and next tournament game, for set-up.
        from .setup_model import parse_catalog
        catalog = parse_catalog(args[0]) if len(args) == 1 and isinstance(args[0], str) else None
        if catalog is None:
            return False
        with self._lock:
            self._heard()
        self.events.put(Event("catalog", catalog))
        return True

    def _on_pong(self, args: list) -> bool:
        with self._lock:
            self._heard()
        return True

    def _set_state(self, state: str) -> None:
        """Caller holds the lock."""
        if state != self._state:
            self._state = state
            self.events.put(Event("connection", state))
