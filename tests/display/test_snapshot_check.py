"""Snapshots from outside (a follower's OSC state) are checked before any scene reads them: a bad one is refused
with the path and the reason; a good one — even with optional fields missing — always draws."""
import copy
import random

import pygame
import pytest

from scoreboard.display import scenes
from scoreboard.display.follow import Follower
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.snapshot_check import check_snapshot
from scoreboard.display.theme import load_theme
from tests.display.conftest import REGULATIONS


def test_every_engine_snapshot_passes(games):
    """GIVEN every snapshot of three whole games WHEN checked THEN none has a problem."""
    for regulation in REGULATIONS:
        for snap, _, _ in games[regulation]:
            assert check_snapshot(snap) == [], (regulation, snap["rev"])


@pytest.mark.parametrize("path, value, reason", [
    (("phase",), "dancing", "snapshot.phase: unknown phase"),
    (("players", 0, "seat"), 0, "snapshot.players[0].seat: expected seat"),
    (("players", 1, "score"), "10", "snapshot.players[1].score: expected int"),
    (("round", "topics", 0, "cells", 2, "played"), 1, "snapshot.round.topics[0].cells[2].played: expected bool"),
    (("players",), None, "snapshot.players: expected a list"),
    (("chooser",), True, "snapshot.chooser: expected seat"),
    (("time",), float("nan"), "snapshot.time: expected num"),
])
def test_bad_fields_are_named(games, path, value, reason):
    """GIVEN a real choosing snapshot with one field broken WHEN checked THEN the problem names its path."""
    snap = copy.deepcopy(next(s for s, _, _ in games["novosibirsk-2007"] if s["phase"] == "choosing"))
    target = snap
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert any(problem.startswith(reason) for problem in check_snapshot(snap)), check_snapshot(snap)


def test_not_an_object_and_missing_required_fields(games):
    """GIVEN JSON that is not an object, or lacks players WHEN checked THEN refused."""
    assert check_snapshot([1, 2]) == ["snapshot: expected an object"]
    assert "snapshot.players: missing" in check_snapshot({"phase": "setup"})


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
            scenes.draw(surface, snap, theme, 10.0, role)
        drawn += 1
    assert drawn >= 100


class FakeClient:
    """The OSC client's two fields a follower reads (the real client is exercised in test_follow)."""

    def __init__(self):
        self.state, self.question = (-1, None), None


def test_follower_refuses_a_bad_state_and_keeps_the_last_good(games):
    """GIVEN a follower showing a good snapshot WHEN a state with a broken field arrives THEN it is refused with the
    reason (said once) and the screen keeps the good one."""
    good = next(s for s, _, _ in games["novosibirsk-2007"] if s["phase"] == "choosing")
    client, said = FakeClient(), []
    follower = Follower(client, Screen(ScreenSpec("audience", size=(320, 180)), load_theme(None), window=False),
                        out=said.append)
    client.state = (good["rev"], good)
    assert follower.step() and follower.rev == good["rev"]
    bad = dict(good, rev=good["rev"] + 1, players="nobody")
    client.state = (bad["rev"], bad)
    follower.step()
    follower.step()
    assert follower.rev == good["rev"] and follower.good is good
    assert len(said) == 1 and "snapshot.players: expected a list" in said[0]


def test_a_drawing_error_shows_on_screen_instead_of_stopping(monkeypatch, games):
    """GIVEN a scene that raises (a bug) WHEN the screen renders THEN it draws an error frame, keeps the reason, and
    the next good frame draws normally."""
    screen = Screen(ScreenSpec("audience", size=(320, 180)), load_theme(None), window=False)
    snap = next(s for s, _, _ in games["novosibirsk-2007"] if s["phase"] == "choosing")
    real = scenes.draw
    monkeypatch.setattr(scenes, "draw", lambda *a, **k: 1 / 0)
    assert screen.render(snap, 0.0, force=True) and "ZeroDivisionError" in screen.error
    monkeypatch.setattr(scenes, "draw", real)
    assert screen.render(snap, 0.0, force=True) and screen.error is None
