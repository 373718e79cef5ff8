"""The rules the audit found open (issue 11 item 7): FN5, AU1's decision, BZ6 for america, TB3's drawn extra topic,
BZ10 «Уточните» — and the tie-break pool (TB1, TB3: the pack's unplayed topics, placeholders only when none)."""
from scoreboard.engine import Command
from tests.engine.helpers import Play
from tests.engine.test_au_auction import scored
from tests.engine.test_fn_final import to_final
from tests.engine.test_tb_ties import finish_tiebreak_round


def topic(name, questions=5, text=True, auction_at=None):
    return {"name": name, "questions": [{"text": f"{name} {q}?" if text else "", "answer": f"{name} {q}",
                                         "auction": q == auction_at} for q in range(1, questions + 1)]}


def load(g, plan):
    g.session.submit(Command(g.t, "/sg/pack/load", ("test.toml",), plan))


def test_fn5_auction_stake_above_the_score_after_a_correction_comes_down():
    """GIVEN seat 2 holds an auction stake of 100 WHEN the host corrects seat 2 from 150 to 50 and seat 2 answers wrong
    THEN the stake came down to 50 (shown and logged in stake_changes) and seat 2 ends at 0, not −50 (FN5)."""
    g = Play()
    scored(g, [0, 150, 0])
    g.step("/sg/select", 1, 1, "auction")
    g.step("/sg/auction/bid", 1, 10) if g.snap["auction"]["turn"] == 1 else None
    g.step("/sg/auction/bid", 2, 100)
    assert g.snap["phase"] == "auction_answer" and g.snap["question"]["stake"] == 100
    g.step("/sg/score/adjust", 2, -100, "ошибка счёта")
    assert g.snap["question"]["stake"] == 50
    change = g.snap["stake_changes"][-1]
    assert change["seat"] == 2 and change["kind"] == "auction" and (change["from"], change["to"]) == (100, 50)
    g.step("/sg/reading/done")
    g.step("/sg/judge/wrong")
    assert g.player(2)["score"] == 0


def test_fn5_final_stake_above_the_new_score_is_asked_for_again():
    """GIVEN seat 2 staked 100 of 150 in the final round WHEN a correction leaves seat 2 with 50 THEN that stake is
    asked for again (not in stakes_in, the start is refused), the change is logged without its amount (FN4), and a
    new stake above 50 is refused (FN5, FN2)."""
    g = Play()
    to_final(g, [100, 150, 0])
    g.step("/sg/final/stake", 1, 40)
    g.step("/sg/final/stake", 2, 100)
    g.step("/sg/score/adjust", 2, -100, "ошибка счёта")
    snap = g.snap
    assert snap["phase"] == "final_stakes" and snap["final"]["stakes_in"] == [1]
    assert snap["stake_changes"][-1] == {"seat": 2, "kind": "final", "action": "asked_again", "from": None,
                                         "to": None, "time": g.t}
    assert "100" not in str(snap["stake_changes"])
    assert "missing" in g.refused("/sg/final/start")
    assert "from 1 to 50" in g.refused("/sg/final/stake", 2, 100)
    g.step("/sg/final/stake", 2, 50)
    g.step("/sg/final/start")
    assert g.snap["phase"] == "final_answer"


def test_fn5_final_stake_lowered_once_written_and_super_question_at_zero():
    """GIVEN america's super-question with seat 1 staking 40 and the answers being written WHEN seat 1 is corrected
    to 30, and seat 2 to −10 THEN seat 1's stake comes down to 30 and seat 2's to 0; a wrong reveal ends seat 1 at 0
    (FN5, FN3)."""
    g = Play("america-2005", "final")
    g.play_out_in_order("red")
    for seat, score in ((1, 40), (2, 20), (3, 10)):
        g.step("/sg/score/adjust", seat, score, "t")
    g.step("/sg/next")
    assert g.snap["phase"] == "final_stakes"
    for seat, stake in ((1, 40), (2, 20), (3, 10)):
        g.step("/sg/final/stake", seat, stake)
    g.step("/sg/final/start")
    g.step("/sg/score/adjust", 1, -10, "поправка")
    g.step("/sg/score/adjust", 2, -30, "поправка")
    lowered = {c["seat"]: c for c in g.snap["stake_changes"]}
    assert lowered[1]["action"] == lowered[2]["action"] == "lowered" and lowered[1]["to"] is None   # FN4: hidden
    g.step("/sg/time")
    g.step("/sg/final/judge", 1, "wrong")
    g.step("/sg/final/reveal", 1)
    revealed = g.snap["final"]["revealed"][0]
    assert revealed["stake"] == 30 and g.player(1)["score"] == 0
    assert g.snap["stake_changes"][0]["to"] == 30, "the amount shows once the seat is revealed"
    g.step("/sg/final/judge", 2, "wrong")
    g.step("/sg/final/reveal", 2)
    assert g.player(2)["score"] == -10


