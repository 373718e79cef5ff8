"""america-2005 progression: selection (3–4 a game) → wild cards → 1/3 finals → final (T-A1–T-A5)."""
from __future__ import annotations

from scoreboard.tournament import america, common
from scoreboard.tournament.draw import draw_games
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.ranking import cut_reason
from scoreboard.tournament.service import player_name

cups_entered = common.no_cups
ORDER = ("selection", "1/3", "final")


def registration_status(t, cups=None):
    """T-A1: the first 36 play; later entries wait and fill withdrawals in order."""
    common.closed_after_draw(t, cups)
    return "active" if len(t.store.players("active")) < america.MAX_PLAYERS else "waiting"


def substitute_for(t, by):
    if by:
        return player_name(by)
    waiting = t.store.players("waiting")
    if not waiting:
        raise TournamentError("the waiting list is empty: name the substitute with --by NAME")
    return waiting[0]["name"]


def _draw(t, stage_id, players):
    if stage_id == "selection":
        sizes = america.selection_sizes(len(players))
    else:
        sizes = [3] * (len(players) // 3) + ([len(players) % 3] if len(players) % 3 else [])
    return draw_games(sorted(players), sizes, [], t.rng(stage_id)).games


def draw_next(t) -> dict:
    last = t.last_stage()
    if last and last["id"] == "final":
        raise TournamentError("the tournament is over: the final is played")
    stage_id = ORDER[ORDER.index(last["id"]) + 1] if last else "selection"
    players = sorted(p["name"] for p in t.store.players("active")) if not last else last["advancement"]["qualified"]
    if stage_id == "final":
        games = common.seat_lot(t, "final", [players])
        ids = ["final"]
    else:
        games = _draw(t, stage_id, players)
        prefix = "S" if stage_id == "selection" else "1/3-"
        ids = [f"{prefix}{k}" for k in range(1, len(games) + 1)]
    draw = {"input": sorted(players), "label": stage_id, "games": games, "broken": []}
    common.add_stage(t, stage_id, "selection" if stage_id == "selection" else "knockout", stage_id, draw, ids)
    waiting = [p["name"] for p in t.store.players("waiting")]
    return {"stage": stage_id, "games": dict(zip(ids, games)), "broken": [], "waiting": waiting}


def expected_input(t, stage, registered: list[dict]):
    """The selection: the active players at the draw; later stages: who the stage before sent on."""
    if stage["id"] == "selection":
        return sorted(p["name"] for p in registered if p["status"] == "active")
    before = t.store.stage(ORDER[ORDER.index(stage["id"]) - 1])
    return sorted((before["advancement"] or {}).get("qualified", []))


def redraw(t, stage) -> list[list[str]]:
    if stage["id"] == "final":
        return common.seat_lot(t, "final", [stage["draw"]["input"]])
    return _draw(t, stage["id"], stage["draw"]["input"])


def advance(t, stage) -> dict:
    results = t.results(stage["id"])
    won = {g["id"]: r.winner for g, r in results}
    reasons = {w: f"won {gid}" for gid, w in won.items() if w}
    out = {"by_game": won}
    if stage["id"] == "selection":
        cards, ranked = america.wild_cards([r for _, r in results], t.rng("wild cards"), [g["id"] for g, _ in results])
        game_of = {s.name: g["id"] for g, r in results for s in r.seats}
        for r in ranked:
            if r.name in cards:
                reasons[r.name] = f"wild card: 2nd in {game_of[r.name]} with {r.values['score']:g}"
        out["wild_cards"] = cards
        out["seconds"] = [{"name": r.name, **r.values, "decided_by": r.decided_by} for r in ranked]
        out["cut"] = cut_reason(ranked, len(cards))
    if stage["id"] == "final" and results:
        out["places"] = common.places(results[0][1])[:3]
    out["qualified"] = [w for w in won.values() if w] + out.get("wild_cards", [])
    out["reasons"] = reasons
    return out


def standings(t) -> dict:
    final = t.store.stage("final")
    places = final["advancement"]["places"] if final and final["advancement"] else []
    return {"format": t.format, "champion": places[0]["name"] if places else None, "places": places,
            "waiting": [p["name"] for p in t.store.players("waiting")],
            "stages": [{"id": s["id"], "state": s["state"]} for s in t.store.stages()]}
