"""Check a received `/sg/state` snapshot before the remote draws or acts on it.

The remote trusts the board's address, not the bytes: a board of another version, a bug, or a spoofed datagram
could carry a snapshot whose fields have the wrong shape. The UI reads only the fields listed here; a snapshot
with any of them malformed is refused as a whole (the last good one stays on screen) and the first problems are
reported, naming the field, so that a wrong type can never crash the host's remote mid-game.
"""
from __future__ import annotations

from typing import Any

MAX_PROBLEMS = 5


def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value and abs(value) < 1e12


class _Checker:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def need(self, ok: bool, where: str, expected: str, value: Any) -> bool:
        if not ok and len(self.problems) < MAX_PROBLEMS:
            self.problems.append(f"{where}: expected {expected}, got {type(value).__name__} {str(value)[:40]!r}")
        return ok

    def optional(self, parent: dict, key: str, where: str, test, expected: str) -> Any:
        value = parent.get(key)
        if value is not None:
            self.need(test(value), f"{where}{key}", expected, value)
        return value

    def int_list(self, parent: dict, key: str, where: str) -> None:
        value = parent.get(key)
        if value is None:
            return
        if self.need(isinstance(value, list), f"{where}{key}", "a list of seats", value):
            for i, item in enumerate(value):
                self.need(_int(item), f"{where}{key}[{i}]", "an int", item)

    def dict_or_none(self, parent: dict, key: str, where: str = "") -> dict:
        value = parent.get(key)
        if value is None:
            return {}
        return value if self.need(isinstance(value, dict), f"{where}{key}", "an object or null", value) else {}


def problems(snapshot: Any) -> list[str]:
    """Every shape problem of the fields the remote reads (up to 5); empty: safe to draw and act on."""
    c = _Checker()
    if not c.need(isinstance(snapshot, dict), "state", "an object", snapshot):
        return c.problems
    c.need(isinstance(snapshot.get("phase"), str), "phase", "a string", snapshot.get("phase"))
    for key in ("chooser", "answering"):
        c.optional(snapshot, key, "", _int, "a seat or null")
    for key in ("paused", "buttons_manual", "buttons_live", "game_over"):
        c.optional(snapshot, key, "", lambda v: isinstance(v, bool), "true or false")
    for key in ("time", "paused_at"):
        c.optional(snapshot, key, "", _number, "a number")
    c.optional(snapshot, "order", "", lambda v: isinstance(v, str), "a string")
    players = snapshot.get("players")
    if players is not None and c.need(isinstance(players, list), "players", "a list", players):
        for i, player in enumerate(players):
            where = f"players[{i}]."
            if not c.need(isinstance(player, dict), f"players[{i}]", "an object", player):
                continue
            c.need(_int(player.get("seat")), f"{where}seat", "an int", player.get("seat"))
            c.optional(player, "score", where, _int, "an int")
            c.optional(player, "name", where, lambda v: isinstance(v, str), "a string")
            c.optional(player, "locked_until", where, _number, "a number")
    round_ = c.dict_or_none(snapshot, "round")
    c.optional(round_, "topic", "round.", _int, "an int")
    topics = round_.get("topics")
    if topics is not None and c.need(isinstance(topics, list), "round.topics", "a list", topics):
        for t, topic in enumerate(topics):
            if not c.need(isinstance(topic, dict), f"round.topics[{t}]", "an object", topic):
                continue
            c.optional(topic, "name", f"round.topics[{t}].", lambda v: isinstance(v, (str, int)), "a string")
            cells = topic.get("cells")
            if cells is not None and c.need(isinstance(cells, list), f"round.topics[{t}].cells", "a list", cells):
                for q, cell in enumerate(cells):
                    if c.need(isinstance(cell, dict), f"round.topics[{t}].cells[{q}]", "an object", cell):
                        c.optional(cell, "value", f"round.topics[{t}].cells[{q}].", _int, "an int")
    question = c.dict_or_none(snapshot, "question")
    for key in ("topic", "value"):
        c.optional(question, key, "question.", _int, "an int")
    for key in ("deadline", "answer_started"):
        c.optional(question, key, "question.", _number, "a number")
    answered = question.get("answered")
    if answered is not None and c.need(isinstance(answered, list), "question.answered", "a list", answered):
        for i, item in enumerate(answered):
            if c.need(isinstance(item, dict), f"question.answered[{i}]", "an object", item):
                c.optional(item, "seat", f"question.answered[{i}].", _int, "a seat")
    auction = c.dict_or_none(snapshot, "auction")
    c.optional(auction, "stake", "auction.", _int, "an int")
    for key in ("holder", "turn"):
        c.optional(auction, key, "auction.", _int, "a seat or null")
    c.int_list(auction, "passed", "auction.")
    final = c.dict_or_none(snapshot, "final")
    c.optional(final, "topic", "final.", lambda v: isinstance(v, str), "a string")
    for key in ("eligible", "stakes_in", "judged"):
        c.int_list(final, key, "final.")
    revealed = final.get("revealed")
    if revealed is not None and c.need(isinstance(revealed, list), "final.revealed", "a list", revealed):
        for i, item in enumerate(revealed):
            if c.need(isinstance(item, dict), f"final.revealed[{i}]", "an object", item):
                c.optional(item, "seat", f"final.revealed[{i}].", _int, "a seat")
    last = c.dict_or_none(snapshot, "last")
    answers = last.get("answers")
    if answers is not None and c.need(isinstance(answers, list), "last.answers", "a list", answers):
        for i, item in enumerate(answers):
            if c.need(isinstance(item, dict), f"last.answers[{i}]", "an object", item):
                c.optional(item, "seat", f"last.answers[{i}].", _int, "a seat")
    return c.problems


def question_problems(question: Any) -> list[str]:
    """The host question: null, or an object whose shown fields are text (accepts: a list, media: a list)."""
    if question is None:
        return []
    c = _Checker()
    if not c.need(isinstance(question, dict), "question", "an object or null", question):
        return c.problems
    for key in ("text", "answer", "comment", "source", "topic_name"):
        c.optional(question, key, "question.", lambda v: isinstance(v, str), "a string")
    for key in ("accepts", "media"):
        c.optional(question, key, "question.", lambda v: isinstance(v, list), "a list")
    return c.problems
