"""`draw --verify`: re-run every draw, lot and advancement from the seed and compare with everything the file holds.

Four things are compared, stage by stage: the stored draw input with the players table as it was at the draw (the
audited substitutions made since are undone to get it); the draw re-run from the seed with the stored draw; the games
table's seats with that draw plus the audited substitutions (T-N3, the america waiting list); the advancement re-run
with the stored one. Every difference is reported with what the file has and what it should have.
"""
from __future__ import annotations

import json

from scoreboard.tournament.draw import check


def verify(t) -> list[str]:
    log = t.store.audit_log()
    problems = []
    for stage in t.store.stages():
        expected = getattr(t.flow, "expected_input", None)
        if expected is not None:
            should = as_stored(expected(t, stage, players_when_drawn(t, stage["id"], log)))
            if should is not None and should != stage["draw"]["input"]:
                problems.append(f"{stage['id']}: the stored draw input differs from the players table at the draw: "
                                + describe(stage["draw"]["input"], should))
        again = t.flow.redraw(t, stage)
        if again != stage["draw"]["games"]:
            problems.append(f"{stage['id']}: the draw re-run from seed {t.seed} gives {again}, "
                            f"the file has {stage['draw']['games']}")
        problems += spread_kept(t, stage)
        problems += seats_played(t, stage, log)
        problems += getattr(t.flow, "verify_topics", lambda t_, s: [])(t, stage)
        if stage["advancement"] is not None:
            recomputed = as_stored(t.flow.advance(t, stage))
            if recomputed != stage["advancement"]:
                problems.append(f"{stage['id']}: advancement re-run differs from the file: "
                                + describe(stage["advancement"], recomputed))
    return problems


def spread_kept(t, stage: dict) -> list[str]:
    """The stored draw against the spread its rules ask (T-N2, T-S2): every constraint it breaks must be one the draw
    reported as impossible to keep (`broken`, with how close it came)."""
    rules = getattr(t.flow, "draw_constraints", None)
    given = rules(t, stage) if rules else None
    if not given:
        return []
    groups, branch_of = given
    reported = {b.split(":")[0] for b in stage["draw"].get("broken") or []}
    return [f"{stage['id']}: the stored draw breaks a spread and did not report it: {c}"
            for c in check(stage["draw"]["games"], groups, branch_of) if c.split(":")[0] not in reported]


def players_when_drawn(t, stage_id: str, log: list[dict]) -> list[dict]:
    """The players table as it was when `stage_id` was drawn: later substitutions undone (newest first)."""
    drawn = last_draw(log, stage_id)
    players = {p["name"]: dict(p) for p in t.store.players()}
    for entry in reversed(log):
        if drawn is None or entry["id"] <= drawn:
            break
        if entry["what"] != "substitute":
            continue
        d = entry["detail"]
        if d.get("absent") in players:
            players[d["absent"]]["status"] = d.get("absent_status", "active")
        by = d.get("by")
        if by in players:
            if "by_status" not in d:          # files written before the status was audited: not active then
                players[by]["status"] = "substitute"
            elif d["by_status"] is None:      # registered by the substitution itself
                del players[by]
            else:
                players[by]["status"] = d["by_status"]
    return sorted(players.values(), key=lambda p: p["entered"])


def last_draw(log: list[dict], stage_id: str) -> int | None:
    """The audit id of the stage's latest draw (a correction or a reopen may have drawn it again)."""
    ids = [a["id"] for a in log if a["what"] == "draw" and a["detail"].get("stage") == stage_id]
    return ids[-1] if ids else None


SEAT_CHANGES = ("substitute", "walkover")


def seat_changes(log: list[dict], stage_id: str, game_ids) -> list[dict]:
    """The audited changes of the stage's seats since its latest draw: substitutions (T-N3, T-S1) and a samara
    player leaving a drawn cup (`walkover`). Game ids are unique across stages."""
    drawn, ids = last_draw(log, stage_id) or 0, set(game_ids)
    return [a["detail"] for a in log if a["what"] in SEAT_CHANGES and a["id"] > drawn and a["detail"].get("game") in ids]


def apply_seat_changes(games: dict[str, list[str]], changes: list[dict]) -> dict[str, list[str]]:
    out = {g: list(p) for g, p in games.items()}
    for d in changes:
        if d.get("game") not in out:
            continue
        if "by" in d:
            out[d["game"]] = [d["by"] if p == d["absent"] else p for p in out[d["game"]]]
        else:
            out[d["game"]] = [p for p in out[d["game"]] if p != d["name"]]
    return out


def seats_played(t, stage: dict, log: list[dict]) -> list[str]:
    """The games table's seats must be the stored draw with the audited substitutions applied, game by game."""
    games = t.store.games(stage["id"])
    drawn = stage["draw"]["games"]
    if len(games) != len(drawn):
        return [f"{stage['id']}: the draw has {len(drawn)} games, the games table {len(games)}"]
    expected = apply_seat_changes({g["id"]: list(players) for g, players in zip(games, drawn)},
                                  seat_changes(log, stage["id"], [g["id"] for g in games]))
    return [f"game {g['id']}: the draw (with audited substitutions) seats {', '.join(expected[g['id']])}; "
            f"the games table has {', '.join(g['players'])}"
            for g in games if g["players"] != expected[g["id"]]]


def describe(stored, should, where: str = "") -> str:
    """A short account of how `stored` differs from `should`: the keys, and the names missing or extra."""
    if isinstance(stored, dict) and isinstance(should, dict):
        keys = [k for k in sorted(set(stored) | set(should)) if stored.get(k) != should.get(k)]
        return "; ".join(describe(stored.get(k), should.get(k), f"{where}.{k}" if where else str(k)) for k in keys)
    label = f"{where}: " if where else ""
    if stored is None and isinstance(should, list) or should is None and isinstance(stored, list):
        stored, should = stored or [], should or []     # a group missing on one side: all its names differ
    if isinstance(stored, list) and isinstance(should, list) and all(isinstance(x, str) for x in stored + should):
        extra = [x for x in stored if x not in should]
        missing = [x for x in should if x not in stored]
        if extra or missing:
            return (label + (f"the file has {', '.join(extra)} but should not" if extra else "")
                    + (" and " if extra and missing else "")
                    + (f"the file lacks {', '.join(missing)}" if missing else ""))
        return label + f"the file has the order {stored}, it should be {should}"
    return label + f"the file has {json.dumps(stored, ensure_ascii=False)}, it should be " \
                   f"{json.dumps(should, ensure_ascii=False)}"


def as_stored(value):
    """As it reads back from the file's JSON (tuples → lists, keys → strings)."""
    return None if value is None else json.loads(json.dumps(value, ensure_ascii=False))
