"""Issue 12 item 2: only results that can happen. Scores are whole, multiples of the stage's value step, within the
bounds its rounds, auctions (AU2–AU5) and stakes (FN2, FN3) allow (G2, G3, G6, BZ4); an impossible score is refused
naming the bound; a host's ruling beyond them (G8) needs --force --reason and is logged. Item 6: a typed winner
decided by lot records the lot (TB1/TB3 then TB4)."""
from __future__ import annotations

import random

import pytest

from scoreboard.cli import main
from scoreboard.demo.playthrough import steps
from scoreboard.regulations import load_regulation
from scoreboard.session import Session
from scoreboard.engine import Refused
from scoreboard.tournament import bounds, results as res
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.service import Tournament

from .helpers import names, register


def cli(path, *argv):
    return main(["tournament", *argv, "--file", str(path)])


@pytest.mark.parametrize("regulation, stage, topics, low, high, step", [
    # G3 novosibirsk 4/4 topics: blue 600 → with its auction played last, all-in: 2 × 590; red 1200: 2 × (1180 +
    # 1180); the final round's stake doubles at most (FN2); the least is every cell wrong (a stake never takes a
    # positive score below 0, a score at or below the nominal plays the nominal: AU2)
    ("novosibirsk-2007", "1/9", None, -1800, 9440, 1),
    ("novosibirsk-2007", "1/3", None, -2250, 11840, 1),
    ("novosibirsk-2007", "final", None, -2700, 14240, 1),
    # america: no auctions; the final's super-question stakes up to the score (FN3)
    ("america-2005", "selection", None, -1200, 1200, 10),
    ("america-2005", "1/3", None, -1800, 1800, 10),
    ("america-2005", "final", None, -2400, 4800, 1),
    # samara: one blue round of the cup's topic count (3.2.4, ≥ 4), no auction or stake
    ("samara-2003", "cup", 4, -600, 600, 10),
    ("samara-2003", "cup", 6, -900, 900, 10),
    ("samara-2003", "super9", 5, -750, 750, 10),
])
def test_item2_stage_bounds_from_the_regulation(regulation, stage, topics, low, high, step):
    """GIVEN a regulation preset and a stage WHEN its bounds are computed THEN they are the derivation in
    docs/TOURNAMENTS.md («Scores that can happen»)."""
    b = bounds.stage_bounds(load_regulation(regulation), stage, topics)
    assert (b.low, b.high, b.step) == (low, high, step)


def _engine_game(regulation, seed):
    """A whole random game on the real engine (no host score corrections): its final snapshot and topic count."""
    session = Session(None)
    rng = random.Random(seed)
    topics = 0
    for cmd, t in steps(session, regulation, rng, 3000, pace=0.85, exclude=frozenset({"/sg/score/adjust"})):
        session.advance(t)
        try:
            if cmd is not None:
                session.submit(cmd)
        except Refused:
            pass
        snap = session.snapshot()
        if snap["round"] and not snap["round"]["tiebreak"]:
            topics = max(topics, len(snap["round"]["topics"]))
        if snap["game_over"]:
            return snap, topics
    return None, topics


@pytest.mark.parametrize("regulation", ["novosibirsk-2007", "america-2005", "samara-2003"])
def test_item2_every_game_the_engine_plays_is_within_the_bounds(regulation):
    """GIVEN random whole games played by the real engine under the regulation (auctions, all-ins, final stakes,
    tie-breaks, re-judging, reserve questions; no host score corrections) WHEN each final snapshot is read as a
    tournament result THEN no bound refuses it: the bounds never turn away a result the rules can give."""
    reg = load_regulation(regulation)
    finished = 0
    for seed in range(8):
        snap, topics = _engine_game(regulation, seed)
        if snap is None:
            continue
        finished += 1
        result = res.from_snapshot(snap, [p["name"] for p in snap["players"]])
        b = bounds.stage_bounds(reg, snap["stage"], topics)
        assert bounds.problems(result, b, "game", regulation) == [], (snap["stage"], [p["score"] for p in snap["players"]])
    assert finished >= 4


