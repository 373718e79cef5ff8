"""Live theme reload for rehearsal: poll the theme's files once a second and reload when one changed."""
from __future__ import annotations

import time

from scoreboard.display.theme.load import Theme, load_theme


class ThemeWatcher:
    def __init__(self, theme: Theme, source, interval: float = 1.0, clock=time.monotonic):
        self.theme, self.source, self.interval, self.clock = theme, source, interval, clock
        self._stamps = self._read()
        self._next = clock() + interval

    def _read(self) -> dict:
        stamps = {}
        for path in self.theme.files:
            try:
                stamps[str(path)] = path.stat().st_mtime_ns
            except OSError:
                stamps[str(path)] = None
        return stamps

    def poll(self) -> Theme | None:
        """A freshly loaded theme if a file changed since the last poll, else None."""
        if self.clock() < self._next:
            return None
        self._next = self.clock() + self.interval
        stamps = self._read()
        if stamps == self._stamps:
            return None
        self.theme = load_theme(self.source)
        self._stamps = self._read()
        return self.theme
