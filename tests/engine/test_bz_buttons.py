"""BZ rules: reading, the 5 s window, first press, one answer each, answer limits, restarts, false starts."""
from tests.engine.helpers import Play


def test_bz1_buttons_live_from_opening_and_press_stops_reading():
    # GIVEN a question being read WHEN seat 2 presses during reading THEN reading stops and seat 2 answers
    g = Play()
    g.step("/sg/select", 1, 1)
    assert g.snap["phase"] == "reading" and g.snap["buttons_live"] is True
    g.step("/sg/button", 2)
    assert g.snap["phase"] == "answering" and g.snap["answering"] == 2
    assert g.snap["question"]["reading"] is False and g.snap["question"]["reading_done"] is False


def test_bz2_five_second_window_then_time():
    # GIVEN reading done at t WHEN nobody presses for 5 s THEN the question closes unanswered at t+5
    g = Play()
    g.step("/sg/select", 1, 1)
    g.do(10.0, "/sg/reading/done")
    assert g.snap["phase"] == "buzz_window" and g.snap["question"]["deadline"] == 15.0
    assert g.snap["question"]["duration"] == 5.0, "screens size the timer bar from the snapshot alone"
    g.wait(4.9)
    assert g.snap["phase"] == "buzz_window"
    g.wait(0.2)
    assert g.snap["phase"] == "reveal" and g.scores() == [0, 0, 0]


def test_bz2_bz8_press_after_window_closed_is_ignored_even_in_the_same_submit():
    # GIVEN the window closes at 5.5 WHEN a press stamped 6.0 arrives THEN the deadline fires first, the press is ignored
    g = Play()
    g.do(0.2, "/sg/select", 1, 1)
    g.do(0.5, "/sg/reading/done")
    g.do(6.0, "/sg/button", 1)
    assert g.snap["phase"] == "reveal" and g.snap["answering"] is None
    assert any("not live" in note for _, note in g.session.ignored)


def test_bz3_first_press_by_timestamp_wins():
    # GIVEN the window is open WHEN seat 3 presses at 2.0001 and seat 1 at 2.0002 THEN seat 3 answers
    g = Play()
    g.do(1, "/sg/select", 1, 1)
    g.do(1.5, "/sg/reading/done")
    g.do(2.0001, "/sg/button", 3)
    g.do(2.0002, "/sg/button", 1)
    assert g.snap["answering"] == 3


def test_bz4_each_player_answers_once():
    # GIVEN seat 1 answered wrong WHEN the host restarts and seat 1 presses again THEN it is ignored
    g = Play()
    g.answer(1, 1, 1, "wrong")
    g.step("/sg/resume")
    g.step("/sg/button", 1)
    assert g.snap["phase"] == "buzz_window" and g.snap["answering"] is None
    # WHEN everyone has answered wrong THEN the question closes by itself
    g.step("/sg/button", 2)
    g.step("/sg/judge/wrong")
    g.step("/sg/resume")
    g.step("/sg/button", 3)
    g.step("/sg/judge/wrong")
    assert g.snap["phase"] == "reveal" and g.scores() == [-10, -10, -10]


def test_bz4_america_one_press_per_question_even_when_it_lost_the_race():
    # GIVEN america WHEN seat 2 presses while seat 1 answers THEN seat 2's press is used up
    g = Play("america-2005", "selection")
    g.step("/sg/next")
    g.step("/sg/next")
    g.step("/sg/reading/done")
    g.step("/sg/button", 1, dt=0.1)
    g.step("/sg/button", 2, dt=0.1)
    assert g.player(2)["pressed"] is True
    g.step("/sg/judge/wrong", dt=0.1)
    g.step("/sg/resume")
    g.step("/sg/button", 2)
    assert g.snap["answering"] is None, "seat 2 has used its press (BZ4)"
    g.step("/sg/button", 3)
    assert g.snap["answering"] == 3


def test_bz5_america_three_second_limit_timeout_is_wrong_and_extension_shown():
    # GIVEN america, seat 1 wins the press at t WHEN 3 s pass THEN the answer counts as wrong
    g = Play("america-2005", "selection")
    g.step("/sg/next")
    g.step("/sg/next")
    g.do(5.0, "/sg/reading/done")
    g.do(6.0, "/sg/button", 1)
    assert g.snap["question"]["deadline"] == 9.0
    g.wait(3.01)
    assert g.player(1)["score"] == -10 and g.snap["phase"] == "after_wrong"
    # AND the host may extend the next answer: the board shows the extension
    g.step("/sg/resume")
    g.step("/sg/button", 2)
    deadline = g.snap["question"]["deadline"]
    g.step("/sg/answer/extend", 5)
    assert g.snap["question"]["deadline"] == deadline + 5 and g.snap["question"]["extended"] == 5
    assert g.snap["question"]["duration"] == 8.0


