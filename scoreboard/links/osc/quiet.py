"""The OSC server's log under a flood: repeated bad input from one source is one line a minute with a count.

A stranger can send thousands of bad packets a second; a log line (worse, a traceback) for each would fill the disk
and cost the board the time it needs to draw. `QuietLog.note(source, what)` logs the first of a kind from a source,
then counts; the next note after `every` seconds says how many came meanwhile. A handler's crash (a bug of ours that
input reached) gets its traceback once in the board's life per exception type and place, and is then counted like
bad input. At most `kept` sources are remembered, the oldest forgotten first.
"""
from __future__ import annotations

import logging
import threading
import time
import traceback
from collections import OrderedDict
from typing import Callable

EVERY = 60.0
KEPT = 256


class QuietLog:
    def __init__(self, log: logging.Logger, every: float = EVERY, kept: int = KEPT,
                 clock: Callable[[], float] = time.monotonic):
        self.log, self.every, self.kept, self.clock = log, every, kept, clock
        self._seen: OrderedDict = OrderedDict()     # (source, what) -> [last logged at, count since]
        self._traced: set = set()                   # (exception type, file, line) whose traceback was logged
        self._lock = threading.Lock()               # the OSC server's thread and the page's server both note

    def note(self, source: str, what: str) -> bool:
        """Count one `what` from `source`; True when it was logged now."""
        with self._lock:
            return self._note(source, what)

    def _note(self, source: str, what: str) -> bool:
        key, now = (source, what), self.clock()
        entry = self._seen.get(key)
        if entry is None:
            self._seen[key] = [now, 0]
            while len(self._seen) > self.kept:
                self._seen.popitem(last=False)
            self.log.info("OSC: %s from %s (the same again is logged once a minute)", what, source)
            return True
        entry[1] += 1
        self._seen.move_to_end(key)
        if now - entry[0] < self.every:
            return False
        self.log.info("OSC: %s from %s: %d more in the last %.0f s", what, source, entry[1], now - entry[0])
        entry[0], entry[1] = now, 0
        return True

    def crash(self, source: str, what: str, error: BaseException) -> None:
        """A handler raised on input from `source`: its traceback once per place, then counted as bad input."""
        frame = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
        place = (type(error).__name__, *((frame[0].filename, frame[0].lineno) if frame else ()))
        if place not in self._traced and len(self._traced) < self.kept:
            self._traced.add(place)
            self.log.error("OSC %s from %s crashed the handler (logged once; then counted)", what, source,
                           exc_info=error)
        self.note(source, f"{what} that crashed the handler ({type(error).__name__})")
