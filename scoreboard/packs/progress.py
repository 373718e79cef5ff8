"""A progress bar on stderr for long imports: drawn in place on a terminal, as sparse lines otherwise.

Short imports print nothing: the bar appears only once an import has taken `delay` seconds (on a terminal
at once), so scripts and logs stay clean and a big pack still shows it is alive.
"""
from __future__ import annotations

import sys
import time


class ProgressBar:
    def __init__(self, label: str, stream=None, delay: float = 2.0, width: int = 30):
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.label, self.delay, self.width = label, delay, width
        self.started = time.monotonic()
        self.last_line = -1.0
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        elapsed = now - self.started
        share = done / total if total else 1.0
        if self.tty:
            filled = int(self.width * share)
            self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {share:4.0%} "
                              f"{done / 1e6:.1f}/{total / 1e6:.1f} MB")
            self.drawn = True
        elif elapsed >= self.delay and now - self.last_line >= 1.0:
            self.stream.write(f"{self.label}: {share:.0%} ({done / 1e6:.1f}/{total / 1e6:.1f} MB)\n")
            self.last_line = now
        self.stream.flush()

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