def test_item2_samara_player_answering_everything_reaches_the_top_bound(tmp_path):
    """GIVEN a samara cup game where one player answers all 20 questions right on the real engine (journal file)
    THEN the score is exactly the bound, 600: the bound is tight where there are no stakes."""
    from .journals import play_samara_game
    snap = play_samara_game(tmp_path / "j.sqlite", ["А", "Б", "В"], {1: 1, 2: 1, 3: 1, 4: 1})
    assert snap["players"][0]["score"] == bounds.stage_bounds(load_regulation("samara-2003"), "cup", 4).high == 600


@pytest.fixture
def samara(path):
    t = Tournament.create(path, "samara-2003", seed=4)
    register(t, names(12))
    t.draw()
    t.close()
    return path


@pytest.mark.parametrize("scores, says", [
    ("1=100000,2=0,3=0", "100000 is above 600, the most a player can score in winter-1-1 (samara-2003 cup): "
                         "blue 4 × (10+20+30+40+50) = 600"),
    ("1=12.5,2=0,3=0", "12.5 is not a whole number of points"),
    ("1=1000000000,2=0,3=0", "1000000000 is above 600"),
    ("1=1250,2=0,3=0", "1250 is above 600"),
    ("1=-610,2=0,3=0", "-610 is below -600, the least a player can score"),
    ("1=15,2=0,3=0", "15 is not a multiple of 10"),
    ("1=400,2=300,3=0", "the positive scores add up to 700, above 600: every question of winter-1-1"),
])
def test_item2_impossible_samara_scores_are_refused_naming_the_bound(samara, capsys, scores, says):
    """GIVEN a samara cup game of 4 topics (the issue's cases) WHEN an impossible score is typed through the CLI
    THEN it is refused (exit 2) naming the bound and how it is made, and nothing is recorded."""
    assert cli(samara, "result", "winter-1-1", "--scores", scores) == 2
    err = capsys.readouterr().err
    assert says in err and "--force --reason" in err
    assert Tournament(samara).store.game("winter-1-1")["result"] is None


def test_item2_a_hosts_ruling_beyond_the_bounds_needs_force_and_reason_and_is_logged(samara, capsys):
    """GIVEN an impossible score WHEN typed with --force but no reason THEN refused; WHEN with --force --reason
    (options in any order) THEN recorded, and the audit entry and the JSON export's corrections carry the reason
    and the bounds it is beyond."""
    assert cli(samara, "result", "winter-1-1", "--scores", "1=1250,2=0,3=0", "--force") == 2
    assert "--force needs --reason" in capsys.readouterr().err
    assert cli(samara, "result", "--reason", "ведущий засчитал апелляцию", "--force", "winter-1-1",
               "--scores", "1=1250,2=0,3=0") == 0
    t = Tournament(samara)
    assert t.store.game("winter-1-1")["result"]["seats"][0]["score"] == 1250
    entry = t.export()["corrections"][-1]["detail"]
    assert entry["reason"] == "ведущий засчитал апелляцию" and "1250 is above 600" in entry["forced"][0]


def test_item2_journal_results_are_held_to_the_same_bounds(path, tmp_path):
    """GIVEN a board journal whose host corrected a score beyond what the questions give (G8) WHEN recorded THEN
    refused naming the bound; WHEN recorded with force and a reason THEN it is, and the audit says so."""
    from scoreboard.tournament.service import record_from_journal
    from .journals import play_samara_game
    t = Tournament.create(path, "samara-2003", seed=4)
    register(t, names(9))
    t.draw()
    game = t.store.game("winter-1-1")
    journal = tmp_path / "j.sqlite"
    snap = play_samara_game(journal, game["players"], {1: 1, 2: 1, 3: 1, 4: 1}, adjust=(1, 50))
    assert snap["game_over"] and snap["players"][0]["score"] == 650
    with pytest.raises(TournamentError, match="650 is above 600"):
        record_from_journal(path, "winter-1-1", journal)
    out = record_from_journal(path, "winter-1-1", journal, force=True, reason="апелляция принята ведущим")
    assert out["recorded"] and Tournament(path).store.game("winter-1-1")["result"]["seats"][0]["score"] == 650


