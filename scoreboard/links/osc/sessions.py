"""OSC sessions: who may talk to the board, in which role, and which command ids were already applied.

Pure bookkeeping (no sockets) so that the access rules can be tested and fuzzed directly. A session is bound
to the client's (ip, port); a repeated `/sg/connect` from the same address with the same role keeps the
session (and its record of applied ids), so a client that retries its connect over a lossy link can never
get a command applied twice.

The access rules (docs/LINKS.md):
- Session ids are random and never given twice in the board's life.
- A new session at an address inherits the applied ids of that address's ended sessions: a datagram captured
  before a disconnect and replayed after the reconnect is answered as the duplicate it is, never applied again
  (the project's clients never restart their ids at one address).
- `view` sessions may fill at most `max_sessions − host_reserve` slots: viewers never lock the host out.
- Wrong passcodes from an IP throttle that IP to one evaluated try a second (not a lock-out: the real host,
  behind the same venue NAT as a guesser, gets in on its next retry); an address with a live session is never
  throttled. The brake keeps the plain and the authenticated connects apart: a plain `/sg/connect` needs no
  round trip, so anyone can send it from the host's address, and its failures must never brake the authenticated
  connect, whose failures count only after the challenge's round trip (a spoofed address never sees the challenge).
  The oldest addresses are forgotten one by one (`BRAKE_KEPT`): a scanner cycling addresses never wipes the table.
- A signed session's ids must keep rising past what its record forgot: an id at or below the highest id dropped
  from the window is refused as stale, however many ids later it is replayed (no hole behind the window).
"""
from __future__ import annotations

import hmac
import ipaddress
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Optional

from scoreboard.links.osc.auth import seat_of_role

ROLES = ("host", "view")    # and `seat:N`, a player's phone (docs/PHONE_BUTTONS.md): view-level, plus its press
# Ids remembered per session; a retry of an id older than this many newer commands would be applied again.
DEDUPE_WINDOW = 4096
# Wrong passcodes tolerated per IP within FAIL_WINDOW seconds before that IP is ignored for a while.
MAX_FAILS = 5
FAIL_WINDOW = 60.0
THROTTLED_EVERY = 1.0     # seconds between evaluated tries from a throttled IP
ENDED_KEPT = 256          # addresses whose ended sessions' ids are remembered
BRAKE_KEPT = 1024         # (ip, mode) pairs whose wrong passcodes are remembered; the oldest is forgotten first
STALE = (False, "stale id: older than the ids this session remembers")

Addr = tuple[str, int]


@dataclass
class Session:
    sid: int
    addr: Addr
    role: str
    last_seen: float
    # id -> None while the board has not applied it yet, then (ok, reason)
    results: OrderedDict = field(default_factory=OrderedDict)
    key: Optional[bytes] = None        # the authenticated mode's session key (osc_auth); None: plain session
    nonces: Optional[tuple] = None     # (cnonce, snonce) of that key: a retried connect gets the same snonce
    floor: int = -2**63                # the highest id dropped from `results`: a signed id at or below it is stale
    via_sessions_port: bool = False    # it has spoken on the sessions' own port (osc/server.py): answered from there

    @property
    def is_host(self) -> bool:
        return self.role == "host"

    @property
    def seat(self) -> Optional[int]:
        """The seat of a player's phone (`seat:N`), else None."""
        return seat_of_role(self.role)


class Denied(Exception):
    """A connect refused; str(e) is the reason sent in /sg/denied."""