def test_au1_a_pack_round_without_an_auction_is_warned_and_the_host_marks_one():
    """GIVEN a pack whose blue round marks no auction and whose red round marks one WHEN it is loaded THEN the host
    is warned about the blue round only; the host may mark a blue cell as the auction when choosing it (AU1
    Decision)."""
    g = Play(start=False)
    load(g, {"rounds": [{"name": "Синий", "topics": [topic(f"С{k}") for k in range(1, 5)]},
                        {"name": "Красный", "topics": [topic("К1", auction_at=2)] + [topic(f"К{k}")
                                                                                    for k in range(2, 5)]}]})
    warnings = g.snap["warnings"]
    assert any("round 1 «Синий»" in w and "AU1" in w for w in warnings)
    assert not any("round 2" in w for w in warnings)
    assert g.session.notices and any("AU1" in n for n in g.session.notices)
    g.step("/sg/game/start")
    g.step("/sg/chooser", 1)
    assert g.snap["round"]["auctions_missing"] == 1
    scored(g, [100, 0, 0])
    g.step("/sg/select", 2, 2, "auction")
    assert g.snap["phase"] == "auction" and g.snap["round"]["auctions_missing"] == 0


def test_au1_a_round_never_ends_without_its_auction_unless_the_host_waives_it():
    """GIVEN a blue round with no auction and one cell left WHEN the host selects it plainly THEN it is refused with
    what to do; WHEN the host waives the auction THEN the waiver is in the snapshot and the journal, and the round
    ends (AU1 Decision)."""
    g = Play()
    cells = [(k, q) for k in range(1, 5) for q in range(1, 6)]
    for k, q in cells[:-1]:
        g.unanswered(k, q)
    reason = g.refused("/sg/select", 4, 5)
    assert "AU1" in reason and "auction" in reason and "waive" in reason
    g.step("/sg/auction/waive")
    assert g.snap["round"]["auction_waived"] is True and g.snap["round"]["auctions_missing"] == 0
    assert "nothing to waive" in g.refused("/sg/auction/waive") or "already" in g.refused("/sg/auction/waive")
    g.unanswered(4, 5)
    g.step("/sg/next")
    assert g.snap["round"]["kind"] == "red"


def test_au1_the_last_cell_may_be_opened_as_the_auction():
    """GIVEN a blue round with no auction and one cell left WHEN the host opens it as the auction THEN it is one
    (AU1 Decision)."""
    g = Play()
    scored(g, [0, 100, 0])
    for k, q in [(k, q) for k in range(1, 5) for q in range(1, 6)][:-1]:
        g.unanswered(k, q)
    g.step("/sg/select", 4, 5, "auction")
    assert g.snap["question"]["kind"] == "auction"


def test_bz6_america_reset_during_reading_opens_a_new_window_at_once():
    """GIVEN america, seat 1 pressed during reading and answered wrong WHEN the host resets (/sg/resume) THEN a new
    5 s window opens at once, reading or not (BZ6, america); GIVEN novosibirsk the same way THEN reading resumes."""
    g = Play("america-2005", "selection")
    g.step("/sg/next")
    g.step("/sg/next")
    assert g.snap["phase"] == "reading"
    g.step("/sg/button", 1)
    g.step("/sg/judge/wrong")
    g.step("/sg/resume")
    q = g.snap["question"]
    assert g.snap["phase"] == "buzz_window" and q["deadline"] == g.t + 5.0 and q["deadline_kind"] == "window"
    n = Play()
    n.step("/sg/select", 1, 1)
    n.step("/sg/button", 1)
    n.step("/sg/judge/wrong")
    n.step("/sg/resume")
    assert n.snap["phase"] == "reading" and n.snap["question"]["deadline"] is None


def test_bz10_america_clarify_shows_and_restarts_the_three_seconds():
    """GIVEN america, seat 2 answering with 1 s left WHEN the host says «Уточните» THEN the snapshot counts it for the
    answer and the 3 s answer time starts again (BZ10, BZ5); a new answer starts with none; novosibirsk refuses it."""
    g = Play("america-2005", "selection")
    for step in ("/sg/next", "/sg/next", "/sg/reading/done"):
        g.step(step)
    g.step("/sg/button", 2)
    g.step("/sg/answer/clarify", dt=2.0)
    q = g.snap["question"]
    assert q["clarify"] == 1 and g.snap["answering"] == 2 and q["deadline"] == g.t + 3.0 and q["duration"] == 3.0
    g.wait(2.5)
    assert g.snap["phase"] == "answering", "the restarted 3 s have not run out"
    g.step("/sg/judge/wrong", dt=0.2)
    g.step("/sg/resume")
    g.step("/sg/button", 1)
    assert g.snap["question"]["clarify"] == 0
    n = Play()
    n.step("/sg/select", 1, 1)
    n.step("/sg/button", 1)
    assert "BZ10" in n.refused("/sg/answer/clarify")


