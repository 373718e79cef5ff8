"""Players' phones as buttons (issue 26, docs/PHONE_BUTTONS.md): which phone holds which seat, their clocks, their
presses onto the inbox, and how long the board's arbitration waits for them.

A phone's session has the role `seat:N`, opened by the authenticated handshake with the seat's key (osc/auth.py
`seat_key`): view-level (the public state, never an answer or a stake) plus one thing a view may not do, its press.
One phone per seat: a second phone for a taken seat waits until the host taps `/sg/seat/admit N`. Run on the OSC
server's thread (`time`, `press`, `joined`) and the board's (`wait`, `status`, `armed_by`): one lock.
"""
from __future__ import annotations

import functools
import json
import math
import threading
from typing import Callable, Optional

from scoreboard.engine.commands import Command, parse
from scoreboard.engine.phases import Phase
from scoreboard.links.osc.auth import key_text, seat_key
from scoreboard.links.phones.clock import MAX_WAIT, LinkMeter, clamp

# Phases where a press counts or is judged (BZ3, BZ7): the arbitration waits for the phones only then.
ARMED = frozenset({Phase.READING.value, Phase.BUZZ_WINDOW.value, Phase.ANSWERING.value, Phase.AFTER_WRONG.value})
MAX_TOUCH_TEXT = 32       # characters of a press's touch time (board seconds as decimal text)
PRESSES_PER_SECOND = 10   # a phone's press budget (a thumb manages ~7 a second): past it, refused unstamped


class Refused(Exception):
    """A phone's press or sample that does not count; str(e) is the reason its ack carries."""


