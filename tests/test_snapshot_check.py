"""The one check of received snapshots (scoreboard/snapshot_check.py), shared by the follower screen and the host's
remote (PROTOCOL.md §3, docs/ENGINE_API.md): everything the real engine sends passes, anything malformed is refused
with "path: reason", and no input at all makes it raise.

The clients' own halves (a refused state keeps the last good picture; whatever passes draws / acts) are tested in
tests/app/test_follow_checked.py and tests/host_remote/test_remote_snapshot_check.py."""
from __future__ import annotations

import collections
import functools
import copy
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.engine import make
from scoreboard.demo.playthrough import play
from scoreboard.session import Session
from scoreboard.snapshot_check import MAX_LIST, MAX_PROBLEMS, MAX_TEXT, PHASES, check_host_question, check_snapshot

REGULATIONS = ("novosibirsk-2007", "america-2005", "samara-2003")
SAMPLE_PACK = str(Path(__file__).resolve().parents[1] / "assets" / "packs" / "sample.toml")


class CheckedSession(Session):
    """A real in-memory session that keeps every snapshot and host question it reaches (after each command and
    each fired deadline), so a random game can be checked state by state."""

    def __init__(self):
        super().__init__()
        self.seen: list[tuple[dict, dict | None]] = []

    def _keep(self):
        self.seen.append((self.snapshot(), self.host_question()))

    def submit(self, cmd):
        try:
            return super().submit(cmd)
        finally:
            self._keep()

    def advance(self, now):
        try:
            return super().advance(now)
        finally:
            self._keep()


@functools.cache
def frames() -> list[tuple[str, dict, dict | None]]:
    """(regulation, snapshot, host question) of random games: scoreboard.demo.playthrough's plausible host and players,
    several seeds per regulation, new games after each game over; novosibirsk and samara also play the sample pack."""
    frames = []
    for regulation in REGULATIONS:
        with_pack = CheckedSession()
        # the sample pack has 4 + 4 topics: it fits a novosibirsk 1/9 game and a samara game; an america final
        # plays 8 + 4 (G3), so it runs on topic names only
        stage = {"novosibirsk-2007": "1/9", "america-2005": "final", "samara-2003": "super9"}[regulation]
        with_pack.submit(make(0, "/sg/game/new", regulation, stage, 3, 7))
        if regulation != "america-2005":
            with_pack.submit(make(0, "/sg/pack/load", SAMPLE_PACK))
        play(with_pack, regulation, seed=100, count=300)
        sessions = [with_pack]
        for seed in range(4):
            session = CheckedSession()
            play(session, regulation, seed=seed, count=300, new_games=True)
            sessions.append(session)
        frames += [(regulation, snap, hq) for s in sessions for snap, hq in s.seen]
    return frames


def test_every_snapshot_of_random_real_games_passes():
    """GIVEN every snapshot and host question of random games of all three regulations on a real Session
    WHEN checked THEN none has a problem, and the games went through every phase the check knows."""
    phases = collections.Counter()
    for regulation, snap, hq in frames():
        phases[snap["phase"]] += 1
        assert check_snapshot(snap) == [], (regulation, snap["rev"], snap["phase"])
        assert check_host_question(hq) == [], (regulation, snap["rev"], snap["phase"])
    assert set(phases) == set(PHASES), set(PHASES) - set(phases)
    # THEN also the host questions carried real pack text, not only nulls
    assert any(hq and hq.get("text") for _, _, hq in frames())


def _frame(phase: str) -> dict:
    return copy.deepcopy(next(s for _, s, _ in frames() if s["phase"] == phase and (s["round"] or s["final"])))


def _set(snap, path, value):
    target = snap
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return snap


