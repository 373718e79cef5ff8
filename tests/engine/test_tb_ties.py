"""TB rules: ties for first, lots with logged seeds, who wins."""
from tests.engine.helpers import Play
from tests.engine.test_fn_final import to_final


def finish_tiebreak_round(g, answers):
    """Play every cell of the open tie-break round; `answers` maps (topic, index) -> (seat, verdict)."""
    for k, topic in enumerate(g.snap["round"]["topics"], start=1):
        for q in range(1, len(topic["cells"]) + 1):
            if topic["cells"][q - 1]["played"]:
                continue
            if (k, q) in answers:
                seat, verdict = answers[(k, q)]
                g.answer(k, q, seat, verdict)
                if g.snap["phase"] == "after_wrong":
                    g.step("/sg/time")
            else:
                g.unanswered(k, q)
    g.step("/sg/next")


def test_tb1_tie_after_final_round_plays_extra_round_of_two_topics_among_tied():
    """GIVEN a 150-150 tie after the final round WHEN the extra round of 2 topics is played among the tied THEN
    seat 3 is out and the extra points decide, kept apart from scores (TB1)."""
    g = Play()
    to_final(g, [100, 100, 60])
    for seat, stake in [(1, 50), (2, 50), (3, 10)]:
        g.step("/sg/final/stake", seat, stake)
    g.step("/sg/final/start")
    g.step("/sg/time")
    for seat in (1, 2, 3):
        g.step("/sg/final/judge", seat, "right")
        g.step("/sg/final/reveal", seat)
    # 150 / 150 / 70: tie for first
    snap = g.snap
    assert snap["phase"] == "round_intro" and snap["round"]["tiebreak"] is True and len(snap["round"]["topics"]) == 2
    assert [p["in_play"] for p in snap["players"]] == [True, True, False]
    g.step("/sg/chooser", 1)
    # seat 3 is out of the tie-break: its press is ignored
    g.step("/sg/select", 1, 1)
    g.step("/sg/button", 3)
    assert g.snap["answering"] is None
    g.step("/sg/button", 2)
    g.step("/sg/judge/right")
    finish_tiebreak_round(g, {})
    # the extra points decide the winner and are kept apart from the game score
    assert g.snap["winner"] == 2 and g.scores() == [150, 150, 70] and g.player(2)["tiebreak_score"] == 10


def test_tb1_championship_final_extra_round_has_four_topics_then_lot():
    """GIVEN a tie in the championship final WHEN the 4-topic extra round leaves it tied THEN a lot with the game's
    seed decides (TB1, TB4)."""
    g = Play("novosibirsk-2007", "final", seed=5)
    g.finish_round()
    g.step("/sg/chooser", 1)
    g.finish_round({1: 100, 2: 100})
    for seat in (1, 2):
        g.step("/sg/final/stake", seat, 10)
    g.step("/sg/final/start")
    g.step("/sg/time")
    for seat in (1, 2):
        g.step("/sg/final/judge", seat, "wrong")
        g.step("/sg/final/reveal", seat)
    assert len(g.snap["round"]["topics"]) == 4
    g.step("/sg/chooser", 1)
    finish_tiebreak_round(g, {})
    # still tied after the extra round: a lot with the game's seed decides (TB1, TB4)
    lot = g.snap["lots"][-1]
    assert g.snap["game_over"] and g.snap["winner"] == lot["result"] and lot["seed"] == 5 and lot["among"] == [1, 2]


def test_tb2_america_extra_questions_until_one_is_ahead():
    """GIVEN a 30-30 tie in an america selection game WHEN extra questions are played one at a time THEN an
    unanswered one leads to another, and the first player ahead wins (TB2)."""
    g = Play("america-2005", "selection")
    g.play_out_in_order()
    g.step("/sg/score/adjust", 1, 30, "t")
    g.step("/sg/score/adjust", 3, 30, "t")
    g.step("/sg/next")
    assert g.snap["round"]["tiebreak"] and len(g.snap["round"]["topics"]) == 1
    assert len(g.snap["round"]["topics"][0]["cells"]) == 1
    # first extra question: nobody answers -> still tied -> another one
    for step in ("/sg/next", "/sg/next", "/sg/reading/done", "/sg/time", "/sg/next"):
        g.step(step)
    assert g.snap["round"]["tiebreak"] and not g.snap["game_over"] and g.snap["phase"] == "round_intro"
    # second: seat 3 answers right -> ahead -> wins
    for step in ("/sg/next", "/sg/next", "/sg/reading/done"):
        g.step(step)
    g.step("/sg/button", 3)
    g.step("/sg/judge/right")
    g.step("/sg/next")
    assert g.snap["game_over"] and g.snap["winner"] == 3


