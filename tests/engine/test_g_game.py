"""G rules: players, boards, order, choosers, scoring, corrections, reserve questions."""
import pytest

from tests.engine.helpers import Play


def test_g1_players_and_scores_start_at_zero_and_may_go_negative():
    # GIVEN a new novosibirsk game WHEN nobody names the count THEN three seats start at 0
    g = Play()
    assert [p["seat"] for p in g.snap["players"]] == [1, 2, 3]
    assert g.scores() == [0, 0, 0]
    # WHEN seat 2 answers wrong THEN the score goes negative
    g.answer(1, 1, 2, "wrong")
    assert g.player(2)["score"] == -10


def test_g1_player_count_outside_the_regulation_is_refused():
    # GIVEN america allows 2–4 players WHEN a game asks for 5 THEN it is refused with the rule
    g = Play("america-2005", "selection", start=False)
    reason = g.refused("/sg/game/new", "novosibirsk-2007", "1/9", 4)
    assert "2–3 players" in reason and "G1" in reason


@pytest.mark.parametrize("regulation,stage,kinds,sizes", [
    ("novosibirsk-2007", "1/9", ["blue", "red"], [4, 4]),
    ("novosibirsk-2007", "1/3", ["blue", "red"], [5, 5]),
    ("novosibirsk-2007", "final", ["blue", "red"], [6, 6]),
    ("america-2005", "selection", ["blue"], [8]),
    ("america-2005", "1/3", ["blue", "red"], [8, 2]),
    ("america-2005", "final", ["blue", "red"], [8, 4]),
    ("samara-2003", "cup", ["blue"], [4]),
])
def test_g2_g3_boards_per_stage(regulation, stage, kinds, sizes):
    # GIVEN a regulation and stage WHEN the game starts THEN the first board has the stage's topics and values
    g = Play(regulation, stage, chooser=1)
    rnd = g.snap["round"]
    assert rnd["kind"] == kinds[0]
    assert len(rnd["topics"]) == sizes[0]
    assert [c["value"] for c in rnd["topics"][0]["cells"]] == [10, 20, 30, 40, 50]


def test_g2_red_round_values_and_g3_second_board():
    # GIVEN a novosibirsk 1/9 blue round played out WHEN next THEN the red board has 4 topics of 20..100
    g = Play()
    g.finish_round()
    rnd = g.snap["round"]
    assert rnd["kind"] == "red" and len(rnd["topics"]) == 4
    assert [c["value"] for c in rnd["topics"][0]["cells"]] == [20, 40, 60, 80, 100]


def test_g3_samara_topic_names_set_the_round_size():
    # GIVEN samara leaves the topic count open (at least 4) WHEN the host names 6 topics THEN the board has 6
    g = Play("samara-2003", "cup", topics=["А", "Б", "В", "Г", "Д", "Е"])
    assert [t["name"] for t in g.snap["round"]["topics"]] == ["А", "Б", "В", "Г", "Д", "Е"]
    # AND fewer than 4 is refused
    g2 = Play("samara-2003", "cup", start=False)
    assert "at least 4" in g2.refused("/sg/topics", "А", "Б", "В")


def test_g4_choice_mode_any_unplayed_cell_and_played_cells_refused():
    # GIVEN choice mode WHEN the chooser opens topic 3 question 4 THEN it opens; a played cell is refused
    g = Play()
    g.unanswered(3, 4)
    assert g.snap["round"]["topics"][2]["cells"][3]["played"] is True
    assert "has been played" in g.refused("/sg/select", 3, 4)


def test_g4_sequential_mode_topics_in_order_with_intro():
    # GIVEN america (sequential) WHEN /sg/next from round_intro THEN topic 1 is announced, then its questions in order
    g = Play("america-2005", "selection")
    assert "use /sg/next" in g.refused("/sg/select", 1, 1)
    g.step("/sg/next")
    assert g.snap["phase"] == "topic_intro" and g.snap["round"]["topic"] == 1
    g.step("/sg/next")
    q = g.snap["question"]
    assert (q["topic"], q["index"], q["value"]) == (1, 1, 10)
    g.step("/sg/reading/done")
    g.step("/sg/time")
    g.step("/sg/next")
    assert g.snap["question"]["index"] == 2
    for _ in range(4):
        g.step("/sg/reading/done") if g.snap["phase"] == "reading" else None
        g.step("/sg/time")
        g.step("/sg/next")
    # after the 5th question of topic 1, /sg/next announces topic 2
    assert g.snap["phase"] == "topic_intro" and g.snap["round"]["topic"] == 2


def test_g5_novosibirsk_first_chooser_set_by_host():
    # GIVEN novosibirsk WHEN the game starts THEN nobody chooses until the host sets the chooser
    g = Play(chooser=None)
    assert g.snap["chooser"] is None
    assert "sets the chooser" in g.refused("/sg/select", 1, 1)
    g.step("/sg/chooser", 3)
    assert g.snap["chooser"] == 3


