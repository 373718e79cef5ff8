"""Hand-built snapshots (docs/ENGINE_API.md shape) for the pure actions table and the UI screenshots."""
from __future__ import annotations

import copy


def base(phase: str, **changes) -> dict:
    snapshot = {
        "version": 1, "rev": 12, "time": 40.0, "regulation": "novosibirsk-2007", "stage": "1/9", "order": "choice",
        "phase": phase, "paused": False, "paused_at": None,
        "players": [
            {"seat": 1, "name": "Анна", "score": 30, "answered": False, "pressed": False, "locked_until": None,
             "in_play": True},
            {"seat": 2, "name": "Борис", "score": 60, "answered": False, "pressed": False, "locked_until": None,
             "in_play": True},
            {"seat": 3, "name": "Вера", "score": -10, "answered": False, "pressed": False, "locked_until": None,
             "in_play": True},
        ],
        "chooser": 2, "answering": None, "buttons_manual": False, "buttons_live": False,
        "round": {"index": 0, "count": 2, "kind": "blue", "tiebreak": False, "topic": None, "topics": [
            {"name": name, "cells": [{"value": v, "played": played(t, i), "auction": False}
                                     for i, v in enumerate((10, 20, 30, 40, 50), start=1)]}
            for t, name in enumerate(("Реки", "Горы", "Птицы", "Кино"), start=1)]},
        "question": None, "last": None, "auction": None, "final": None,
        "winner": None, "game_over": False, "no_winner_reason": None, "screen": "board",
    }
    for key, value in changes.items():
        snapshot[key] = value
    return snapshot


def played(topic: int, index: int) -> bool:
    return (topic, index) in {(1, 1), (1, 2), (2, 1), (3, 5)}


def question(**changes) -> dict:
    q = {"round": 0, "topic": 2, "index": 3, "value": 30, "kind": "normal", "deadline": None, "reading": True,
         "answer_started": None, "extended": 0.0, "answered": [], "replaced": False, "media": None}
    q.update(changes)
    return q


def with_players(snapshot: dict, **per_seat) -> dict:
    snapshot = copy.deepcopy(snapshot)
    for player in snapshot["players"]:
        player.update(per_seat.get(f"p{player['seat']}", {}))
    return snapshot


HOST_QUESTION = {
    "text": "Эта река, длиной более 3500 км, берёт начало на Валдайской возвышенности и впадает в Каспийское море.",
    "answer": "Волга", "accepts": ["река Волга", "Ра (древнее название)"],
    "comment": "Древние греки называли её Ра.", "source": "БСЭ, т. 5", "media": None,
}
