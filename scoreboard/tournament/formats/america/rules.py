"""america-2005: selection games with wild cards (T-A1–T-A5)."""
from __future__ import annotations

from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.ranking import Criterion, Ranked, rank
from scoreboard.tournament.results import GameResult

MAX_PLAYERS = 36
MIN_PLAYERS = 15
THIRD_FINAL_SEATS = 9


def selection_sizes(n: int) -> list[int]:
    """T-A2: G = min(9, ⌊N/3⌋) games; N − 3G of them of 4 players, the rest of 3."""
    if n < MIN_PLAYERS:
        raise TournamentError(f"america-2005 needs at least {MIN_PLAYERS} players ({n} registered): with fewer "
                              f"there are not enough second places for the wild cards")
    if n > MAX_PLAYERS:
        raise TournamentError(f"america-2005 seats at most {MAX_PLAYERS} players ({n} active); the rest wait")
    g = min(9, n // 3)
    fours = n - 3 * g
    return [4] * fours + [3] * (g - fours)


def second_placed(result: GameResult) -> list[str]:
    """T-A4: the best score after the winner; everybody on it is second-placed."""
    others = [s for s in result.seats if s.name != result.winner]
    if not others:
        return []
    best = max(s.score for s in others)
    return [s.name for s in others if s.score == best]


def wild_cards(results: list[GameResult], rnd, game_ids: list[str] | None = None) -> tuple[list[str], list[Ranked]]:
    """T-A3/T-A4: the 9 − G best second-placed players; ties: game size, questions right, lot.

    Returns (the wild cards, every second-placed player ranked with what decided each place). A tie at the line that
    reaches "questions answered right" while a tied player's count is unknown (a typed result without --right) is
    refused, naming the games: counting the unknown as 0 would decide a place silently.
    """
    places = THIRD_FINAL_SEATS - len(results)
    game_ids = game_ids or [f"game {k}" for k in range(1, len(results) + 1)]
    seconds: dict[str, tuple[float, int, int]] = {}
    unknown: dict[str, str] = {}
    for gid, r in zip(game_ids, results):
        for name in second_placed(r):
            seconds[name] = (r.score(name), len(r.seats), r.right(name))
            if r.seat_of(name).right is None:
                unknown[name] = gid
    ranked = rank(list(seconds), [
        Criterion("score", lambda n: seconds[n][0]),
        Criterion("players in the selection game", lambda n: seconds[n][1]),
        Criterion("questions answered right", lambda n: seconds[n][2]),
    ], rnd)
    if 0 < places < len(ranked):
        line = seconds[ranked[places - 1].name][:2]
        tied = [r.name for r in ranked if seconds[r.name][:2] == line]
        if len(tied) > 1 and tied[0] in [r.name for r in ranked[:places]] and tied[-1] in [r.name for r in ranked[places:]]:
            blind = [n for n in tied if n in unknown]
            if blind:
                raise TournamentError(
                    f"wild-card tie at the line: {', '.join(tied)} are equal on score ({line[0]:g}) and players in "
                    f"their selection game ({line[1]}), so questions answered right decide (T-A4), but they are "
                    f"unknown for " + ", ".join(f"{n} ({unknown[n]})" for n in blind)
                    + ": record those games again with --right SEAT=N,… and --replace (or from the board's journal)")
    return [r.name for r in ranked[:max(places, 0)]], ranked
