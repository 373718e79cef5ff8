"""A follower checks every snapshot from outside (scoreboard/snapshot_check.py, tested in tests/test_snapshot_check.py)
before any scene reads it: a bad one is refused with the path and the reason and the last good one stays; a good one —
even with optional fields missing or odd values — always draws."""
import copy
import random

import pygame

from scoreboard.display import compose
from scoreboard.app.follow import Follower
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme
from scoreboard.snapshot_check import check_host_question, check_snapshot
from tests.headless import REGULATIONS


def test_every_simulated_game_snapshot_passes(games):
    """GIVEN every snapshot and host question of the display's three simulated whole games (packs, auctions, finals,
    tie-breaks) WHEN checked as a follower would THEN none has a problem."""
    for regulation in REGULATIONS:
        for snap, host_question, _ in games[regulation]:
            assert check_snapshot(snap) == [], (regulation, snap["rev"])
            assert check_host_question(host_question) == [], (regulation, snap["rev"])


def _paths(x, prefix=()):
    yield prefix
    if isinstance(x, dict):
        for key, value in x.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(x, list):
        for i, value in enumerate(x):
            yield from _paths(value, prefix + (i,))


def test_whatever_passes_the_check_draws(games):
    """GIVEN 1500 real snapshots each damaged in 1–3 random places (deleted, nulled, wrong type) WHEN checked THEN
    every one the check lets through draws on all three roles without an error (seeded, reproducible)."""
    rng = random.Random(11)
    frames = [s for regulation in REGULATIONS for s, _, _ in games[regulation]]
    theme, surface, drawn = load_theme(None), pygame.Surface((320, 180)), 0
    for _ in range(1500):
        snap = copy.deepcopy(rng.choice(frames))
        for _ in range(rng.randint(1, 3)):
            path = rng.choice([p for p in _paths(snap) if p])
            parent = snap
            for key in path[:-1]:
                parent = parent[key]
            roll = rng.random()
            if roll < 0.4 and isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent[path[-1]] = rng.choice([None, 0, -3, 99, True, "x", [], {}, 1.5])
        if check_snapshot(snap):
            continue
        for role in ("audience", "host", "players"):
            compose.draw(surface, snap, theme, 10.0, role)
        drawn += 1
    assert drawn >= 100


class FakeClient:
    """The OSC client's two fields a follower reads (the real client is exercised in test_follow)."""

    def __init__(self):
        self.latest, self.question = (-1, None), None


def test_follower_refuses_a_bad_state_and_keeps_the_last_good(games):
    """GIVEN a follower showing a good snapshot WHEN a state with a broken field arrives THEN it is refused with the
    reason (said once) and the screen keeps the good one."""
    good = next(s for s, _, _ in games["novosibirsk-2007"] if s["phase"] == "choosing")
    client, said = FakeClient(), []
    follower = Follower(client, Screen(ScreenSpec("audience", size=(320, 180)), load_theme(None), window=False),
                        out=said.append)
    client.latest = (good["rev"], good)
    assert follower.step() and follower.rev == good["rev"]
    bad = dict(good, rev=good["rev"] + 1, players="nobody")
    client.latest = (bad["rev"], bad)
    follower.step()
    follower.step()
    assert follower.rev == good["rev"] and follower.good is good
    assert len(said) == 1 and "snapshot.players: expected a list" in said[0]


def test_a_drawing_error_shows_on_screen_instead_of_stopping(monkeypatch, games):
    """GIVEN a scene that raises (a bug) WHEN the screen renders THEN it draws an error frame, keeps the reason, and
    the next good frame draws normally."""
    screen = Screen(ScreenSpec("audience", size=(320, 180)), load_theme(None), window=False)
    snap = next(s for s, _, _ in games["novosibirsk-2007"] if s["phase"] == "choosing")
    real = compose.draw
    monkeypatch.setattr(compose, "draw", lambda *a, **k: 1 / 0)
    assert screen.render(snap, 0.0, force=True) and "ZeroDivisionError" in screen.error
    monkeypatch.setattr(compose, "draw", real)
    assert screen.render(snap, 0.0, force=True) and screen.error is None