@pytest.mark.parametrize("phase, path, value, problem", [
    ("choosing", ("phase",), "dancing", "snapshot.phase: expected one of setup, round_intro"),
    ("choosing", ("players", 0, "seat"), 0, "snapshot.players[0].seat: expected a seat (1–99), got int 0"),
    ("choosing", ("players", 0, "seat"), 100, "snapshot.players[0].seat: expected a seat"),
    ("choosing", ("players", 1, "score"), "10", "snapshot.players[1].score: expected an int, got str '10'"),
    ("choosing", ("players", 1, "score"), True, "snapshot.players[1].score: expected an int, got bool True"),
    ("choosing", ("players", 2, "name"), 5, "snapshot.players[2].name: expected a string"),
    ("choosing", ("players", 0, "locked_until"), "soon", "snapshot.players[0].locked_until: expected a number or null"),
    ("choosing", ("round", "topics", 0, "cells", 2, "played"), 1,
     "snapshot.round.topics[0].cells[2].played: expected true or false, got int 1"),
    ("choosing", ("round", "topics", 0, "name"), 7, "snapshot.round.topics[0].name: expected a string"),
    ("choosing", ("round", "topics", 0, "cells", 1, "value"), 1.5,
     "snapshot.round.topics[0].cells[1].value: expected an int, got float 1.5"),
    ("choosing", ("round", "topic"), "1", "snapshot.round.topic: expected an int or null"),
    ("choosing", ("round",), [], "snapshot.round: expected an object or null, got list []"),
    ("choosing", ("players",), None, "snapshot.players: expected a list"),
    ("choosing", ("players",), "nobody", "snapshot.players: expected a list"),
    ("choosing", ("chooser",), True, "snapshot.chooser: expected a seat (1–99) or null, got bool True"),
    ("choosing", ("answering",), -1, "snapshot.answering: expected a seat"),
    ("choosing", ("time",), float("nan"), "snapshot.time: expected a number or null, got float nan"),
    ("choosing", ("time",), 1e300, "snapshot.time: expected a number"),
    ("choosing", ("paused",), "no", "snapshot.paused: expected true or false"),
    ("choosing", ("buttons_live",), 0, "snapshot.buttons_live: expected true or false"),
    ("choosing", ("order",), 3, "snapshot.order: expected a string (at most 2000 characters) or null"),
    ("choosing", ("history",), [[0, "x"]], "snapshot.history[0][1]: expected a number"),
    ("answering", ("question", "deadline"), "12", "snapshot.question.deadline: expected a number or null"),
    ("answering", ("question", "answer_started"), [], "snapshot.question.answer_started: expected a number"),
    ("answering", ("question", "value"), "30", "snapshot.question.value: expected an int or null"),
    ("answering", ("question", "answered"), [{"seat": "1", "verdict": "wrong"}],
     "snapshot.question.answered[0].seat: expected a seat"),
    ("answering", ("question", "answered"), [{"seat": 1}], "snapshot.question.answered[0].verdict: missing"),
    ("reveal", ("last", "answers"), [{"seat": 1, "verdict": "right", "delta": "10"}],
     "snapshot.last.answers[0].delta: expected an int"),
    ("reveal", ("last", "answers"), {"seat": 1}, "snapshot.last.answers: expected a list"),
    ("auction", ("auction", "stake"), None, "snapshot.auction.stake: expected an int, got NoneType None"),
    ("auction", ("auction", "turn"), "2", "snapshot.auction.turn: expected a seat (1–99) or null"),
    ("auction", ("auction", "passed"), [1, "2"], "snapshot.auction.passed[1]: expected a seat"),
    ("auction", ("auction", "allin"), None, "snapshot.auction.allin: expected true or false"),
    ("final_stakes", ("final", "eligible"), "1,2", "snapshot.final.eligible: expected a list"),
    ("final_stakes", ("final", "stakes_in"), [0], "snapshot.final.stakes_in[0]: expected a seat"),
    ("final_stakes", ("final", "topic"), 42, "snapshot.final.topic: expected a string"),
    ("final_reveal", ("final", "revealed"), [{"seat": 1, "stake": 5, "verdict": "right"}],
     "snapshot.final.revealed[0].score: missing"),
    ("final_reveal", ("final", "judged"), None, "snapshot.final.judged: expected a list"),
])
def test_a_broken_field_is_refused_naming_its_path(phase, path, value, problem):
    """GIVEN a real snapshot of the phase with one field the clients read broken WHEN checked THEN refused, and the
    problem names the field's path, what was expected and what came."""
    snap = _set(_frame(phase), path, value)
    problems = check_snapshot(snap)
    assert any(p.startswith(problem) for p in problems), problems


def test_one_fault_one_problem_exactly():
    """GIVEN a real reveal snapshot whose one score is a word WHEN checked THEN exactly one problem: the path, the
    expected kind, the type and the value that came (what the remote shows where the last ack goes)."""
    snap = _set(_frame("reveal"), ("players", 1, "score"), "много")
    assert check_snapshot(snap) == ["snapshot.players[1].score: expected an int, got str 'много'"]


@pytest.mark.parametrize("key", ["phase", "players"])
def test_required_keys_missing_are_named(key):
    """GIVEN a real snapshot without a key every client needs WHEN checked THEN "<path>: missing"."""
    snap = _frame("choosing")
    del snap[key]
    assert check_snapshot(snap) == [f"snapshot.{key}: missing"]


@pytest.mark.parametrize("path", [("round", "topics"), ("round", "index"), ("round", "topics", 0, "cells"),
                                  ("round", "topics", 0, "cells", 0, "value"), ("players", 0, "name"),
                                  ("players", 0, "score")])
