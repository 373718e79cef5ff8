"""`scoreboard bench engine`: journaled command latency, replay time, undo cost, simulate's peak memory.

Targets (issue: the engine): p99 <= 2 ms per journaled command, replay of 10,000 commands <= 0.5 s,
peak RSS of `simulate` <= 60 MB. Figures are medians and p99 over many samples: this machine is shared.
"""
from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scoreboard.folders import shipped
from scoreboard.demo.playthrough import steps
from scoreboard.engine import Refused
from scoreboard.journal import Journal
from scoreboard.session import Session, replay_snapshot

REGULATIONS = ("novosibirsk-2007", "america-2005", "samara-2003")


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class _Counter:
    """Stands in for the journal in the engine-only pass: counts events, writes nothing."""

    def __init__(self):
        self.n = 0

    def append(self, cmd):
        self.n += 1

    def log_ignored(self, cmd, reason):
        pass

    def __len__(self):
        return self.n

    def close(self):
        pass


def journaled_latency(directory: Path, events: int, on_disk: bool = True) -> dict:
    """Play random games (all three regulations in turn) into one journal on disk until it holds `events`
    events; time every accepted submit, from the call to the durable append. `on_disk=False` measures the
    engine alone, with the same commands."""
    path = directory / "bench.sqlite"
    session = Session(path if on_disk else None)
    if not on_disk:
        session.journal = _Counter()
    accepted: list[float] = []
    undo: list[float] = []
    rng = random.Random(2026)
    games = 0
    while len(session.journal) < events:
        regulation = REGULATIONS[games % len(REGULATIONS)]
        games += 1
        for cmd, t in steps(session, regulation, rng, 10 ** 9, start=session.time, new_games=True):
            if len(session.journal) >= events:
                break
            rev = session.rev
            start = time.perf_counter()
            try:
                session.advance(t) if cmd is None else session.submit(cmd)
            except Refused:
                continue
            elapsed = time.perf_counter() - start
            if cmd is not None and session.rev == rev + 1:
                (undo if cmd.address == "/sg/undo" else accepted).append(elapsed)
            if session.snapshot()["game_over"]:
                break
    session.close()
    return {"path": path, "commands": len(accepted), "events": events, "games": games,
            "per_s": len(accepted) / sum(accepted), "p50_ms": statistics.median(accepted) * 1e3,
            "p99_ms": pct(accepted, 99) * 1e3, "max_ms": max(accepted) * 1e3,
            "undo_p50_ms": statistics.median(undo) * 1e3 if undo else None,
            "undo_p99_ms": pct(undo, 99) * 1e3 if undo else None, "undos": len(undo)}


def replay_time(path: Path, repeats: int) -> dict:
    """Read, check (CRC, numbering) and fold a whole journal, as `resume` does."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        replay_snapshot(path)
        times.append(time.perf_counter() - start)
    journal = Journal(path, readonly=True)
    events = len(journal)
    journal.close()
    return {"events": events, "median_s": statistics.median(times), "max_s": max(times), "runs": repeats}


def simulate_rss(repeats: int) -> dict:
    """Peak RSS of `scoreboard simulate` on the longest example game, in a fresh process each time."""
    script = shipped("examples", "america-2005-final.txt")
    peaks = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            proc = subprocess.Popen([sys.executable, "-m", "scoreboard", "simulate", str(script), "--json",
                                     "--journal", str(Path(tmp) / "j.sqlite")], stdout=subprocess.DEVNULL)
            _, status, usage = os.wait4(proc.pid, 0)
            if status != 0:
                raise RuntimeError(f"simulate failed with status {status}")
            peaks.append(usage.ru_maxrss / 1024)   # KiB on Linux
    return {"median_mb": statistics.median(peaks), "max_mb": max(peaks), "runs": repeats, "script": script.name}


def run(args) -> int:
    quick = getattr(args, "quick", False)
    events = 2000 if quick else 10000
    directory = Path(getattr(args, "dir", None) or ".")
    with tempfile.TemporaryDirectory(dir=directory, prefix=".bench-") as tmp:
        latency = journaled_latency(Path(tmp), events)
        replay = replay_time(latency.pop("path"), 3 if quick else 7)
        engine = journaled_latency(Path(tmp), events, on_disk=False)
        engine.pop("path")
    rss = simulate_rss(1 if quick else 3)
    figures = {"journaled_command": latency, "engine_only": engine, "replay": replay, "simulate_rss": rss}
    verdicts = {
        "p99 per journaled command <= 2 ms": latency["p99_ms"] <= 2.0,
        f"replay of {replay['events']} events <= 0.5 s": replay["median_s"] <= 0.5,
        "simulate peak RSS <= 60 MB": rss["max_mb"] <= 60,
    }
    if getattr(args, "json", False):
        print(json.dumps({"figures": figures, "targets": verdicts}, indent=2))
    else:
        print(f"journaled commands : {latency['commands']} accepted in a {events}-event journal (WAL, synchronous=FULL)")
        print(f"  per command      : p50 {latency['p50_ms']:.3f} ms   p99 {latency['p99_ms']:.3f} ms   "
              f"max {latency['max_ms']:.2f} ms   ({latency['per_s']:.0f} commands/s)")
        print(f"  engine alone     : p50 {engine['p50_ms']:.3f} ms   p99 {engine['p99_ms']:.3f} ms   "
              f"(same commands, no disk: the rest is SQLite's fsync)")
        if latency["undos"]:
            print(f"  undo             : p50 {latency['undo_p50_ms']:.3f} ms   p99 {latency['undo_p99_ms']:.3f} ms "
                  f"({latency['undos']} undos)")
        print(f"replay             : {replay['events']} events in {replay['median_s'] * 1e3:.0f} ms median "
              f"(max {replay['max_s'] * 1e3:.0f} ms, {replay['runs']} runs)")
        print(f"simulate peak RSS  : {rss['median_mb']:.1f} MB median, {rss['max_mb']:.1f} MB max ({rss['script']})")
        for target, ok in verdicts.items():
            print(f"  {'PASS' if ok else 'FAIL'}  {target}")
    return 0 if all(verdicts.values()) else 1
