"""Every button the remote shows is one the real engine accepts, in every phase of whole games.

The table in host_remote/actions.py is a guess about the rules made from the snapshot alone; this plays real
games on the board's `Session` and, in each state, tries every offered action on a copy of the session.
"""
from remote_engine_game import EngineGame

from host_remote.actions import allowed_actions, find
from scoreboard.snapshot_check import check_host_question, check_snapshot


def assert_all_accepted(game, where):
    # The remote's shape check must never refuse what the real board sends.
    assert check_snapshot(game.snapshot) == [], where
    assert check_host_question(game.session.host_question()) == [], where
    refused = game.refused_actions()
    assert refused == [], f"{where} ({game.snapshot['phase']}): {refused}"


def test_novosibirsk_whole_game_every_offered_action_is_accepted():
    """G4–G8, BZ2–BZ9, AU2–AU6, FN1–FN2: GIVEN a novosibirsk 1/9 game played through blue, red and the final round
    WHEN the remote is asked for its buttons in each state THEN the engine accepts every one of them."""
    g = EngineGame()
    g.go("/sg/game/new", "novosibirsk-2007", "1/9", 3, 0)
    assert_all_accepted(g, "setup")
    g.go("/sg/game/start")
    assert_all_accepted(g, "round intro without chooser")
    assert find(allowed_actions(g.snapshot), "select:1:1") is None       # G5: chooser first
    g.go("/sg/chooser", 2)
    assert_all_accepted(g, "round intro")
    g.go("/sg/select", 1, 1)
    assert_all_accepted(g, "reading")
    g.go("/sg/reading/done")
    assert_all_accepted(g, "buzz window")
    g.go("/sg/button", 1)
    assert_all_accepted(g, "answering")
    g.go("/sg/judge/wrong")
    assert_all_accepted(g, "after wrong")
    g.go("/sg/buttons/manual", 1)
    assert_all_accepted(g, "after wrong, manual")
    g.go("/sg/buttons/manual", 0)
    g.go("/sg/resume")
    g.go("/sg/button", 2)
    g.go("/sg/judge/right")
    assert_all_accepted(g, "reveal with rejudge")
    g.go("/sg/pause")
    assert_all_accepted(g, "paused")
    g.go("/sg/unpause")
    g.clear_round(visit=lambda game: assert_all_accepted(game, "blue cell"))
    assert_all_accepted(g, "blue board empty")
    g.go("/sg/next")
    for seat in (1, 2, 3):
        g.go("/sg/score/adjust", seat, 100 + 10 * seat, "test")
    g.go("/sg/chooser", 1) if g.snapshot["chooser"] is None else None
    g.go("/sg/select", 1, 3, "auction")
    assert g.snapshot["phase"] == "auction"
    assert_all_accepted(g, "auction opened")
    g.go("/sg/auction/bid", g.snapshot["auction"]["turn"], g.snapshot["auction"]["stake"] + 10)
    assert_all_accepted(g, "auction after a bid")
    g.pass_auction()
    assert_all_accepted(g, "auction answer")
    g.go("/sg/judge/right")
    g.clear_round()
    g.go("/sg/next")
    assert g.snapshot["phase"] == "final_stakes"
    assert_all_accepted(g, "final stakes")
    eligible = g.snapshot["final"]["eligible"]
    for seat in eligible:
        g.go("/sg/final/stake", seat, 10)
    assert_all_accepted(g, "stakes in")
    g.go("/sg/final/start")
    assert_all_accepted(g, "final answer (writing)")
    g.go("/sg/next")
    assert_all_accepted(g, "final reveal")
    g.go("/sg/final/judge", eligible[0], "right")
    assert_all_accepted(g, "one judged")
    for seat in eligible:
        if seat != eligible[0]:
            g.go("/sg/final/judge", seat, "wrong")
        g.go("/sg/final/reveal", seat)
    assert g.snapshot["phase"] == "game_over"
    assert_all_accepted(g, "game over")


def test_america_sequential_game_with_answer_limit_and_super_question():
    """G4, BZ5, FN3: GIVEN an america final (sequential, 3 s answer limit, super-question) WHEN played through
    THEN every offered action is accepted, `next` drives the topics, and +time is offered while answering."""
    g = EngineGame()
    g.go("/sg/game/new", "america-2005", "final", 3, 0)
    g.go("/sg/game/start")
    assert_all_accepted(g, "round intro")
    g.go("/sg/next")
    assert_all_accepted(g, "topic intro")
    g.go("/sg/next")
    g.go("/sg/reading/done")
    g.go("/sg/button", 1)
    assert find(allowed_actions(g.snapshot), "extend") is not None
    assert_all_accepted(g, "answering with a limit")
    g.go("/sg/judge/right")
    while g.snapshot["phase"] in ("round_intro", "topic_intro", "reveal", "reading"):
        assert_all_accepted(g, "sequential step")
        if g.snapshot["phase"] == "reading":
            g.go("/sg/reading/done")
            g.go("/sg/button", 2)
            g.go("/sg/judge/right")
        else:
            g.go("/sg/next")
    assert g.snapshot["phase"] == "final_stakes" and g.snapshot["final"]["kind"] == "super_question"
    assert_all_accepted(g, "super-question stakes")
