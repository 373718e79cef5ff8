"""What a board does for a game the tournament scheduled: find the next game to play, set it up from the
tournament file (or from the organiser's `tournament serve`, remote/), record its result from the journal when it ends
— so nobody types scores twice — and show the bracket or the table between games.

The remote's «next game», `scoreboard run --game ID` and the board's tournament screens call these; none of them
imports the display.
"""
from __future__ import annotations

from pathlib import Path

from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.remote import client
from scoreboard.tournament.service import Tournament, record_from_journal
from scoreboard.tournament.views import commands_from_setup, game_setup, screen_view


def _open(tournament_path):
    return Tournament(tournament_path)     # a missing or foreign file is refused with its path and why


def next_game(tournament_path: str | Path) -> dict | None:
    """The first game of the current stage that has no result yet, as the board needs it:
    `{"game", "regulation", "stage" (the engine stage), "stage_id" (the tournament's), "seats": [{"seat", "name"}],
    "topics": [names], "seed", "game_new": [address, regulation, stage, players, seed], "to_play": [game ids]}`;
    None when every drawn game has its result (the organiser then runs `advance` and `draw`)."""
    t = _open(tournament_path)
    try:
        stage = t.last_stage()
        if not stage:
            return None
        open_games = [g["id"] for g in t.store.games(stage["id"]) if g["result"] is None]
        if not open_games:
            return None
        setup = game_setup(t, open_games[0])
    finally:
        t.close()
    return {"game": setup["game"], "regulation": setup["regulation"], "stage": setup["stage"],
            "stage_id": stage["id"], "seats": setup["players"], "topics": [x["name"] for x in setup["topics"]],
            "seed": setup["seed"], "game_new": setup["game_new"], "to_play": open_games}


def setup_commands(tournament_path: str | Path, game_id: str) -> list[tuple[str, tuple]]:
    """The commands that open scheduled game `game_id`: `/sg/game/new` with the game's seed, and its names."""
    t = _open(tournament_path)
    try:
        setup = game_setup(t, game_id)
    finally:
        t.close()
    return commands_from_setup(setup)


def record_result(tournament_path: str | Path, game_id: str, journal_path: str | Path) -> str:
    """Record the finished game from its journal; returns a line for the board's log (raises TournamentError)."""
    out = record_from_journal(tournament_path, game_id, journal_path)
    if not out["recorded"]:
        return f"tournament: game {game_id} was already recorded from {journal_path}"
    return f"tournament: game {game_id} recorded from {journal_path}"


def opening(tournament: dict, game_id: str, out=print):
    """The board's `[tournament]` section → (the commands opening `game_id`, `opened(journal_path)` or None): from
    the file on this machine, or (`server` set) from the organiser's `tournament serve`, which also needs the
    journal's outbox written once the journal exists (remote/client.py)."""
    if tournament.get("server"):
        return client.remote_setup(tournament, game_id, out)
    return setup_commands(tournament["file"], game_id), None


def game_over(tournament: dict, journal_path, out=print):
    """The scheduled game ended: record it into the file here, or send it to the server from its outbox on a thread
    (returned: the board shows its state and stops it on exit). A refusal is logged; the journal stays the evidence."""
    try:
        if tournament.get("server"):
            return client.send_result(journal_path, tournament, out)
        if tournament.get("file"):
            out(record_result(tournament["file"], tournament["game"], journal_path))
    except TournamentError as error:
        out(f"tournament: game {tournament['game']} NOT recorded: {error}")
    return None


def load_screen(tournament_path, scene: str) -> tuple[str, dict]:
    """For the board: open the file, build the view for `/sg/screen SCENE`, close. Call it when the scene is
    entered or a result arrives, not every frame."""
    t = _open(tournament_path)
    try:
        return screen_view(t, scene)
    finally:
        t.close()