def test_bz5_novosibirsk_no_limit_shows_elapsed():
    # GIVEN novosibirsk WHEN a player answers THEN there is no countdown, only the start of the answer
    g = Play()
    g.step("/sg/select", 1, 1)
    g.do(3.0, "/sg/button", 1)
    q = g.snap["question"]
    assert q["deadline"] is None and q["answer_started"] == 3.0
    g.wait(120)
    assert g.snap["phase"] == "answering"
    assert "no answer clock" in g.refused("/sg/answer/extend", 5)


def test_bz6_restart_resumes_reading_if_it_had_not_ended():
    # GIVEN a press during reading and a wrong answer WHEN the host resumes THEN reading goes on (no window yet)
    g = Play()
    g.step("/sg/select", 1, 1)
    g.step("/sg/button", 1)
    g.step("/sg/judge/wrong")
    assert g.snap["phase"] == "after_wrong" and g.snap["buttons_live"] is False
    g.step("/sg/resume")
    assert g.snap["phase"] == "reading" and g.snap["question"]["deadline"] is None
    # WHEN reading ends THEN the 5 s window applies (BZ2)
    g.step("/sg/reading/done")
    assert g.snap["phase"] == "buzz_window"


def test_bz6_restart_after_reading_opens_a_new_window():
    # GIVEN reading had ended WHEN the host restarts after a wrong answer THEN a fresh 5 s window opens
    g = Play()
    g.answer(1, 1, 1, "wrong")
    g.do(100, "/sg/resume")
    assert g.snap["phase"] == "buzz_window" and g.snap["question"]["deadline"] == 105


def test_bz7_false_start_locks_2s_from_the_press():
    # GIVEN novosibirsk after a wrong verdict WHEN seat 2 presses before the restart (at t=20) THEN locked until 22
    g = Play()
    g.answer(1, 1, 1, "wrong")
    g.do(20.0, "/sg/button", 2)
    assert g.player(2)["locked_until"] == 22.0
    g.do(20.5, "/sg/resume")
    # WHEN seat 2 presses within the lockout THEN it never wins; seat 3 pressing later does
    g.do(21.0, "/sg/button", 2)
    assert g.snap["answering"] is None
    g.do(21.5, "/sg/button", 3)
    assert g.snap["answering"] == 3


def test_bz7_lockout_over_then_press_counts():
    g = Play()
    g.answer(1, 1, 1, "wrong")
    g.do(20.0, "/sg/button", 2)
    g.do(20.5, "/sg/resume")
    # GIVEN the lock ends at 22 WHEN seat 2 presses at 22.0 THEN it wins the press
    g.do(22.0, "/sg/button", 2)
    assert g.snap["answering"] == 2


def test_bz7_other_regulations_ignore_presses_while_not_live():
    # GIVEN samara after a wrong verdict WHEN seat 2 presses early THEN nothing is locked
    g = Play("samara-2003", "cup", seed=1)
    g.answer(1, 1, 1, "wrong")
    g.step("/sg/button", 2)
    assert g.player(2)["locked_until"] is None
    g.step("/sg/resume")
    g.step("/sg/button", 2)
    assert g.snap["answering"] == 2


def test_bz8_presses_after_resolution_ignored():
    # GIVEN a resolved question WHEN a player presses THEN nothing changes (ignored and logged)
    g = Play()
    g.answer(1, 1, 1)
    before = g.snap
    g.step("/sg/button", 2)
    assert g.snap == before
    assert g.session.ignored[-1][1].endswith("(BZ8)")


def test_bz9_manual_mode_host_names_who_answers_and_scoring_is_the_same():
    # GIVEN buttons failed WHEN the host switches to manual and assigns seat 3 THEN seat 3 answers, presses ignored
    g = Play()
    g.step("/sg/buttons/manual", 1)
    g.step("/sg/select", 1, 2)
    assert g.snap["buttons_live"] is False
    g.step("/sg/button", 1)
    assert g.snap["answering"] is None
    g.step("/sg/assign", 3)
    g.step("/sg/judge/right")
    assert g.player(3)["score"] == 20 and g.snap["chooser"] == 3
    # WHEN switching back THEN the buttons work again without a restart
    g.step("/sg/buttons/manual", 0)
    g.step("/sg/select", 1, 3)
    g.step("/sg/button", 1)
    assert g.snap["answering"] == 1
    assert "manual mode first" in g.refused("/sg/assign", 2)


def test_bz_time_call_refused_while_answering():
    """GIVEN a player answering WHEN the host calls "Время" THEN refused: the answer must be judged first (BZ2,
    BZ5)."""
    g = Play()
    g.step("/sg/select", 1, 1)
    g.step("/sg/button", 1)
    assert "judge the answer" in g.refused("/sg/time")
