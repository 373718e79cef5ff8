"""Issue 27 item 2 (last clause) and RULES.md BZ11: the host sends the photo finish to the hall's screens —
`/sg/photo/show` and `/sg/photo/hide`, the snapshot's `photo` (its public form), journaled, replayed and undone like
every host command, gone when the next question opens or the buttons go live again, refused where there is no
record to show."""
from __future__ import annotations

import json
import random

import pytest

from scoreboard.demo.playthrough import steps
from scoreboard.engine import Refused, make
from scoreboard.session import Session
from tests.engine.helpers import Play
from tests.engine.test_properties import strip


def close_call(g: Play) -> None:
    """A question opened (novosibirsk: live from the opening, BZ1), 1 s later seat 1's key and seat 2's phone 6 ms
    apart (± 17 and ± 40 ms: a close call, BZ11)."""
    g.step("/sg/select", 1, 1)
    g.do(g.t + 1.0, "/sg/button", 1, "key", 17)
    g.do(g.t + 0.006, "/sg/button", 2, "phone", 40)


def test_bz11_the_host_shows_the_photo_finish_to_the_hall_in_its_public_form():
    """GIVEN a close call while seat 1 answers WHEN the host sends /sg/photo/show THEN the snapshot's `photo` holds
    the window's presses in the order of their stamps — seat, source, bound, time after the live instant, gap after
    the first — and the close call; nothing of the rules' reasons, no lockout times, no text (issue 27 item 2)."""
    g = Play()
    close_call(g)
    assert g.snap["photo"] is None                              # the hall sees nothing until the host sends it
    g.step("/sg/photo/show")
    photo = g.snap["photo"]
    value = g.snap["round"]["topics"][0]["cells"][0]["value"]
    assert (photo["of"], photo["topic"], photo["index"], photo["close"]) == ("current", 1, 1, True)
    assert photo["value"] == value
    assert photo["topic_name"] == g.snap["round"]["topics"][0]["name"]
    first, second = photo["presses"]
    assert (first["seat"], first["source"], first["bound_ms"], first["behind_ms"], first["outcome"]) == (
        1, "key", 17, 0.0, "won")
    assert (second["seat"], second["source"], second["bound_ms"], second["behind_ms"], second["outcome"]) == (
        2, "phone", 40, 6.0, "too_late")
    assert first["after_ms"] == 1000.0 and first["close"] == {"with": 2, "gap_ms": 6.0, "bounds_ms": 57}
    assert set(first) == {"seat", "source", "bound_ms", "after_ms", "behind_ms", "outcome", "close"}
    assert "Refused" not in json.dumps(photo) and "reason" not in json.dumps(photo)


def test_bz11_the_hall_photo_stays_through_the_verdict_and_goes_when_the_buttons_go_live_or_a_question_opens():
    """GIVEN the photo finish on the hall's screens WHEN the host judges wrong THEN it stays (the dispute is about
    that race); WHEN the host restarts (the buttons go live) THEN it goes away by itself; GIVEN it shown again at the
    reveal WHEN the next question opens THEN it goes away by itself (issue 27 item 2)."""
    g = Play()
    close_call(g)
    g.step("/sg/photo/show")
    g.step("/sg/judge/wrong")
    assert g.snap["phase"] == "after_wrong" and g.snap["photo"] is not None
    g.step("/sg/resume")
    assert g.snap["buttons_live"] and g.snap["photo"] is None
    g.step("/sg/button", 3, "box", 2)
    g.step("/sg/judge/right")
    g.step("/sg/photo/show")
    assert [p["seat"] for p in g.snap["photo"]["presses"]] == [3]     # the newest window: the race after the restart
    g.step("/sg/select", 2, 1)
    assert g.snap["photo"] is None


def test_bz11_between_questions_the_last_question_with_presses_is_shown_and_hidden():
    """GIVEN a question no one pressed in («Время») after one with a close call WHEN the host shows the photo finish
    at its reveal THEN it is the last question's (`of` = last); WHEN the host hides it THEN it is gone, and a second
    hide is refused (issue 27 item 2)."""
    g = Play()
    close_call(g)
    g.step("/sg/judge/right")
    g.step("/sg/select", 2, 1)
    g.step("/sg/reading/done")
    g.step("/sg/time")
    assert g.snap["phase"] == "reveal"
    g.step("/sg/photo/show")
    assert (g.snap["photo"]["of"], g.snap["photo"]["topic"]) == ("last", 1)
    assert "already" in g.refused("/sg/photo/show")
    g.step("/sg/photo/hide")
    assert g.snap["photo"] is None
    assert "not on the hall's screens" in g.refused("/sg/photo/hide")


def test_bz11_show_is_refused_where_there_is_no_record_or_the_race_is_on():
    """GIVEN a game before its first question, an open question nobody pressed in, a race on (buttons live), a game
    not started THEN /sg/photo/show is refused with the reason and changes nothing; a paused race may be
    shown (issue 27 item 2)."""
    g = Play()
    assert "empty" in g.refused("/sg/photo/show")                     # choosing: no question played yet
    g.step("/sg/select", 1, 1)
    assert "buttons are live" in g.refused("/sg/photo/show")
    g.step("/sg/pause")
    assert "empty" in g.refused("/sg/photo/show")                     # paused, but nobody pressed
    g.step("/sg/unpause")
    g.step("/sg/button", 1, "box", 2)
    g.step("/sg/judge/right")
    g.step("/sg/select", 1, 2)
    g.step("/sg/button", 2, "box", 2)
    g.step("/sg/judge/wrong")
    g.step("/sg/resume")
    assert "buttons are live" in g.refused("/sg/photo/show")
    g.step("/sg/pause")
    g.step("/sg/photo/show")                                        # the race paused: the host may settle it now
    assert g.snap["photo"]["presses"][0]["seat"] == 2
    g.step("/sg/unpause")
    assert g.snap["photo"] is None                                  # the race goes on: the panel goes away
    over = Play(start=False)
    assert "has not started" in over.refused("/sg/photo/show")


