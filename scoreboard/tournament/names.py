"""Names as the organiser types them: a player's, a team's, a topic's — cleaned of extra spaces, refused when empty,
too long or unprintable, and, when one is not found, the closest registered names suggested."""
from __future__ import annotations

import difflib

from scoreboard.tournament.errors import TournamentError

MAX_NAME = 60


def clean_name(name: str, what: str = "name") -> str:
    text = " ".join(str(name).split())
    if not text:
        raise TournamentError(f"{what} is empty")
    if len(text) > MAX_NAME or any(ord(c) < 32 for c in text):
        raise TournamentError(f"{what} {text[:20]!r}…: at most {MAX_NAME} printable characters")
    return text


def closest(name: str, known: list[str]) -> str:
    """'; did you mean …?' with the closest registered names (case and spaces ignored), or nothing."""
    fold = {" ".join(k.split()).casefold(): k for k in known}
    near = difflib.get_close_matches(" ".join(str(name).split()).casefold(), list(fold), n=3, cutoff=0.6)
    return f"; did you mean {', '.join(fold[n] for n in near)}?" if near else ""


def player_name(name: str) -> str:
    text = clean_name(name)
    if "," in text or "=" in text:
        raise TournamentError(f"player name {text!r}: no ',' or '=' (they separate NAME=SCORE pairs in results)")
    return text
