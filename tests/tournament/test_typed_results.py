"""Typed results follow the same winner rules as the board: TB5 (no winner when nobody is positive, samara and
novosibirsk), T-S7 (Super Nine ties are shared places, no extra topic), TB1–TB3 wording of the tie refusal."""
from __future__ import annotations

import re
import shutil

import pytest

from scoreboard.cli import main
from scoreboard.tournament.service import record_from_journal
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.service import Tournament

from .helpers import names, register
from .journals import play_samara_game


def cli(path, *argv):
    return main(["tournament", *argv, "--file", str(path)])


def test_tb5_samara_typed_winner_refused_when_nobody_is_positive(path, capsys):
    """GIVEN a samara cup game where every score is negative WHEN it is typed with --winner 1
    THEN it is refused with the TB5 reason and nothing is recorded; WHEN typed without --winner THEN it has no
    winner, and `advance` sends nobody from it by win (its best player can only go on by the cup sum)."""
    t = Tournament.create(path, "samara-2003", seed=11)
    register(t, names(18), cups=["winter"])
    t.draw()
    t.close()
    assert cli(path, "result", "winter-1-1", "--scores", "1=-10,2=-20,3=-30", "--winner", "1") == 2
    assert "nobody has a positive score" in capsys.readouterr().err
    t = Tournament(path)
    assert t.store.game("winter-1-1")["result"] is None
    out = t.record_typed("winter-1-1", {"1": -10, "2": -20, "3": -30})
    assert out["winner"] is None
    for g in t.store.games("winter-1")[1:]:
        t.record_typed(g["id"], {"1": 100, "2": 50, "3": 20})
    adv = t.advance()
    best = t.store.game("winter-1-1")["players"][0]
    assert adv["by_game"]["winter-1-1"] is None and best not in adv["by_win"]


def test_tb5_america_negative_top_still_wins():
    """GIVEN america (TB5: the top score wins whatever its sign) THEN a typed --winner on a negative top is kept."""
    from scoreboard.tournament.results import typed
    r = typed({"a": -10, "b": -20, "c": -30}, ["a", "b", "c"], "top", "a", ties="extra_questions")
    assert r.winner == "a"


@pytest.mark.parametrize("fmt, words", [("america-2005", "extra questions (TB2)"),
                                        ("samara-2003", "extra topic (TB3)"),
                                        ("novosibirsk-2007", "extra round (TB1)")])
def test_tb1_tb2_tb3_tie_refusal_names_the_regulations_tie_break(path, fmt, words):
    """GIVEN a tie for first typed without its tie-break THEN the refusal names this regulation's tie-break."""
    t = Tournament.create(path, fmt, seed=2)
    register(t, names(18), cups=["winter"]) if fmt == "samara-2003" else register(t, names(18))
    t.draw()
    gid = t.store.games()[0]["id"]
    with pytest.raises(TournamentError, match=re.escape(f"give the points of the {words}")):
        t.record_typed(gid, {str(k): 100 if k <= 2 else 10 - k for k in range(1, len(t.store.game(gid)["players"]) + 1)})


@pytest.fixture
def s9(season_file, tmp_path):
    """A copy of a season played to the end of the summer cup, with the Super Nine drawn."""
    copy = tmp_path / "s9.sqlite"
    shutil.copy(season_file, copy)
    t = Tournament(copy)
    assert t.draw()["stage"] == "super9"
    t.close()
    return copy


def _s9_points(path, game):
    t = Tournament(path)
    players = t.store.game(game)["players"]
    lines = {x["name"]: x for x in t.standings()["super9"]["lines"]}
    return players, [lines[p]["points"] for p in players]


def test_ts7_typed_super_nine_tie_shares_first_place_and_points(s9, capsys):
    """GIVEN the Super Nine drawn WHEN S9-1 is typed as 100, 100, −10 THEN it is recorded with no single winner and
    the two tied players get (3+1)/2 = 2 points each, the third 0; --winner or --tiebreak on it is refused (T-S7)."""
    assert cli(s9, "result", "S9-1", "--scores", "1=100,2=100,3=-10", "--winner", "1") == 2
    assert "share first place" in capsys.readouterr().err
    assert cli(s9, "result", "S9-1", "--scores", "1=100,2=100,3=-10", "--tiebreak", "1=10") == 2
    assert "no tie-break" in capsys.readouterr().err
    assert cli(s9, "result", "S9-1", "--scores", "1=100,2=100,3=-10") == 0
    assert "winner none" in capsys.readouterr().out
    assert _s9_points(s9, "S9-1")[1] == [2, 2, 0]


def test_ts7_super_nine_tie_from_the_board_journal(s9, tmp_path):
    """GIVEN S9-2 played on the engine (stage super9) with seats 1 and 2 on 150 each THEN the journal (no_winner
    shared_first) is recorded with no winner and both tied players get 2 points."""
    players = Tournament(s9).store.game("S9-2")["players"]
    snap = play_samara_game(tmp_path / "j.sqlite", players, {1: 1, 2: 2}, stage="super9")
    assert snap["no_winner"] == "shared_first" and snap["game_over"]
    out = record_from_journal(s9, "S9-2", tmp_path / "j.sqlite")
    assert out["recorded"] and out["winner"] is None
    assert _s9_points(s9, "S9-2")[1] == [2, 2, 0]


def test_fn1_novosibirsk_typed_winner_on_zero_only_when_named(path):
    """GIVEN novosibirsk (FN1: only players positive after the last regular round play the final round; FN2: a stake
    never exceeds the score, so a finalist ends on 0 or more)
    WHEN a game is typed with a top of −10 and --winner THEN refused (nobody reached the final round);
    WHEN the top is 0 without --winner THEN no winner; WHEN 0 with --winner (a finalist who lost the stake) THEN kept."""
    t = Tournament.create(path, "novosibirsk-2007", seed=2)
    register(t, names(27))
    t.draw()
    with pytest.raises(TournamentError, match="FN1: nobody reached the final round"):
        t.record_typed("1/9-1", {"1": -10, "2": -20, "3": -30}, winner="1")
    assert t.record_typed("1/9-1", {"1": 0, "2": -20, "3": -30})["winner"] is None
    players = t.store.game("1/9-2")["players"]
    assert t.record_typed("1/9-2", {"1": 0, "2": -20, "3": -30}, winner="1")["winner"] == players[0]
