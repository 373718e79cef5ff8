"""The board's window on its tournament file: `/sg/screen bracket|standings` views, re-read at most every few seconds.

Results arrive between games, and the file stays closed in between so the tournament commands can write to it; a
missing or damaged file makes the screen say «no tournament» (reported once) and never stops the board.
"""
from __future__ import annotations

import time

from scoreboard.tournament.board_link import load_screen


class TournamentScreens:
    """`scene` ("bracket" or "standings") → the view the display draws, or None; cached for `ttl` seconds."""

    def __init__(self, path: str, ttl: float = 5.0, clock=time.monotonic, out=print):
        self.path, self.ttl, self.clock, self.out = path, ttl, clock, out
        self._cache: dict[str, tuple[float, object]] = {}
        self._reported = False

    def __call__(self, scene: str):
        cached = self._cache.get(scene)
        if cached is not None and self.clock() - cached[0] < self.ttl:
            return cached[1]
        try:
            view = load_screen(self.path, scene)
        except Exception as error:  # a missing or damaged file: the screen says "no tournament"
            if not self._reported:
                self.out(f"board: tournament {self.path}: {error}")
                self._reported = True
            view = None
        self._cache[scene] = (self.clock(), view)
        return view
