"""Helpers shared by the three flows: stage and game rows, winners, walkovers, plain reasons."""
from __future__ import annotations

import json

from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.results import GameResult, Seat
from scoreboard.tournament.service import player_name


def closed_after_draw(t, cups=None):
    if cups:
        raise TournamentError(f"cups are a samara-2003 thing; this is {t.format}")
    if t.store.stages():
        raise TournamentError("registration is closed: the first draw is made")
    return "active"


def no_cups(t, cups, already=()):
    if cups:
        raise TournamentError("cups are a samara-2003 thing")
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
