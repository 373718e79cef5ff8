"""A game's protocol (протокол боя) sent with its result through `tournament serve` (issue 27 follow-up item 2).

The board builds the protocol from its own journal at game over and puts it, with the journal's digest, into the
outbox beside the final snapshot (`for_outbox`); the request carries both. The organiser's side keeps it in the
`protocols` table as a local board's result keeps its own (protocols.keep) — but only after `verified` has read it as
a stranger's text: at most MAX_BYTES, a protocol of this format and version, the digest the request names, whole
numbers where the printed page writes numbers as they are, the players and final scores of the snapshot it came with,
and it prints (HTML and CSV). Anything else refuses the whole result with the reason and writes nothing (the board
then says the refusal on its screen). The request's MAC (server.py) already proves which board sent it.
"""
from __future__ import annotations

import json
import re

from scoreboard.protocol import ProtocolError, build, from_json, render
from scoreboard.tournament.errors import TournamentError

MAX_BYTES = 1024 * 1024     # a whole game's protocol is ~40 kB (the demo's); the request's cap is server.MAX_BODY
DIGEST = re.compile(r"[0-9a-f]{64}")


def for_outbox(journal_path, out=print) -> dict:
    """The protocol's fields for the outbox: {"protocol", "journal_digest"}, or {} (said on the console) when the
    journal does not give one that fits — the result still goes, without a protocol."""
    try:
        model = build(journal_path)
    except ProtocolError as error:
        out(f"tournament: the result goes without its protocol: {error}")
        return {}
    size = len(json.dumps(model, ensure_ascii=False).encode("utf-8"))
    if size > MAX_BYTES:
        out(f"tournament: the result goes without its protocol: {size} bytes, the server takes at most {MAX_BYTES} "
            f"(print it here: `scoreboard protocol {journal_path}`)")
        return {}
    return {"protocol": model, "journal_digest": model["journal"]["digest"]}


def malformed(req: dict) -> str | None:
    """What is wrong with a result request's protocol fields on their face (None: nothing, or no protocol sent)."""
    if "protocol" not in req and "journal_digest" not in req:
        return None
    if not isinstance(req.get("protocol"), dict):
        return "protocol: the game's protocol, a JSON object (or leave out protocol and journal_digest)"
    if not isinstance(req.get("journal_digest"), str) or not DIGEST.fullmatch(req["journal_digest"]):
        return "journal_digest: the journal's sha256, 64 hex digits"
    return None


def verified(req: dict, source: str) -> dict | None:
    """The protocol a result request carries, checked as a stranger's (None: it carries none). Raises
    TournamentError naming the field and why."""
    if "protocol" not in req:
        return None
    text = json.dumps(req["protocol"], ensure_ascii=False)
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise TournamentError(f"{source}: protocol: more than {MAX_BYTES} bytes")
    try:
        model = from_json(text, f"{source}: protocol")
    except ProtocolError as error:
        raise TournamentError(str(error)) from None
    if model["journal"].get("digest") != req["journal_digest"]:
        raise TournamentError(f"{source}: protocol: journal.digest is not the journal_digest sent with it")
    for where, value in _numbers(model):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TournamentError(f"{source}: protocol: {where}: a whole number expected, got {str(value)[:40]!r}")
    _agrees(model, req["snapshot"], source)
    try:
        render(model, "html")
        render(model, "csv")
    except Exception as error:   # a stranger's model may break the printer anywhere: it is refused, never kept
        raise TournamentError(f"{source}: protocol: does not print ({type(error).__name__}: "
                              f"{str(error)[:80]})") from None
    return model


def _numbers(model: dict):
    """The fields the printed page writes as they are (not escaped as text): they must be numbers."""
    yield "journal.events", model["journal"].get("events")
    yield "journal.ignored", model["journal"].get("ignored")
    for i, player in enumerate(model["players"]):
        if not isinstance(player, dict):
            yield f"players[{i}]", player
            continue
        for key in ("seat", "score", "tiebreak_score", "rights"):
            yield f"players[{i}].{key}", player.get(key)


def _agrees(model: dict, snapshot: dict, source: str) -> None:
    """The protocol is of the game whose snapshot it came with: the same seats, names and final scores."""
    theirs = [(p.get("seat"), p.get("name"), p.get("score")) for p in snapshot.get("players") or []
              if isinstance(p, dict)]
    ours = [(p["seat"], p.get("name"), p["score"]) for p in model["players"]]
    if ours != theirs:
        raise TournamentError(f"{source}: protocol: its players and final scores {ours[:9]} are not the result's "
                              f"{theirs[:9]}: the protocol of another game")
