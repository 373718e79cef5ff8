"""Samara cup entries (T-S1, issue 12 item 4): a player enters or leaves any cup before its draw (samara 3.2.1:
«во всех трех Кубках либо в любом их подмножестве по своему выбору»), and withdraws from a drawn cup by walkover.

The regulation names no substitution and no walkover; 5.4 leaves exceptional situations to the organisers. The
program's decisions (docs/TOURNAMENTS.md, T-S1):
- before the cup's round 1 is drawn, leaving takes the entry back (the cup leaves the player's list);
- in round 1, an absent player may be replaced for this cup only (`player substitute`, flow.py);
- in any drawn round, a player who leaves is taken out of their game not yet played, by walkover: the others play
  it (a game of two, as round 1 has, 3.2.3), or the last one left wins it without playing (0 points, so no
  conditional points, 3.2.7); the round's size is then the players who play it (3.2.2: «игроков в текущем круге»).
  The entry stays in the players table (the round-1 draw was made with it; `draw --verify` re-runs that draw and
  applies the audited walkover to the seats).
"""
from __future__ import annotations

import json

from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.results import GameResult, Seat


def leave_cup(t, player: dict, cup: str, rounds: list[dict], cups: tuple[str, ...]) -> dict:
    """`player leave NAME CUP`; `rounds`: the cup's drawn rounds, oldest first. Returns what was done."""
    cup = str(cup).strip().lower()
    if cup not in cups:
        raise TournamentError(f"unknown cup {cup!r}: cups are {', '.join(cups)}")
    name = player["name"]
    if cup not in player["cups"]:
        raise TournamentError(f"{name} has not entered the {cup} cup")
    if not rounds:
        left = [c for c in player["cups"] if c != cup]
        t.store.db.execute("UPDATE players SET cups = ? WHERE name = ?", (json.dumps(left), name))
        t.store.audit("cup leave", {"name": name, "cup": cup})
        return {"name": name, "cup": cup, "how": "entry"}
    current = rounds[-1]
    if current["advancement"] is not None:
        raise TournamentError(f"the {cup} cup is over" if current["advancement"].get("final") else
                              f"{current['id']} is advanced and the next round is not drawn yet: draw it, then "
                              f"{name} leaves their game by walkover")
    games = t.store.games(current["id"])
    game = next((g for g in games if name in g["players"]), None)
    if game is None:
        raise TournamentError(f"{name} does not play {current['id']}: out of the {cup} cup already")
    if game["result"]:
        raise TournamentError(f"game {game['id']} already has a result"
                              + (" (a walkover)" if len(game["players"]) == 1 else ""))
    left = [p for p in game["players"] if p != name]
    playing = sum(len(g["players"]) for g in games) - 1
    if len(games) > 1 and playing <= 3:
        raise TournamentError(f"{current['id']} would be left with {playing} players in {len(games)} games; "
                              f"a round of 3 or fewer is one game, the cup's final")
    t.store.db.execute("UPDATE games SET players = ? WHERE id = ?",
                       (json.dumps(left, ensure_ascii=False), game["id"]))
    if len(left) == 1:
        walkover = GameResult((Seat(1, left[0], 0),), left[0])
        t.store.db.execute("UPDATE games SET result = ?, recorded_at = datetime('now') WHERE id = ?",
                           (json.dumps(walkover.as_json(), ensure_ascii=False), game["id"]))
    t.store.audit("walkover", {"game": game["id"], "stage": current["id"], "name": name, "cup": cup,
                               "left": left})
    return {"name": name, "cup": cup, "how": "walkover", "game": game["id"], "left": left}
