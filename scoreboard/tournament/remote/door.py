"""The HTTP door of `tournament serve` (issue 24 item 7): what a stranger on the venue's network can cost it.

Every connection has a deadline for its request to arrive whole (headers and body) and a timeout on each read; a
connection past its deadline is shut, so a body never sent holds no thread for long. Connections are capped in
total and per address (a cap reached: the new connection is closed at once). Refusals of requests that did not
prove a board's key are said on the console once a minute per address, with a count — and written nowhere else.
"""
from __future__ import annotations

import socket
import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from http.server import ThreadingHTTPServer


@dataclass(frozen=True)
class Limits:
    deadline: float = 30.0       # seconds for a request to arrive whole (a 1 MB result over a slow Wi-Fi fits)
    read_timeout: float = 10.0   # seconds a single read may wait
    connections: int = 64        # open at once, in total
    per_address: int = 8         # open at once from one address: a board makes one at a time
    quiet_every: float = 60.0    # seconds between two console lines about one address's refusals


class QuietLog:
    """Refusals said once per address per `every` seconds: the first at once, then a count of those since."""

    def __init__(self, out, every: float, clock=time.monotonic, remember: int = 1024):
        self.out, self.every, self.clock, self.remember = out, every, clock, remember
        self.seen: OrderedDict[str, list] = OrderedDict()      # address -> [last said at, refusals since]
        self.lock = threading.Lock()

    def refused(self, address: str, line: str) -> None:
        now = self.clock()
        with self.lock:
            entry = self.seen.get(address)
            if entry is not None and now - entry[0] < self.every:
                entry[1] += 1
                return
            since = entry[1] if entry else 0
            self.seen[address] = [now, 0]
            self.seen.move_to_end(address)
            while len(self.seen) > self.remember:      # the oldest address goes, never the whole table
                self.seen.popitem(last=False)
        more = f" (and {since} more from {address} since the last line)" if since else ""
        self.out(f"{line}{more}")


class GuardedHTTPServer(ThreadingHTTPServer):
    """ThreadingHTTPServer with connection caps and a deadline per request; `request_read(sock)` ends the deadline."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128       # a burst of connections waits to be accepted (and capped), never a dropped SYN

    def __init__(self, address, handler, limits: Limits, quiet: QuietLog):
        self.limits, self.quiet = limits, quiet
        self.lock = threading.Lock()
        self.open: dict[socket.socket, list] = {}      # connection -> [address, deadline or None once read]
        self.per_address: dict[str, int] = {}
        self.closing = threading.Event()
        super().__init__(address, handler)
        self.reaper = threading.Thread(target=self._reap, name="tournament-serve-deadlines", daemon=True)
        self.reaper.start()

    def verify_request(self, request, client_address) -> bool:
        address = client_address[0]
        with self.lock:
            full = (len(self.open) >= self.limits.connections
                    or self.per_address.get(address, 0) >= self.limits.per_address)
            if not full:
                self.open[request] = [address, time.monotonic() + self.limits.deadline]
                self.per_address[address] = self.per_address.get(address, 0) + 1
        if full:
            self.quiet.refused(address, f"serve: {address}: connection closed: too many open at once "
                                        f"(at most {self.limits.per_address} an address, {self.limits.connections} "
                                        f"in all)")
        return not full

    def request_read(self, request) -> None:
        with self.lock:
            if request in self.open:
                self.open[request][1] = None

    def shutdown_request(self, request) -> None:
        with self.lock:
            entry = self.open.pop(request, None)
            if entry is not None:
                left = self.per_address[entry[0]] - 1
                if left:
                    self.per_address[entry[0]] = left
                else:
                    del self.per_address[entry[0]]
        super().shutdown_request(request)

    def _reap(self) -> None:
        tick = min(0.5, self.limits.deadline / 4)
        while not self.closing.wait(tick):
            now = time.monotonic()
            with self.lock:
                late = [(s, e[0]) for s, e in self.open.items() if e[1] is not None and e[1] < now]
            for connection, address in late:
                try:
                    connection.shutdown(socket.SHUT_RDWR)      # the handler's read returns: it ends, the thread too
                except OSError:
                    pass
                self.quiet.refused(address, f"serve: {address}: connection closed: the request did not arrive "
                                            f"whole within {self.limits.deadline:g} s")

    def handle_error(self, request, client_address) -> None:
        """A peer that went away mid-answer (or was shut at its deadline) is no traceback; a bug still is one."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)

    def server_close(self) -> None:
        self.closing.set()
        super().server_close()
