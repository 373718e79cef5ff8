"""samara-2003 cups: round sizes (T-S2, T-S3), cumulative sums, conditional points (T-S4)."""
from __future__ import annotations

import random

import pytest

from scoreboard.tournament.formats.samara import rules as samara
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.lots import rng
from scoreboard.tournament.results import GameResult, Seat
from scoreboard.tournament.service import Tournament

from .helpers import names, play_stage, register


def result(*scores, winner=None, tiebreak=None):
    seats = tuple(Seat(i + 1, f"p{i + 1}", s, (tiebreak or {}).get(f"p{i + 1}", 0)) for i, s in enumerate(scores))
    top = max(scores)
    if winner is None and top > 0 and scores.count(top) == 1:
        winner = f"p{scores.index(top) + 1}"
    return GameResult(seats, winner)


@pytest.mark.parametrize("n, expected", [
    (30, [(15, 10, 5), (6, 5, 1), (3, 2, 1)]),
    (36, [(18, 12, 6), (9, 6, 3), (3, 3, 0)]),
    (45, [(21, 15, 6), (9, 7, 2), (3, 3, 0)]),
])
def test_ts3_appendix_examples_round_by_round(path, n, expected):
    """GIVEN a winter cup of n players (the regulation's appendix)
    WHEN every round is played (every game has a positive winner) and advanced
    THEN each next round has the appendix's size, split into game winners + best cup sums, and the last game of 3
    crowns one cup winner."""
    t = Tournament.create(path, "samara-2003", seed=n)
    register(t, names(n), cups=["winter"])
    rnd = random.Random(n)
    seen = []
    t.draw()
    while True:
        play_stage(t, rnd, positive=True)
        adv = t.advance()
        if adv["final"]:
            break
        seen.append((adv["size"], len(adv["by_win"]), len(adv["by_sum"])))
        assert len(adv["qualified"]) == adv["size"]
        t.draw()
    assert seen == expected
    assert adv["cup_winner"] is not None and len(t.store.games(t.last_stage()["id"])) == 1


def test_ts2_first_round_sizes_leave_games_of_two():
    """GIVEN N mod 3 = 2 or 1 THEN one or two games of 2 players (T-S2)."""
    assert samara.first_round_sizes(30) == [3] * 10
    assert samara.first_round_sizes(32) == [3] * 10 + [2]
    assert samara.first_round_sizes(31) == [3] * 9 + [2, 2]
    with pytest.raises(TournamentError, match="at least 3"):
        samara.first_round_sizes(2)


def test_ts3_winners_always_advance_even_above_half():
    """GIVEN a round of 10 with 4 game winners WHEN the next round is sized THEN it grows to 6 so every winner goes on
    (decision on T-S3); 30 with 10 winners gives 15, and 4 with 2 winners gives one game of 3."""
    assert samara.next_size(10, 4) == 6
    assert samara.next_size(30, 10) == 15
    assert samara.next_size(4, 2) == 3


def test_ts3_sum_ignores_negative_games_and_extra_topic_points():
    """GIVEN game results 120, -60 and 40 (+30 on an extra topic, which `score` never holds)
    THEN the cup sum is 160."""
    assert samara.cup_sum([120, -60, 40]) == 160


def test_ts3_no_winner_game_sends_nobody_by_win_and_sum_fills_the_round():
    """GIVEN a round of 6 (2 games) where one game ends with every score non-positive (TB5: no winner)
    WHEN it advances THEN 1 goes by win and 2 by cup sum."""
    results = [GameResult((Seat(1, "a", 100), Seat(2, "b", 50), Seat(3, "c", 20)), "a"),
               GameResult((Seat(1, "d", -10), Seat(2, "e", 0), Seat(3, "f", -40)), None)]
    sums = {"a": 100, "b": 50, "c": 20, "d": 0, "e": 0, "f": 0}
    adv = samara.advance(results, sums, rng(1, "x"))
    assert adv.by_win == ["a"] and adv.by_sum == ["b", "c"] and adv.size == 3
    assert adv.ranked[1].decided_by == "cup sum"          # c (20) above d/e/f (0) on the cup sum