def test_required_keys_inside_objects_are_named(path):
    """GIVEN a choosing snapshot missing a key the board draws from WHEN checked THEN its full path is named."""
    snap = _frame("choosing")
    target = snap
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    name = "snapshot" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)
    assert check_snapshot(snap) == [f"{name}: missing"]


def test_not_an_object_and_the_bare_minimum():
    """GIVEN JSON that is not an object, or an object without players WHEN checked THEN refused; GIVEN only the two
    required keys (the remote's test board sends little more) THEN accepted: optional keys may be absent."""
    assert check_snapshot([1, 2]) == ["snapshot: expected an object, got list [1, 2]"]
    assert check_snapshot(None) == ["snapshot: expected an object, got NoneType None"]
    assert "snapshot.players: missing" in check_snapshot({"phase": "setup"})
    assert check_snapshot({"phase": "reveal", "players": [{"seat": 1, "name": "P1", "score": 0}]}) == []


def test_unknown_keys_from_a_newer_board_are_ignored():
    """GIVEN a real snapshot with keys no client reads (a newer board) WHEN checked THEN accepted."""
    snap = _frame("reveal")
    snap["sparkles"] = {"x": [1, "y"]}
    snap["players"][0]["mood"] = None
    assert check_snapshot(snap) == []


def test_sizes_are_bounded():
    """GIVEN a name longer than MAX_TEXT or a list longer than MAX_LIST WHEN checked THEN refused (a hostile state
    costs little to refuse); GIVEN exactly the limits THEN accepted."""
    snap = _frame("choosing")
    snap["players"][0]["name"] = "я" * MAX_TEXT
    snap["history"] = [[0]] * MAX_LIST
    assert check_snapshot(snap) == []
    snap["players"][0]["name"] += "!"
    snap["history"].append([0])
    problems = check_snapshot(snap)
    assert problems[0] == (f"snapshot.players[0].name: expected a string (at most {MAX_TEXT} characters), "
                           "got str '" + "я" * 39 + "…")
    assert problems[1].startswith(f"snapshot.history: expected a list (at most {MAX_LIST} items), got list [[0], ")
    assert len(problems) == 2


def test_a_deeply_nested_value_is_named_without_recursing_into_it():
    """GIVEN a phase and a player that are lists nested 5000 deep (deeper than Python's recursion limit) WHEN checked
    THEN both are named with a short picture of the value; the walk goes only as deep as the shape."""
    deep = []
    inner = deep
    for _ in range(5000):
        inner.append([])
        inner = inner[0]
    problems = check_snapshot({"phase": deep, "players": [deep]})
    assert [p.split(":")[0] for p in problems] == ["snapshot.phase", "snapshot.players[0]"]
    assert all(len(p) < 400 for p in problems)


def test_a_flood_of_faults_stops_at_max_problems():
    """GIVEN a state with 500 broken players WHEN checked THEN exactly MAX_PROBLEMS problems, the first ones first."""
    snap = _frame("choosing")
    snap["players"] = [{"seat": "x"}] * 500
    problems = check_snapshot(snap)
    assert len(problems) == MAX_PROBLEMS
    assert problems[0].startswith("snapshot.players[0].seat: expected a seat")


def test_host_question_checks():
    """GIVEN host questions WHEN checked THEN null and a real one pass; a shown field of the wrong type is named."""
    assert check_host_question(None) == []
    real = next(hq for _, _, hq in frames() if hq and hq.get("text"))
    assert check_host_question(real) == []
    assert check_host_question({"text": 5}) == ["question.text: expected a string (at most 2000 characters) or null,"
                                                " got int 5"]
    assert check_host_question({"accepts": "Волга"})[0].startswith("question.accepts: expected a list")
    assert check_host_question({"accepts": ["Волга", 3]})[0].startswith("question.accepts[1]: expected a string")
    assert check_host_question({"media": {"kind": "image"}})[0].startswith("question.media: expected a list")
    assert check_host_question([]) == ["question: expected an object or null, got list []"]


JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**15, 10**15) | st.floats(allow_nan=True)
                    | st.text(max_size=8),
                    lambda children: st.lists(children, max_size=4)
                    | st.dictionaries(st.text(max_size=8), children, max_size=4),
                    max_leaves=16)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, prefix + (i,))


@settings(max_examples=200, deadline=None)
@given(pick=st.integers(0, 10**6), edits=st.lists(
    st.tuples(st.integers(0, 10**6), st.sampled_from(["delete", "replace"]), JSON), min_size=1, max_size=3))