class SessionTable:
    def __init__(self, passcode: str, view_passcode: str = "", allow: list[str] | None = None,
                 idle_timeout: float = 30.0, max_sessions: int = 16):
        self.passcode = passcode
        self.view_passcode = view_passcode
        self.networks = [ipaddress.ip_network(entry, strict=False) for entry in (allow or [])]
        self.idle_timeout = idle_timeout
        self.max_sessions = max_sessions
        self.by_addr: dict[Addr, Session] = {}
        self.brake = Brake()
        self._issued: set[int] = set()
        self._ended: OrderedDict = OrderedDict()      # addr -> (applied ids, floor) of its ended sessions

    @property
    def host_reserve(self) -> int:
        """Slots only host sessions may take."""
        return min(self.max_sessions, max(2, self.max_sessions // 4))

    # --- access -------------------------------------------------------------------------------------
    def allowed(self, ip: str) -> bool:
        """The IP allowlist (an empty list allows every address)."""
        if not self.networks:
            return True
        try:
            address = ipaddress.ip_address(ip)
        except ValueError:
            return False
        return any(address in network for network in self.networks)

    def connect(self, addr: Addr, passcode, role, now: float, mode: str = "plain", seat_proven: bool = False) -> Session:
        """Open (or keep) the session of `addr`; raise Denied(reason). `mode`: "plain" (`/sg/connect`, the passcode
        sent) or "auth" (the handshake, called only once its challenge made the round trip): braked apart. A seat's
        session (`seat:N`) opens only with `seat_proven` (the handshake showed the seat's key) and needs no passcode."""
        if not isinstance(passcode, str) or not isinstance(role, str):
            raise Denied("usage: /sg/connect passcode [host|view]")
        seat = seat_of_role(role)
        if role not in ROLES and seat is None:
            raise Denied(f"unknown role {role!r} (host or view)")
        live = self.by_addr.get(addr)
        if live is None or now - live.last_seen > self.idle_timeout:
            self.brake.check((addr[0], mode), now)
        if seat is not None:
            if mode != "auth":
                raise Denied("a seat connects by its link only (/sg/auth/hello with the seat's key)")
            if not seat_proven:
                self.brake.failed((addr[0], mode), now)
                raise Denied("wrong seat key")
        elif not self.passcode:
            raise Denied("the board has no passcode set (osc.passcode)")
        elif not (_same(passcode, self.passcode)
                  or (role == "view" and self.view_passcode and _same(passcode, self.view_passcode))):
            self.brake.failed((addr[0], mode), now)
            raise Denied("wrong passcode")
        existing = self.by_addr.get(addr)
        if existing is not None and existing.role == role:
            existing.last_seen = now
            return existing
        if existing is None:
            self.expire(now)
            if len(self.by_addr) >= self.max_sessions:
                raise Denied("too many sessions")
            viewers = sum(1 for s in self.by_addr.values() if not s.is_host)
            if role == "view" and viewers >= self.max_sessions - self.host_reserve:
                raise Denied("too many view sessions (the remaining slots are kept for the host)")
        else:
            self._end(existing)
        results, floor = self._ended.pop(addr, (OrderedDict(), -2**63))
        session = Session(self._new_sid(), addr, role, now, results, floor=floor)
        self.by_addr[addr] = session
        return session

    def _new_sid(self) -> int:
        while True:
            sid = secrets.randbelow(2**31 - 1) + 1
            if sid not in self._issued:
                self._issued.add(sid)
                return sid

    def _end(self, session: Session) -> None:
        """Keep what an ended session applied, for the next session at its address (replays stay duplicates)."""
        self.by_addr.pop(session.addr, None)
        if session.results:
            self._ended[session.addr] = (session.results, session.floor)
            self._ended.move_to_end(session.addr)
            while len(self._ended) > ENDED_KEPT:
                self._ended.popitem(last=False)

    def lookup(self, addr: Addr, now: float) -> Optional[Session]:
        """The live session of `addr` (refreshing its idle timer), or None."""
        session = self.by_addr.get(addr)
        if session is None:
            return None
        if now - session.last_seen > self.idle_timeout:
            self._end(session)
            return None
        session.last_seen = now
        return session

    def drop(self, addr: Addr) -> None:
        session = self.by_addr.get(addr)
        if session is not None:
            self._end(session)

    def expire(self, now: float) -> list[Session]:
        gone = [s for s in self.by_addr.values() if now - s.last_seen > self.idle_timeout]
        for session in gone:
            self._end(session)
        return gone

    def sessions(self) -> list[Session]:
        return list(self.by_addr.values())

    # --- exactly once -------------------------------------------------------------------------------
    @staticmethod
    def first_copy(session: Session, cid: int) -> tuple[bool, Optional[tuple]]:
        """(True, None) for a new id (now recorded as pending); else (False, result or None if pending); a signed
        session's id at or below its floor: (False, STALE), never applied."""
        if cid in session.results:
            return False, session.results[cid]
        if session.key is not None and cid <= session.floor:
            return False, STALE
        session.results[cid] = None
        while len(session.results) > DEDUPE_WINDOW:
            old, _ = session.results.popitem(last=False)
            session.floor = max(session.floor, old)
        return True, None

    @staticmethod
    def resolve(session: Session, cid: int, ok: bool, reason: Optional[str]) -> None:
        if cid in session.results:
            session.results[cid] = (ok, reason)


class Brake:
    """Wrong passcodes per key ((ip, mode)): past MAX_FAILS within FAIL_WINDOW, one evaluated try a second.
    Keys still counting and keys braked are kept apart, each at most `kept`, the least recently failing forgotten
    first (never a whole table): a scanner's single failures from many addresses never free a braked guesser."""

    def __init__(self, kept: int = BRAKE_KEPT):
        self.kept = kept
        self._counting: OrderedDict = OrderedDict()    # key -> [times of wrong passcodes], fewer than MAX_FAILS
        self._braked: OrderedDict = OrderedDict()      # key -> the same, MAX_FAILS or more
        self._last_try: OrderedDict = OrderedDict()    # braked key -> when its last try was evaluated

    def _recent(self, key: tuple, now: float) -> list[float]:
        return [t for t in self._braked.get(key) or self._counting.get(key) or () if now - t < FAIL_WINDOW]

    def check(self, key: tuple, now: float) -> None:
        """Raise Denied when `key` is braked and has had its try this second."""
        if len(self._recent(key, now)) < MAX_FAILS:
            return
        if now - self._last_try.get(key, -1e9) < THROTTLED_EVERY:
            raise Denied("too many wrong passcodes from this address: one try a second")
        self._remember(self._last_try, key, now)

    def failed(self, key: tuple, now: float) -> None:
        fails = self._recent(key, now) + [now]
        self._counting.pop(key, None)
        self._braked.pop(key, None)
        self._remember(self._braked if len(fails) >= MAX_FAILS else self._counting, key, fails)

    def _remember(self, table: OrderedDict, key: tuple, value) -> None:
        table[key] = value
        table.move_to_end(key)
        while len(table) > self.kept:
            table.popitem(last=False)

    def __len__(self) -> int:
        return len(self._counting) + len(self._braked)


def _same(given: str, expected: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8", "replace"))
