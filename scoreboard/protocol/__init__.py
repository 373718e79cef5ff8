"""The protocol of a game (протокол боя): what a secretary writes down, read from the game's journal.

Not the board's network protocol (docs/PROTOCOL.md): this is the record of one game, question by question — every
press with its time after the window opened, false starts, verdicts, bids, final stakes, corrections and undos —
built by replaying the journal through the engine (`build.py`), so every figure comes from the rules. It is plain
data (the JSON schema: docs/PROTOCOL_OF_A_GAME.md) that `html.py` prints on A4 and `tables.py` writes as CSV and
JSON. It reads a journal and draws nothing.
"""
from __future__ import annotations

from scoreboard.protocol.build import ProtocolError, build
from scoreboard.protocol.html import render as to_html
from scoreboard.protocol.tables import from_json, to_csv, to_json

FORMATS = ("html", "csv", "json")
__all__ = ["FORMATS", "ProtocolError", "build", "from_json", "render", "to_csv", "to_html", "to_json"]


def render(model: dict, fmt: str = "html") -> str:
    """The protocol `model` as text in `fmt` (html, csv or json)."""
    if fmt == "html":
        return to_html(model)
    if fmt == "csv":
        return to_csv(model)
    if fmt == "json":
        return to_json(model)
    raise ValueError(f"format {fmt!r}: one of {', '.join(FORMATS)}")
