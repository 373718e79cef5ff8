"""What a board does for a game the tournament scheduled: set the game up from the tournament file, and record
its result from the journal when it ends — so nobody types scores twice (issue: tournaments, item 1)."""
from __future__ import annotations

from pathlib import Path

from scoreboard.tournament.errors import TournamentError


def setup_commands(tournament_path: str | Path, game_id: str) -> list[tuple[str, tuple]]:
    """The commands that open scheduled game `game_id`: `/sg/game/new` with the game's seed, and its names."""
    from scoreboard.tournament.service import Tournament
    from scoreboard.tournament.views import game_setup
    t = Tournament(tournament_path)
    try:
        setup = game_setup(t, game_id)
    finally:
        t.close()
    if setup["done"]:
        raise TournamentError(f"game {game_id} has a result already; pick the next game")
    address, *args = setup["game_new"]
    commands = [(address, tuple(args))]
    commands += [("/sg/player/name", (p["seat"], p["name"])) for p in setup["players"]]
    topics = [t["name"] for t in setup["topics"]]
    if topics:
        commands.append(("/sg/topics", tuple(topics)))
    return commands


def record_result(tournament_path: str | Path, game_id: str, journal_path: str | Path) -> str:
    """Record the finished game from its journal; returns a line for the board's log (raises TournamentError)."""
    from scoreboard.tournament.service import record_from_journal
    record_from_journal(tournament_path, game_id, journal_path)
    return f"tournament: game {game_id} recorded from {journal_path}"
