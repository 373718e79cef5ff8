"""The protocol checked line by line against its journal: what every test of a real game asks of it."""
from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from scoreboard.session import replay_snapshot

# Journaled commands that are no line of the protocol: the next step (it opens a question block when it opens one,
# counted as that block's) and what only the screens show.
ROOT = Path(__file__).resolve().parents[2]
NO_LINE = {"/sg/next", "/sg/screen", "/sg/media/pause", "/sg/media/play", "/sg/media/replay"}


def journal_rows(path: Path) -> tuple[list[tuple], list[tuple]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        events = db.execute("SELECT seq, at, address, args FROM events ORDER BY seq").fetchall()
        ignored = db.execute("SELECT at, address, args, reason FROM ignored ORDER BY id").fetchall()
    return events, ignored


def all_lines(model: dict) -> list[dict]:
    return model["setup"] + [line for block in model["questions"] for line in block["lines"]]


def check_against_journal(model: dict, path: Path) -> None:
    """Every journaled event is a line (or opens a question) at its own time; every ignored press is a line with
    its reason; each press says its seat, source and bound as journaled; the points of the lines add up to the
    scores the engine ends with; the result is the engine's."""
    import json
    events, ignored = journal_rows(path)
    first = max(seq for seq, _, address, _ in events if address == "/sg/game/new")   # the protocol's game: the last
    start = next(at for seq, at, _, _ in events if seq == first)
    events = [e for e in events if e[0] >= first]
    ignored = [row for row in ignored if row[0] >= start]
    lines = all_lines(model)
    by_seq: dict[int, list[dict]] = {}
    for line in lines:
        if line.get("seq") is not None:
            by_seq.setdefault(line["seq"], []).append(line)
    opened = {block["opened_seq"] for block in model["questions"]}
    for seq, at, address, args_text in events:
        args = json.loads(args_text)
        if address in NO_LINE and seq not in by_seq:
            continue
        assert seq in by_seq or seq in opened, (seq, address, args)
        for line in by_seq.get(seq, []):
            assert line["at"] == at, (seq, line)
        if address == "/sg/button":
            (press,) = by_seq[seq]
            assert press["what"] in ("press", "press_late", "false_start") and press["seat"] == args[0], press
            assert press.get("source") == (args[1] if len(args) > 1 else None)
            assert press.get("bound_ms") == (args[2] if len(args) > 2 else None)
    shown = [line for line in lines if line["what"] == "ignored"]
    assert [(line["at"], line["address"], line["reason"]) for line in shown] == \
        [(at, address, reason) for at, address, _, reason in ignored]
    final = replay_snapshot(path)
    totals = {p["seat"]: 0 for p in final["players"]}
    for line in lines:
        for delta in line.get("deltas") or []:
            totals[delta["seat"]] += delta["delta"]
    assert totals == {p["seat"]: p["score"] for p in final["players"]}
    assert model["result"]["scores"] == [p["score"] for p in final["players"]]
    assert (model["result"]["winner"], model["result"]["game_over"]) == (final["winner"], final["game_over"])
    assert [p["name"] for p in model["players"]] == [p["name"] for p in final["players"]]


def wait_until(predicate, timeout: float = 30.0) -> bool:
    """Poll `predicate` until it holds (True) or `timeout` passes (False): a condition, never a sleep."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.002)
    return bool(predicate())
