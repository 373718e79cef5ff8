"""Undo back to any earlier point, pause, and bad input that changes nothing."""
import pytest

from scoreboard.engine import Command, Game, Refused, make
from scoreboard.regulations import load_regulation
from tests.engine.helpers import Play


def without(snap, *keys):
    return {k: v for k, v in snap.items() if k not in keys}


def test_undo_takes_back_last_host_command_and_the_presses_after_it():
    # GIVEN reading done, then seat 2 pressed WHEN the host undoes THEN both the press and "reading done" are gone
    g = Play()
    g.step("/sg/select", 1, 1)
    before = g.snap
    g.step("/sg/reading/done")
    g.step("/sg/button", 2)
    g.step("/sg/undo")
    assert without(g.snap, "rev", "time") == without(before, "rev", "time")
    assert g.snap["rev"] > before["rev"]


def test_undo_back_to_any_earlier_point():
    # GIVEN a sequence of host commands WHEN undone one by one THEN each earlier snapshot comes back
    g = Play()
    snaps = [g.snap]
    for k, q in [(1, 1), (2, 2), (3, 3)]:
        g.answer(k, q, k)
        snaps.append(g.snap)
    for expected in reversed(snaps[:-1]):
        for _ in range(4):   # select, reading/done, (press), judge: the press goes with reading/done
            if without(g.snap, "rev", "time", "paused", "paused_at") == without(expected, "rev", "time", "paused",
                                                                                "paused_at"):
                break
            g.step("/sg/undo")
        assert without(g.snap, "rev", "time", "paused", "paused_at") == without(expected, "rev", "time", "paused",
                                                                                 "paused_at")


def test_undo_with_a_running_clock_comes_back_paused_with_the_same_remaining_time():
    # GIVEN the 5 s window opened at 10 and a press at 12 WHEN the host undoes the judge at 13 THEN the game is paused
    g = Play()
    g.do(9, "/sg/select", 1, 1)
    g.do(10, "/sg/reading/done")
    g.do(11, "/sg/time")
    g.do(40, "/sg/undo")
    snap = g.snap
    assert snap["phase"] == "buzz_window" and snap["paused"] and snap["paused_at"] == 11
    assert snap["question"]["deadline"] - snap["paused_at"] == 4.0
    g.do(60, "/sg/unpause")
    assert g.snap["question"]["deadline"] == 64.0


def test_nothing_to_undo_after_new_game():
    """GIVEN only /sg/game/new WHEN the host undoes THEN refused: nothing to undo."""
    g = Play(start=False)
    assert "nothing to undo" in g.refused("/sg/undo")


def test_pause_freezes_every_clock():
    # GIVEN a window closing at 15 WHEN paused at 12 for 100 s THEN it does not fire; unpaused, 3 s remain
    g = Play()
    g.do(9, "/sg/select", 1, 1)
    g.do(10, "/sg/reading/done")
    g.do(12, "/sg/pause")
    g.wait(100)
    assert g.snap["phase"] == "buzz_window" and g.snap["paused"]
    g.do(200, "/sg/button", 1)
    assert g.snap["answering"] is None, "presses are ignored while paused"
    g.do(300, "/sg/unpause")
    assert g.snap["question"]["deadline"] == 303
    g.wait(2.9)
    assert g.snap["phase"] == "buzz_window"
    g.wait(0.2)
    assert g.snap["phase"] == "reveal"


@pytest.mark.parametrize("address,args,reason", [
    ("/sg/nope", (), "unknown address"),
    ("/sg/select", ("a", 1), "expected an integer"),
    ("/sg/select", (1,), "needs 2 to 3"),
    ("/sg/select", (1, 2, "auction", 4), "takes 2 to 3"),
    ("/sg/select", (9, 1), "no topic 9"),
    ("/sg/select", (1, 6), "no question 6"),
    ("/sg/button", (7,), "no seat 7"),
    ("/sg/button", (0,), "a seat is 1 or more"),
    ("/sg/button", (1, "tv"), "expected one of box, key, phone, remote"),
    ("/sg/button", (1, "phone", -3), "milliseconds are 0 or more"),
    ("/sg/button", (1, "phone", 30, 1), "takes 1 to 3"),
    ("/sg/score/adjust", (1, "1.5"), "expected an integer"),
    ("/sg/answer/extend", ("inf",), "finite"),
    ("/sg/judge/right", (), "not now"),
    ("/sg/final/stake", (1, 10), "not now"),
    ("/sg/auction/bid", (1, 10), "not now"),
    ("/sg/screen", ("tv",), "expected one of"),
    ("/sg/buttons/manual", ("2",), "expected 0 or 1"),
])
def test_bad_commands_are_refused_and_change_nothing(address, args, reason):
    """GIVEN a started game WHEN a malformed or ill-timed command arrives THEN it is refused with the reason and
    the snapshot is unchanged."""
    g = Play()
    assert reason in g.refused(address, *args)


