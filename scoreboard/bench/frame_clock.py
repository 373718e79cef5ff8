"""The real board with a clock on its frames: `python -m scoreboard.bench.frame_clock OUT -m scoreboard run …`.

What `scoreboard bench hall` starts instead of `python -m scoreboard run`: the same board, whose main-thread turns
(`app/loop.py` `Loop.turn`: window events, drawing, the rest of the frame) are timed. Every turn's start is kept;
OUT gets them as JSON (perf_counter seconds) when the board stops, and a bench reads the frame intervals of any time
span from it. Nothing else changes: the board is `scoreboard.cli.main` as `scoreboard run` calls it.
"""
from __future__ import annotations

import atexit
import json
import sys
import time

from scoreboard.app import loop
from scoreboard.cli import main


def clocked(out: str) -> None:
    starts: list[float] = []
    turn = loop.Loop.turn

    def timed(self) -> None:
        starts.append(time.perf_counter())
        turn(self)

    loop.Loop.turn = timed
    atexit.register(lambda: open(out, "w", encoding="utf-8").write(json.dumps(starts)))


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[2:4] != ["-m", "scoreboard"]:
        raise SystemExit("usage: python -m scoreboard.bench.frame_clock OUT -m scoreboard run --config FILE")
    clocked(sys.argv[1])
    raise SystemExit(main(sys.argv[4:]))