def test_item2_tiebreak_points_and_right_answers_are_bounded_too(path):
    """GIVEN novosibirsk (TB1: one extra round of 2 topics, blue) and america (T-A4 questions answered right)
    THEN tie-break points beyond the extra round, for a player nobody is level with, or right answers beyond the
    stage's questions are refused."""
    t = Tournament.create(path, "novosibirsk-2007", seed=1)
    register(t, names(27))
    t.draw()
    with pytest.raises(TournamentError, match=r"tie-break points 310 are outside -300…300"):
        t.record_typed("1/9-1", {"1": 200, "2": 200, "3": 10}, tiebreak={"1": 310})
    with pytest.raises(TournamentError, match="nobody else has 10: only tied players play the tie-break"):
        t.record_typed("1/9-1", {"1": 200, "2": 100, "3": 10}, tiebreak={"3": 30})
    t.close()
    a = Tournament.create(path.with_name("a.sqlite"), "america-2005", seed=1)
    register(a, names(18))
    a.draw()
    with pytest.raises(TournamentError, match="41 questions answered right; S1 .* has 40 questions"):
        a.record_typed("S1", {"1": 100, "2": 50, "3": 10}, right={"1": 41})


def test_item6_a_typed_winner_decided_by_lot_records_the_lot(path, capsys):
    """Item 6, TB1 → TB4 — GIVEN a novosibirsk game tied for first after the extra round too WHEN typed with
    --winner and --lot THEN the result keeps the players the lot was drawn among, and the screen's view says
    «жребий» beside their scores; WHEN the tie-break's points put one ahead THEN --lot is refused; in america
    (TB2, until one is ahead) --lot is refused: there is no lot."""
    from scoreboard.tournament.views import players_of
    t = Tournament.create(path, "novosibirsk-2007", seed=1)
    register(t, names(27))
    t.draw()
    players = t.store.game("1/9-1")["players"]
    t.close()
    assert cli(path, "result", "1/9-1", "--scores", "1=200,2=200,3=10", "--tiebreak", "1=40,2=30", "--winner", "1",
               "--lot") == 2
    assert "put " + players[0] + " ahead; no lot was drawn" in capsys.readouterr().err
    assert cli(path, "result", "--lot", "1/9-1", "--winner", "2", "--scores", "1=200,2=200,3=10",
               "--tiebreak", "1=30,2=30") == 0
    game = Tournament(path).store.game("1/9-1")
    assert game["result"]["winner"] == players[1] and game["result"]["lot"] == players[:2]
    assert [p["tie"] for p in players_of(game)][:2] == [{"key": "tn_tie_lot"}] * 2
    a = Tournament.create(path.with_name("a.sqlite"), "america-2005", seed=1)
    register(a, names(18))
    a.draw()
    with pytest.raises(TournamentError, match="until one player is ahead: there is no lot"):
        a.record_typed("S1", {"1": 100, "2": 100, "3": 10}, winner="1", lot=True)


def test_item6_a_boards_lot_for_the_winner_is_kept_from_its_snapshot():
    """GIVEN a board snapshot whose game ended level after the extra topic and a lot chose the winner (TB3, TB4)
    THEN the tournament result keeps the players the lot was drawn among."""
    snap = {"game_over": True, "winner": 2,
            "players": [{"seat": 1, "name": "А", "score": 100, "tiebreak_score": 30},
                        {"seat": 2, "name": "Б", "score": 100, "tiebreak_score": 30},
                        {"seat": 3, "name": "В", "score": 10, "tiebreak_score": 0}],
            "lots": [{"what": "chooser of tie-break 1", "among": [1, 2], "result": 1},
                     {"what": "winner (tie after the tie-break)", "among": [1, 2], "result": 2}]}
    result = res.from_snapshot(snap, ["А", "Б", "В"])
    assert result.winner == "Б" and result.lot == ("А", "Б") and result.as_json()["lot"] == ["А", "Б"]