def test_ts3_sum_tie_broken_by_points_in_this_round_then_lot():
    """GIVEN b and e on the same cup sum 90, b scored 50 in this round and e 70
    THEN e takes the one place by sum (decided by 'points in this round'); with equal round points a lot decides."""
    results = [GameResult((Seat(1, "a", 100), Seat(2, "b", 50), Seat(3, "c", 20)), "a"),
               GameResult((Seat(1, "d", 200), Seat(2, "e", 70), Seat(3, "f", 10)), "d")]
    sums = {"a": 300, "b": 90, "c": 20, "d": 200, "e": 90, "f": 10}
    adv = samara.advance(results, sums, rng(1, "x"))
    assert adv.by_sum == ["e"] and adv.ranked[0].decided_by == "points in this round"
    results[1] = GameResult((Seat(1, "d", 200), Seat(2, "e", 50), Seat(3, "f", 10)), "d")
    picks = {samara.advance(results, sums, rng(seed, "x")).by_sum[0] for seed in range(20)}
    assert picks == {"b", "e"}
    assert samara.advance(results, sums, rng(3, "x")).ranked[0].decided_by == "lot"


@pytest.mark.parametrize("scores, expected", [
    ((120, 60, 20), {"p1": 3, "p2": 1, "p3": 0}),        # win, second, third
    ((120, 60, 60), {"p1": 3, "p2": 0.5, "p3": 0.5}),    # positive share of 2nd–3rd
    ((120, -10, -10), {"p1": 3, "p2": 0, "p3": 0}),      # non-positive seconds get nothing
    ((120, 0, -30), {"p1": 3, "p2": 0, "p3": 0}),
    ((-10, -20, -30), {"p1": 0, "p2": 0, "p3": 0}),      # no winner (TB5)
    ((80, 50), {"p1": 3, "p2": 1}),                      # a game of two
])
def test_ts4_conditional_points(scores, expected):
    """GIVEN a cup game's scores WHEN its conditional points are counted THEN win 3, positive second 1, positive shared
    2nd–3rd 0.5 each, third or non-positive 0, and nobody scores in a game with no winner (T-S4, TB5)."""
    assert samara.game_points(result(*scores)) == expected


def test_ts4_tie_for_win_settled_by_extra_topic_gives_3_then_1():
    """GIVEN p1 and p2 tied on 100, p2 wins the extra topic THEN p2 gets 3, p1 is second with 1."""
    r = result(100, 100, 10, winner="p2", tiebreak={"p1": 10, "p2": 30})
    assert samara.game_points(r) == {"p1": 1, "p2": 3, "p3": 0}


def test_ts4_plus_one_for_advancing_by_sum(path):
    """GIVEN a cup of 6 THEN the one player who advances by cup sum gets game points + 1."""
    t = Tournament.create(path, "samara-2003", seed=3)
    register(t, names(6), cups=["winter"])
    t.draw()
    played = play_stage(t, random.Random(2), positive=True)
    adv = t.advance()
    (by_sum,) = adv["by_sum"]
    game = next(g for g in played.values() if by_sum in g)
    ranked = sorted(game.values(), reverse=True)
    base = 1.0 if game[by_sum] == ranked[1] else 0.0
    assert adv["points"][by_sum] == base + 1


def test_ts1_entries_per_cup_close_when_the_cup_starts(path):
    """GIVEN a season with winter drawn WHEN a new player registers with no cups THEN they enter spring and summer
    only; entering winter now is refused and changes nothing."""
    t = Tournament.create(path, "samara-2003", seed=1)
    register(t, names(6), cups=["winter"])
    t.draw()
    assert t.add_player("Новичок")["cups"] == ["spring", "summer"]
    with pytest.raises(TournamentError, match="winter cup has started"):
        t.enter_cup("Новичок", "winter")
    with pytest.raises(TournamentError, match="winter cup has started"):
        t.add_player("Поздний", cups=["winter", "spring"])
    t.enter_cup("P01", "spring")
    assert t.store.player("P01")["cups"] == ["winter", "spring"]
    assert t.store.player("Поздний") is None
