"""What every `scoreboard tournament …` action shares (cli.py, remote/cli.py): the file it names (`--file PATH` or
the TOURNAMENT environment variable), opening it, and saying what it did — in words, or as JSON with `--json`."""
from __future__ import annotations

import json
import os

from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.service import Tournament


def tournament_path(args) -> str:
    path = getattr(args, "file", None) or os.environ.get("TOURNAMENT")
    if not path:
        raise TournamentError("which tournament? give --file PATH or set TOURNAMENT")
    return path


def open_tournament(args) -> Tournament:
    """The tournament of `--file` / $TOURNAMENT (also for actions other packages add: `tournament render`)."""
    return Tournament(tournament_path(args))


def show(args, data, text: str) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=1) if getattr(args, "json", False) else text)
