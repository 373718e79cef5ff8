"""`scoreboard bench tournament`: how long an organiser waits for a draw, a topic assignment, a recorded result,
and a screen. Every figure is measured on real parts: the pure draws, a real SQLite file (WAL, fsync), pygame
headless. Output: median and p99 per operation and the ratio to a 100 ms budget (what feels instant to a room).
"""
from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path

from scoreboard.display.render.canvas import Canvas
from scoreboard.display.scenes import tournament as screens
from scoreboard.display.theme.load import load_theme
from scoreboard.tournament import draw, lots, topics, views
from scoreboard.demo.tournament import build
from scoreboard.tournament.formats.novosibirsk import rules as novosibirsk
from scoreboard.tournament.formats.samara import rules as samara

BUDGET_S = 0.1


def _stats(samples: list[float]) -> dict:
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]  # noqa: E731
    return {"n": len(ordered), "median_ms": round(pick(0.5) * 1e3, 3), "p99_ms": round(pick(0.99) * 1e3, 3),
            "p99_to_budget": round(pick(0.99) / BUDGET_S, 4)}


def _timed(func, runs):
    out = []
    for k in range(runs):
        start = time.perf_counter()
        func(k)
        out.append(time.perf_counter() - start)
    return out


def _bracket(k):
    """27 players: 9 seeded, teams of 7, 6 and 4 (a seeded player in a team changes with the seed)."""
    rnd = random.Random(k)
    players = [f"p{i}" for i in range(27)]
    pool = players[:]
    rnd.shuffle(pool)
    teams = {"A": pool[:7], "B": pool[7:13], "C": pool[13:17]}
    out = novosibirsk.draw_first_stage(players, pool[16:25], teams, lots.rng(k, "1/9"))
    assert not out.broken, out.broken        # every spread kept: the figure is of a draw that is exact


def _cup(k):
    """45 players: relatives (a chain of three and two pairs), the Super Nine to spread, six teams of 4."""
    rnd = random.Random(k)
    players = [f"p{i}" for i in range(45)]
    groups = [draw.Group(f"relatives {a}/{b}", (a, b), apart=True, priority=-1)
              for a, b in (("p1", "p2"), ("p2", "p3"), ("p10", "p11"), ("p20", "p21"))]
    groups.append(draw.Group("super nine", tuple(players[30:39])))
    pool = players[:]
    rnd.shuffle(pool)
    groups += [draw.Group(f"team {t}", tuple(pool[4 * t:4 * t + 4]), priority=1) for t in range(6)]
    out = draw.draw_games(players, samara.first_round_sizes(45), groups, lots.rng(k, "r1"))
    assert not out.broken, out.broken


def _topics(k):
    rnd = random.Random(k)
    players = [f"p{i}" for i in range(45)]
    games = {f"G{g}": players[3 * g:3 * g + 3] for g in range(15)}
    pool = [topics.Topic(f"t{i}", f"name{i % 70}", rnd.choice(players)) for i in range(120)]
    topics.assign(games, 4, pool, {p: f"team{i % 9}" for i, p in enumerate(players)}, lots.rng(k, "topics"))


def run(args) -> int:
    runs = 20 if getattr(args, "quick", False) else 200
    figures = {"exact bracket draw (27 players, 9 seeded, teams 7/6/4)": _stats(_timed(_bracket, runs)),
               "exact samara round 1 (45: relatives, Super Nine, 6 teams)": _stats(_timed(_cup, runs)),
               "topic assignment (15 games x 4 of 120 topics)": _stats(_timed(_topics, runs))}
    with tempfile.TemporaryDirectory() as tmp:
        second = build(Path(tmp) / "b.sqlite", "novosibirsk-2007", None)
        games = [g["id"] for g in second.store.games()]
        results = {g["id"]: g["result"] for g in second.store.games()}
        second.store.db.execute("UPDATE stages SET state = 'drawn'")   # let results be re-recorded

        def record(k):
            gid = games[k % len(games)]
            second.store.db.execute("UPDATE games SET result = NULL WHERE id = ?", (gid,))
            seats = {str(s["seat"]): s["score"] for s in results[gid]["seats"]}
            second.record_typed(gid, seats, results[gid]["winner"])

        figures["record a result (SQLite WAL, fsync)"] = _stats(_timed(record, runs))
        canvas = Canvas(screens.offscreen((1920, 1080)), load_theme())
        screens.draw(canvas, "bracket", views.build(second, "bracket"))   # fonts loaded once
        figures["bracket view + draw 1920x1080 (no PNG)"] = _stats(_timed(
            lambda k: screens.draw(canvas, "bracket", views.build(second, "bracket")), max(5, runs // 4)))
    if getattr(args, "json", False):
        print(json.dumps(figures, ensure_ascii=False, indent=1))
    else:
        for name, f in figures.items():
            print(f"{name:<58} median {f['median_ms']:8.3f} ms  p99 {f['p99_ms']:8.3f} ms  "
                  f"p99/100ms {f['p99_to_budget']:.4f}  (n={f['n']})")
    return 0
