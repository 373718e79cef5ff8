"""The pure "what may the host do now" table (host_remote/actions.py), phase by phase (PROTOCOL.md §1, §3)."""
import pytest

from host_remote.actions import FLOW, GRID, PHASES, SEAT, TOOLS, allowed_actions, find

from remote_snapshots import base, question, with_players


def keys(snapshot):
    """What is offered now: the enabled slots (a disabled one keeps its place but is no offer)."""
    return {a.key for a in allowed_actions(snapshot) if a.enabled}


def test_no_snapshot_or_unknown_phase_offers_nothing():
    """GIVEN no state yet, or a phase this remote does not know WHEN asked THEN no button is offered."""
    assert allowed_actions(None) == []
    assert allowed_actions({"phase": "warp_drive"}) == []
    assert allowed_actions("not a dict") == []


def test_every_phase_offers_undo_and_every_action_is_sendable():
    """GIVEN each phase of PROTOCOL.md §3 WHEN the table is asked THEN undo is there, and each action without a
    pad amount yields a /sg/ address and a tuple of arguments."""
    for phase in PHASES:
        actions = allowed_actions(base(phase, question=question()))
        assert find(actions, "undo") is not None, phase
        for action in actions:
            if action.amount is None:
                address, args = action.command()
                assert address.startswith("/sg/") and isinstance(args, tuple)


def test_setup_offers_start():
    """GIVEN setup WHEN asked THEN the host can start the game (and no manual/pause before play)."""
    assert {"start", "undo"} <= keys(base("setup"))
    assert "pause" not in keys(base("setup"))


def test_g4_choice_mode_grid_lists_only_unplayed_cells():
    """G4: GIVEN choice mode in `choosing` WHEN asked THEN every unplayed cell (and only those) can be selected,
    with its 1-based topic and question."""
    actions = allowed_actions(base("choosing"))
    grid = [a for a in actions if a.group == GRID]
    assert len(grid) == 20 - 4
    assert find(actions, "select:1:1") is None and find(actions, "select:3:5") is None
    assert find(actions, "select:4:5").command() == ("/sg/select", (4, 5))
    assert find(actions, "select:4:5").label == "50"


def test_g5_host_can_set_the_chooser_in_round_intro():
    """G5: GIVEN round_intro in choice mode WHEN asked THEN the host may set any other seat as chooser."""
    k = keys(base("round_intro"))
    assert {"chooser:1", "chooser:3"} <= k and "chooser:2" not in k
    assert "select:4:1" in k


def test_g4_sequential_mode_steps_with_next():
    """G4: GIVEN sequential order WHEN in round_intro, topic_intro or reveal THEN `next` is the way on; no grid."""
    for phase in ("round_intro", "topic_intro", "reveal"):
        actions = allowed_actions(base(phase, order="sequential"))
        assert find(actions, "next").command() == ("/sg/next", ())
        assert not [a for a in actions if a.group == GRID]


def test_bz2_reading_offers_reading_done_time_and_replace():
    """BZ2, BZ9, G9: GIVEN reading WHEN asked THEN reading done (space), time and replace; assign only in manual."""
    actions = allowed_actions(base("reading", question=question()))
    assert find(actions, "reading_done").command() == ("/sg/reading/done", ())
    assert find(actions, "reading_done").shortcut == "space"
    assert {"time", "replace"} <= {a.key for a in actions}
    assert not any(a.key.startswith("assign:") for a in actions)


def test_bz9_manual_mode_assigns_only_players_who_have_not_answered():
    """BZ9, BZ4: GIVEN manual mode after seat 1 answered wrong WHEN asked THEN assign is offered to seats 2 and 3."""
    snapshot = base("after_wrong", buttons_manual=True,
                    question=question(answered=[{"seat": 1, "verdict": "wrong"}]))
    snapshot = with_players(snapshot, p1={"answered": True})
    k = keys(snapshot)
    assert {"assign:2", "assign:3", "resume", "time"} <= k and "assign:1" not in k
    assert find(allowed_actions(snapshot), "manual").command() == ("/sg/buttons/manual", (0,))


def test_buzz_window_offers_time():
    """BZ2: GIVEN the 5 s window WHEN asked THEN time closes it; no judging without someone answering."""
    k = keys(base("buzz_window", question=question(reading=False, deadline=45.0)))
    assert "time" in k and "judge_right" not in k


