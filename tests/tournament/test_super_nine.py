"""samara-2003 Super Nine: selection (T-S5), schedule (T-S6), game points and ranking (T-S7)."""
from __future__ import annotations

from itertools import combinations

import pytest

from scoreboard.tournament.formats.samara import rules as samara, super_nine
from scoreboard.tournament.lots import rng
from scoreboard.tournament.results import GameResult, Seat


def test_ts6_every_pair_meets_exactly_once_four_games_each():
    """GIVEN the fixed 12-game schedule THEN each of the 36 pairs meets once and each number plays 4 games."""
    pairs = [frozenset(p) for game in super_nine.SCHEDULE for p in combinations(game, 2)]
    assert len(pairs) == 36 and set(pairs) == {frozenset(p) for p in combinations(range(1, 10), 2)}
    for n in range(1, 10):
        assert sum(n in game for game in super_nine.SCHEDULE) == 4


def game(*pairs):
    return GameResult(tuple(Seat(i + 1, n, s) for i, (n, s) in enumerate(pairs)), None)


@pytest.mark.parametrize("scores, expected", [
    ((("a", 90), ("b", 50), ("c", 10)), {"a": 3, "b": 1, "c": 0}),
    ((("a", 90), ("b", 90), ("c", 10)), {"a": 2, "b": 2, "c": 0}),          # (3+1)/2 shared first
    ((("a", 90), ("b", 40), ("c", 40)), {"a": 3, "b": 0.5, "c": 0.5}),      # (1+0)/2 shared second
    ((("a", 60), ("b", 60), ("c", 60)), {"a": 4 / 3, "b": 4 / 3, "c": 4 / 3}),
    ((("a", 90), ("b", -10), ("c", -10)), {"a": 3, "b": 0, "c": 0}),        # non-positive always 0
    ((("a", 0), ("b", 0), ("c", -10)), {"a": 0, "b": 0, "c": 0}),
])
def test_ts7_shared_places_share_points(scores, expected):
    """GIVEN a Super Nine game's scores WHEN its points are counted THEN 3 / 1 / 0, tied players share the points of the
    places they share, and a non-positive score always gets 0 (T-S7)."""
    assert super_nine.game_points(game(*scores)) == pytest.approx(expected)


def test_ts7_head_to_head_then_wins_then_total_then_shared():
    """GIVEN hand-built standings THEN each criterion decides where the earlier ones are equal."""
    # a beats b head to head; both end on 4 points
    r = [game(("a", 100), ("b", 50), ("x", 0)),      # a 3, b 1
         game(("b", 100), ("y", 50), ("z", 0)),      # b 3
         game(("a", 50), ("w", 60), ("v", 40))]      # a 1 (second)
    nums = {n: i for i, n in enumerate("abxyzwv", start=1)}
    st = super_nine.standings(nums, r)
    top = [l.name for l in st[:2]]
    assert top == ["a", "b"] and st[0].points == st[1].points == 4 and st[0].decided_by == "head-to-head"
    # wins: c and d on 3 points, never met; c has one win (3), d has three seconds (1+1+1)
    r = [game(("c", 100), ("e", 50), ("f", 0)),
         game(("d", 50), ("g", 100), ("h", 0)), game(("d", 50), ("i", 100), ("j", 0)),
         game(("d", 50), ("k", 100), ("l", 0))]
    st = super_nine.standings({n: i for i, n in enumerate("cdefghijkl", 1)}, r)
    c, d = (next(x for x in st if x.name == n) for n in "cd")
    assert c.points == d.points == 3 and st.index(c) < st.index(d) and c.decided_by == "wins"
    # total game points: equal points and wins, never met
    r = [game(("m", 300), ("o", 50), ("p", 0)), game(("n", 100), ("q", 50), ("s", 0))]
    st = super_nine.standings({n: i for i, n in enumerate("mnopqs", 1)}, r)
    assert [x.name for x in st[:2]] == ["m", "n"] and st[0].decided_by == "total game points"
    # everything equal: a shared place
    r = [game(("m", 100), ("o", 50), ("p", 0)), game(("n", 100), ("q", 50), ("s", 0))]
    st = super_nine.standings({n: i for i, n in enumerate("mnopqs", 1)}, r)
    assert st[0].place == st[1].place == 1 and st[1].decided_by == "shared place" and st[2].place == 3


def test_ts5_selection_each_criterion_decides():
    """GIVEN season lines equal up to one criterion THEN that criterion orders them; all equal → lot."""
    base = [samara.SeasonLine(f"f{i}", points=20 - i) for i in range(8)]   # 8 clear places

    def ninth(*lines):
        chosen, ranked = samara.super_nine(base + list(lines), rng(1, "s9"))
        return chosen[-1], ranked[8].decided_by

    L = samara.SeasonLine
    assert ninth(L("a", 5), L("b", 4)) == ("a", "conditional points")
    assert ninth(L("a", 5, 1), L("b", 5, 2)) == ("b", "conditional points in the summer cup")
    assert ninth(L("a", 5, 2, 3), L("b", 5, 2, 4)) == ("b", "game wins in the cups")
    assert ninth(L("a", 5, 2, 4, 80.5), L("b", 5, 2, 4, 70.25)) == ("a", "weighted sum")
    picks = {samara.super_nine(base + [L("a", 5), L("b", 5)], rng(s, "s9"))[0][-1] for s in range(20)}
    assert picks == {"a", "b"}
