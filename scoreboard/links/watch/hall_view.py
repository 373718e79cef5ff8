"""What a viewer of the hall (a phone in the audience, the stream's overlay) may receive of a snapshot.

The snapshot the board sends a `view` session already holds nothing the hall must not see (engine/snapshot.py: no
question text or answer, no final stake before its reveal, no auction cell before it is chosen; the host's card
goes to host sessions only, and the relay is a view session). This projection is a second wall: it copies only
the fields the watch page and the overlay draw, named one by one, so a field a later board adds to its snapshot
reaches no viewer until someone decides here that the hall may see it. Pure: no I/O.
"""
from __future__ import annotations

from typing import Any

PLAYER = ("seat", "name", "score", "answered", "locked_until", "in_play", "tiebreak_score")
QUESTION = ("topic", "index", "value", "kind", "topic_name", "deadline", "duration", "reading", "reading_done",
            "answer_started", "extended", "stake", "answered", "clarify", "options")
LAST = ("topic", "index", "value", "kind", "answers")
AUCTION = ("stake", "nominal", "holder", "turn", "passed", "allin")
FINAL = ("kind", "topic", "eligible", "stakes_in", "deadline", "duration", "writing", "revealed")
REVEALED = ("seat", "stake", "verdict", "score")
TOP = ("rev", "time", "phase", "paused", "title", "regulation", "stage", "chooser", "answering", "buttons_live",
       "winner", "game_over", "no_winner_reason", "screen", "history")
HISTORY_KEPT = 400


def _pick(source: Any, keys: tuple) -> dict | None:
    if not isinstance(source, dict):
        return None
    return {key: source[key] for key in keys if key in source}


def hall_view(snapshot: dict) -> dict:
    """The fields of `snapshot` the hall's viewers get (a new dict; the snapshot is not changed)."""
    view = {key: snapshot.get(key) for key in TOP}
    view["history"] = list(snapshot.get("history") or [])[-HISTORY_KEPT:]
    view["players"] = [_pick(p, PLAYER) for p in snapshot.get("players") or [] if isinstance(p, dict)]
    rnd = snapshot.get("round")
    if isinstance(rnd, dict):
        view["round"] = {"index": rnd.get("index"), "kind": rnd.get("kind"), "topic": rnd.get("topic"),
                         "tiebreak": rnd.get("tiebreak"),
                         "topics": [{"name": t.get("name"),
                                     "cells": [_pick(c, ("value", "played", "auction")) for c in t.get("cells") or []]}
                                    for t in rnd.get("topics") or [] if isinstance(t, dict)]}
    else:
        view["round"] = None
    question = _pick(snapshot.get("question"), QUESTION)
    if question is not None:
        secret = (snapshot.get("question") or {}).get("secret")
        # a cat in the bag's own topic and price, once the engine shows them (never during its auction)
        question["secret"] = _pick(secret, ("topic", "price"))
    view["question"] = question
    view["last"] = _pick(snapshot.get("last"), LAST)
    view["auction"] = _pick(snapshot.get("auction"), AUCTION)
    final = _pick(snapshot.get("final"), FINAL)
    if final is not None:
        final["revealed"] = [_pick(r, REVEALED) for r in final.get("revealed") or []]
    view["final"] = final
    return view
