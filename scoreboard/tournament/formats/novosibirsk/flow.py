"""novosibirsk-2007 progression: 1/9 (quasi-blind draw) → 1/3 → final (T-N1–T-N3)."""
from __future__ import annotations

from scoreboard.tournament import common
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.formats.novosibirsk import rules
from scoreboard.tournament.views import knockout_bracket, label

registration_status = common.closed_after_draw
cups_entered = common.no_cups
substitute_for = common.substitute_named
ORDER = ("1/9", "1/3", "final")
WINNER, TIEBREAK = "final_round", "extra_round"     # TB5 / FN1, TB1
SHARED_FIRST_STAGES: frozenset = frozenset()
OPTIONS = frozenset({"seeded", "team"})             # T-N2: last championship's 1/3-finalists, teams
TITLE = "tn_novosibirsk"
DEMO = {"players": 27, "seeded": 9, "lowest": -60}


def _first_input(t, registered: list[dict] | None = None) -> dict:
    """The 1/9 draw's input from the players table (or `registered`: the table as it was at the draw)."""
    active = [p for p in (t.store.players() if registered is None else registered) if p["status"] == "active"]
    players = sorted(p["name"] for p in active)
    seeded = sorted(p["name"] for p in active if p["seeded"])
    teams: dict[str, list[str]] = {}
    for p in active:
        if p["team"]:
            teams.setdefault(p["team"], []).append(p["name"])
    return {"players": players, "seeded": seeded, "teams": {k: sorted(v) for k, v in teams.items()}}


def _feed_input(t, stage_id) -> list[list[str]]:
    prev = ORDER[ORDER.index(stage_id) - 1]
    won = common.winners(t, prev)
    count = 3 if stage_id == "1/3" else 1
    return [[won[f"{prev}-{k}"] for k in rules.feeders(stage_id, n)
             if won.get(f"{prev}-{k}")] for n in range(1, count + 1)]


def draw_next(t) -> dict:
    last = t.last_stage()
    if last and last["id"] == "final":
        raise TournamentError("the championship is over: the final is played")
    stage_id = ORDER[ORDER.index(last["id"]) + 1] if last else "1/9"
    if stage_id == "1/9":
        given = _first_input(t)
        outcome = rules.draw_first_stage(given["players"], given["seeded"], given["teams"], t.rng("1/9"))
        draw = {"input": given, "label": "1/9", "games": outcome.games, "broken": outcome.broken}
        ids = [f"1/9-{k}" for k in range(1, 10)]
    else:
        given = _feed_input(t, stage_id)
        games = common.seat_lot(t, stage_id, given)
        keep = [g for g in games if g]
        draw = {"input": given, "label": stage_id, "games": keep, "broken": []}
        ids = [f"1/3-{k}" for k in range(1, 4) if games[k - 1]] if stage_id == "1/3" else ["final"] * bool(keep)
        if not keep:
            draw["note"] = "no 1/3 final had a winner: the title is not awarded"
    common.add_stage(t, stage_id, "knockout", stage_id, draw, ids)
    return {"stage": stage_id, "games": dict(zip(ids, draw["games"])), "broken": draw["broken"]}


def expected_input(t, stage, registered: list[dict]):
    """What the stage's draw input must be: the players table at the draw (1/9) or the winners of the tree."""
    return _first_input(t, registered) if stage["id"] == "1/9" else _feed_input(t, stage["id"])


def draw_constraints(t, stage):
    """What `draw --verify` checks a stored draw against (T-N2): the groups spread and the games' branches."""
    if stage["id"] != "1/9":
        return None
    given = stage["draw"]["input"]
    return rules.draw_groups(given["seeded"], given["teams"]), rules.branches()


def redraw(t, stage) -> list[list[str]]:
    given = stage["draw"]["input"]
    if stage["id"] == "1/9":
        return rules.draw_first_stage(given["players"], given["seeded"], given["teams"], t.rng("1/9")).games
    return [g for g in common.seat_lot(t, stage["id"], given) if g]


def advance(t, stage) -> dict:
    won = common.winners(t, stage["id"])
    out = {"qualified": [w for w in won.values() if w], "by_game": won,
           "reasons": {w: f"won {gid}" for gid, w in won.items() if w}}
    if stage["id"] == "final":
        results = t.results("final")
        out["places"] = common.places(results[0][1]) if results else []
        out["champion"] = won.get("final")
    return out


def standings(t) -> dict:
    final = t.store.stage("final")
    champion = final["advancement"]["champion"] if final and final["advancement"] else None
    places = final["advancement"]["places"] if final and final["advancement"] else []
    return {"format": t.format, "champion": champion, "places": places,
            "field": common.field_places(t, ORDER, "extra round"),
            "stages": [{"id": s["id"], "state": s["state"]} for s in t.store.stages()]}


# -- views
def _feeds(stage_id, k):
    if stage_id == "1/9":
        return [label("tn_to_be_drawn")]
    prev = ORDER[ORDER.index(stage_id) - 1]
    return [label("tn_winner_of", game=f"{prev}-{j}") for j in rules.feeders(stage_id, k)]


def bracket_view(t, stage=None) -> dict:
    """1/9 → 1/3 → final; undrawn games show whose winners fill them (T-N1)."""
    return knockout_bracket(t, ORDER, {"1/9": 9, "1/3": 3, "final": 1}, _feeds)


def standings_view(t, stage=None) -> dict:
    return common.knockout_table(t, ORDER, "extra round", "tn_tie_extra_round")


VIEWS = {"bracket": bracket_view, "standings": standings_view}


def screen(t, scene: str):
    """Both scenes show the bracket on the board (the whole tree is the standings of the day)."""
    return "bracket", bracket_view(t)
