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


def wild_cards(results: list[GameResult], rnd) -> tuple[list[str], list[Ranked]]:
    """T-A3/T-A4: the 9 − G best second-placed players; ties: game size, questions right, lot.

    Returns (the wild cards, every second-placed player ranked with what decided each place).
    """
    places = THIRD_FINAL_SEATS - len(results)
    seconds: dict[str, tuple[float, int, int]] = {}
    for r in results:
        for name in second_placed(r):
            seconds[name] = (r.score(name), len(r.seats), r.right(name))
    ranked = rank(list(seconds), [
        Criterion("score", lambda n: seconds[n][0]),
        Criterion("players in the selection game", lambda n: seconds[n][1]),
        Criterion("questions answered right", lambda n: seconds[n][2]),
    ], rnd)
    return [r.name for r in ranked[:max(places, 0)]], ranked