def test_tb3_samara_extra_topic_then_another_then_lot():
    """GIVEN a 40-40 tie in a samara cup game WHEN two extra topics leave it tied THEN a lot among the tied decides
    (TB3 Decision, TB4)."""
    g = Play("samara-2003", "cup", seed=3)
    g.finish_round({1: 40, 3: 40})
    assert g.snap["round"]["tiebreak"] and len(g.snap["round"]["topics"]) == 1
    finish_tiebreak_round(g, {})
    assert g.snap["round"]["tiebreak"] and not g.snap["game_over"], "a second extra topic (TB3 Decision)"
    finish_tiebreak_round(g, {})
    assert g.snap["game_over"] and g.snap["winner"] in (1, 3) and g.snap["lots"][-1]["among"] == [1, 3]


def test_tb4_lot_replays_identically():
    # GIVEN the same seed and commands WHEN played twice THEN the same lots and winner
    runs = []
    for _ in range(2):
        g = Play("samara-2003", "cup", seed=99)
        g.finish_round({1: 40, 2: 40})
        finish_tiebreak_round(g, {})
        finish_tiebreak_round(g, {})
        runs.append((g.snap["lots"], g.snap["winner"]))
    assert runs[0] == runs[1]


def test_tb5_samara_no_winner_without_positive_score():
    """GIVEN a samara game where the top score is 0 WHEN it ends THEN there is no winner (TB5)."""
    g = Play("samara-2003", "cup", seed=1)
    g.finish_round({2: -10})
    assert g.snap["game_over"] and g.snap["winner"] is None and "TB5" in g.snap["no_winner_reason"]


def test_tb5_america_top_score_wins_whatever_its_sign():
    """GIVEN america scores -10 / -20 / -30 WHEN the game ends THEN seat 1 wins with -10 (TB5)."""
    g = Play("america-2005", "selection")
    g.play_out_in_order()
    for seat, d in [(1, -10), (2, -20), (3, -30)]:
        g.step("/sg/score/adjust", seat, d, "t")
    g.step("/sg/next")
    assert g.snap["game_over"] and g.snap["winner"] == 1


def test_tb3_t_s7_super_nine_tie_for_first_is_a_shared_place_without_extra_topic():
    # GIVEN samara's Super Nine (the stage has no tie-break) WHEN two players tie for first THEN the game ends shared
    g = Play("samara-2003", "super9", seed=2)
    g.finish_round({1: 40, 3: 40})
    snap = g.snap
    assert snap["game_over"] and snap["winner"] is None and snap["shared_first"] == [1, 3]
    assert "T-S7" in snap["no_winner_reason"] and snap["no_winner"] == "shared_first" and snap["lots"][-1]["what"] == "first chooser"


def test_tb2_extra_question_right_answers_do_not_count_for_wild_cards():
    # GIVEN an america tie-break WHEN seat 3 answers the extra question right THEN rights (T-A4) stay unchanged
    g = Play("america-2005", "selection")
    g.play_out_in_order()
    g.step("/sg/score/adjust", 1, 30, "t")
    g.step("/sg/score/adjust", 3, 30, "t")
    g.step("/sg/next")
    for step in ("/sg/next", "/sg/next", "/sg/reading/done"):
        g.step(step)
    g.step("/sg/button", 3)
    g.step("/sg/judge/right")
    g.step("/sg/next")
    assert g.snap["winner"] == 3 and g.player(3)["rights"] == 0 and g.player(3)["tiebreak_score"] == 10
