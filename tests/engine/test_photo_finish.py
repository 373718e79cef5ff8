"""Issue 27 item 2 and RULES.md BZ11: the photo finish — every press of the current and the last question in its
window, with its source, error bound, time after the live instant, gap and outcome; close calls; the host naming the
other player (/sg/answerer); the record rebuilt exactly by undo and by a replay of the journal."""
from __future__ import annotations

import json

import pytest

from scoreboard.engine import make
from scoreboard.engine.photo import KEEP_PRESSES
from scoreboard.session import Session
from tests.engine.helpers import Play


def presses(g: Play, which: str = "current") -> list[dict]:
    """Every press of the question's windows, each with its window's index."""
    rec = g.session.host_question()["presses"][which]
    return [dict(p, window=k) for k, w in enumerate(rec["windows"]) for p in w["presses"]]


def window(g: Play, k: int = -1) -> dict:
    return g.session.host_question()["presses"]["current"]["windows"][k]


def test_each_press_of_a_window_has_its_source_bound_time_gap_and_outcome():
    """GIVEN a novosibirsk question opened at 0.5 s (BZ1: live from the opening) WHEN the box's seat 1 presses at
    2.0 s, the key's seat 2 4 ms later, seat 1 again 40 ms later THEN the record says: seat 1 won (box ± 3 ms, 1500 ms
    after the opening), seat 2 too late by 4 ms (key ± 17 ms), seat 1's second press ignored with the rules' reason —
    presses the rules ignore (BZ8) are in it though the game did not change (BZ3, BZ11)."""
    g = Play()
    g.step("/sg/select", 1, 1)
    rev = g.snap["rev"]
    g.do(2.0, "/sg/button", 1, "box", 3)
    g.do(2.004, "/sg/button", 2, "key", 17)
    g.do(2.044, "/sg/button", 1, "box", 3)
    assert g.snap["rev"] == rev + 1                      # the two ignored presses changed nothing but the record
    first, second, third = presses(g)
    assert (first["seat"], first["source"], first["bound_ms"], first["after_ms"], first["gap_ms"], first["outcome"]) \
        == (1, "box", 3, 1500.0, None, "won")
    assert (second["seat"], second["source"], second["bound_ms"], second["gap_ms"], second["outcome"]) == (
        2, "key", 17, 4.0, "too_late")
    assert (third["seat"], third["gap_ms"], third["outcome"]) == (1, 40.0, "ignored")
    assert "BZ8" in third["reason"]


def test_a_press_without_source_is_a_remotes_with_no_bound():
    """GIVEN an open question WHEN a remote sends `/sg/button 3` THEN the record says remote, bound unknown."""
    g = Play()
    g.step("/sg/select", 1, 1)
    g.step("/sg/button", 3)
    (press,) = presses(g)
    assert (press["source"], press["bound_ms"], press["outcome"]) == ("remote", None, "won")


def test_a_false_start_waits_in_the_next_window_before_its_live_instant():
    """GIVEN novosibirsk: seat 1 answered wrong (BZ7: buttons dead until the restart) WHEN seat 2 presses 30 ms before
    the host's restart, again 1 s later (locked out), and seat 3 presses 200 ms after it THEN the second window shows
    seat 2's false start at −30 ms with its lockout, the locked-out press, seat 3's win at +200 ms."""
    g = Play()
    g.step("/sg/select", 1, 1)
    g.step("/sg/reading/done")
    g.step("/sg/button", 1, "box", 2)
    g.step("/sg/judge/wrong")
    t = g.t
    g.do(t + 1.0, "/sg/button", 2, "box", 2)
    g.do(t + 1.03, "/sg/resume")
    g.do(t + 1.5, "/sg/button", 2, "box", 2)
    g.do(t + 1.6, "/sg/button", 3, "box", 2)
    w = window(g)
    assert [(p["seat"], p["outcome"], p["after_ms"]) for p in w["presses"]] == [
        (2, "false_start", -30.0), (2, "locked_out", 470.0), (3, "won", 570.0)]
    assert w["presses"][0]["locked_until"] == pytest.approx(t + 3.0)
    assert len(g.session.host_question()["presses"]["current"]["windows"]) == 2


