"""The one check of a snapshot received from the network, before a follower screen or the host's remote reads it.

The board draws its own engine's snapshots; every other client gets JSON over UDP, which is not trusted (a board of
another version, a bug, a spoofed datagram). The shape below is every field the follower's scenes and the remote's
screen and actions table read (PROTOCOL.md §3, docs/ENGINE_API.md); a snapshot with any problem is refused whole and
the client keeps the last good one. Problems read "path: reason", e.g.
`snapshot.players[1].score: expected an int, got str 'много'`.

The rules match what the engine emits (scoreboard/engine/snapshot.py): a key the engine always sends but the clients
can do without is optional; a key whose value may be null is `Nullable`. Sizes are bounded (a datagram is at most
64 KiB anyway) so that a hostile snapshot costs little to refuse. No pygame here: both clients import it.
"""
from __future__ import annotations

import reprlib
from dataclasses import dataclass
from typing import Any, Callable

from scoreboard.engine.phases import Phase

MAX_PROBLEMS = 10        # enough to name every fault a real bug makes; a hostile flood stops early
MAX_LIST = 1000          # players, topics, cells, history rows… (history keeps 400 rows)
MAX_TEXT = 2000          # names, topics, question text
MAX_SEAT = 99

PHASES = tuple(phase.value for phase in Phase)   # the engine's one enumeration


# ---- the vocabulary of the declarative shape ---------------------------------------------------------------------

@dataclass(frozen=True)
class Scalar:
    expected: str                      # "an int": read after "expected"
    test: Callable[[Any], bool]


@dataclass(frozen=True)
class Nullable:
    kind: Any


@dataclass(frozen=True)
class ListOf:
    item: Any


@dataclass(frozen=True)
class OneOf:
    values: tuple


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


INT = Scalar("an int", _is_int)
SEAT = Scalar(f"a seat (1–{MAX_SEAT})", lambda v: _is_int(v) and 1 <= v <= MAX_SEAT)
# NaN (v != v) and absurd magnitudes would break clock arithmetic and float formatting in the scenes.
NUM = Scalar("a number", lambda v: (_is_int(v) or isinstance(v, float)) and v == v and abs(v) < 1e12)
BOOL = Scalar("true or false", lambda v: isinstance(v, bool))
TEXT = Scalar(f"a string (at most {MAX_TEXT} characters)", lambda v: isinstance(v, str) and len(v) <= MAX_TEXT)
ANY = Scalar("anything", lambda v: True)
SEATS = ListOf(SEAT)

# Objects: {key: kind}; a key ending in "!" is required, any other may be absent. Keys not listed are ignored
# (a newer board may add fields; no client reads them).
PLAYER = {"seat!": SEAT, "name!": TEXT, "score!": INT, "answered": BOOL, "pressed": BOOL,
          "locked_until": Nullable(NUM), "tiebreak_score": INT, "in_play": BOOL}
CELL = {"value!": INT, "played!": BOOL, "auction": BOOL, "empty": BOOL}
TOPIC = {"name!": TEXT, "cells!": ListOf(CELL)}
ROUND = {"index!": INT, "kind": TEXT, "tiebreak": BOOL, "topic": Nullable(INT), "topics!": ListOf(TOPIC),
         "auctions": INT, "auction_waived": BOOL, "auctions_missing": INT}
VERDICT = {"seat!": SEAT, "verdict!": TEXT}
JUDGED = {**VERDICT, "delta!": INT}
MEDIA_STATE = {"state!": OneOf(("playing", "paused")), "started": Nullable(NUM), "position": Nullable(NUM)}
QUESTION = {"topic": Nullable(INT), "index": Nullable(INT), "value": Nullable(INT), "kind": TEXT,
            "topic_name": TEXT, "deadline": Nullable(NUM), "reading": BOOL, "answer_started": Nullable(NUM),
            "extended": NUM, "stake": Nullable(INT), "answered": ListOf(VERDICT), "media": Nullable(ListOf(ANY)),
            "secret": Nullable(ANY), "options": ListOf(TEXT), "media_state": Nullable(MEDIA_STATE),
            "clarify": INT}