def test_random_malformed_snapshots_never_raise(pick, edits):
    """GIVEN a real snapshot damaged in 1–3 random places (a key deleted, any value replaced by arbitrary JSON:
    NaN, huge ints, nested lists, wrong objects) WHEN checked THEN it returns a list of "snapshot…: reason" strings,
    never raises, and never more than MAX_PROBLEMS."""
    snap = copy.deepcopy(frames()[pick % len(frames())][1])
    for where, how, value in edits:
        paths = [p for p in _paths(snap) if p]
        if not paths:
            snap = value
            continue
        path = paths[where % len(paths)]
        parent = snap
        for key in path[:-1]:
            parent = parent[key]
        if how == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = value
    problems = check_snapshot(snap)
    assert isinstance(problems, list) and len(problems) <= MAX_PROBLEMS
    assert all(isinstance(p, str) and p.startswith("snapshot") and ": " in p for p in problems)


@settings(max_examples=150, deadline=None)
@given(anything=JSON)
def test_arbitrary_json_never_raises(anything):
    """GIVEN any JSON at all as a state and as a host question WHEN checked THEN lists of problems, never an error;
    only an object with a known phase and a players list can pass."""
    problems = check_snapshot(anything)
    assert isinstance(problems, list) and all(isinstance(p, str) for p in problems)
    if not problems:
        assert anything["phase"] in PHASES and isinstance(anything["players"], list)
    question_problems = check_host_question(anything)
    assert isinstance(question_problems, list) and all(isinstance(p, str) for p in question_problems)


SEAT = st.integers(1, 99)
WELL_TYPED = [
    (("players", 0, "seat"), SEAT), (("players", 1, "score"), st.integers(-10**9, 10**9)),
    (("players", 2, "name"), st.text(max_size=200)), (("chooser",), SEAT | st.none()),
    (("answering",), SEAT | st.none()), (("round", "topic"), st.integers(-3, 99) | st.none()),
    (("time",), st.floats(-1e6, 1e6) | st.integers(-10**6, 10**6)), (("paused_at",), st.floats(-1e6, 1e6) | st.none()),
    (("round", "topics"), st.lists(st.fixed_dictionaries({"name": st.text(max_size=30), "cells": st.lists(
        st.fixed_dictionaries({"value": st.integers(0, 1000), "played": st.booleans()}), max_size=9)}), max_size=9)),
    (("players",), st.lists(st.fixed_dictionaries({"seat": SEAT, "name": st.text(max_size=9),
                                                   "score": st.integers(-999, 999)}), max_size=9)),
    (("history",), st.lists(st.lists(st.integers(-999, 999), max_size=4), max_size=5)),
]


@settings(max_examples=100, deadline=None)
@given(edits=st.lists(st.sampled_from(WELL_TYPED).flatmap(lambda pair: st.tuples(st.just(pair[0]), pair[1])),
                      min_size=1, max_size=4))
def test_well_typed_but_odd_values_pass(edits):
    """GIVEN well-typed values the board would never send (seat 99, a topic past the board, nine topics of nine
    cells, a negative time, a 200-character name) WHEN checked THEN they pass: the check is about shape, and the
    clients must draw them (tests/host_remote/test_remote_snapshot_check.py shows the remote does)."""
    snap = _frame("choosing")
    for path, value in edits:
        try:
            _set(snap, path, value)
        except IndexError:
            pass      # an earlier edit emptied the players
    assert check_snapshot(snap) == []


def test_control_characters_are_only_text():
    """GIVEN a player name with a NUL and a tab WHEN checked THEN it passes (drawing them is the screen's job)."""
    snap = _frame("reveal")
    snap["players"][2]["name"] = "Ве\x00ра\t"
    assert check_snapshot(snap) == [] and check_host_question({"text": "a\x00b"}) == []


def test_every_wrongly_typed_field_of_real_snapshots_is_caught():
    """GIVEN 500 real snapshots each with one value the clients read swapped for a wrong type WHEN checked THEN every
    one is refused (seeded): the check cannot be one that passes everything."""
    rng = random.Random(5)
    wrong = {int: "1", bool: 1, str: 7, float: "1.0", list: {}, dict: []}
    refused = 0
    for _ in range(500):
        snap = copy.deepcopy(rng.choice(frames())[1])
        leaves = [p for p in _paths(snap) if p and p[0] in ("players", "round", "chooser", "phase", "paused")
                  and type(_get(snap, p)) in wrong and not {"rights", "reserve_used"} & set(p)]
        path = rng.choice(leaves) if leaves else ("phase",)
        _set(snap, path, wrong[type(_get(snap, path))])
        refused += bool(check_snapshot(snap))
    assert refused == 500


def _get(snap, path):
    for key in path:
        snap = snap[key]
    return snap