def test_two_stamps_closer_than_their_bounds_are_a_close_call_and_farther_ones_are_not():
    """GIVEN an open question WHEN seat 1's key (± 17 ms) and seat 2's phone (± 30 ms) press 20 ms apart THEN both
    carry the close call (gap 20 ms < 47 ms); WHEN in the next question two box presses (± 2 ms) are 20 ms apart THEN
    nothing is marked (BZ11)."""
    g = Play()
    g.step("/sg/select", 1, 1)
    g.do(g.t + 1, "/sg/button", 1, "key", 17)
    g.do(g.t + 0.02, "/sg/button", 2, "phone", 30)
    first, second = presses(g)
    assert first["close"] == {"with": 2, "gap_ms": 20.0, "bounds_ms": 47}
    assert second["close"] == {"with": 1, "gap_ms": 20.0, "bounds_ms": 47}
    assert window(g)["close"]
    g.step("/sg/judge/right")
    g.step("/sg/select", 1, 2)
    g.do(g.t + 1, "/sg/button", 1, "box", 2)
    g.do(g.t + 0.02, "/sg/button", 2, "box", 2)
    assert [p["close"] for p in presses(g)] == [None, None] and not window(g)["close"]
    assert [p["seat"] for p in presses(g, "last")] == [1, 2]       # the last question's record is kept


def test_a_press_within_its_bound_of_the_live_instant_is_a_close_call():
    """GIVEN novosibirsk after a wrong answer WHEN seat 2's phone (± 40 ms) presses 25 ms before the restart
    (a false start by its stamp, BZ7) THEN it is marked close to the live instant with the gap."""
    g = Play()
    g.step("/sg/select", 1, 1)
    g.step("/sg/button", 1)
    g.step("/sg/judge/wrong")
    g.do(g.t + 1.0, "/sg/button", 2, "phone", 40)
    g.do(g.t + 0.025, "/sg/resume")
    (press,) = window(g)["presses"]
    assert press["outcome"] == "false_start" and press["close"] == {"with": "live", "gap_ms": 25.0, "bounds_ms": 40}


def test_the_host_names_the_other_player_of_a_close_call_journaled_and_undoable(tmp_path):
    """GIVEN a close call (keys 5 ms apart, ± 17 ms each) WHEN the host sends /sg/answerer 2 before the verdict THEN
    seat 2 answers, the window says who was named instead of whom, the journal holds it; WHEN the host undoes it
    THEN seat 1 answers again (BZ11, BZ9's manual naming)."""
    g = Play(journal=tmp_path / "g.db")
    g.step("/sg/select", 1, 1)
    g.step("/sg/button", 1, "key", 17)
    g.do(g.t + 0.005, "/sg/button", 2, "key", 17)
    assert "answering already" in g.refused("/sg/answerer", 1)
    assert "no close call" in g.refused("/sg/answerer", 3)
    g.step("/sg/answerer", 2)
    assert g.snap["answering"] == 2 and g.snap["phase"] == "answering"
    assert window(g)["named"] == {"seat": 2, "instead_of": 1, "at": g.t}
    addresses = [row[0] for row in g.session.journal.db.execute("SELECT address FROM events")]
    assert addresses[-1] == "/sg/answerer"
    g.step("/sg/undo")
    assert g.snap["answering"] == 1 and window(g)["named"] is None
    assert [p["seat"] for p in window(g)["presses"]] == [1, 2]      # the ignored press survived the undo's rebuild


def test_naming_the_other_player_is_refused_after_the_verdict_and_without_a_close_call():
    """GIVEN box presses 30 ms apart (± 2 ms: no close call) THEN /sg/answerer is refused; GIVEN a close call judged
    wrong THEN /sg/answerer is refused: the verdict is in (BZ11)."""
    g = Play()
    g.step("/sg/select", 1, 1)
    g.step("/sg/button", 1, "box", 2)
    g.do(g.t + 0.03, "/sg/button", 2, "box", 2)
    assert "no close call" in g.refused("/sg/answerer", 2)
    g.step("/sg/judge/wrong")
    assert "before the verdict" in g.refused("/sg/answerer", 2)


def test_the_record_is_bounded():
    """GIVEN a stuck button pressing 500 times after the winner WHEN the record is read THEN it keeps KEEP_PRESSES
    presses and counts the rest as dropped."""
    g = Play()
    g.step("/sg/select", 1, 1)
    g.step("/sg/button", 1)
    for i in range(500):
        g.do(g.t + 0.001, "/sg/button", 2, "box", 2)
    rec = g.session.host_question()["presses"]["current"]
    assert sum(len(w["presses"]) for w in rec["windows"]) == KEEP_PRESSES and rec["dropped"] == 501 - KEEP_PRESSES


