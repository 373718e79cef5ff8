"""Checking a snapshot that came from outside (a follower's OSC state) before any scene reads it.

The board draws its own engine's snapshots; a follower draws JSON from the network, which is not trusted. Every field
the scenes read is checked for its type (PROTOCOL.md §3 and docs/ENGINE_API.md); a snapshot with any problem is
refused with the path and the reason, and the follower keeps showing the last good one.
"""
from __future__ import annotations

from typing import Any

PHASES = frozenset({"setup", "round_intro", "choosing", "topic_intro", "reading", "buzz_window", "answering",
                    "after_wrong", "reveal", "auction", "auction_answer", "final_stakes", "final_answer",
                    "final_reveal", "game_over"})

# Kinds: "int", "num", "str", "bool", "seat" (int >= 1), "seats" (list of seats), ("?", kind) nullable,
# ("list", spec) and dicts {key: spec} with "!" marking required keys.
PLAYER = {"seat!": "seat", "name!": "str", "score!": "int", "answered": "bool", "pressed": "bool",
          "locked_until": ("?", "num"), "tiebreak_score": "int", "in_play": "bool"}
CELL = {"value!": "int", "played!": "bool", "auction": "bool"}
TOPIC = {"name!": "str", "cells!": ("list", CELL)}
ROUND = {"index!": "int", "kind": "str", "tiebreak": "bool", "topic": ("?", "int"), "topics!": ("list", TOPIC)}
VERDICT = {"seat!": "seat", "verdict!": "str"}
QUESTION = {"topic": ("?", "int"), "index": ("?", "int"), "value": ("?", "int"), "kind": "str",
            "deadline": ("?", "num"), "reading": "bool", "answer_started": ("?", "num"), "extended": "num",
            "answered": ("list", VERDICT)}
LAST = {"topic": ("?", "int"), "value": ("?", "int"), "answers": ("list", {**VERDICT, "delta!": "int"})}
AUCTION = {"stake!": "int", "nominal": "int", "holder": ("?", "seat"), "turn": ("?", "seat"), "passed": "seats",
           "allin": "bool", "order": "seats"}
REVEALED = {"seat!": "seat", "stake!": "int", "verdict!": "str", "score!": "int"}
FINAL = {"kind": "str", "topic": ("?", "str"), "eligible!": "seats", "stakes_in": "seats", "deadline": ("?", "num"),
         "judged": "seats", "revealed": ("list", REVEALED)}
SNAPSHOT = {"phase!": "str", "rev": "int", "time": ("?", "num"), "paused": "bool", "paused_at": ("?", "num"),
            "players!": ("list", PLAYER), "chooser": ("?", "seat"), "answering": ("?", "seat"),
            "buttons_manual": "bool", "round": ("?", ROUND), "question": ("?", QUESTION), "last": ("?", LAST),
            "auction": ("?", AUCTION), "final": ("?", FINAL), "winner": ("?", "seat"), "game_over": "bool",
            "no_winner_reason": ("?", "str"), "screen": "str", "stage": ("?", "str"), "regulation": ("?", "str"),
            "order": ("?", "str"), "history": ("list", ("list", "num"))}


def _scalar(kind: str, value: Any) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if kind == "int":
        return isinstance(value, int)
    if kind == "seat":
        return isinstance(value, int) and 1 <= value <= 99
    if kind == "num":
        return isinstance(value, (int, float)) and value == value and abs(value) < 1e12
    if kind == "str":
        return isinstance(value, str) and len(value) <= 2000
    if kind == "seats":
        return isinstance(value, list) and all(_scalar("seat", v) for v in value)
    raise AssertionError(kind)


def _check(spec, value: Any, path: str, problems: list[str]) -> None:
    if isinstance(spec, tuple) and spec[0] == "?":
        if value is not None:
            _check(spec[1], value, path, problems)
        return
    if isinstance(spec, tuple) and spec[0] == "list":
        if not isinstance(value, list) or len(value) > 1000:
            problems.append(f"{path}: expected a list")
            return
        for i, item in enumerate(value):
            _check(spec[1], item, f"{path}[{i}]", problems)
        return
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            problems.append(f"{path}: expected an object")
            return
        for key, sub in spec.items():
            name = key.rstrip("!")
            if name not in value:
                if key.endswith("!"):
                    problems.append(f"{path}.{name}: missing")
                continue
            _check(sub, value[name], f"{path}.{name}", problems)
        return
    if not _scalar(spec, value):
        problems.append(f"{path}: expected {spec}, got {value!r:.40}")


def check_snapshot(snapshot: Any) -> list[str]:
    """Every problem of a snapshot from outside, as "path: reason"; empty when the scenes may draw it."""
    problems: list[str] = []
    _check(SNAPSHOT, snapshot, "snapshot", problems)
    if not problems and snapshot["phase"] not in PHASES:
        problems.append(f"snapshot.phase: unknown phase {snapshot['phase']!r}")
    return problems
