"""The protocol for tools: JSON (the model itself, docs/PROTOCOL_OF_A_GAME.md) and CSV (one row per line).

`from_json` is the one reader of a stored protocol (the tournament file keeps the JSON with the game's result): a
text that is not a protocol of this format and version is refused with why, never half-read.
"""
from __future__ import annotations

import csv
import io
import json

from scoreboard.protocol.build import FORMAT, VERSION, ProtocolError
from scoreboard.protocol.words import clock, say

# The CSV's columns, in order (docs/PROTOCOL_OF_A_GAME.md says what each holds).
COLUMNS = ("question", "round", "round_kind", "topic", "value", "kind", "seq", "time_s", "clock", "event", "seat",
           "player", "ms", "during", "source", "bound_ms", "verdict", "amount", "points", "tiebreak_points",
           "undone_by", "reason", "text")


def to_json(model: dict) -> str:
    return json.dumps(model, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def from_json(text: str | bytes, source: str = "the protocol") -> dict:
    try:
        model = json.loads(text)
    except (TypeError, ValueError) as error:
        raise ProtocolError(f"{source}: not JSON ({error})") from None
    if not isinstance(model, dict) or model.get("format") != FORMAT:
        raise ProtocolError(f"{source}: not a protocol of a game (format {FORMAT!r} expected)")
    if model.get("version") != VERSION:
        raise ProtocolError(f"{source}: protocol version {model.get('version')!r}; this version reads {VERSION}")
    for key, kind in (("header", dict), ("players", list), ("questions", list), ("setup", list),
                      ("result", dict), ("journal", dict)):
        if not isinstance(model.get(key), kind):
            raise ProtocolError(f"{source}: field {key!r} missing or not a {kind.__name__}")
    return model


def rows(model: dict) -> list[dict]:
    """Every line of the protocol as a CSV row: the lines before the first question, then each question's."""
    names = {p["seat"]: p["name"] for p in model["players"]}
    out = []
    for block, lines in [(None, model["setup"])] + [(b, b["lines"]) for b in model["questions"]]:
        for line in lines:
            seat = line.get("seat") if line["what"] not in ("lot", "name", "game_over") else None
            out.append({
                "question": block["n"] if block and block["n"] is not None else "", "round": (block or {}).get("round") or "",
                "round_kind": (block or {}).get("round_kind") or "", "topic": (block or {}).get("topic") or "",
                "value": "" if not block or block["value"] is None else block["value"],
                "kind": (block or {}).get("kind") or "", "seq": line.get("seq") or "",
                "time_s": f"{line['at']:.3f}", "clock": clock(line["at"]), "event": line["what"],
                "seat": seat or "", "player": names.get(seat, "") if seat else "",
                "ms": "" if line.get("ms") is None else line["ms"], "during": line.get("during") or "",
                "source": line.get("source") or "",
                "bound_ms": "" if line.get("bound_ms") is None else line["bound_ms"],
                "verdict": line.get("verdict") or "", "amount": "" if line.get("amount") is None else line["amount"],
                "points": " ".join(f"{d['seat']}:{d['delta']:+d}" for d in line.get("deltas") or []),
                "tiebreak_points": " ".join(f"{d['seat']}:{d['delta']:+d}" for d in line.get("tiebreak_deltas") or []),
                "undone_by": line.get("undone_by") or "", "reason": line.get("reason") or "",
                "text": say(line, names)})
    return out


def to_csv(model: dict) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows(model):
        writer.writerow({k: _safe(v) for k, v in row.items()})
    return buffer.getvalue()


def _safe(value):
    """A text cell a spreadsheet would run as a formula (a name typed as "=HYPERLINK(…)") is written as text; the
    numbers are ints here, and the points column starts with a seat number."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
