"""A malformed state from the network never crashes the remote (hypothesis): either the shared shape check
(scoreboard/snapshot_check.py, its own cases in tests/test_snapshot_check.py) refuses it, or the actions table and
the play screen handle it."""
import copy

import pygame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host_remote.actions import allowed_actions
from host_remote.ui.control_screen import ControlScreen
from scoreboard.snapshot_check import check_host_question, check_snapshot

from remote_snapshots import HOST_QUESTION, base, question

JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True)
                    | st.text(max_size=8),
                    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children,
                                                                                      max_size=4),
                    max_leaves=12)
PHASES = ["setup", "choosing", "reading", "answering", "after_wrong", "reveal", "auction", "final_stakes",
          "final_reveal", "game_over"]
# Paths into a valid snapshot that the remote reads.
PATHS = [("phase",), ("players",), ("players", 0), ("players", 0, "seat"), ("players", 1, "score"),
         ("players", 2, "name"), ("round",), ("round", "topics"), ("round", "topics", 0),
         ("round", "topics", 1, "cells"), ("round", "topics", 1, "cells", 2), ("round", "topics", 0, "name"),
         ("question",), ("question", "deadline"), ("question", "answered"), ("auction",), ("final",), ("last",),
         ("chooser",), ("answering",), ("paused",), ("buttons_manual",), ("time",), ("order",)]


def full_snapshot(phase):
    snapshot = base(phase, question=question(answered=[{"seat": 1, "verdict": "wrong"}]))
    snapshot["auction"] = {"stake": 40, "nominal": 30, "holder": 2, "turn": 1, "passed": [3], "allin": False,
                           "order": [2, 3, 1]}
    snapshot["final"] = {"kind": "final_round", "topic": "Физика", "eligible": [1, 2], "stakes_in": [1],
                         "judged": [1], "revealed": [{"seat": 1, "stake": 5, "verdict": "right", "score": 35}]}
    snapshot["last"] = {"rejudgeable": True, "answers": [{"seat": 2, "verdict": "right", "delta": 30}]}
    return snapshot


def replace(snapshot, path, value):
    target = snapshot
    for key in path[:-1]:
        try:
            target = target[key]
        except (KeyError, IndexError, TypeError):
            return snapshot
    try:
        target[path[-1]] = value
    except (IndexError, TypeError):
        pass
    return snapshot


def survives(snapshot, host_question=None):
    """What the remote does with a received state: check, then (only if it passed) act and draw."""
    if check_snapshot(snapshot):
        return
    screen = ControlScreen("test")
    screen.set_state(snapshot, 1)
    screen.question = host_question if not check_host_question(host_question) else None
    for action in allowed_actions(snapshot):
        action.command(10) if action.amount else action.command()
    screen.draw(pygame.Surface((1024, 600)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(phase=st.sampled_from(PHASES), edits=st.lists(st.tuples(st.sampled_from(PATHS), JSON), min_size=1, max_size=3))
def test_malformed_fields_are_refused_or_handled(pygame_display, phase, edits):
    """GIVEN a valid snapshot with up to three fields the remote reads replaced by arbitrary JSON WHEN it is received
    THEN the shape check refuses it, or the actions table and the play screen work with it — never an exception."""
    snapshot = copy.deepcopy(full_snapshot(phase))
    for path, value in edits:
        replace(snapshot, path, value)
    survives(snapshot, HOST_QUESTION)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(snapshot=JSON, host_question=JSON)
def test_arbitrary_json_is_refused_or_handled(pygame_display, snapshot, host_question):
    """GIVEN any JSON at all as a state and as a host question WHEN received THEN no exception."""
    survives(snapshot, host_question)


def test_the_full_snapshot_used_here_passes_the_check():
    """GIVEN the hand-built snapshot the properties start from, in every phase WHEN checked THEN it passes (else the
    properties below would only ever exercise refusals)."""
    for phase in PHASES:
        assert check_snapshot(full_snapshot(phase)) == [], phase
    assert check_host_question(HOST_QUESTION) == []


SEATISH = st.integers(1, 99)          # the check refuses seat 0 and negative seats: they never reach the screen
WELL_TYPED = [
    (("players", 0, "seat"), SEATISH), (("players", 1, "score"), st.integers(-10**9, 10**9)),
    (("players", 2, "name"), st.text(max_size=200)), (("chooser",), SEATISH | st.none()),
    (("answering",), SEATISH | st.none()), (("question", "topic"), st.integers(-3, 99)),
    (("question", "value"), st.integers(-3, 99)),
    (("question", "deadline"), st.floats(-1e6, 1e6) | st.none()), (("time",), st.floats(-1e6, 1e6)),
    (("auction", "turn"), SEATISH | st.none()), (("auction", "stake"), st.integers(-10**6, 10**6)),
    (("auction", "passed"), st.lists(SEATISH, max_size=5)), (("final", "eligible"), st.lists(SEATISH, max_size=5)),
    (("final", "stakes_in"), st.lists(SEATISH, max_size=5)), (("round", "topic"), st.integers(-3, 99)),
    (("round", "topics"), st.lists(st.fixed_dictionaries({"name": st.text(max_size=30), "cells": st.lists(
        st.fixed_dictionaries({"value": st.integers(0, 1000), "played": st.booleans()}), max_size=9)}), max_size=9)),
    (("players",), st.lists(st.fixed_dictionaries({"seat": SEATISH, "name": st.text(max_size=9),
                                                   "score": st.integers(-999, 999)}), max_size=9)),
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(phase=st.sampled_from(PHASES), edits=st.lists(st.sampled_from(WELL_TYPED).flatmap(
    lambda pair: st.tuples(st.just(pair[0]), pair[1])), min_size=1, max_size=4))
def test_well_typed_but_odd_values_are_handled(pygame_display, phase, edits):
    """GIVEN well-typed values the board would never send (seat 99, a topic past the board or below it, nine topics of
    nine cells, a negative deadline, a 200-character name) WHEN received THEN they pass the shape check and the
    actions table and the play screen handle them without an exception."""
    snapshot = copy.deepcopy(full_snapshot(phase))
    for path, value in edits:
        replace(snapshot, path, value)
    assert check_snapshot(snapshot) == []
    survives(snapshot, HOST_QUESTION)


def test_control_characters_in_names_are_drawn_not_fatal(pygame_display):
    """GIVEN a player name with a NUL and a tab (found by the property test: SDL_ttf refuses a NUL) WHEN the screen
    draws it THEN it draws a visible replacement mark instead of raising."""
    snapshot = base("reveal")
    snapshot["players"][2]["name"] = "Ве\x00ра\t"
    assert check_snapshot(snapshot) == []
    survives(snapshot, {"text": "a\x00b", "answer": "c"})
