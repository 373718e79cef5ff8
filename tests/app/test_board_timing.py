"""No press lost to timing (issue 11 item 3): on the real board loop with a real Session, a real SQLite journal and
the links' real Inbox, host commands wait out the box's grace while the box's presses never wait, so a press that
reaches the board after a host command stamped later is still applied first, by its own stamp (BZ3, BZ7, BZ1)."""
import pytest

from scoreboard.engine.commands import make

pytest.importorskip("scoreboard.links")
GRACE = 0.03


@pytest.fixture
def board(board_factory):
    """The real `buttons.grace` default of an event box: host commands wait it out."""
    return board_factory(grace=GRACE, screens=[("host", (320, 180))])


def host(board, address, *args, at=None):
    """A remote's command, stamped on arrival as the OSC server stamps it; returns its ack (filled when applied)."""
    acks = []
    board.inbox.put(make(board.now() if at is None else at, address, *args), "osc:1",
                    lambda ok, reason: acks.append((ok, reason)))
    return acks


def press(board, seat, at):
    """A box press as the serial reader delivers it: stamped with the box's (mapped) time, source serial."""
    board.inbox.put_many([(make(at, "/sg/button", seat), "serial")])


def tick(board, dt):
    board.fake_clock.t += dt
    board.frame()


def to_after_wrong(board):
    for address, *args in [("/sg/game/start",), ("/sg/chooser", 1), ("/sg/select", 1, 1), ("/sg/reading/done",)]:
        host(board, address, *args)
        tick(board, 0.1)
    press(board, 1, board.now())
    tick(board, 0.1)
    host(board, "/sg/judge/wrong")
    tick(board, 0.1)
    assert board.session.snapshot()["phase"] == "after_wrong"
    tick(board, 0.1)


def test_bz7_false_start_reaching_the_board_after_the_hosts_resume_still_locks_out(board):
    """GIVEN novosibirsk after a wrong verdict WHEN seat 2 presses (a false start) 10 ms before the host's
    /sg/resume is stamped, but the press reaches the board 10 ms after the resume did (a buffering USB adapter)
    THEN the press is applied first by its stamp: seat 2 is locked out for 2 s from its press (BZ7), then the resume
    is applied and acked ok — nothing refused as "time goes backwards"."""
    to_after_wrong(board)
    stamp = board.now()
    ack = host(board, "/sg/resume", at=stamp + 0.010)      # the host's command arrives first...
    tick(board, 0.005)
    assert ack == [], "a host command waits out the grace"
    press(board, 2, stamp)                                   # ...the earlier press 15 ms later
    tick(board, 0.010)
    snap = board.session.snapshot()
    assert snap["players"][1]["locked_until"] == pytest.approx(stamp + 2.0)
    tick(board, GRACE)
    assert ack == [(True, None)] and board.session.snapshot()["phase"] == "buzz_window"
    assert not board.refused
    rows = board.session.journal.db.execute("SELECT address, at FROM events ORDER BY seq DESC LIMIT 2").fetchall()
    assert [r[0] for r in rows] == ["/sg/resume", "/sg/button"]


def test_bz1_press_during_reading_wins_against_reading_done_stamped_10ms_later(board):
    """GIVEN a question being read WHEN seat 3 presses and the host's /sg/reading/done, stamped 10 ms after the
    press, reaches the board before it THEN seat 3 answers (BZ1: a press during reading stops it) and the host
    hears that reading/done was refused — never the other way round."""
    for address, *args in [("/sg/game/start",), ("/sg/chooser", 1), ("/sg/select", 1, 1)]:
        host(board, address, *args)
        tick(board, 0.1)
    tick(board, 0.1)
    stamp = board.now()
    ack = host(board, "/sg/reading/done", at=stamp + 0.010)
    tick(board, 0.012)
    press(board, 3, stamp)
    tick(board, 0.008)
    tick(board, GRACE)
    snap = board.session.snapshot()
    assert snap["answering"] == 3 and snap["phase"] == "answering"
    assert ack and ack[0][0] is False


def test_bz3_box_press_releases_earlier_host_commands_first_and_never_waits(board):
    """GIVEN a host command held for the grace WHEN a box press stamped after it arrives THEN both are applied in
    that frame, the host command first (the box reports in order: nothing earlier is still on its way), so a press
    is drawn without waiting."""
    for address, *args in [("/sg/game/start",), ("/sg/chooser", 1), ("/sg/select", 1, 1)]:
        host(board, address, *args)
        tick(board, 0.1)
    tick(board, 0.1)
    stamp = board.now()
    ack = host(board, "/sg/reading/done", at=stamp)
    press(board, 2, stamp + 0.002)
    tick(board, 0.003)
    snap = board.session.snapshot()
    assert ack == [(True, None)] and snap["answering"] == 2 and snap["question"]["reading_done"] is True
    assert len(board.holdback) == 0


def test_bz2_without_an_event_box_nothing_waits(board_factory):
    """GIVEN a board whose links have no event box (grace 0) WHEN a host command arrives THEN it is applied in the
    same frame (acks are not delayed when there is nothing to wait for)."""
    b = board_factory(grace=0.0, screens=[])
    acks = host(b, "/sg/game/start")
    b.frame()
    assert acks == [(True, None)]