def test_g5_samara_first_chooser_by_lot_with_logged_seed():
    # GIVEN samara and seed 11 WHEN the game starts THEN the chooser is drawn and the lot is logged; same seed, same draw
    a = Play("samara-2003", "cup", seed=11)
    b = Play("samara-2003", "cup", seed=11)
    lot = a.snap["lots"][0]
    assert lot["what"] == "first chooser" and lot["seed"] == 11 and lot["among"] == [1, 2, 3]
    assert a.snap["chooser"] == lot["result"] == b.snap["chooser"]
    draws = {Play("samara-2003", "cup", seed=s).snap["chooser"] for s in range(12)}
    assert len(draws) > 1, "the lot depends on the seed"


def test_g5_red_round_lowest_score_chooses_and_tie_goes_to_host():
    # GIVEN blue ends 20 / -10 / 0 WHEN the red round starts THEN seat 2 (lowest) chooses
    g = Play()
    g.answer(1, 2, 1)
    g.answer(1, 1, 2, "wrong")
    g.step("/sg/time")
    g.finish_round()
    assert g.snap["round"]["kind"] == "red" and g.snap["chooser"] == 2
    # GIVEN a tie for lowest THEN the host must set the chooser
    h = Play()
    h.finish_round()
    assert h.snap["chooser"] is None


def test_g6_right_takes_choice_wrong_keeps_it():
    # GIVEN seat 1 chooses WHEN seat 2 answers right THEN +value and the choice passes to seat 2
    g = Play(chooser=1)
    g.answer(2, 3, 2)
    assert g.player(2)["score"] == 30 and g.snap["chooser"] == 2
    # WHEN seat 3 answers wrong and nobody else answers THEN -value and the choice stays with seat 2
    g.step("/sg/select", 2, 4)
    g.step("/sg/reading/done")
    g.step("/sg/button", 3)
    g.step("/sg/judge/wrong")
    g.step("/sg/time")
    assert g.player(3)["score"] == -40 and g.snap["chooser"] == 2


def test_g7_round_ends_only_when_every_question_is_played():
    # GIVEN one cell left WHEN /sg/next THEN it goes back to choosing, not to the next round
    g = Play()
    g.step("/sg/auction/waive")   # AU1 Decision: this round is played without its auction
    for k in range(1, 5):
        for q in range(1, 6):
            if (k, q) != (4, 5):
                g.unanswered(k, q)
    g.step("/sg/next")
    assert g.snap["phase"] == "choosing" and g.snap["round"]["kind"] == "blue"
    g.unanswered(4, 5)
    g.step("/sg/next")
    assert g.snap["round"]["kind"] == "red"


def test_g8_score_adjust_is_logged_with_reason():
    # GIVEN a game WHEN the host corrects seat 2 by -15 with a reason THEN score and protocol show it
    g = Play()
    g.step("/sg/score/adjust", 2, -15, "подсказка")
    assert g.player(2)["score"] == -15
    assert g.snap["adjustments"][-1]["delta"] == -15 and g.snap["adjustments"][-1]["reason"] == "подсказка"
    assert "changes nothing" in g.refused("/sg/score/adjust", 2, 0)


def test_g8_rejudge_wrong_to_right_recomputes_scores_and_choice():
    # GIVEN seat 2 wrong then seat 3 right on a 30 WHEN the host accepts seat 2's answer (дуаль)
    g = Play(chooser=1)
    g.step("/sg/select", 1, 3)
    g.step("/sg/reading/done")
    g.step("/sg/button", 2)
    g.step("/sg/judge/wrong")
    g.step("/sg/resume")
    g.step("/sg/button", 3)
    g.step("/sg/judge/right")
    assert g.scores() == [0, -30, 30] and g.snap["chooser"] == 3
    g.step("/sg/rejudge", 2, "right")
    # THEN seat 2 gets +30, seat 3's later answer never happened, and the choice goes to seat 2
    assert g.scores() == [0, 30, 0] and g.snap["chooser"] == 2
    # AND once the next question opens, the old one cannot be re-judged
    g.step("/sg/select", 1, 4)
    assert "last resolved" in g.refused("/sg/rejudge", 2, "wrong")


def test_g8_rejudge_right_to_wrong_returns_choice():
    # GIVEN seat 2 answered right (choice to 2) WHEN re-judged wrong THEN -value and the choice back to seat 1
    g = Play(chooser=1)
    g.answer(1, 1, 2)
    g.step("/sg/rejudge", 2, "wrong")
    assert g.scores() == [0, -10, 0] and g.snap["chooser"] == 1
    assert "did not answer" in g.refused("/sg/rejudge", 3, "right")


def test_g9_reserve_replaces_withdrawn_question_and_undoes_its_scores():
    # GIVEN seat 2 wrong on a 40 WHEN the host withdraws the question THEN the -40 is undone and the reserve opens at 40
    g = Play(chooser=1)
    g.answer(2, 4, 2, "wrong")
    g.step("/sg/time")
    assert g.scores() == [0, -40, 0]
    g.step("/sg/question/replace")
    q = g.snap["question"]
    assert g.scores() == [0, 0, 0] and g.snap["phase"] == "reading"
    assert (q["topic"], q["index"], q["value"], q["replaced"]) == (2, 4, 40, True)
    # AND seat 2 may answer the reserve (BZ4 counts per question)
    g.step("/sg/button", 2)
    g.step("/sg/judge/right")
    assert g.scores() == [0, 40, 0]
    # AND a topic has one reserve only
    assert "no reserve" in g.refused("/sg/question/replace")