def test_bz5_answering_offers_verdicts_and_extension_only_with_a_limit():
    """BZ5: GIVEN a player answering WHEN asked THEN right/wrong (r/w); +time only when an answer limit runs."""
    no_limit = allowed_actions(base("answering", answering=1, question=question(reading=False)))
    assert find(no_limit, "judge_right").command() == ("/sg/judge/right", ())
    assert find(no_limit, "judge_wrong").shortcut == "w"
    assert find(no_limit, "extend") is None
    limited = allowed_actions(base("answering", answering=1, order="sequential",
                                   question=question(reading=False, deadline=43.0)))
    assert find(limited, "extend").command() == ("/sg/answer/extend", (3.0,))


def test_bz6_after_wrong_offers_resume():
    """BZ6: GIVEN a wrong answer WHEN asked THEN resume restarts the buttons."""
    assert find(allowed_actions(base("after_wrong", question=question())), "resume").command() == ("/sg/resume", ())


def test_g8_reveal_offers_rejudge_of_the_last_question_and_the_grid():
    """G8: GIVEN reveal after seat 1 was judged wrong and seat 2 right WHEN asked THEN each verdict can be flipped,
    and (choice mode, board not empty) the next cell can be chosen."""
    last = {"topic": 2, "index": 3, "value": 30, "rejudgeable": True,
            "answers": [{"seat": 1, "verdict": "wrong", "delta": -30}, {"seat": 2, "verdict": "right", "delta": 30}]}
    actions = allowed_actions(base("reveal", last=last))
    assert find(actions, "rejudge:1").command() == ("/sg/rejudge", (1, "right"))
    assert find(actions, "rejudge:2").command() == ("/sg/rejudge", (2, "wrong"))
    assert find(actions, "select:4:1") is not None and find(actions, "next") is None
    assert find(allowed_actions(base("reveal", last={**last, "rejudgeable": False})), "rejudge:1") is None


def test_g7_reveal_of_the_last_cell_offers_next():
    """G7: GIVEN choice mode and every cell played WHEN in reveal THEN `next` (next round / final) is offered."""
    snapshot = base("reveal")
    for topic in snapshot["round"]["topics"]:
        for cell in topic["cells"]:
            cell["played"] = True
    actions = allowed_actions(snapshot)
    assert find(actions, "next") is not None and not [a for a in actions if a.group == GRID]


def test_au2_au4_auction_offers_bid_allin_pass_for_the_seat_on_turn():
    """AU2–AU4: GIVEN an auction at stake 40 with seat 1 (score 100) on turn WHEN asked THEN bid (pad, above the stake, up to
    the score), all-in and pass are offered for seat 1 only."""
    auction = {"stake": 40, "nominal": 40, "holder": 2, "turn": 1, "passed": [], "allin": False, "order": [2, 1, 3]}
    actions = allowed_actions(with_players(base("auction", auction=auction), p1={"score": 100}))
    bid = find(actions, "bid:1")
    assert (bid.amount, bid.low, bid.high) == ("bid", 41, 100)
    assert bid.command(50) == ("/sg/auction/bid", (1, 50))
    with pytest.raises(ValueError):
        bid.command()
    assert find(actions, "allin:1").command() == ("/sg/auction/allin", (1,))
    assert find(actions, "pass:1").command() == ("/sg/auction/pass", (1,))
    assert not {"bid:2", "bid:3", "pass:3"} & {a.key for a in actions}


def test_au3_without_a_turn_every_seat_not_passed_may_bid():
    """AU3: GIVEN an auction snapshot without `turn` and seat 3 passed WHEN asked THEN seats 1 and 2 get buttons."""
    auction = {"stake": 40, "holder": 2, "turn": None, "passed": [3], "allin": False}
    k = keys(base("auction", auction=auction))
    assert {"bid:1", "bid:2", "pass:1", "allin:2"} <= k and "bid:3" not in k


def test_au5_auction_answer_offers_verdicts():
    """AU5: GIVEN the auction winner answering WHEN asked THEN right/wrong."""
    assert {"judge_right", "judge_wrong"} <= keys(base("auction_answer", answering=2, question=question(kind="auction")))


def test_fn2_final_stakes_pad_for_missing_stakes_then_start():
    """FN2, FN4: GIVEN finalists 1 and 2 with seat 1's stake in WHEN asked THEN only seat 2 gets a stake pad
    (1..score); once both are in, `final/start` is offered."""
    final = {"kind": "final_round", "topic": "Физика", "eligible": [1, 2], "stakes_in": [1], "judged": [],
             "revealed": []}
    actions = allowed_actions(base("final_stakes", final=final))
    stake = find(actions, "stake:2")
    assert find(actions, "stake:1") is None and find(actions, "stake:3") is None
    assert (stake.low, stake.high) == (1, 60) and stake.command(25) == ("/sg/final/stake", (2, 25))
    assert find(actions, "final_start") is None
    done = allowed_actions(base("final_stakes", final={**final, "stakes_in": [1, 2]}))
    assert find(done, "final_start").command() == ("/sg/final/start", ())


