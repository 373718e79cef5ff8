"""Corrections after the fact (issue 12 item 3): a result replaced after its stage advanced, and `reopen`.

A corrected result re-runs, stage by stage from its own, everything that follows from it: each advancement
(winners, cup sums, conditional points, wild cards, places, the champion) and each later draw (the 1/3 final's
tree, a cup's next round, a later cup's spread group, the Super Nine selection). A later draw is re-run exactly as
`draw` would make it now, from the seed (inside a savepoint that is rolled back), and compared with the stored one:
- the same seats: the stage stands (its stored input and selection are brought up to date);
- other seats only in games not yet played: the stage is drawn again (a walkover is recomputed, not "played") and
  the stages after it are discarded, to be advanced and drawn again;
- other seats in a game already played: the correction is refused naming those games; `reopen` is the explicit
  path (it discards the stages after one, their results kept in the audit log).
Callers hold the transaction (Tournament.record / Tournament.reopen), so a refusal changes nothing.
"""
from __future__ import annotations

import json

from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.verify import apply_seat_changes, as_stored, seat_changes


def played(game: dict) -> bool:
    """A result someone played for: not a walkover recorded at the draw (one player, or nobody left)."""
    r = game["result"]
    return bool(r) and len(game["players"]) > 1


# Parts of an advancement that only restate others (why, the ranked lists, the line's wording): not said in the
# summary lines, but kept whole in the audit entry's `before`.
QUIET = {"reasons", "ranked", "seconds", "selection", "lines", "cut"}


def after_advance(t, game: dict, data: dict, journal_hash: str | None, before: dict) -> list[str]:
    """Write the corrected result of `game` (its stage advanced) and re-run what follows; what changed, in words.
    `before` receives each changed stage's advancement and each redrawn stage's draw as they were."""
    t.store.db.execute("UPDATE games SET result = ?, journal_hash = ?, recorded_at = datetime('now') WHERE id = ?",
                       (json.dumps(data, ensure_ascii=False), journal_hash, game["id"]))
    first = game["stage"]
    changes: list[str] = []
    order = [s["id"] for s in t.store.stages()]
    for stage_id in order[order.index(first):]:
        stage = t.store.stage(stage_id)
        if stage is None:            # discarded by a redraw of an earlier stage
            break
        if stage_id != first and _follow_draw(t, stage, first, changes):
            before.setdefault("draws", {})[stage_id] = {"draw": stage["draw"], "advancement": stage["advancement"]}
            break                    # drawn again: what follows it was discarded
        stage = t.store.stage(stage_id)
        if stage["state"] == "advanced":
            new = as_stored(t.flow.advance(t, stage))
            if new != stage["advancement"]:
                t.store.set_advancement(stage_id, new)
                before.setdefault("advancements", {})[stage_id] = stage["advancement"]
                changes += [f"{stage_id}: {d}" for d in diff(stage["advancement"], new)
                            if d.split(".")[0].split(":")[0] not in QUIET]
    return changes


def _draw_options(t, stage) -> dict:
    per_game = stage["draw"].get("topics_per_game")
    return {"topics_per_game": per_game} if per_game and "topics_per_game" in t.flow.OPTIONS else {}


def _remove(t, stages: list[dict]) -> None:
    db = t.store.db
    for stage in stages:
        db.execute("UPDATE topics SET game = NULL WHERE game IN (SELECT id FROM games WHERE stage = ?)", (stage["id"],))
        db.execute("DELETE FROM games WHERE stage = ?", (stage["id"],))
        db.execute("DELETE FROM stages WHERE id = ?", (stage["id"],))


def _from(t, stage) -> list[dict]:
    return [s for s in t.store.stages() if s["seq"] >= stage["seq"]]


def _probe(t, stage) -> tuple[dict, dict[str, list[str]]]:
    """The draw `draw` would make of `stage` now (its stage and the ones after it set aside), then undone."""
    db = t.store.db
    db.execute("SAVEPOINT probe")
    try:
        _remove(t, _from(t, stage))
        t.flow.draw_next(t, **_draw_options(t, stage))
        fresh = t.store.stage(stage["id"])
        if fresh is None:
            raise TournamentError(f"{stage['id']} would not be drawn at all")
        return fresh["draw"], {g["id"]: g["players"] for g in t.store.games(stage["id"])}
    finally:
        db.execute("ROLLBACK TO probe")
        db.execute("RELEASE probe")


def _without_pool(draw: dict) -> dict:
    return {k: v for k, v in draw.items() if k != "topic_pool"}


