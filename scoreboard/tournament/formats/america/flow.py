"""america-2005 progression: selection (3–4 a game) → wild cards → 1/3 finals → final (T-A1–T-A5)."""
from __future__ import annotations

import re

from scoreboard.tournament import common
from scoreboard.tournament.draw import draw_games
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.formats.america import rules
from scoreboard.tournament.names import player_name
from scoreboard.tournament.ranking import cut_reason
from scoreboard.tournament.views import knockout_bracket, label, round_table

cups_entered = common.no_cups
ORDER = ("selection", "1/3", "final")
WINNER, TIEBREAK = "top", "extra_questions"          # TB5 (whatever its sign), TB2
SHARED_FIRST_STAGES: frozenset = frozenset()
OPTIONS = frozenset({"right"})                       # questions answered right: the wild-card tie-break (T-A4)
TITLE = "tn_america"
DEMO = {"players": 26, "seeded": 0, "lowest": -60}


def registration_status(t, cups=None):
    """T-A1: the first 36 play; later entries wait and fill withdrawals in order."""
    common.closed_after_draw(t, cups)
    return "active" if len(t.store.players("active")) < rules.MAX_PLAYERS else "waiting"


def substitute_for(t, by):
    if by:
        return player_name(by)
    waiting = t.store.players("waiting")
    if not waiting:
        raise TournamentError("the waiting list is empty: name the substitute with --by NAME")
    return waiting[0]["name"]


def _draw(t, stage_id, players):
    if stage_id == "selection":
        sizes = rules.selection_sizes(len(players))
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
        cards, ranked = rules.wild_cards([r for _, r in results], t.rng("wild cards"), [g["id"] for g, _ in results])
        game_of = {s.name: g["id"] for g, r in results for s in r.seats}
        for r in ranked:
            if r.name in cards:
                reasons[r.name] = f"wild card: 2nd in {game_of[r.name]} with {r.values['score']:g}"
        out["wild_cards"] = cards
        out["seconds"] = [{"name": r.name, **r.values, "decided_by": r.decided_by} for r in ranked]
        out["cut"] = cut_reason(ranked, len(cards))
    if stage["id"] == "final" and results:
        out["places"] = common.places(results[0][1])[:3]
        out["champion"] = won.get("final")
    out["qualified"] = [w for w in won.values() if w] + out.get("wild_cards", [])
    out["reasons"] = reasons
    return out


def standings(t) -> dict:
    final = t.store.stage("final")
    places = final["advancement"]["places"] if final and final["advancement"] else []
    return {"format": t.format, "champion": places[0]["name"] if places else None, "places": places,
            "field": common.field_places(t, ORDER, "extra questions"),
            "waiting": [p["name"] for p in t.store.players("waiting")],
            "stages": [{"id": s["id"], "state": s["state"]} for s in t.store.stages()]}


# -- views
def _feeds(stage_id, k):
    if stage_id == "1/3":
        return [label("tn_selection_winners"), label("tn_and_wild_cards")]
    return [label("tn_winner_of", game=f"1/3-{j}") for j in (1, 2, 3)]


def bracket_view(t, stage=None) -> dict:
    """1/3 finals → final (the selection is a round table, not a tree)."""
    return knockout_bracket(t, ("1/3", "final"), {"1/3": 3, "final": 1}, _feeds)


def round_view(t, stage=None) -> dict:
    """The selection games: winners, wild cards (in their own colour, T-A3), what decided at the line (T-A4)."""
    chosen = t.store.stage(stage or "selection")
    if not chosen or chosen["kind"] != "selection":
        raise TournamentError("the selection is not drawn yet" if not stage else f"no selection round {stage!r}")
    number = lambda gid: int(m.group(1)) if (m := re.fullmatch(r"S(\d+)", gid)) else None
    return round_table(t, chosen, label("tn_selection"), label("tn_legend_america"), number)


def standings_view(t, stage=None) -> dict:
    return common.knockout_table(t, ORDER, "extra questions", "tn_tie_extra_questions")


VIEWS = {"bracket": bracket_view, "round": round_view, "standings": standings_view}


def screen(t, scene: str):
    """`bracket`: the selection table while it runs, then the 1/3 → final tree; `standings`: the whole field."""
    last = t.last_stage()
    if scene == "bracket":
        return ("round", round_view(t)) if last and last["id"] == "selection" else ("bracket", bracket_view(t))
    return "standings", standings_view(t)
