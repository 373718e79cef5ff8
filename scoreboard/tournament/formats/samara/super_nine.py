"""samara-2003 Super Nine: the fixed 12-game schedule, shared-place points, the ranking (T-S6, T-S7)."""
from __future__ import annotations

from dataclasses import dataclass, field

from scoreboard.tournament.results import GameResult

STAGE = "super9"        # the Super Nine's stage id in the file, and its engine stage
# T-S6, as printed in the regulation (columns of its table): every pair of numbers meets exactly once.
SCHEDULE = ((1, 2, 3), (4, 5, 6), (7, 8, 9),
            (1, 4, 7), (2, 5, 8), (3, 6, 9),
            (1, 5, 9), (2, 6, 7), (3, 4, 8),
            (1, 6, 8), (2, 4, 9), (3, 5, 7))
PLACE_POINTS = (3.0, 1.0, 0.0)


def game_points(result: GameResult) -> dict[str, float]:
    """T-S7: equal scores share their places and those places' points; a non-positive score gets 0."""
    ordered = sorted(result.seats, key=lambda s: -s.score)
    points, i = {}, 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j].score == ordered[i].score:
            j += 1
        share = sum(PLACE_POINTS[k] if k < len(PLACE_POINTS) else 0.0 for k in range(i, j)) / (j - i)
        for s in ordered[i:j]:
            points[s.name] = share if s.score > 0 else 0.0
        i = j
    return points


def is_win(result: GameResult, name: str) -> bool:
    """Decision: a win is the top score alone and positive (a shared first place is not a win)."""
    top = max(s.score for s in result.seats)
    return result.score(name) == top > 0 and sum(1 for s in result.seats if s.score == top) == 1


@dataclass
class Line:
    name: str
    number: int
    points: float = 0.0
    wins: int = 0
    total: float = 0.0
    games: int = 0
    place: int = 0
    decided_by: str = ""
    h2h: float = 0.0
    vs: dict = field(default_factory=dict)   # opponent -> (my score, their score) in our game


def standings(numbers: dict[str, int], results: list[GameResult]) -> list[Line]:
    """T-S7 ranking: points; head-to-head; wins; total game points; else a shared place."""
    lines = {n: Line(n, k) for n, k in numbers.items()}
    for r in results:
        pts = game_points(r)
        for s in r.seats:
            line = lines[s.name]
            line.points += pts[s.name]
            line.wins += is_win(r, s.name)
            line.total += s.score
            line.games += 1
            for o in r.seats:
                if o.name != s.name:
                    line.vs[o.name] = (s.score, o.score)
    ordered: list[Line] = []
    by_points: dict[float, list[Line]] = {}
    for line in lines.values():
        by_points.setdefault(line.points, []).append(line)
    for pts in sorted(by_points, reverse=True):
        ordered.extend(_break_tie(by_points[pts]))
    for i, line in enumerate(ordered):
        same = i and _key(line) == _key(ordered[i - 1])
        line.place = ordered[i - 1].place if same else i + 1
    return ordered


def _h2h(line: Line, group: list[Line]) -> float:
    """Head-to-head among the tied group: 1 for each tied rival beaten in the common game, ½ for a draw."""
    score = 0.0
    for other in group:
        if other is line or other.name not in line.vs:
            continue
        mine, theirs = line.vs[other.name]
        score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return score


def _break_tie(group: list[Line]) -> list[Line]:
    for line in group:
        line.h2h = _h2h(line, group) if len(group) > 1 else 0.0
    ranked = sorted(group, key=lambda l: (_key(l), -l.number), reverse=True)
    for a, b in zip(ranked, ranked[1:]):
        a.decided_by = ("head-to-head" if a.h2h != b.h2h else "wins" if a.wins != b.wins
                        else "total game points" if a.total != b.total else "shared place")
    if len(ranked) > 1 and _key(ranked[-1]) == _key(ranked[-2]):
        ranked[-1].decided_by = "shared place"
    return ranked


def _key(line: Line):
    return (line.points, line.h2h, line.wins, line.total)
