"""Drivers for whole tournaments: register players, play every game of a stage with made-up scores."""
from __future__ import annotations

import random

from scoreboard.demo.tournament import top
from scoreboard.tournament.service import Tournament


def register(t: Tournament, names, **kwargs):
    for n in names:
        t.add_player(n, **kwargs)


def play_stage(t: Tournament, rnd: random.Random, positive: bool = False, scores=None) -> dict:
    """Record every open game of the last stage. Scores are distinct within a game; `positive` keeps them > 0."""
    stage = t.last_stage()
    out = {}
    for g in t.store.games(stage["id"]):
        if g["result"]:
            continue
        if scores:
            values = scores(g)
        else:
            values = rnd.sample(range(10 if positive else -150, top(t, g, 500), 10), len(g["players"]))
        t.record_typed(g["id"], {str(i + 1): v for i, v in enumerate(values)})
        out[g["id"]] = dict(zip(g["players"], values))
    return out


def names(n: int, prefix: str = "P") -> list[str]:
    return [f"{prefix}{i:02d}" for i in range(1, n + 1)]


def play_to_the_end(session, board):
    """A novosibirsk 1/9 blue round on the real board: seat 1 takes topic 1, nothing else is answered; a frame after
    every question and at the end (where the board records or sends the result)."""
    from scoreboard.engine import make
    t = 0.0
    session.submit(make(t, "/sg/game/start"))
    for k in range(1, 5):
        for q in range(1, 6):
            t += 1
            session.submit(make(t, "/sg/select", k, q))
            if k == 1:
                session.submit(make(t, "/sg/button", 1))
                session.submit(make(t, "/sg/judge/right"))
            else:
                session.submit(make(t, "/sg/time"))
            board.frame()
    session.submit(make(t + 1, "/sg/next"))
    board.frame()