def _follow_draw(t, stage: dict, first: str, changes: list[str]) -> bool:
    """Bring `stage`'s draw in line with what precedes it; True when it was drawn again (later stages discarded)."""
    hint = (f"`scoreboard tournament reopen {first} --reason TEXT` discards the stages after {first} (their results "
            f"stay in the audit log) to play them again")
    try:
        draw, fresh = _probe(t, stage)
    except TournamentError as error:
        raise TournamentError(f"the correction leaves {stage['id']} impossible to draw again ({error}); {hint}") \
            from None
    old = {g["id"]: g for g in t.store.games(stage["id"])}
    changed_seats = seat_changes(t.store.audit_log(), stage["id"], old)
    fresh = apply_seat_changes(fresh, changed_seats)
    if fresh == {gid: g["players"] for gid, g in old.items()}:
        if _without_pool(draw) != _without_pool(stage["draw"]):
            kept = dict(draw, **({"topic_pool": stage["draw"]["topic_pool"]} if "topic_pool" in stage["draw"] else {}))
            if "topic_pool" not in stage["draw"]:
                kept.pop("topic_pool", None)
            t.store.db.execute("UPDATE stages SET draw = ? WHERE id = ?",
                               (json.dumps(kept, ensure_ascii=False), stage["id"]))
            changes += [f"{stage['id']} draw: {d}" for d in diff(_without_pool(stage["draw"]), _without_pool(kept))]
        return False
    later = _from(t, stage)
    clash = [f"{g['id']} (played by {', '.join(g['players'])}; it would now be "
             f"{', '.join(fresh.get(g['id']) or ['nobody'])})"
             for g in old.values() if played(g) and fresh.get(g["id"]) != g["players"]]
    clash += [f"{g['id']} (played by {', '.join(g['players'])}, after {stage['id']} that is drawn again)"
              for s in later[1:] for g in t.store.games(s["id"]) if played(g)]
    if clash:
        raise TournamentError(f"the correction changes who plays games already played: {'; '.join(clash)}. {hint}")
    if changed_seats:
        games = sorted({d["game"] for d in changed_seats})
        raise TournamentError(f"the correction draws {stage['id']} again, which would undo the seat changes made "
                              f"after its draw (in {', '.join(games)}); {hint}")
    keep = {gid: g for gid, g in old.items() if played(g)}
    _remove(t, later)
    summary = t.flow.draw_next(t, **_draw_options(t, stage))
    for gid, g in keep.items():
        if (t.store.game(gid)["topics"] or None) != (g["topics"] or None):
            raise TournamentError(f"drawing {stage['id']} again would give {gid}, already played, other topics "
                                  f"(T-S8); {hint}")
        t.store.db.execute("UPDATE games SET result = ?, journal_hash = ?, recorded_at = ? WHERE id = ?",
                           (json.dumps(g["result"], ensure_ascii=False), g["journal_hash"], g["recorded_at"], gid))
    t.store.audit("draw", dict(summary, redrawn=True))
    moved = [f"{gid}: {', '.join(fresh[gid])} (was {', '.join(old[gid]['players']) if gid in old else 'not drawn'})"
             for gid in fresh if gid not in old or fresh[gid] != old[gid]["players"]]
    moved += [f"{gid}: not played (was {', '.join(old[gid]['players'])})" for gid in old if gid not in fresh]
    changes.append(f"{stage['id']} drawn again: " + "; ".join(moved))
    changes += [f"{s['id']} discarded: draw it again after `advance`" for s in later[1:]]
    return True


def reopen(t, stage_id: str, reason: str | None) -> dict:
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise TournamentError("reopen needs --reason TEXT: it discards results, and the reason is logged")
    stage = t.store.stage(stage_id)
    if stage is None:
        raise TournamentError(f"no stage {stage_id!r}: stages are {', '.join(s['id'] for s in t.store.stages())}")
    if stage["state"] != "advanced":
        raise TournamentError(f"stage {stage_id} is not advanced: correct its results with `result GAME --replace`")
    later = _from(t, stage)[1:]
    removed = [{"stage": s["id"], "games": {g["id"]: {"players": g["players"], "result": g["result"]}
                                            for g in t.store.games(s["id"])}} for s in later]
    _remove(t, later)
    t.store.db.execute("UPDATE stages SET state = 'drawn', advancement = NULL WHERE id = ?", (stage_id,))
    t.store.audit("reopen", {"stage": stage_id, "reason": reason, "advancement": stage["advancement"],
                             "removed": removed})
    results = sum(1 for s in removed for g in s["games"].values() if g["result"])
    return {"stage": stage_id, "removed": [s["id"] for s in later], "results_discarded": results}


def diff(old, new, where: str = "") -> list[str]:
    """What differs between two stored JSON values, in short lines: names in and out of a list, a value's
    before → after."""
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        return [line for k in sorted(set(old) | set(new), key=str)
                for line in diff(old.get(k), new.get(k), f"{where}.{k}" if where else str(k))]
    head = f"{where}: " if where else ""
    names = lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)
    if names(old or []) and names(new or []) and sorted(old or []) != sorted(new or []):
        gone = [x for x in old or [] if x not in (new or [])]
        came = [x for x in new or [] if x not in (old or [])]
        return [head + " ".join([f"+{x}" for x in came] + [f"−{x}" for x in gone])]
    show = lambda v: json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v
    text = f"{show(old)} → {show(new)}"
    return [head + (text if len(text) <= 160 else "changed")]


def log(t) -> list[dict]:
    """Every change made to what was recorded, for the exports: corrections after the fact, reopened stages,
    walkovers out of drawn games, results forced beyond the rules' bounds (host's rulings)."""
    rows = []
    for a in t.store.audit_log():
        d = a["detail"]
        if a["what"] == "correction":
            rows.append({"at": a["at"], "kind": "correction", "subject": d["game"], "reason": d.get("reason"),
                         "lines": list(d.get("changes") or []) + [f"forced: {x}" for x in d.get("forced") or []]})
        elif a["what"] == "reopen":
            rows.append({"at": a["at"], "kind": "reopen", "subject": d["stage"], "reason": d.get("reason"),
                         "lines": [f"{s['stage']} discarded" for s in d.get("removed") or []]})
        elif a["what"] == "walkover":
            rows.append({"at": a["at"], "kind": "walkover", "subject": d["game"], "reason": None,
                         "lines": [f"{d['name']} left the {d['cup']} cup; {', '.join(d.get('left') or []) or '—'}"]})
        elif a["what"] == "result" and d.get("forced"):
            rows.append({"at": a["at"], "kind": "forced", "subject": d["game"], "reason": d.get("reason"),
                         "lines": list(d["forced"])})
    return rows
