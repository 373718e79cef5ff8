"""Tournaments of the three regulations (RULES.md section T): draws, advancement, standings, topic assignment.

Pure rules live in `draw`, `novosibirsk`, `america`, `samara`, `super_nine`, `topics`, `ranking`, `results`;
`store` is the SQLite file; `service` runs a tournament over it; `views`/`screens` show it; `cli` is the command line.
"""
from scoreboard.tournament.errors import TournamentError

__all__ = ["TournamentError", "record_from_journal"]


def record_from_journal(tournament_path, game_id, journal_path):
    """Record a finished board game into the tournament file from its journal (idempotent)."""
    from scoreboard.tournament.service import record_from_journal as _record

    return _record(tournament_path, game_id, journal_path)
