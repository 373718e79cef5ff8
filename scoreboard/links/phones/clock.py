"""A phone's clock against the board's (docs/PHONE_BUTTONS.md): the phone's fit, the board's measure of the link, and
the clamp of a press's stamp. Pure: no sockets, no clock of its own (every time is given), so it is tested directly.

The phone samples the board over its WebSocket, NTP-style: it sends `/sg/phone/time n prev hold_us sent mac` (signed;
`sent` that moment on the board's clock as the phone knows it) at its `performance.now()` t0; the board stamps its receive t1 and its send t2 and answers `/sg/phone/time n t1 t2`; the
phone reads t3. Round trip `(t3 - t0) - (t2 - t1)`, offset `((t1 - t0) + (t2 - t3)) / 2` (board minus phone). The
phone keeps the samples with the best round trips (a sample's offset is wrong by at most half its round trip) and
fits offset and drift (`ClockFit`, the page's seat.js doing the same sums). A press carries the touch event's
`timeStamp` mapped onto the board's clock.

The board trusts none of it: it measures the link itself (`LinkMeter`) — from its own send stamp t2 of reply
`prev` to its receive stamp t1 of the next request, less the `hold` the phone says it kept the reply before
asking again — and clamps every press (`clamp`) to [arrival − the phone's delivery bound, arrival]. A page that
lies about `hold` or the touch moves its press by at most that bound, itself capped at MAX_WAIT. The arbitration waits
for a phone at most that bound, and less once a sample sent later has arrived (`LinkMeter.wait`: the stream is ordered).
"""
from __future__ import annotations

from collections import deque
from typing import Optional

MAX_WAIT = 0.4            # seconds: the most a phone may hold the board's arbitration (and the clamp's widest)
SLACK = 0.04              # seconds: a touch's latency to the page's handler (timeStamp is the input's own time)
TOUCH_ERROR = 0.01        # seconds: how far touch screens' own latencies differ (a stamp's error beyond the clock's)
WINDOW = 10.0             # seconds of round trips the delivery bound looks back over (bursts seen within it count)
SYNCED_AFTER = 5          # the board's round trips measured before a phone's stamps are used
KEPT = 128                # round trips (and reply stamps) the board keeps per phone
MAX_RTT = 5.0             # a longer "round trip" is no sample (a phone asleep, a page in the background)

FIT_SAMPLES = 64          # the phone's kept samples (6.4 s at 10 a second)
FIT_BEST = 0.25           # the share of them, by round trip, the offset is fitted on
FIT_SPAN = 4.0            # seconds of samples before drift is fitted
MAX_DRIFT = 1e-3          # 1000 ppm: any phone's crystal is far better


def clamp(touch: Optional[float], arrival: float, bound: Optional[float]) -> float:
    """A press's stamp: the phone's `touch` kept within [arrival − bound, arrival]; unknown → the arrival."""
    if touch is None or bound is None or touch != touch:      # NaN: not a time
        return arrival
    return min(arrival, max(touch, arrival - bound))