def test_fn3_super_question_stakes_start_at_zero():
    """FN3: GIVEN the america super-question WHEN a stake pad opens THEN 0 is allowed."""
    final = {"kind": "super_question", "topic": None, "eligible": [3], "stakes_in": []}
    stake = find(allowed_actions(base("final_stakes", final=final)), "stake:3")
    assert stake.low == 0 and stake.high == 0


def test_fn2_final_judge_then_reveal_one_at_a_time():
    """FN2, FN4: GIVEN seat 1 judged and seat 2 not WHEN in final_reveal THEN seat 1 can be revealed and seat 2 judged;
    a revealed seat offers nothing more."""
    final = {"kind": "final_round", "eligible": [1, 2, 3], "stakes_in": [1, 2, 3], "judged": [1, 3],
             "revealed": [{"seat": 3, "stake": 5, "verdict": "right", "score": -5}]}
    actions = allowed_actions(base("final_reveal", final=final))
    assert find(actions, "final_reveal:1").command() == ("/sg/final/reveal", (1,))
    assert find(actions, "final_right:2").command() == ("/sg/final/judge", (2, "right"))
    assert find(actions, "final_wrong:2").command() == ("/sg/final/judge", (2, "wrong"))
    assert not {k for k in keys(base("final_reveal", final=final)) if k.endswith(":3") and not k.startswith("adjust")}


def test_g8_score_correction_for_every_seat_is_a_signed_pad():
    """G8: GIVEN any phase WHEN asked THEN each seat has a score correction that takes a signed delta."""
    actions = allowed_actions(base("reveal"))
    adjust = find(actions, "adjust:3")
    assert adjust.group == TOOLS and adjust.amount == "delta"
    assert adjust.command(-10) == ("/sg/score/adjust", (3, -10))


def test_paused_game_offers_only_unpause_undo_and_corrections():
    """GIVEN a paused game WHEN asked THEN nothing but unpause, undo and score corrections."""
    k = keys(base("answering", paused=True, paused_at=41.0, answering=1, question=question()))
    assert "unpause" in k and "judge_right" not in k and "pause" not in k
    assert k == {"unpause", "undo", "adjust:1", "adjust:2", "adjust:3"}


def test_game_over_offers_no_play_buttons():
    """GIVEN game over WHEN asked THEN no flow buttons, no pause: corrections and undo remain."""
    actions = allowed_actions(base("game_over", game_over=True, winner=2))
    assert not [a for a in actions if a.group in (FLOW, GRID, SEAT)]
    assert find(actions, "pause") is None and find(actions, "undo") is not None


def test_tiebreak_round_lists_only_players_in_play():
    """TB1: GIVEN a tie-break among seats 1 and 2 WHEN in manual mode THEN seat 3 cannot be assigned."""
    snapshot = with_players(base("buzz_window", buttons_manual=True, question=question()), p3={"in_play": False})
    k = keys(snapshot)
    assert {"assign:1", "assign:2"} <= k and "assign:3" not in k


def test_fn2_final_answer_offers_only_the_end_of_writing():
    """FN2: GIVEN the 30 s of writing WHEN asked THEN the host may only end the writing early (`/sg/next`); verdicts
    wait for final_reveal."""
    final = {"kind": "final_round", "eligible": [1, 2], "stakes_in": [1, 2], "judged": [], "revealed": []}
    actions = allowed_actions(base("final_answer", final=final))
    assert find(actions, "final_end_writing").command() == ("/sg/next", ())
    assert not any(a.key.startswith(("final_right", "final_wrong", "final_reveal")) for a in actions)


def test_p1_media_buttons_follow_the_media_clock_and_keep_their_slots():
    """P1: GIVEN a question with a video playing, then paused, and a question without media WHEN asked THEN pause
    is offered while it plays, play while it is paused, replay whenever it has media; without media the three
    slots stay, disabled (no reflow)."""
    playing = allowed_actions(base("reading", question=question(media_state={"state": "playing", "started": 1.0,
                                                                             "position": None})))
    assert find(playing, "media_pause").command() == ("/sg/media/pause", ())
    assert find(playing, "media_play") is None and find(playing, "media_replay") is not None
    paused = allowed_actions(base("answering", answering=1, question=question(
        media_state={"state": "paused", "started": None, "position": 2.5})))
    assert find(paused, "media_play").command() == ("/sg/media/play", ()) and find(paused, "media_pause") is None
    none = allowed_actions(base("reading", question=question(media_state=None)))
    assert [a.key for a in none if a.key.startswith("media_")] == ["media_pause", "media_play", "media_replay"]
    assert not any(a.enabled for a in none if a.key.startswith("media_"))
