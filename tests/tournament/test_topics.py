"""samara-2003 topic assignment (T-S8): own and team-mates' topics, distinct names in a game, each topic once."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings, strategies as st

from scoreboard.tournament import topics
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.lots import rng
from scoreboard.tournament.service import Tournament

from .helpers import names, play_stage, register


def _keeps_rules(assignment, games, per_game, team_of):
    used = [t.id for ts in assignment.values() for t in ts]
    assert len(used) == len(set(used)), "a topic used twice"
    for g, ts in assignment.items():
        assert len(ts) == per_game
        assert len({t.name for t in ts}) == per_game, f"{g}: two topics share a name"
        assert all(topics.playable(t, games[g], team_of) for t in ts), f"{g}: a player plays their own/team topic"


@st.composite
def pools(draw_):
    n_games = draw_(st.integers(1, 5))
    players = [f"p{i}" for i in range(3 * n_games)]
    games = {f"G{k}": players[3 * k:3 * k + 3] for k in range(n_games)}
    team_of = {p: draw_(st.sampled_from([None, "A", "B"])) for p in players}
    pool = [topics.Topic(f"t{i}", f"name{draw_(st.integers(0, 8))}", draw_(st.sampled_from(players + [None])))
            for i in range(draw_(st.integers(4, 30)))]
    return games, team_of, pool, draw_(st.integers(4, 5))


@settings(max_examples=80, deadline=None)
@given(pools())
def test_ts8_assignment_keeps_every_rule_or_names_game_and_rule(case):
    """GIVEN any pool, games and teams WHEN topics are assigned
    THEN the assignment keeps all three rules; or, when it refuses, the message names a game and the rule."""
    games, team_of, pool, per_game = case
    try:
        out = topics.assign(games, per_game, pool, team_of, rng(1, "topics"))
    except TournamentError as error:
        text = str(error)
        assert "game" in text and ("written by these players" in text or "used at most once" in text)
        return
    _keeps_rules(out, games, per_game, team_of)


def _exists_by_brute_force(games, per_game, pool, team_of) -> bool:
    """Every way of giving each topic to one game or to none (the whole product, no pruning): does one keep all
    three rules and give every game exactly `per_game` topics?"""
    ids = list(games)
    for choice in itertools.product([None, *ids], repeat=len(pool)):
        given = {g: [t for t, c in zip(pool, choice) if c == g] for g in ids}
        if all(len(ts) == per_game and len({t.name for t in ts}) == per_game
               and all(topics.playable(t, games[g], team_of) for t in ts) for g, ts in given.items()):
            return True
    return False


@st.composite
def small_pools(draw_):
    n_games = draw_(st.integers(1, 2))
    players = [f"p{i}" for i in range(3 * n_games)]
    games = {f"G{k}": players[3 * k:3 * k + 3] for k in range(n_games)}
    team_of = {p: draw_(st.sampled_from([None, "A", "B"])) for p in players}
    size = draw_(st.integers(1, 8 if n_games == 2 else 10))
    pool = [topics.Topic(f"t{i}", f"name{draw_(st.integers(0, 4))}", draw_(st.sampled_from(players + [None])))
            for i in range(size)]
    return games, team_of, pool, draw_(st.integers(1, 3))


@settings(max_examples=120, deadline=None)
@given(small_pools())
def test_ts8_refuses_only_when_brute_force_finds_no_assignment(case):
    """GIVEN small pools (≤ 2 games, ≤ 10 topics, 1–3 topics a game) WHEN topics are assigned
    THEN a refusal happens exactly when trying every way of handing out the topics finds none that keeps the rules;
    an assignment found keeps every rule (own/team topics, distinct names, each topic once, the count)."""
    games, team_of, pool, per_game = case
    possible = _exists_by_brute_force(games, per_game, pool, team_of)
    try:
        out = topics.assign(games, per_game, pool, team_of, rng(1, "topics"))
    except TournamentError:
        assert not possible, "refused although an assignment exists"
        return
    assert possible, "an assignment found where brute force finds none"
    _keeps_rules(out, games, per_game, team_of)
    assert set(out) == set(games)


def test_ts8_impossible_game_named_with_its_constraint():
    """GIVEN a game whose players wrote all but 3 topic names THEN the refusal names that game and why."""
    games = {"winter-1-2": ["a", "b", "c"], "winter-1-1": ["d", "e", "f"]}
    pool = [topics.Topic(f"t{i}", f"n{i}", "a" if i < 6 else "x") for i in range(9)]
    with pytest.raises(TournamentError, match=r"game winter-1-2: only 3 topic names .* written by these players"):
        topics.assign(games, 4, pool, {"a": None}, rng(1, "t"))


def test_ts8_team_mate_topics_are_avoided():
    """GIVEN a pool where 4 of 8 topics are written by z, player a's teammate
    WHEN a 4-topic game with a is assigned THEN none of its topics is z's (T-S8)."""
    games = {"G1": ["a", "b", "c"]}
    pool = [topics.Topic(f"t{i}", f"n{i}", "z" if i < 4 else None) for i in range(8)]
    out = topics.assign(games, 4, pool, {"a": "Team", "z": "Team"}, rng(1, "t"))
    assert all(t.author is None for t in out["G1"])


def test_ts8_each_topic_once_across_the_cup(path):
    """GIVEN a samara cup with a topic pool WHEN two rounds are drawn THEN no topic is played in two games."""
    t = Tournament.create(path, "samara-2003", seed=4)
    register(t, names(12), cups=["winter"])
    from scoreboard.tournament.formats.samara import flow as flow_samara
    for i in range(40):
        flow_samara.add_topic(t, f"Topic {i % 25}", author=f"P{(i % 12) + 1:02d}")
    assert t.draw()["topics"] == "topics assigned"
    play_stage(t, random.Random(1), positive=True)
    t.advance()
    t.draw()
    used = [x for g in t.store.games() for x in g["topics"]]
    assert len(used) == len(set(used)) == 4 * (4 + 2)
    assert t.verify() == []
