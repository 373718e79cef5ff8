"""samara-2003 cups: round sizes, advancement by cumulative sum, conditional points, Super Nine selection
(T-S1–T-S5)."""
from __future__ import annotations

from dataclasses import dataclass

from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.ranking import Criterion, Ranked, rank
from scoreboard.tournament.results import GameResult

CUPS = ("winter", "spring", "summer")
MIN_PLAYERS = 3


def first_round_sizes(n: int) -> list[int]:
    """T-S2: triples; remainder 2 → one game of 2, remainder 1 → two games of 2."""
    if n < MIN_PLAYERS:
        raise TournamentError(f"a cup needs at least {MIN_PLAYERS} players ({n} entered)")
    q, r = divmod(n, 3)
    if r == 0:
        return [3] * q
    if r == 2:
        return [3] * q + [2]
    return [3] * (q - 1) + [2, 2]


def next_size(current: int, winners: int) -> int:
    """T-S3: the largest multiple of 3 not above half the round.

    Decision: winners always advance, so when there are more winners than that (small cups: 10 players make 4 games
    for 3 places) the round grows to the next multiple of 3 that holds them all; and never below one game of 3.
    """
    if current <= 3:
        raise ValueError("a round of one game is the cup final")
    size = 3 * (current // 6)
    size = max(size, 3 * -(-winners // 3), 3)
    return size


def cup_sum(scores: list[float]) -> float:
    """T-S3: a negative game result counts 0; the scores given never include extra-topic points."""
    return sum(max(0, s) for s in scores)


def game_points(result: GameResult) -> dict[str, float]:
    """T-S4 conditional points of one cup game (without the +1 for advancing by sum)."""
    points = {s.name: 0.0 for s in result.seats}
    if result.winner and result.score(result.winner) > 0:
        points[result.winner] = 3.0
    rest = [s for s in result.order() if s.name != result.winner]
    if rest:
        best = rest[0].score
        tied = [s for s in rest if s.score == best]
        if best > 0:
            share = 1.0 if len(tied) == 1 else 0.5
            for s in tied:
                points[s.name] = share
    return points


@dataclass
class Advancement:
    by_win: list[str]
    by_sum: list[str]
    ranked: list[Ranked]          # everyone who did not win, best cup sum first, with what decided
    size: int


def advance(round_results: list[GameResult], sums: dict[str, float], rnd) -> Advancement:
    """T-S3: winners, then the best cup sums (ties: points in this round, then lot)."""
    players = [s.name for r in round_results for s in r.seats]
    winners = [r.winner for r in round_results if r.winner]
    size = next_size(len(players), len(winners))
    this_round = {s.name: s.score for r in round_results for s in r.seats}
    others = [p for p in players if p not in winners]
    ranked = rank(others, [Criterion("cup sum", lambda n: sums[n]),
                           Criterion("points in this round", lambda n: this_round[n])], rnd)
    by_sum = [r.name for r in ranked[: max(size - len(winners), 0)]]
    return Advancement(winners, by_sum, ranked, size)


@dataclass
class SeasonLine:
    """One player's season totals used by T-S5."""
    name: str
    points: float = 0.0
    summer_points: float = 0.0
    wins: int = 0
    weighted: float = 0.0


def super_nine(lines: list[SeasonLine], rnd) -> tuple[list[str], list[Ranked]]:
    """T-S5: the top 9 by conditional points, summer points, cup game wins, weighted sum; then lot."""
    by = {l.name: l for l in lines}
    ranked = rank(list(by), [Criterion("conditional points", lambda n: by[n].points),
                             Criterion("conditional points in the summer cup", lambda n: by[n].summer_points),
                             Criterion("game wins in the cups", lambda n: by[n].wins),
                             Criterion("weighted sum", lambda n: round(by[n].weighted, 9))], rnd)
    if len(ranked) < 9:
        raise TournamentError(f"the Super Nine needs 9 players; only {len(ranked)} played the cups")
    return [r.name for r in ranked[:9]], ranked