LAST = {"topic": Nullable(INT), "index": Nullable(INT), "value": Nullable(INT), "kind": TEXT,
        "answers": ListOf(JUDGED), "rejudgeable": BOOL, "answer_media": Nullable(ListOf(ANY))}
AUCTION = {"stake!": INT, "nominal": INT, "holder": Nullable(SEAT), "turn": Nullable(SEAT), "passed": SEATS,
           "allin": BOOL, "order": SEATS}
REVEALED = {"seat!": SEAT, "stake!": INT, "verdict!": TEXT, "score!": INT}
FINAL = {"kind": TEXT, "topic": Nullable(TEXT), "eligible!": SEATS, "stakes_in": SEATS, "deadline": Nullable(NUM),
         "writing": BOOL, "judged": SEATS, "revealed": ListOf(REVEALED)}
SNAPSHOT = {"phase!": OneOf(PHASES), "players!": ListOf(PLAYER), "rev": INT, "time": Nullable(NUM),
            "regulation": Nullable(TEXT), "title": Nullable(TEXT), "stage": Nullable(TEXT), "order": Nullable(TEXT),
            "paused": BOOL, "paused_at": Nullable(NUM), "chooser": Nullable(SEAT), "answering": Nullable(SEAT),
            "buttons_manual": BOOL, "buttons_live": BOOL, "round": Nullable(ROUND), "question": Nullable(QUESTION),
            "last": Nullable(LAST), "auction": Nullable(AUCTION), "final": Nullable(FINAL), "winner": Nullable(SEAT),
            "game_over": BOOL, "no_winner_reason": Nullable(TEXT), "screen": TEXT,
            "history": ListOf(ListOf(NUM)), "warnings": ListOf(TEXT), "stake_changes": ListOf(ANY),
            "status": None}   # filled in below
# `status` (the board's, not the engine's: docs/ENGINE_API.md); a missing status means unknown.
BOX_STATUS = {"state!": OneOf(("online", "offline", "reconnecting", "none")), "since": Nullable(NUM), "detail": TEXT}
JOURNAL_STATUS = {"ok!": BOOL, "error": Nullable(TEXT), "since": Nullable(NUM)}
LINK_STATUS = {"name!": TEXT, "state!": OneOf(("ok", "retrying", "down", "warning")), "detail": TEXT}
SNAPSHOT["status"] = {"box": BOX_STATUS, "journal": JOURNAL_STATUS, "links": ListOf(LINK_STATUS),
                      "alerts": ListOf(TEXT)}
# `/sg/host/question` (host sessions only, docs/ENGINE_API.md `host_question()`): null between questions.
HOST_QUESTION = {"topic_name": Nullable(TEXT), "topic_explanation": Nullable(TEXT), "kind": Nullable(TEXT),
                 "text": Nullable(TEXT), "answer": Nullable(TEXT), "accepts": Nullable(ListOf(TEXT)),
                 "comment": Nullable(TEXT), "source": Nullable(TEXT), "author": Nullable(TEXT),
                 "media": Nullable(ListOf(ANY)), "answer_media": Nullable(ListOf(ANY)),
                 "wrong": ListOf(TEXT), "options": ListOf(TEXT), "secret": Nullable(ANY), "pack_kind": Nullable(TEXT),
                 "empty": BOOL}
# Its photo finish (engine/photo.py, PROTOCOL.md §3 "The photo finish"): what the host's screen and remotes read.
CLOSE = {"with!": ANY, "gap_ms!": NUM, "bounds_ms!": NUM}      # `with`: a seat, or "live" (the buttons' start)
PRESS = {"seat!": SEAT, "source!": TEXT, "bound_ms": Nullable(NUM), "after_ms": Nullable(NUM), "gap_ms": Nullable(NUM),
         "outcome!": TEXT, "reason": Nullable(TEXT), "locked_until": Nullable(NUM), "close": Nullable(CLOSE)}
