"""AU rules: the auction question (novosibirsk)."""
from tests.engine.helpers import Play


def scored(g, scores):
    """Give seats these scores through host corrections (G8) so an auction can start from them."""
    for seat, score in enumerate(scores, start=1):
        if score:
            g.step("/sg/score/adjust", seat, score, "setup")


def test_au1_host_marks_one_auction_per_round_without_a_pack_and_it_stays_hidden():
    # GIVEN no pack WHEN the chooser picks a cell marked auction THEN the auction opens; a second mark is refused
    g = Play()
    scored(g, [100, 0, 0])
    assert all(not c["auction"] for t in g.snap["round"]["topics"] for c in t["cells"])
    g.step("/sg/select", 2, 3, "auction")
    assert g.snap["phase"] == "auction" and g.snap["question"]["kind"] == "auction"
    assert g.snap["round"]["topics"][1]["cells"][2]["auction"] is True
    g.step("/sg/auction/pass", 1)
    g.step("/sg/reading/done")
    g.step("/sg/judge/right")
    assert "already" in g.refused("/sg/select", 1, 1, "auction")


def test_au1_pack_auction_cell_hidden_until_chosen():
    # GIVEN a pack whose topic 1 question 2 is the auction WHEN the board is drawn THEN no cell shows it
    from scoreboard.engine import Command
    g = Play(start=False)
    plan = {"rounds": [{"topics": [{"name": f"Т{r}{k}", "questions": [
        {"text": "?", "answer": "!", "auction": (r, k, q) == (1, 1, 2)} for q in range(1, 6)]} for k in range(1, 5)]}
        for r in (1, 2)]}
    g.session.submit(Command(0, "/sg/pack/load", ("test.toml",), plan))
    g.step("/sg/game/start")
    g.step("/sg/chooser", 1)
    scored(g, [100, 0, 0])
    assert not any(c["auction"] for t in g.snap["round"]["topics"] for c in t["cells"])
    assert "pack sets" in g.refused("/sg/select", 3, 3, "auction")
    g.step("/sg/select", 1, 2)
    assert g.snap["phase"] == "auction" and g.snap["round"]["topics"][0]["cells"][1]["auction"] is True


def test_au2_opening_stake_is_nominal_and_chooser_raises_up_to_score():
    # GIVEN the chooser has 100 WHEN an auction at 30 opens THEN stake 30 held by the chooser; bids above 100 refused
    g = Play(chooser=1)
    scored(g, [100, 0, 0])
    g.step("/sg/select", 1, 3, "auction")
    a = g.snap["auction"]
    assert (a["stake"], a["nominal"], a["holder"], a["turn"]) == (30, 30, 1, 1)
    assert "at most its score" in g.refused("/sg/auction/bid", 1, 150)
    g.step("/sg/auction/bid", 1, 70)
    # THEN the others cannot outbid (0 <= 70) and are passed: seat 1 answers alone for 70
    assert g.snap["phase"] == "auction_answer" and g.snap["answering"] == 1
    g.step("/sg/reading/done")
    g.step("/sg/judge/right")
    assert g.player(1)["score"] == 170


def test_au2_au6_chooser_at_or_below_nominal_plays_at_nominal():
    # GIVEN the chooser has 20, the others 0 WHEN an auction at 40 opens THEN nobody can bid: chooser plays 40
    g = Play(chooser=1)
    scored(g, [20, 0, 0])
    g.step("/sg/select", 1, 4, "auction")
    assert g.snap["phase"] == "auction_answer" and g.snap["question"]["stake"] == 40
    assert sorted(g.snap["auction"]["passed"]) == [1, 2, 3] and g.snap["auction"]["holder"] == 1
    g.step("/sg/reading/done")
    g.step("/sg/judge/wrong")
    assert g.player(1)["score"] == -20


