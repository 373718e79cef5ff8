"""Mapping the button box's microsecond clock onto the board's monotonic clock.

The box stamps each press with its own u32 microsecond counter (it wraps every ~71.6 minutes and drifts
against the board's clock by up to a few hundred ppm). Every PING/PONG gives a sample: the box time `t_us`
was read somewhere between the board's send time and receive time, so it is paired with their midpoint, and
the round trip bounds the error. Samples with a round trip near the best one are fitted with a straight line
(offset and drift); before enough time has passed to see drift, the slope is 1. Before any PONG, the first
press's arrival anchors the offset. The board decides who was first from these mapped times.

Converged: the mapping is trusted only once CONVERGE_SAMPLES samples within RTT_SLACK of the best round trip
exist (3 PONGs, ~3 s after a (re)connect at one PING a second). Until then the reader stamps presses by their
arrival, which is late by the serial latency but never early: the first PONGs after a reconnect (a busy box, a
USB adapter still filling its buffers) can put the line 20 ms early, and an early stamp loses a press to a
host command applied just before it. Converged, a mapped time is within `error_bound` of the truth.
"""
from __future__ import annotations

from collections import deque
from typing import Optional

U32 = 2**32
HALF = 2**31
MAX_SAMPLES = 32
MAX_DRIFT = 1e-3          # 1000 ppm: beyond any working crystal or resonator
MIN_SPAN = 4.0            # seconds of box time before the slope is fitted
RTT_SLACK = 0.002         # samples within this of the best round trip are trusted
CONVERGE_SAMPLES = 3      # trusted samples before mapped times are used instead of arrival times


class Unwrapper:
    """u32 microseconds → a growing integer; small steps back (reordered reports) stay behind."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._raw: Optional[int] = None
        self._ext = 0

    def __call__(self, t_us: int) -> int:
        if self._raw is None:
            self._raw, self._ext = t_us, t_us
            return t_us
        delta = (t_us - self._raw) % U32
        if delta >= HALF:
            delta -= U32
        ext = self._ext + delta
        if delta > 0:
            self._raw, self._ext = t_us, ext
        return ext


class BoxClock:
    def __init__(self) -> None:
        self.unwrap = Unwrapper()
        self.reset()

    def reset(self) -> None:
        """The box restarted (a new HELLO): its counter means nothing any more."""
        self.unwrap.reset()
        self._samples: deque = deque(maxlen=MAX_SAMPLES)    # (box seconds, board seconds, rtt)
        self._x0: Optional[float] = None                      # box seconds of the reference point
        self.offset: Optional[float] = None                   # board seconds at box time x0
        self.drift = 1.0                                      # board seconds per box second
        self.samples_used = 0
        self.best_rtt: Optional[float] = None

    @property
    def mapped(self) -> bool:
        return self.offset is not None

    @property
    def converged(self) -> bool:
        return self.samples_used >= CONVERGE_SAMPLES

    @property
    def error_bound(self) -> float | None:
        """Seconds a converged mapping can be off: half the worst trusted round trip (the box read its clock
        somewhere inside it), plus what the clamped drift can add over a PING interval (1 ms)."""
        if not self.converged or self.best_rtt is None:
            return None
        return (self.best_rtt + RTT_SLACK) / 2 + MAX_DRIFT * 1.0

    def add_sample(self, sent: float, received: float, t_us: int) -> None:
        """A PONG: the box read `t_us` between board times `sent` and `received`."""
        rtt = received - sent
        if rtt < 0:
            return
        self._samples.append((self.unwrap(t_us) / 1e6, (sent + received) / 2, rtt))
        self._fit()

    def anchor(self, box_us_ext: int, arrival: float) -> None:
        """No PONG yet: take this press's arrival as its time (the serial latency becomes the error)."""
        if self.offset is None:
            self._x0, self.offset, self.drift = box_us_ext / 1e6, arrival, 1.0

    def _fit(self) -> None:
        best = min(rtt for _, _, rtt in self._samples)
        good = [(x, y) for x, y, rtt in self._samples if rtt <= best + RTT_SLACK]
        self.best_rtt = best
        self.samples_used = len(good)
        x0 = good[-1][0]
        xs = [x - x0 for x, _ in good]
        ys = [y for _, y in good]
        slope = 1.0
        if len(good) >= 3 and max(xs) - min(xs) >= MIN_SPAN:
            mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
            sxx = sum((x - mx) ** 2 for x in xs)
            sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
            slope = min(1 + MAX_DRIFT, max(1 - MAX_DRIFT, sxy / sxx))
            intercept = my - slope * mx
        else:
            # no slope yet: the offset of the tightest sample(s)
            intercept = sum(y - x for x, y in zip(xs, ys)) / len(xs)
        self._x0, self.offset, self.drift = x0, intercept, slope

    def to_board(self, box_us_ext: int) -> float:
        """Board monotonic seconds of an (unwrapped) box time; requires `mapped`."""
        assert self.offset is not None and self._x0 is not None
        return self.offset + self.drift * (box_us_ext / 1e6 - self._x0)
