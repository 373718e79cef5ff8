"""What the OSC server has yet to handle, bounded: every peer budgeted, sessions served before strangers.

Theory of operation. The server's one thread handles every packet; the WebSocket side (links/web/server.py), the
TCP streams (osc/tcp.py) and the UDP strangers put theirs here first (`offer`), and the thread takes them back a turn
at a time (`take`). Nothing here grows without a bound:
- a packet costs its OSC *messages* (a bundle's elements, counted without decoding, `elements`), not one frame;
- each peer may have at most `PEER[trusted]` messages and `PEER_BYTES[trusted]` bytes waiting, and all peers of a
  kind at most `TOTAL[trusted]` messages and `TOTAL_BYTES[trusted]` bytes; a packet that does not fit now is
  `FULL` (a stream is then not read — back-pressure — and a UDP datagram is dropped, as a full socket would), one
  that can never fit (more messages than a stranger's whole budget) is `REFUSED` (a stream is closed);
- peers with a live session are taken first; strangers (the connects of a new remote among them) take a bounded
  share of each turn, one packet per peer in turn, so that one flooding peer cannot starve another, and at most
  STRANGERS_A_SECOND messages a second in all (a token bucket): whatever the flood, strangers cost the board a
  bounded share of one core, and the frames and the sessions keep the rest.
Peers are addresses: `(ip, port)` for UDP, `(ip, port, "tcp")`, `(ip, token, "ws")`.
"""
from __future__ import annotations

import struct
import threading
import time
from collections import OrderedDict, deque

QUEUED, FULL, REFUSED = True, False, None     # what `offer` answers
# Waiting messages and bytes, per peer and in all, for session peers (True) and strangers (False). A stranger needs
# one message at a time (`/sg/auth/hello`, `/sg/auth/connect`, `/sg/connect`): its packet may hold a few.
PEER = {True: 512, False: 8}
STRANGER_MESSAGES = 4       # messages one packet of a stranger may hold (more: refused unread)
PEER_BYTES = {True: 1 << 20, False: 32 << 10}
TOTAL = {True: 4096, False: 256}
TOTAL_BYTES = {True: 8 << 20, False: 2 << 20}
STRANGERS_A_TURN = 32       # stranger messages handled per turn of the server's loop, after every session's
STRANGERS_A_SECOND = 2000   # ... and per second in all (a hello or a connect costs 20–50 µs: ≤ 10 % of a core)

BUNDLE = b"#bundle\x00"


def elements(data: bytes, limit: int = 1 << 30) -> int:
    """How many OSC messages a packet holds (a bundle's elements, nested bundles opened), without decoding them;
    stops counting past `limit`. A malformed bundle counts what was read plus one (the parser refuses it later)."""
    if not data.startswith(BUNDLE):
        return 1
    count, spans = 0, [(16, len(data))]
    while spans:
        at, end = spans.pop()
        while at + 4 <= end:
            (size,) = struct.unpack_from(">i", data, at)
            at += 4
            if size <= 0 or at + size > end:
                return count + 1
            if data.startswith(BUNDLE, at):
                spans.append((at + 16, at + size))
            else:
                count += 1
                if count > limit:
                    return count
            at += size
    return max(count, 1)


class Intake:
    """Thread-safe: any thread offers, the server's thread takes."""

    def __init__(self, clock=time.monotonic, rate: float = STRANGERS_A_SECOND) -> None:
        self._clock, self.rate = clock, rate
        self._tokens, self._filled = float(STRANGERS_A_TURN), clock()
        self._lock = threading.Lock()
        # per kind (True: sessions, False: strangers): peer -> deque of (data, messages); peers with packets waiting,
        # in the order they are served (a peer goes to the back after each packet taken)
        self._waiting: dict[bool, OrderedDict] = {True: OrderedDict(), False: OrderedDict()}
        self._held: dict[tuple, list[int]] = {}                     # peer -> [messages, bytes] waiting
        self._totals = {True: [0, 0], False: [0, 0]}
        self.refused = 0        # packets refused for good, and dropped for want of room
        self.full = 0
        self.strangers_full = False     # a hint read without the lock: a UDP flood's datagrams dropped cheaply

    def offer(self, data: bytes, addr: tuple, trusted: bool, count: int | None = None):
        """Queue one packet of `addr` (`trusted`: it has a live session): QUEUED, FULL (no room now) or REFUSED."""
        count = elements(data, PEER[trusted]) if count is None else count
        if count > PEER[trusted] or len(data) > PEER_BYTES[trusted]:
            with self._lock:
                self.refused += 1
            return REFUSED
        with self._lock:
            held = self._held.get(addr, [0, 0])
            total = self._totals[trusted]
            if (held[0] + count > PEER[trusted] or held[1] + len(data) > PEER_BYTES[trusted]
                    or total[0] + count > TOTAL[trusted] or total[1] + len(data) > TOTAL_BYTES[trusted]):
                self.full += 1
                if not trusted:
                    self.strangers_full = total[0] + PEER[False] > TOTAL[False]
                return FULL
            self._held[addr] = [held[0] + count, held[1] + len(data)]
            total[0] += count
            total[1] += len(data)
            self._waiting[trusted].setdefault(addr, deque()).append((data, count, trusted))
        return QUEUED

    def room(self, addr: tuple, trusted: bool) -> bool:
        """Could `addr` queue a one-message packet now?"""
        with self._lock:
            held = self._held.get(addr, [0, 0])
            return held[0] < PEER[trusted] and self._totals[trusted][0] < TOTAL[trusted]

    def take(self, sessions: int = 256, strangers: int = STRANGERS_A_TURN) -> list[tuple[bytes, tuple]]:
        """Up to `sessions` messages of session peers, then up to `strangers` of strangers, one packet per peer in
        turn: [(data, addr)] in the order to handle them."""
        out: list[tuple[bytes, tuple]] = []
        with self._lock:
            now = self._clock()
            self._tokens = min(float(STRANGERS_A_TURN), self._tokens + (now - self._filled) * self.rate)
            self._filled = now
            strangers = min(strangers, int(self._tokens))
            for trusted, budget in ((True, sessions), (False, strangers)):
                waiting = self._waiting[trusted]
                while waiting and budget > 0:
                    addr, packets = next(iter(waiting.items()))
                    data, count, kind = packets.popleft()
                    budget -= count
                    held = self._held[addr]
                    held[0] -= count
                    held[1] -= len(data)
                    if held[0] <= 0:
                        del self._held[addr]
                    self._totals[kind][0] -= count
                    self._totals[kind][1] -= len(data)
                    if packets:
                        waiting.move_to_end(addr)
                    else:
                        del waiting[addr]
                    out.append((data, addr))
                    if not trusted:
                        self._tokens -= count
            self.strangers_full = self._totals[False][0] + PEER[False] > TOTAL[False]
        return out

    def waiting(self) -> tuple[bool, float]:
        """(a session's packet waits, seconds until a stranger's may be taken; 0: now, inf: none waits)."""
        with self._lock:
            if not self._waiting[False]:
                return bool(self._waiting[True]), float("inf")
            return bool(self._waiting[True]), max(0.0, (1.0 - self._tokens) / self.rate)

    def __len__(self) -> int:
        with self._lock:
            return sum(len(packets) for waiting in self._waiting.values() for packets in waiting.values())

    def held(self) -> dict:
        """Messages and bytes waiting, per kind (the status, the tests)."""
        with self._lock:
            return {"sessions": list(self._totals[True]), "strangers": list(self._totals[False])}
