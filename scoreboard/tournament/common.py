"""Helpers shared by the three flows: stage and game rows, winners, walkovers, plain reasons."""
from __future__ import annotations

import json

from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.names import player_name
from scoreboard.tournament.places import knockout_places
from scoreboard.tournament.results import GameResult, Seat
from scoreboard.tournament.views import label, table


def closed_after_draw(t, cups=None):
    if cups:
        raise TournamentError(f"a {t.format} tournament has no cups")
    if t.store.stages():
        raise TournamentError("registration is closed: the first draw is made")
    return "active"


def no_cups(t, cups, already=()):
    if cups:
        raise TournamentError(f"a {t.format} tournament has no cups")
    return []


def add_stage(t, stage_id, kind, engine_stage, draw: dict, game_ids: list[str]):
    """Store a drawn stage and its games; a game of one player is a walkover recorded at once."""
    t.store.add_stage(stage_id, kind, engine_stage, draw)
    for number, (gid, players) in enumerate(zip(game_ids, draw["games"]), start=1):
        t.store.add_game(gid, stage_id, number, players)
        if len(players) == 1:
            walkover = GameResult((Seat(1, players[0], 0),), players[0])
            t.store.db.execute("UPDATE games SET result = ?, recorded_at = datetime('now') WHERE id = ?",
                               (json.dumps(walkover.as_json(), ensure_ascii=False), gid))


def winners(t, stage_id) -> dict[str, str | None]:
    return {g["id"]: r.winner for g, r in t.results(stage_id)}


def seat_lot(t, label, groups: list[list[str]]) -> list[list[str]]:
    """Who sits where in a game whose players are known (1/3 final, final): a lot from the seed."""
    rnd = t.rng(label)
    out = []
    for g in groups:
        g = sorted(g)
        rnd.shuffle(g)
        out.append(g)
    return out


def substitute_named(t, by):
    if not by:
        raise TournamentError("name the substitute: --by NAME (any present non-qualifier, T-N3)")
    return player_name(by)


def places(result: GameResult) -> list[dict]:
    return [{"place": i + 1, "name": s.name, "score": s.score} for i, s in enumerate(result.order())]


def field_places(t, order: tuple[str, ...], tie_name: str) -> list[dict]:
    """Every player's place in a knockout tournament (places.py), as JSON."""
    stages = []
    for stage_id in order:
        stage = t.store.stage(stage_id)
        if not stage:
            break
        adv = stage["advancement"] or {}
        stages.append({"id": stage_id, "advanced": stage["state"] == "advanced", "qualified": set(adv.get("qualified", [])),
                       "games": t.store.games(stage_id)})
    return [{"place": p.place, "name": p.name, "stage": p.stage, "game": p.game, "score": p.score,
             "decided_by": p.decided_by, "stages": p.stages} for p in knockout_places(stages, tie_name)]


def knockout_table(t, order: tuple[str, ...], tie_name: str, tie_key: str):
    """The whole field's standings view: place, player, the stage reached, the score in every stage."""
    rows, ties = [], []
    for p in field_places(t, order, tie_name):
        rows.append([p["place"], p["name"], label(f"tn_reached_{p['stage'].replace('/', '_')}")]
                    + [p["stages"].get(s, "") for s in order])
        ties.append(label(tie_key) if p["decided_by"] == tie_name else label("tn_tie_lot")
                    if p["decided_by"] == "lot" else None)
    final = t.store.stage("final")
    title = label("tn_final_of" if final and final["state"] == "advanced" else "tn_no_final_yet",
                  tournament=label(t.flow.TITLE))
    return table(title, ["place", "player", "reached", *order], rows, highlight=3 if final else 0, ties=ties)
