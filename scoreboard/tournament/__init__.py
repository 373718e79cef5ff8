"""Tournaments of the three regulations (RULES.md section T): draws, advancement, standings, topic assignment.

Pure rules live in `draw`, `topics`, `ranking`, `places`, `results`, `bounds` and each format's `formats/<name>/`;
`store` is the SQLite file; `service` runs a tournament over it; `views` give what the screens and exports show;
`board_link` is what a board does for a scheduled game; `remote/` takes results from boards in other rooms; `cli` is
the command line (docs/TOURNAMENTS.md).
"""
from scoreboard.tournament.errors import TournamentError

__all__ = ["TournamentError"]