def test_bz11_show_and_hide_are_journaled_replayed_recovered_and_undone(tmp_path):
    """GIVEN the photo finish shown, hidden and shown again, journaled to a file WHEN the journal is replayed into a
    fresh engine and the board recovers from it THEN the snapshot's `photo` is the same; WHEN the host undoes the
    last show THEN it is hidden again, and undoing the hide brings it back — the same state as before (issue 27
    item 2: a host command like every other)."""
    path = tmp_path / "game.db"
    g = Play(journal=path)
    close_call(g)
    g.step("/sg/photo/show")
    shown = g.snap["photo"]
    g.step("/sg/photo/hide")
    g.step("/sg/photo/show")
    assert g.snap["photo"] == shown
    addresses = [row[0] for row in g.session.journal.db.execute("SELECT address FROM events")]
    assert addresses[-3:] == ["/sg/photo/show", "/sg/photo/hide", "/sg/photo/show"]
    live = g.snap
    g.session.journal.close()
    recovered = Session.recover(path)
    assert recovered.snapshot()["photo"] == live["photo"]
    recovered.close()
    g = Play()
    close_call(g)
    g.step("/sg/photo/show")
    g.step("/sg/photo/hide")
    g.step("/sg/undo")
    assert g.snap["photo"] == shown
    g.step("/sg/undo")
    assert g.snap["photo"] is None and g.snap["phase"] == "answering"


def test_bz11_the_hall_photo_goes_away_when_play_leaves_for_an_auction():
    """GIVEN the photo finish shown at a reveal WHEN the chooser opens an auction cell (a new question) THEN it goes
    away, and in the auction it is refused: an auction takes no presses (issue 27 item 2)."""
    g = Play()
    close_call(g)
    g.step("/sg/judge/right")
    g.step("/sg/photo/show")
    g.step("/sg/select", 2, 2, "auction")
    assert g.snap["phase"] in ("auction", "auction_answer") and g.snap["photo"] is None
    assert "only during a question that takes presses" in g.refused("/sg/photo/show")



def test_bz11_the_hall_sees_the_window_as_the_host_sent_it_until_sent_again():
    """GIVEN the photo finish sent to the hall while seat 1 answers WHEN seat 3's button presses later (ignored by
    the rules: no new rev, nothing redrawn on the hall's screens) THEN the hall's form is unchanged; WHEN the host
    sends it again THEN it holds that press too (issue 27 item 2: the hall sees what the host sent)."""
    g = Play()
    close_call(g)
    g.step("/sg/photo/show")
    sent, rev = g.snap["photo"], g.snap["rev"]
    g.do(g.t + 0.3, "/sg/button", 3, "box", 2)
    assert g.snap["rev"] == rev and g.snap["photo"] == sent
    g.step("/sg/photo/show")
    assert [p["seat"] for p in g.snap["photo"]["presses"]] == [1, 2, 3]



@pytest.mark.parametrize("regulation", ["novosibirsk-2007", "america-2005", "samara-2003"])
def test_bz11_random_games_with_the_hall_photo_recover_and_undo_exactly(regulation, tmp_path):
    """GIVEN random games on a real journal file (the demo's random host and players, scoreboard/demo/playthrough.py)
    in which the host also sends the photo finish to the hall and takes it away at random WHEN a show or a hide is
    undone at once THEN the snapshot is exactly the one before it; a refused one changes nothing; WHEN the board
    recovers each game from its journal (its ignored presses included) THEN the snapshot — `photo` included — is the
    live one (issue 27 item 2: a host command like every other)."""
    shown = at_crash = 0
    for seed in range(3):
        path = tmp_path / f"{seed}.db"
        session, rng = Session(path), random.Random(seed)
        for n, (cmd, t) in enumerate(steps(session, regulation, rng, 200)):
            if n > 60 and session.snapshot()["photo"] is not None:
                break                               # the board goes down while the hall shows the photo finish
            if rng.random() < 0.25:
                before = session.snapshot()
                address = "/sg/photo/hide" if before.get("photo") and rng.random() < 0.4 else "/sg/photo/show"
                try:
                    session.submit(make(before["time"], address))
                except Refused:
                    assert session.snapshot() == before
                else:
                    shown += address == "/sg/photo/show"
                    if rng.random() < 0.3:
                        session.submit(make(before["time"], "/sg/undo"))
                        assert strip(session.snapshot()) == strip(before)
            try:
                session.advance(t) if cmd is None else session.submit(cmd)
            except Refused:
                pass
        live = session.snapshot()
        at_crash += live["photo"] is not None
        session.close()
        recovered = Session.recover(path)
        assert strip(recovered.snapshot()) == strip(live) and recovered.snapshot()["photo"] == live["photo"]
        recovered.close()
    assert shown > 15 and at_crash, (shown, at_crash)
