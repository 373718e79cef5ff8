"""FN rules: eligibility for the final round, stakes, the writing clock, reveals; the super-question."""
from tests.engine.helpers import Play


def to_final(g, scores):
    """Play out blue and red with no answers, then set the scores by corrections before /sg/next."""
    g.finish_round()
    if g.snap["chooser"] is None:
        g.step("/sg/chooser", 1)
    g.finish_round({seat: score for seat, score in enumerate(scores, start=1) if score})


def test_fn1_nobody_positive_ends_with_no_winner():
    """GIVEN scores 0 / -10 / 0 after red WHEN the round ends THEN the game ends with no winner (FN1)."""
    g = Play()
    to_final(g, [0, -10, 0])
    assert g.snap["game_over"] is True and g.snap["winner"] is None
    assert "FN1" in g.snap["no_winner_reason"] and g.snap["no_winner"] == "no_positive"


def test_fn1_one_positive_wins_without_final():
    """GIVEN only seat 1 positive after red WHEN the round ends THEN seat 1 wins, no final round (FN1)."""
    g = Play()
    to_final(g, [30, -10, 0])
    assert g.snap["game_over"] and g.snap["winner"] == 1 and g.snap["final"] is None


def test_fn1_leader_more_than_twice_runner_up_wins():
    """GIVEN 210 vs 100 after red WHEN the round ends THEN the leader wins outright (FN1)."""
    g = Play()
    to_final(g, [210, 100, -50])
    assert g.snap["winner"] == 1 and g.snap["game_over"]


def test_fn1_exactly_twice_is_not_more_than_twice():
    # GIVEN 200 vs 100 WHEN red ends THEN the final round is played (only "more than twice" wins outright)
    g = Play()
    to_final(g, [200, 100, -50])
    assert g.snap["phase"] == "final_stakes" and g.snap["final"]["eligible"] == [1, 2]


def test_fn2_stakes_1_to_score_secret_30s_then_reveal_one_by_one():
    """GIVEN finalists 150 / 100 / 40 WHEN they stake, write for 30 s and are revealed one by one THEN stakes are
    1..score, hidden until revealed, and the top score wins (FN2, FN4, TB5)."""
    g = Play()
    to_final(g, [150, 100, 40])
    g.step("/sg/final/topic", "Физика")
    assert "from 1 to 100" in g.refused("/sg/final/stake", 2, 0)
    assert "from 1 to 40" in g.refused("/sg/final/stake", 3, 41)
    g.step("/sg/final/stake", 1, 150)
    g.step("/sg/final/stake", 2, 100)
    assert "missing" in g.refused("/sg/final/start")
    g.step("/sg/final/stake", 3, 40)
    # FN4: only who is in, never the amounts
    assert g.snap["final"]["stakes_in"] == [1, 2, 3] and g.snap["final"]["revealed"] == []
    assert "150" not in str(g.snap["final"])
    g.do(500, "/sg/final/start")
    assert g.snap["phase"] == "final_answer" and g.snap["final"]["deadline"] == 530
    assert g.snap["final"]["duration"] == 30
    g.wait(31)
    assert g.snap["phase"] == "final_reveal"
    g.step("/sg/final/judge", 1, "wrong")
    g.step("/sg/final/judge", 2, "right")
    assert "judge seat 3" in g.refused("/sg/final/reveal", 3)
    g.step("/sg/final/reveal", 1)
    assert g.snap["final"]["revealed"] == [{"seat": 1, "stake": 150, "verdict": "wrong", "score": 0}]
    g.step("/sg/final/reveal", 2)
    g.step("/sg/final/judge", 3, "right")
    g.step("/sg/final/reveal", 3)
    # TB5: the top score after the final round wins
    assert g.snap["game_over"] and g.snap["winner"] == 2 and g.scores() == [0, 200, 80]


def test_fn3_super_question_every_player_stakes_0_to_score_20s():
    """GIVEN an america final played out, scores 50 / -30 / 0 WHEN the super-question opens THEN all stake 0..score
    (0 for non-positive, already in) and the clock is 20 s (FN3)."""
    g = Play("america-2005", "final")
    # play out 8 blue + 4 red topics with "Время"
    g.play_out_in_order("red")
    g.step("/sg/score/adjust", 1, 50, "test")
    g.step("/sg/score/adjust", 2, -30, "test")
    g.step("/sg/next")
    f = g.snap["final"]
    assert g.snap["phase"] == "final_stakes" and f["kind"] == "super_question" and f["eligible"] == [1, 2, 3]
    # a player with 0 or less stakes 0 (already in)
    assert f["stakes_in"] == [2, 3]
    assert "from 0 to 50" in g.refused("/sg/final/stake", 1, 51)
    g.step("/sg/final/stake", 1, 0)
    g.do(1000, "/sg/final/start")
    assert g.snap["final"]["deadline"] == 1020


def test_fn4_stakes_hidden_in_host_view_until_reveal():
    """GIVEN a stake of 77 in WHEN the snapshot and the host view are read THEN neither shows the amount (FN4)."""
    g = Play()
    to_final(g, [150, 100, 40])
    g.step("/sg/final/stake", 1, 77)
    assert "77" not in str(g.snap) and "77" not in str(g.session.host_question())