def play_disputed(g: Play) -> None:
    """Two questions with ignored presses, a false start, a close call named instead, and an undo."""
    g.step("/sg/select", 1, 1)
    g.step("/sg/button", 1, "key", 17)
    g.do(g.t + 0.004, "/sg/button", 2, "key", 17)
    g.do(g.t + 0.004, "/sg/button", 1, "key", 17)
    g.step("/sg/answerer", 2)
    g.step("/sg/judge/wrong")
    g.do(g.t + 0.5, "/sg/button", 3, "phone", 40)
    g.do(g.t + 0.01, "/sg/resume")
    g.do(g.t + 0.2, "/sg/button", 1, "box", 2)
    g.do(g.t + 0.001, "/sg/button", 3, "box", 2)
    g.step("/sg/judge/right")
    g.step("/sg/select", 2, 1)
    g.step("/sg/button", 2, "box", 2)
    g.do(g.t + 0.01, "/sg/button", 1, "box", 2)
    g.step("/sg/judge/wrong")
    g.step("/sg/undo")
    g.do(g.t + 0.1, "/sg/button", 3, "box", 2)


class Recorded(Play):
    """Play, keeping every command it submits (to send them again through the board's batches)."""
    def __init__(self, *args, **kwargs):
        self.sent = []
        super().__init__(*args, **kwargs)

    def do(self, at, address, *args):
        self.sent.append(make(at, address, *args))
        return super().do(at, address, *args)


def test_the_record_comes_back_identical_after_a_crash_and_in_a_board_batch(tmp_path):
    """GIVEN a disputed game journaled to a file (ignored presses logged in the `ignored` table, not as events) WHEN
    the board crashes and the journal is recovered THEN the photo finish is exactly the one before (BZ11: replay
    reproduces it); WHEN the same commands go through the board's batches (three a turn) THEN the record is the same
    again, and again after that journal's recovery."""
    path = tmp_path / "game.db"
    g = Recorded(journal=path)
    play_disputed(g)
    before = json.dumps(g.session.host_question()["presses"])
    assert g.session.host_question()["presses"]["last"]["windows"][0]["named"] is not None
    g.session.journal.close()
    recovered = Session.recover(path)
    assert json.dumps(recovered.host_question()["presses"]) == before
    recovered.close()
    batched = Session(tmp_path / "batched.db")
    for i in range(0, len(g.sent), 3):
        assert all(ok for ok, _ in batched.submit_batch(g.sent[i:i + 3]))
    assert json.dumps(batched.host_question()["presses"]) == before
    batched.close()
    again = Session.recover(tmp_path / "batched.db")
    assert json.dumps(again.host_question()["presses"]) == before
    again.close()


def test_the_snapshot_never_carries_the_record():
    """GIVEN a disputed game WHEN its snapshot (what the hall, views and streams get) is read THEN no press's source,
    bound, outcome or close call is in it: the record is `host_question()`'s only."""
    g = Play()
    play_disputed(g)
    text = json.dumps(g.snap)
    for word in ("presses", "bound_ms", "too_late", "false_start", "close", "phone", "\"box\""):
        assert word not in text
    assert g.session.host_question()["presses"]["seen"] > 0


def test_a_press_in_america_that_lost_the_race_is_too_late_and_used_up():
    """GIVEN america (one press per question, BZ4) WHEN seat 2 presses 10 ms after seat 1 THEN it is too late (the
    press is used up: the rules took it) and close to seat 1's when their bounds cover 10 ms."""
    g = Play("america-2005", "selection", chooser=None)
    g.step("/sg/next")
    g.step("/sg/next")
    assert g.snap["phase"] == "reading"
    g.step("/sg/button", 1, "key", 17)
    g.do(g.t + 0.01, "/sg/button", 2, "key", 17)
    assert [(p["seat"], p["outcome"]) for p in presses(g)] == [(1, "won"), (2, "too_late")]
    assert presses(g)[1]["close"]["with"] == 1 and g.player(2)["pressed"]
    g.session.submit(make(g.t + 0.5, "/sg/answerer", 2))
    assert g.snap["answering"] == 2


def test_the_remotes_check_takes_the_record_and_refuses_a_bad_one():
    """GIVEN a disputed game's host question WHEN the remotes' one check reads it THEN it passes; WHEN a press's seat
    is text or a window's presses are not a list THEN the check names the path (nothing from the network is
    trusted)."""
    from scoreboard.snapshot_check import check_host_question
    g = Play()
    play_disputed(g)
    question = g.session.host_question()
    assert check_host_question(question) == []
    question["presses"]["last"]["windows"][0]["presses"][0]["seat"] = "один"
    question["presses"]["current"]["windows"][0]["presses"] = "много"
    problems = check_host_question(question)
    assert any("presses.last.windows[0].presses[0].seat" in p for p in problems)
    assert any("presses.current.windows[0].presses" in p for p in problems)