def test_time_going_backwards_is_refused():
    """GIVEN a command at 10 WHEN one stamped 9.5 arrives THEN refused (time goes backwards), nothing changes."""
    g = Play()
    g.do(10, "/sg/select", 1, 1)
    before = g.snap
    with pytest.raises(Refused, match="time goes backwards"):
        g.session.submit(make(9.5, "/sg/reading/done"))
    assert g.snap == before


def test_clock_is_internal_to_the_board():
    """GIVEN a game WHEN a sender submits /sg/clock THEN refused: only the board fires deadlines."""
    g = Play()
    with pytest.raises(Refused, match="internal"):
        g.session.submit(Command(1, "/sg/clock"))


def test_engine_refuses_a_command_past_an_unfired_deadline():
    # GIVEN a bare engine with a window closing at 6 WHEN a press at 7 comes without the clock THEN refused
    game = Game(load_regulation)
    for c in [make(0, "/sg/game/new", "novosibirsk-2007", "1/9"), make(0, "/sg/game/start"), make(0, "/sg/chooser", 1),
              make(0, "/sg/select", 1, 1), make(1, "/sg/reading/done")]:
        game.apply(c)
    with pytest.raises(Refused, match="must fire"):
        game.apply(make(7, "/sg/button", 1))


def test_snapshot_stays_small_enough_for_one_datagram_after_many_corrections():
    # GIVEN 900 host corrections (G8) WHEN the snapshot is built THEN it keeps the newest 30, counts all, < 60 KB
    import json
    g = Play()
    for i in range(900):
        g.step("/sg/score/adjust", 1 + i % 3, 1, "поправка", dt=0.01)
    snap = g.snap
    assert len(snap["adjustments"]) == 30 and snap["adjustments_total"] == 900
    assert snap["players"][0]["score"] == 300
    assert len(json.dumps(snap, ensure_ascii=False).encode()) < 60_000


def test_undo_never_takes_back_a_pause_it_undoes_the_last_game_command():
    """GIVEN a question answered wrong, then the host pauses WHEN the host undoes THEN the wrong verdict is taken back
    (seat 2 answers again) and the game stays paused (issue 11 item 5)."""
    g = Play()
    g.step("/sg/select", 1, 1)
    g.step("/sg/reading/done")
    g.step("/sg/button", 2)
    g.step("/sg/judge/wrong")
    g.step("/sg/pause")
    g.step("/sg/undo")
    snap = g.snap
    assert snap["phase"] == "answering" and snap["answering"] == 2 and g.player(2)["score"] == 0
    assert snap["paused"] is True


def test_undo_never_takes_back_an_unpause():
    """GIVEN a paused game the host unpaused, then a cell opened WHEN the host undoes THEN the opening is taken back
    and the game is not paused again where no clock runs; the same for a cell opened while paused, then unpaused
    (issue 11 item 5)."""
    g = Play()
    g.step("/sg/pause")
    g.step("/sg/unpause")
    g.step("/sg/select", 1, 1)
    g.step("/sg/undo")
    assert g.snap["phase"] == "round_intro" and g.snap["paused"] is False
    g.step("/sg/pause")
    g.step("/sg/select", 1, 2)
    g.step("/sg/unpause")
    g.step("/sg/undo")   # takes back the select made while paused; the unpause stays
    assert g.snap["phase"] == "round_intro" and g.snap["paused"] is False


def test_undo_keeps_a_recoverys_pause(tmp_path):
    """GIVEN a journal recovered after a crash (it comes back paused) WHEN the host undoes THEN the last game command is
    taken back and the game is still paused (issue 11 item 5)."""
    from scoreboard.engine import make
    from scoreboard.session import Session
    path = tmp_path / "g.sqlite"
    s = Session(path)
    for at, address, *args in [(0, "/sg/game/new", "novosibirsk-2007", "1/9"), (0, "/sg/game/start"),
                               (0, "/sg/chooser", 1), (1, "/sg/select", 1, 1), (2, "/sg/reading/done")]:
        s.submit(make(at, address, *args))
    s.close()
    r = Session.recover(path)
    assert r.snapshot()["paused"] is True
    r.submit(make(3, "/sg/undo"))
    snap = r.snapshot()
    assert snap["phase"] == "reading" and snap["paused"] is True
    r.close()
