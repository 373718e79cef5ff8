"""america-2005: registration limit and waiting list (T-A1), selection sizes (T-A2), wild cards (T-A3, T-A4)."""
from __future__ import annotations

import random

import pytest

from scoreboard.tournament.formats.america import rules as america
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.lots import rng
from scoreboard.tournament.results import GameResult, Seat
from scoreboard.tournament.service import Tournament

from .helpers import names, play_stage, register


@pytest.mark.parametrize("n", range(15, 37))
def test_ta2_selection_game_count_and_sizes(path, n):
    """GIVEN n registered players WHEN the selection is drawn
    THEN G = min(9, n // 3) games, n − 3G of 4 players and the rest of 3, every player seated once."""
    t = Tournament.create(path, "america-2005", seed=n)
    register(t, names(n))
    games = list(t.draw()["games"].values())
    g = min(9, n // 3)
    assert len(games) == g
    assert sorted(len(x) for x in games) == sorted([4] * (n - 3 * g) + [3] * (4 * g - n))
    assert sorted(p for x in games for p in x) == names(n)


def test_ta2_fewer_than_15_refused(path):
    """GIVEN an america tournament with 14 players WHEN the selection is drawn THEN it is refused ('at least 15
    players') and no stage is stored (T-A2)."""
    t = Tournament.create(path, "america-2005", seed=1)
    register(t, names(14))
    with pytest.raises(TournamentError, match="at least 15 players"):
        t.draw()
    assert t.store.stages() == []


def test_ta1_37th_entry_waits_and_fills_a_withdrawal(path):
    """GIVEN 38 entries THEN 36 play and 2 wait; WHEN a player withdraws THEN the first waiting one comes in."""
    t = Tournament.create(path, "america-2005", seed=1)
    register(t, names(38))
    assert [p["name"] for p in t.store.players("waiting")] == ["P37", "P38"]
    assert t.withdraw("P05") == "P37"
    assert len(t.store.players("active")) == 36 and [p["name"] for p in t.store.players("waiting")] == ["P38"]
    summary = t.draw()
    assert summary["waiting"] == ["P38"]


def _sel(*games):
    """games: tuples of (name, score, right) — the first is the winner."""
    return [GameResult(tuple(Seat(i + 1, n, s, 0, r) for i, (n, s, r) in enumerate(g)), g[0][0]) for g in games]


def test_ta4_wild_card_by_score():
    """GIVEN 7 selection games (so 2 wild cards) whose seconds a (100) and b (90) are above every other second (5)
    WHEN wild cards are picked THEN a and b get them, decided by score (T-A3, T-A4)."""
    res = _sel([("w1", 200, 9), ("a", 100, 5), ("x", 0, 0)], [("w2", 200, 9), ("b", 90, 5), ("y", 0, 0)])
    cards, ranked = america.wild_cards(res + _sel(*[[(f"f{i}", 10, 1), (f"g{i}", 5, 1), (f"h{i}", 0, 0)]
                                                      for i in range(5)]), rng(1, "wc"))
    assert cards == ["a", "b"] and ranked[0].decided_by == "score"


def test_ta4_tie_decided_by_players_in_the_game():
    """GIVEN two seconds on 100, one from a game of 4 THEN the game of 4 wins the tie."""
    res = _sel([("w1", 200, 9), ("a", 100, 9), ("x", 0, 0)],
               [("w2", 200, 9), ("b", 100, 1), ("y", 0, 0), ("z", -10, 0)])
    res += _sel(*[[(f"f{i}", 300, 1), (f"g{i}", 5, 1), (f"h{i}", 0, 0)] for i in range(6)])   # G = 8 → 1 card
    cards, ranked = america.wild_cards(res, rng(1, "wc"))
    assert cards == ["b"] and ranked[0].decided_by == "players in the selection game"


def test_ta4_tie_decided_by_questions_answered_right_then_lot():
    """GIVEN one wild card and two seconds on 100 from games of 3, b with 4 right answers and a with 3 THEN b gets it by
    questions answered right; WHEN their right answers are equal THEN a lot picks either, by seed (T-A4)."""
    res = _sel([("w1", 200, 9), ("a", 100, 3), ("x", 0, 0)], [("w2", 200, 9), ("b", 100, 4), ("y", 0, 0)])
    res += _sel(*[[(f"f{i}", 300, 1), (f"g{i}", 5, 1), (f"h{i}", 0, 0)] for i in range(6)])
    cards, ranked = america.wild_cards(res, rng(1, "wc"))
    assert cards == ["b"] and ranked[0].decided_by == "questions answered right"
    res[0] = _sel([("w1", 200, 9), ("a", 100, 4), ("x", 0, 0)])[0]
    picks = {america.wild_cards(res, rng(s, "wc"))[0][0] for s in range(20)}
    assert picks == {"a", "b"} and america.wild_cards(res, rng(1, "wc"))[1][0].decided_by == "lot"


def test_ta4_players_tied_for_second_are_all_second_placed():
    """GIVEN a selection game where a and b tie for second on 80 WHEN its second-placed players are asked
    THEN both a and b are (T-A4)."""
    (r,) = _sel([("w", 200, 5), ("a", 80, 3), ("b", 80, 2), ("c", 10, 1)])
    assert america.second_placed(r) == ["a", "b"]


def test_ta3_selection_to_champion(path):
    """GIVEN 20 players WHEN the whole tournament is played
    THEN 6 winners + 3 wild cards play three 1/3 finals of 3, their winners play the final, and places 1–3 exist."""
    t = Tournament.create(path, "america-2005", seed=20)
    register(t, names(20))
    rnd = random.Random(20)
    t.draw()
    play_stage(t, rnd)
    adv = t.advance()
    assert len(adv["wild_cards"]) == 3 and len(adv["qualified"]) == 9
    assert all(adv["reasons"][n].startswith("wild card") for n in adv["wild_cards"])
    assert sorted(len(g) for g in t.draw()["games"].values()) == [3, 3, 3]
    play_stage(t, rnd)
    assert len(t.advance()["qualified"]) == 3
    t.draw()
    play_stage(t, rnd)
    final = t.advance()
    assert [p["place"] for p in final["places"]] == [1, 2, 3]
    assert t.standings()["champion"] == final["places"][0]["name"]
    assert t.verify() == []


def test_ta4_tie_at_the_line_with_unknown_questions_right_is_refused_not_decided_silently(path, capsys):
    """GIVEN 20 players (6 selection games, S1 and S2 of 4, S3–S6 of 3: 3 wild cards) typed without --right, where
    the seconds of S3 and S4 are equal on score (100) and game size (3) for the last wild card
    WHEN `advance` runs THEN it refuses, naming both players and games and asking for --right; nothing advances.
    WHEN S3 gets its count but S4 still not THEN only S4 is named; WHEN both are known THEN the count decides."""
    from scoreboard.cli import main
    t = Tournament.create(path, "america-2005", seed=20)
    register(t, names(20))
    t.draw()
    seconds = {"S1": 200, "S2": 190, "S3": 100, "S4": 100, "S5": 50, "S6": 40}
    for gid, second in seconds.items():
        n = len(t.store.game(gid)["players"])
        t.record_typed(gid, {str(k + 1): v for k, v in enumerate([300, second, -10, -20][:n])})
    tied = [t.store.game(g)["players"][1] for g in ("S3", "S4")]
    t.close()
    assert main(["tournament", "advance", "--file", str(path)]) == 2
    err = capsys.readouterr().err
    assert "questions answered right decide (T-A4)" in err and "--right" in err
    assert f"{tied[0]} (S3)" in err and f"{tied[1]} (S4)" in err
    t = Tournament(path)
    assert t.store.stage("selection")["state"] == "drawn"
    t.record_typed("S3", {"1": 300, "2": 100, "3": -10}, right={"2": 6}, replace=True)
    with pytest.raises(TournamentError, match=rf"unknown for {tied[1]} \(S4\): record") as refusal:
        t.advance()
    assert "(S3)" not in str(refusal.value)
    t.record_typed("S4", {"1": 300, "2": 100, "3": -10}, right={"2": 7}, replace=True)
    adv = t.advance()
    assert tied[1] in adv["wild_cards"] and tied[0] not in adv["wild_cards"]
    assert adv["cut"].endswith("on questions answered right: 7 vs 6")


def test_ta4_unknown_counts_do_not_matter_when_the_whole_tie_gets_in():
    """GIVEN 7 games (2 wild cards) whose two best seconds tie on score and size with unknown questions-right
    THEN no refusal: both get a wild card whatever their counts."""
    res = [GameResult((Seat(1, "w1", 200, 0, None), Seat(2, "a", 100, 0, None), Seat(3, "x", 0, 0, None)), "w1"),
           GameResult((Seat(1, "w2", 200, 0, None), Seat(2, "b", 100, 0, None), Seat(3, "y", 0, 0, None)), "w2")]
    res += _sel(*[[(f"f{i}", 300, 1), (f"g{i}", 5, 1), (f"h{i}", 0, 0)] for i in range(5)])
    cards, _ = america.wild_cards(res, rng(1, "wc"))
    assert sorted(cards) == ["a", "b"]