class LinkMeter:
    """The board's view of one phone's link: its round trips as the board measured them."""

    def __init__(self) -> None:
        self.sent: dict[int, float] = {}             # n -> the board's send stamp of reply n
        self.trips: deque = deque(maxlen=KEPT)       # (board time, round trip)
        self.last_heard: Optional[float] = None
        self.heard_sent: Optional[float] = None      # the latest board time the phone has said it sent a sample at

    def replied(self, n: int, t2: float) -> None:
        self.sent[n] = t2
        while len(self.sent) > KEPT:
            self.sent.pop(next(iter(self.sent)))

    def request(self, prev: int, hold: float, t1: float) -> Optional[float]:
        """A request at board time t1 naming the reply `prev` it last read, kept `hold` seconds: the round trip."""
        self.last_heard = t1
        t2 = self.sent.pop(prev, None)
        if t2 is None or not 0 <= hold < MAX_RTT:
            return None
        rtt = t1 - t2 - hold
        if not 0 <= rtt < MAX_RTT:
            return None
        self.trips.append((t1, rtt))
        return rtt

    def sent_at(self, claimed: Optional[float], t1: float) -> None:
        """A sample the phone says it sent at board time `claimed` (its own clock's reading; None: not synced) arrived
        at t1. Its WebSocket is one ordered stream, so every press the phone sent before that sample has arrived."""
        if claimed is not None and claimed == claimed:
            at = min(claimed, t1)               # never sent after it arrived
            self.heard_sent = at if self.heard_sent is None else max(self.heard_sent, at)

    def wait(self, now: float) -> float:
        """Seconds the arbitration must still wait for this phone: no press touched earlier than `now` minus this
        can still arrive. Its delivery bound, or less: a press touched SLACK before the last sample the phone sent has
        already arrived (the stream keeps the phone's order), so only what was touched since can be on its way.
        A page that claims later sends than it made only stops the board from waiting for its own late presses."""
        bound = self.bound(now)
        if self.heard_sent is None:
            return bound
        return max(0.0, min(bound, now - (self.heard_sent - SLACK)))

    def recent(self, now: float) -> list[float]:
        return [rtt for at, rtt in self.trips if now - at <= WINDOW]

    def synced(self, now: float) -> bool:
        return len(self.recent(now)) >= SYNCED_AFTER

    def bound(self, now: float) -> float:
        """Seconds a press of this phone may take from the touch to the board: the longest recent round trip (a
        one-way trip is never longer) plus SLACK, at most MAX_WAIT; MAX_WAIT while unmeasured."""
        trips = self.recent(now)
        if len(trips) < SYNCED_AFTER:
            return MAX_WAIT
        return min(MAX_WAIT, max(trips) + SLACK)

    def error(self, now: float) -> Optional[float]:
        """How far an honest phone's stamp may be from its touch: half the best recent round trip (its offset's
        uncertainty) plus TOUCH_ERROR; None while unmeasured."""
        trips = self.recent(now)
        if len(trips) < SYNCED_AFTER:
            return None
        return min(trips) / 2 + TOUCH_ERROR

    def describe(self, now: float) -> dict:
        trips = sorted(self.recent(now))
        return {"samples": len(trips), "rtt_ms": round(trips[len(trips) // 2] * 1000, 1) if trips else None,
                "bound_ms": round(self.bound(now) * 1000), "wait_ms": round(self.wait(now) * 1000), "error_ms": None if not trips or len(trips) < SYNCED_AFTER
                else round(self.error(now) * 1000, 1)}


class ClockFit:
    """The phone's side (seat.js `Clock` does the same): board time of a phone time, from the best samples."""

    def __init__(self) -> None:
        self.samples: deque = deque(maxlen=FIT_SAMPLES)   # (phone mid time, offset, rtt)
        self.offset: Optional[float] = None
        self.drift = 0.0
        self.x0 = 0.0
        self.best_rtt: Optional[float] = None

    def add(self, t0: float, t1: float, t2: float, t3: float) -> None:
        rtt = (t3 - t0) - (t2 - t1)
        if rtt < 0:
            return
        self.samples.append(((t0 + t3) / 2, ((t1 - t0) + (t2 - t3)) / 2, rtt))
        self._fit()

    def _fit(self) -> None:
        ranked = sorted(self.samples, key=lambda s: s[2])
        good = ranked[:max(3, int(len(ranked) * FIT_BEST))]
        self.best_rtt = ranked[0][2]
        xs = [x for x, _, _ in good]
        ys = [y for _, y, _ in good]
        self.x0 = sum(xs) / len(xs)
        mean = sum(ys) / len(ys)
        drift = 0.0
        if len(good) >= 3 and max(xs) - min(xs) >= FIT_SPAN:
            sxx = sum((x - self.x0) ** 2 for x in xs)
            drift = sum((x - self.x0) * (y - mean) for x, y in zip(xs, ys)) / sxx
            drift = min(MAX_DRIFT, max(-MAX_DRIFT, drift))
        self.offset, self.drift = mean, drift

    @property
    def synced(self) -> bool:
        return self.offset is not None and len(self.samples) >= SYNCED_AFTER

    def board_time(self, phone_time: float) -> Optional[float]:
        if not self.synced:
            return None
        return phone_time + self.offset + self.drift * (phone_time - self.x0)