class Phones:
    def __init__(self, clock: Callable[[], float], live: Callable[[int], bool] = lambda sid: True,
                 board_key: bytes | None = None):
        self.board_key = board_key          # the seats' keys are drawn from it (osc/auth.py seat_key)
        self.base_url: str | None = None    # the page's address (links/__init__.py sets it once the page is served)
        self.clock = clock                  # engine seconds: the board's clock every stamp is on
        self.live = live                    # is this session id still live (the OSC session table)
        self.holders: dict[int, int] = {}   # seat -> the sid of its phone
        self.waiting: dict[int, int] = {}   # seat -> the sid of a second phone, until the host's tap
        self.meters: dict[int, LinkMeter] = {}
        self.samples_seen: dict[int, tuple] = {}    # sid -> (the session key it signed with, its last sample's n)
        self.budgets: dict[int, tuple[float, float]] = {}   # sid -> (presses left, when counted): a token bucket
        self.over_budget = 0
        self.armed = False
        self.presses = 0
        self._lock = threading.Lock()

    # --- sessions ---------------------------------------------------------------------------------
    def joined(self, sid: int, seat: int) -> str:
        """A `seat:N` session opened (or was kept): "holder" or "waiting" (the seat has another live phone)."""
        with self._lock:
            holder = self.holders.get(seat)
            if holder is None or holder == sid or not self.live(holder):
                self._forget(holder)
                self.holders[seat] = sid
                if self.waiting.get(seat) == sid:
                    del self.waiting[seat]
                state = "holder"
            else:
                self._forget(self.waiting.get(seat))
                self.waiting[seat] = sid
                state = "waiting"
            self.meters.setdefault(sid, LinkMeter())
            return state

    def admit(self, seat: int) -> str:
        """The host's tap: the waiting phone takes the seat (the one holding it is let go); the reason if none waits."""
        with self._lock:
            sid = self.waiting.pop(seat, None)
            if sid is None or not self.live(sid):
                raise Refused(f"no phone is waiting for seat {seat}")
            self._forget(self.holders.get(seat))
            self.holders[seat] = sid
            return "ok"

    def _forget(self, sid: Optional[int]) -> None:
        if sid is not None and sid not in self.holders.values() and sid not in self.waiting.values():
            self.meters.pop(sid, None)
            self.budgets.pop(sid, None)
            self.samples_seen.pop(sid, None)

    def holds(self, sid: int, seat: int) -> bool:
        with self._lock:
            return self.holders.get(seat) == sid

    # --- the clock ---------------------------------------------------------------------------------
    def time(self, sid: int, n, prev, hold_us, t1: float, sent: str = "", key: object = None) -> tuple[int, float]:
        """`/sg/phone/time n prev hold_us sent mac` (its MAC checked by the caller with the session's `key`) received at
        t1: measure the round trip it closes and note when the phone says it sent it; (n, t1) to answer. A sample whose
        `n` is not above the last one of this session's key is a replay: refused."""
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (n, prev, hold_us)) \
                or not isinstance(sent, str) or len(sent) > MAX_TOUCH_TEXT:
            raise Refused("usage: /sg/phone/time n prev hold_us sent mac (integers; sent: board seconds as text)")
        claimed = None
        if sent:
            try:
                claimed = float(sent)
            except ValueError:
                raise Refused("sent: not a number") from None
            if not math.isfinite(claimed):
                raise Refused("sent: not a number")
        with self._lock:
            meter = self.meters.get(sid)
            if meter is None:
                raise Refused("not a seat's phone")
            last_key, last_n = self.samples_seen.get(sid, (None, None))
            if last_key == key and last_n is not None and n <= last_n:
                raise Refused("a clock sample seen before")
            self.samples_seen[sid] = (key, n)
            meter.request(prev, hold_us / 1e6, t1)
            meter.sent_at(claimed, t1)
        return n, t1

    def replied(self, sid: int, n: int, t2: float) -> None:
        with self._lock:
            meter = self.meters.get(sid)
            if meter is not None:
                meter.replied(n, t2)

    # --- presses ----------------------------------------------------------------------------------
    def press(self, sid: int, seat_of_session: int, params: list, arrival: float) -> Command:
        """`/sg/press seat touch` from the phone of `seat_of_session`, arrived at `arrival`: the stamped
        `/sg/button seat phone bound_ms`, or Refused (another seat's, a waiting phone's, malformed)."""
        if len(params) != 2 or not isinstance(params[0], int) or isinstance(params[0], bool) \
                or not isinstance(params[1], str) or len(params[1]) > MAX_TOUCH_TEXT:
            raise Refused("usage: /sg/press seat touch (touch: board seconds as text, empty when not synced)")
        seat, text = params
        if seat != seat_of_session:
            raise Refused(f"this phone presses for seat {seat_of_session} only")
        touch = None
        if text:
            try:
                touch = float(text)
            except ValueError:
                raise Refused("touch: not a number") from None
            if not math.isfinite(touch):
                raise Refused("touch: not a number")
        with self._lock:
            if self.holders.get(seat) != sid:
                raise Refused(f"seat {seat} is held by another phone: the host's tap lets this one in")
            left, counted = self.budgets.get(sid, (PRESSES_PER_SECOND, arrival))
            left = min(PRESSES_PER_SECOND, left + (arrival - counted) * PRESSES_PER_SECOND)
            if left < 1:
                self.over_budget += 1
                self.budgets[sid] = (left, arrival)
                raise Refused(f"more than {PRESSES_PER_SECOND} presses a second")
            self.budgets[sid] = (left - 1, arrival)
            meter = self.meters[sid]
            synced = meter.synced(arrival)
            bound = meter.bound(arrival)
            error = meter.error(arrival) if synced else None
            self.presses += 1
        at = clamp(touch if synced else None, arrival, bound)
        # the stamp's error: the clock's when synced; unsynced, it is the arrival, up to the whole bound late
        error_ms = math.ceil((error if error is not None and touch is not None else bound) * 1000)
        return Command(at, "/sg/button", parse("/sg/button", [seat, "phone", error_ms]))

    # --- the arbitration's wait -------------------------------------------------------------------
    def armed_by(self, snapshot: dict) -> None:
        """The board published a state: the phones count while its phase takes presses."""
        self.armed = snapshot.get("phase") in ARMED and not snapshot.get("buttons_manual")

    def wait(self) -> float:
        """Seconds the arbitration lets every item wait (the inbox's Holdback): the longest wait among the seated live
        phones while armed — each its delivery bound (at most MAX_WAIT), or less once the samples it sent since prove
        its earlier presses have arrived (LinkMeter.wait) — else 0."""
        if not self.armed:
            return 0.0
        now = self.clock()
        with self._lock:
            bounds = [self.meters[sid].wait(now) for sid in self.holders.values()
                      if sid in self.meters and self.live(sid)]
        return min(MAX_WAIT, max(bounds, default=0.0))

    def status(self) -> dict:
        """For the host's screen: each seat's phone — synced, ± ms, the link's round trip and bound — and the wait."""
        now = self.clock()
        with self._lock:
            seats = []
            for seat in sorted(set(self.holders) | set(self.waiting)):
                sid = self.holders.get(seat)
                entry = {"seat": seat, "state": "none", "waiting": seat in self.waiting}
                if sid is not None and sid in self.meters:
                    meter = self.meters[sid]
                    live = self.live(sid)
                    entry.update(meter.describe(now))
                    entry["state"] = ("lost" if not live or meter.last_heard is None or now - meter.last_heard > 2.0
                                      else "synced" if meter.synced(now) else "syncing")
                seats.append(entry)
        return {"seats": seats, "wait_ms": round(self.wait() * 1000), "armed": self.armed, "presses": self.presses,
                "over_budget": self.over_budget,
                "max_wait_ms": round(MAX_WAIT * 1000)}


SEAT_LINKS = 9            # seats whose links and codes the host's remote gets


@functools.lru_cache(maxsize=32)
def qr_data_uri(text: str) -> str:
    """An SVG QR code of `text` as a data: URI (the page's CSP takes images from data:)."""
    import segno  # lazy: 30 ms at import; only a host's remote asking for the seats' codes needs it
    return segno.make(text, error="m").svg_data_uri(scale=4, border=4)


def host_view(phones: Phones) -> str:
    """`/sg/host/seats`'s JSON: each seat's link and QR code, and the phones' state (the host's remote alone)."""
    seats = []
    if phones.base_url and phones.board_key is not None:
        for seat in range(1, SEAT_LINKS + 1):
            link = seat_link(phones.base_url, phones.board_key, seat)
            seats.append({"seat": seat, "link": link, "qr": qr_data_uri(link)})
    return json.dumps({"seats": seats, "phones": phones.status()}, ensure_ascii=False, separators=(",", ":"))


def seat_link(base_url: str, board_key: bytes, seat: int) -> str:
    """The seat's page with its key after `#` (a fragment: the browser never sends it): what its QR code carries."""
    return f"{base_url.rstrip('/')}/seat.html#s={seat}&k={key_text(seat_key(board_key, seat))}"
