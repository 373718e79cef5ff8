"""The page server's door (issue 24 items 2–3; docs/SECURITY.md): what a stranger on the venue's Wi-Fi may hold.

Theory of operation. aiohttp reads requests; the door stands in front of it on the same event loop. Every TCP
connection is counted by its address as it is accepted (`Door.protocol` wraps aiohttp's protocol) and is either
admitted or, when its address or the server is full, admitted in place of an *idle* connection (one whose request
header has not arrived whole, or a keep-alive between requests) — the oldest of its own address, else the oldest of
the address holding most — or refused (closed unread) when every connection is busy. An idle connection is closed
HEADER_TIMEOUT seconds after it opened or after its last answer (`sweep`): the header deadline, and the body's, as the
page's handlers read no body. So 1,000 half-sent requests hold at most TOTAL sockets, never the board's file limit,
and a phone that opens the page gets in. nginx's practice (limit_conn per address, client_header_timeout).

WebSockets are the long-lived connections. One without a session (a *stranger*) is budgeted too, by `room_for`:
STRANGERS_PER_ADDRESS from one address, STRANGERS in all, a newcomer taking the place of the oldest stranger of its
own address or of the address holding most; a socket with a session is never pushed out (its slots are the
sessions', `[osc] max_sessions`). `origin_allowed` is the browsers' Origin model: a page may open the socket only if
it was loaded from the board itself (its address, this machine's name, or a name the config lists), so a page
elsewhere — or one that rebinds its own DNS name to the board — cannot.
"""
from __future__ import annotations

import asyncio
import ipaddress
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional
from urllib.parse import urlsplit

from aiohttp import web

TOTAL = 256                 # connections of the page's server in all: far below the unit's LimitNOFILE (deploy/)
PER_ADDRESS = 16            # from one address: a browser opens ≤ 6 at once, and its WebSocket
HEADER_TIMEOUT = 10.0       # seconds for a request to arrive whole, from the connect or from the last answer
STRANGERS = 16              # WebSockets without a session yet, in all
STRANGERS_PER_ADDRESS = 4   # ... and from one address


@dataclass(eq=False)
class Member:
    """One counted connection (or stranger socket): its address, since when it waits, whether it may be closed for
    a newcomer, and what closes it."""
    ip: str
    since: float
    evictable: bool = True
    close: Callable[[], Any] = field(default=lambda: None, repr=False)
    key: Any = field(default=None, repr=False)


def room_for(members: Iterable[Member], ip: str, per_address: int, total: int) -> Optional[list[Member]]:
    """Whom to close so that a newcomer from `ip` fits: [] when there is room; the oldest evictable member of its
    own address when that address is full, then (all full) the oldest evictable member of the address holding most;
    None when no one can make room (the newcomer is refused)."""
    members = list(members)
    victims: list[Member] = []

    def evict(among: list[Member]) -> bool:
        candidates = [m for m in among if m.evictable and m not in victims]
        if not candidates:
            return False
        victims.append(min(candidates, key=lambda m: m.since))
        return True

    def left(of: Optional[str] = None) -> list[Member]:
        return [m for m in members if m not in victims and (of is None or m.ip == of)]

    if len(left(ip)) >= per_address and not evict(left(ip)):
        return None
    if len(left()) >= total:
        counts: dict[str, int] = {}
        for m in left():
            counts[m.ip] = counts.get(m.ip, 0) + 1
        for heavy in sorted(counts, key=lambda a: -counts[a]):
            if evict(left(heavy)):
                break
        else:
            return None
    return victims


def origin_allowed(origin: Optional[str], host: Optional[str], names: Iterable[str]) -> bool:
    """May a WebSocket opened with `Origin: origin` to `Host: host` proceed? No Origin: not a browser (a browser
    always sends one on a WebSocket), so no page elsewhere can be behind it. Else the page must come from this
    server (Origin's host and port = Host) under a name that is the board's own: an IP address, localhost, or one of
    `names` — a name an attacker's DNS answers with the board's address is none of them."""
    if origin is None:
        return True
    try:
        parts = urlsplit(origin)
        hostname = parts.hostname or ""
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not host or parts.netloc.lower() != host.strip().lower():
        return False
    try:
        ipaddress.ip_address(hostname)
        return True
    except ValueError:
        pass
    return hostname == "localhost" or hostname in {n.lower().rstrip(".") for n in names}


class _Counted:
    """aiohttp's protocol for one connection, counted by the door (asyncio's Protocol calls, passed through)."""

    def __init__(self, inner, door: "Door"):
        self.inner, self.door, self.transport = inner, door, None

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.inner.connection_made(transport)
        if not self.door.arrived(transport):
            transport.close()

    def connection_lost(self, exc) -> None:
        self.door.left(self.transport)
        self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self):
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class Door:
    """Counts the page server's connections (event-loop thread only; `status()` may be read from any thread)."""

    def __init__(self, total: int = TOTAL, per_address: int = PER_ADDRESS, header_timeout: float = HEADER_TIMEOUT,
                 clock: Callable[[], float] = time.monotonic):
        self.total, self.per_address, self.header_timeout, self.clock = total, per_address, header_timeout, clock
        self.members: dict[Any, Member] = {}        # transport -> its member
        self.refused = self.evicted = self.timed_out = 0

    def protocol(self, inner) -> _Counted:
        return _Counted(inner, self)

    def arrived(self, transport) -> bool:
        peer = transport.get_extra_info("peername")
        ip = peer[0] if isinstance(peer, tuple) and peer else "?"
        victims = room_for(self.members.values(), ip, self.per_address, self.total)
        if victims is None:
            self.refused += 1
            return False
        for victim in victims:
            self.evicted += 1
            self._close(victim)
        self.members[transport] = Member(ip, self.clock(), True, transport.close, transport)
        return True

    def left(self, transport) -> None:
        self.members.pop(transport, None)

    def _close(self, member: Member) -> None:
        member.evictable = False
        self.members.pop(member.key, None)            # its socket goes within this turn of the loop
        member.close()

    @web.middleware
    async def middleware(self, request, handler):
        """A request being answered is busy (never evicted nor timed out); its connection waits again after."""
        member = self.members.get(request.transport)
        if member is not None:
            member.evictable = False
        try:
            return await handler(request)
        finally:
            if member is not None and self.members.get(request.transport) is member:
                member.evictable, member.since = True, self.clock()

    def sweep(self) -> None:
        """Close every idle connection whose request did not arrive within the header timeout."""
        now = self.clock()
        for member in [m for m in self.members.values() if m.evictable and now - m.since > self.header_timeout]:
            self.timed_out += 1
            self._close(member)

    async def sweeping(self) -> None:
        while True:
            await asyncio.sleep(min(1.0, self.header_timeout / 4))
            self.sweep()

    def status(self) -> dict:
        return {"connections": len(self.members), "refused": self.refused, "evicted": self.evicted,
                "timed_out": self.timed_out}