WINDOW = {"presses!": ListOf(PRESS), "opened_at": Nullable(NUM), "close": BOOL,
          "named": Nullable({"seat!": SEAT, "instead_of": Nullable(SEAT), "at": NUM})}
PRESS_RECORD = {"windows!": ListOf(WINDOW), "dropped": INT, "value": Nullable(INT), "kind": TEXT}
HOST_QUESTION["presses"] = Nullable({"current": Nullable(PRESS_RECORD), "last": Nullable(PRESS_RECORD),
                                     "seen": INT})
# The photo finish the host sent to the hall (engine/photo_hall.py, PROTOCOL.md §3): the hall's screens draw it.
HALL_PRESS = {"seat!": SEAT, "source!": TEXT, "bound_ms": Nullable(NUM), "after_ms": Nullable(NUM),
              "behind_ms": Nullable(NUM), "outcome!": TEXT, "close": Nullable(CLOSE)}
SNAPSHOT["photo"] = Nullable({"presses!": ListOf(HALL_PRESS), "of": TEXT, "topic_name": Nullable(TEXT),
                              "value": Nullable(INT), "close": BOOL, "more": INT,
                              "named": Nullable({"seat!": SEAT, "instead_of": Nullable(SEAT)})})


# ---- the walk --------------------------------------------------------------------------------------------------

def _describe(kind: Any) -> str:
    if isinstance(kind, Scalar):
        return kind.expected
    if isinstance(kind, Nullable):
        return f"{_describe(kind.kind)} or null"
    if isinstance(kind, ListOf):
        return f"a list (at most {MAX_LIST} items)"
    if isinstance(kind, OneOf):
        return "one of " + ", ".join(kind.values)
    return "an object"


_BRIEF = reprlib.Repr()   # a bounded repr: a hostile value of any size or depth costs little to name
_BRIEF.maxlevel, _BRIEF.maxlist, _BRIEF.maxdict, _BRIEF.maxstring, _BRIEF.maxother = 3, 8, 4, 50, 50


def _shown(value: Any) -> str:
    text = repr(value[:50]) if isinstance(value, str) else _BRIEF.repr(value)
    return f"{type(value).__name__} {text[:40]}{'…' if len(text) > 40 else ''}"


def _walk(kind: Any, value: Any, path: str, problems: list[str], nullable: bool = False) -> None:
    if len(problems) >= MAX_PROBLEMS:
        return
    if isinstance(kind, Nullable):
        if value is not None:
            _walk(kind.kind, value, path, problems, nullable=True)
        return
    fits = (isinstance(value, dict) if isinstance(kind, dict)
            else isinstance(value, list) and len(value) <= MAX_LIST if isinstance(kind, ListOf)
            else isinstance(value, str) and value in kind.values if isinstance(kind, OneOf)
            else kind.test(value))
    if not fits:
        problems.append(f"{path}: expected {_describe(kind)}{' or null' if nullable else ''}, got {_shown(value)}")
    elif isinstance(kind, ListOf):
        for i, item in enumerate(value):
            _walk(kind.item, item, f"{path}[{i}]", problems)
    elif isinstance(kind, dict):
        for key, sub in kind.items():
            name = key.rstrip("!")
            if name in value:
                _walk(sub, value[name], f"{path}.{name}", problems)
            elif key.endswith("!") and len(problems) < MAX_PROBLEMS:
                problems.append(f"{path}.{name}: missing")


def check_snapshot(snapshot: Any) -> list[str]:
    """Every problem (up to MAX_PROBLEMS) of a received `/sg/state` snapshot, as "path: reason"; empty when the
    clients may draw it and act on it. Never raises, whatever JSON it is given."""
    problems: list[str] = []
    _walk(SNAPSHOT, snapshot, "snapshot", problems)
    return problems


def check_host_question(question: Any) -> list[str]:
    """The same for a received `/sg/host/question`: null, or an object whose shown fields are text."""
    problems: list[str] = []
    _walk(Nullable(HOST_QUESTION), question, "question", problems)
    return problems