def test_tb3_samara_extra_topic_is_drawn_by_lot_over_the_unplayed_topics():
    """GIVEN a samara pack of 4 played topics and 3 extra topics, and a 40-40 tie WHEN the tie-break opens THEN its
    topic is drawn by a lot (seed logged, the candidates named) over the three, and the host reads the pack's
    question; a second extra topic is drawn over the two left (TB3, TB4)."""
    g = Play("samara-2003", "cup", seed=11, start=False)
    extras = [topic(f"Доп {k}") for k in range(1, 4)]
    load(g, {"rounds": [{"topics": [topic(f"Т{k}") for k in range(1, 5)]}], "extra": extras})
    g.step("/sg/game/start")
    g.finish_round({1: 40, 3: 40})
    lot = g.snap["lots"][-2]   # the topic lot, then the tie-break's chooser
    assert lot["what"].startswith("extra topic") and lot["seed"] == 11 and lot["among"] == [1, 2, 3]
    assert lot["names"] == ["Доп 1", "Доп 2", "Доп 3"]
    name = g.snap["round"]["topics"][0]["name"]
    assert name == lot["choice"]
    if g.snap["chooser"] is None:
        g.step("/sg/chooser", 1)
    g.step("/sg/select", 1, 1)
    assert g.session.host_question()["text"] == f"{name} 1?"
    g.step("/sg/time")
    finish_tiebreak_round(g, {})
    second = [entry for entry in g.snap["lots"] if entry["what"].startswith("extra topic")][-1]
    assert second["names"] == [n for n in lot["names"] if n != name]
    assert g.snap["round"]["topics"][0]["name"] == second["choice"]


def test_tb1_tie_break_takes_the_packs_unplayed_topics_before_placeholders():
    """GIVEN a novosibirsk 1/9 pack with 6 topics a round (the stage plays 4) and an empty-text extra topic WHEN the
    final round ends tied THEN the extra round of 2 topics is the blue round's unplayed topics 5 and 6, not «Доп. тема»
    nor the topic without text, and no warning was given (TB1, issue 10 item 2)."""
    g = Play(start=False)
    blue = [topic(f"С{k}") for k in range(1, 7)]
    red = [topic(f"К{k}") for k in range(1, 5)]
    load(g, {"rounds": [{"topics": blue}, {"topics": red}], "extra": [topic("Пустая", text=False)]})
    assert not any("TB" in w for w in g.snap["warnings"])
    g.step("/sg/game/start")
    g.step("/sg/chooser", 1)
    to_final(g, [100, 100, 60])
    for seat, stake in [(1, 50), (2, 50), (3, 10)]:
        g.step("/sg/final/stake", seat, stake)
    g.step("/sg/final/start")
    g.step("/sg/time")
    for seat in (1, 2, 3):
        g.step("/sg/final/judge", seat, "right")
        g.step("/sg/final/reveal", seat)
    assert g.snap["round"]["tiebreak"] and [t["name"] for t in g.snap["round"]["topics"]] == ["С5", "С6"]


def test_tb1_a_pack_with_no_unplayed_topic_warns_the_host_before_the_start():
    """GIVEN a pack with exactly the topics a 1/9 game plays WHEN it is loaded THEN the host is warned that a tie-break
    would be played on placeholder topics read from paper (TB1, issue 10 item 2)."""
    g = Play(start=False)
    load(g, {"rounds": [{"topics": [topic(f"С{k}", auction_at=1) for k in range(1, 5)]},
                        {"topics": [topic(f"К{k}", auction_at=1) for k in range(1, 5)]}]})
    tb = [w for w in g.snap["warnings"] if "tie-break" in w]
    assert len(tb) == 1 and "0 unplayed topic" in tb[0] and "paper" in tb[0]


def test_tb1_an_extra_round_with_one_unplayed_topic_takes_it_then_a_placeholder_topic():
    """GIVEN a novosibirsk 1/9 pack with 5 topics in its blue round (the stage plays 4: one unplayed) WHEN the final
    round ends tied THEN the extra round of 2 topics is that unplayed topic and «Доп. тема 2» — a placeholder topic,
    not an extra question (TB1: the second topic once read the first topic's questions as the «extra questions» flag)."""
    g = Play(start=False)
    blue = [topic(f"С{k}") for k in range(1, 6)]
    red = [topic(f"К{k}") for k in range(1, 5)]
    load(g, {"rounds": [{"topics": blue}, {"topics": red}]})
    g.step("/sg/game/start")
    g.step("/sg/chooser", 1)
    to_final(g, [100, 100, 60])
    for seat, stake in [(1, 50), (2, 50), (3, 10)]:
        g.step("/sg/final/stake", seat, stake)
    g.step("/sg/final/start")
    g.step("/sg/time")
    for seat in (1, 2, 3):
        g.step("/sg/final/judge", seat, "right")
        g.step("/sg/final/reveal", seat)
    assert g.snap["round"]["tiebreak"] and [t["name"] for t in g.snap["round"]["topics"]] == ["С5", "Доп. тема 2"]
    assert all(len(t["cells"]) == len(g.snap["round"]["topics"][0]["cells"]) for t in g.snap["round"]["topics"])