def test_au3_turn_order_chooser_then_ascending_score_and_pass_is_final():
    # GIVEN scores 50 / 200 / 100 and seat 1 chooses WHEN the auction opens THEN order is 1, 3, 2
    g = Play(chooser=1)
    scored(g, [50, 200, 100])
    g.step("/sg/select", 1, 1, "auction")
    assert g.snap["auction"]["order"] == [1, 3, 2]
    assert "seat 1's turn" in g.refused("/sg/auction/bid", 2, 20)
    g.step("/sg/auction/bid", 1, 40)
    assert g.snap["auction"]["turn"] == 3
    g.step("/sg/auction/pass", 3)
    g.step("/sg/auction/bid", 2, 60)
    # THEN seat 1 (50) cannot outbid 60 and is passed; seat 3 has passed for good: seat 2 plays 60
    assert g.snap["phase"] == "auction_answer" and g.snap["answering"] == 2 and g.snap["question"]["stake"] == 60


def test_au4_allin_only_beaten_by_a_larger_allin():
    # GIVEN scores 120 / 200 / 0, seat 1 goes all-in with 120 WHEN seat 2 bids 150 THEN refused; all-in 200 wins
    g = Play(chooser=1)
    scored(g, [120, 200, 0])
    g.step("/sg/select", 1, 2, "auction")
    g.step("/sg/auction/allin", 1)
    a = g.snap["auction"]
    assert a["allin"] is True and a["stake"] == 120 and a["turn"] == 2
    assert "larger all-in" in g.refused("/sg/auction/bid", 2, 150)
    g.step("/sg/auction/allin", 2)
    assert g.snap["phase"] == "auction_answer" and g.snap["answering"] == 2 and g.snap["question"]["stake"] == 200


def test_au4_bid_of_whole_score_above_nominal_is_an_allin():
    """GIVEN the chooser has 80 and the nominal is 20 WHEN it bids 80 THEN the bid is an all-in (AU4)."""
    g = Play(chooser=1)
    scored(g, [80, 0, 0])
    g.step("/sg/select", 1, 2, "auction")
    g.step("/sg/auction/bid", 1, 80)
    assert g.snap["auction"]["allin"] is True


def test_au4_allin_needs_score_above_nominal():
    """GIVEN seat 2 has exactly the nominal 50 WHEN the chooser passes THEN seat 2 cannot go all-in or outbid, is
    passed (AU4, AU6), and the chooser plays 50."""
    g = Play(chooser=1)
    scored(g, [60, 50, 0])
    g.step("/sg/select", 1, 5, "auction")   # nominal 50, chooser 60
    g.step("/sg/auction/pass", 1)
    # seat 2 has 50 = nominal: cannot outbid, passed automatically (AU6); seat 1 plays 50
    assert g.snap["phase"] == "auction_answer" and g.snap["question"]["stake"] == 50


def test_au5_auction_answer_15s_and_choice_passes_to_auction_player_whatever_the_answer():
    # GIVEN seat 2 chose, seat 3 wins the auction WHEN the 15 s run out THEN -stake and seat 3 takes the choice
    g = Play(chooser=2)
    scored(g, [0, 0, 100])
    g.step("/sg/select", 1, 1, "auction")
    # the chooser (0) and seat 1 (0) cannot outbid the nominal 10: they are passed, it is seat 3's turn
    assert g.snap["auction"]["turn"] == 3
    g.step("/sg/auction/bid", 3, 30)
    g.do(50.0, "/sg/reading/done")
    assert g.snap["question"]["deadline"] == 65.0
    g.wait(20)
    assert g.player(3)["score"] == 70 and g.snap["chooser"] == 3 and g.snap["phase"] == "reveal"


def test_au5_presses_ignored_during_auction_answer():
    """GIVEN seat 1 answers an auction alone WHEN seat 2 presses THEN nothing changes (AU5)."""
    g = Play(chooser=1)
    scored(g, [100, 0, 0])
    g.step("/sg/select", 1, 1, "auction")
    g.step("/sg/auction/pass", 1)
    g.step("/sg/button", 2)
    assert g.snap["answering"] == 1
