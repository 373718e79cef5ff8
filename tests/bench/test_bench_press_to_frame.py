"""Smoke test of `scoreboard bench display`'s press → first frame measurement (BZ2, BZ3; G8 undo): the real board
loop, real `Links` reading a fake box on a pty, a journaled Session in a folder. No timing is asserted here (the
figures are in docs/PERFORMANCE.md, "Board (display)"); this checks the measurement measures what it claims to."""
import pytest

pytest.importorskip("scoreboard.links")

from scoreboard.bench.press import player_name, press_to_frame  # noqa: E402
from scoreboard.journal import Journal  # noqa: E402

TRIALS = 6


def test_bz3_each_press_stops_the_clock_on_a_frame_showing_that_seat_answering(tmp_path):
    """GIVEN the board in the 5 s window (BZ2) with a fake box on a pty and the journal in tmp_path
    WHEN the bench runs 6 trials (press a seat, wait for the frame, undo, reopen the window)
    THEN it gives 6 samples, and each trial's clock stopped on a drawn answering frame of the seat that pressed,
    with that player's name drawn; the links read 6 presses; the journal holds the 6 presses in seat order, each
    taken back by an undo and the window reopened."""
    # the timeouts only bound a hang (a loaded machine can stall a trial for seconds; the figures are the bench's)
    figures = press_to_frame(TRIALS, folder=str(tmp_path), trial_timeout=60.0, ready_timeout=60.0)

    assert figures["n"] == TRIALS and len(figures["samples"]) == TRIALS
    assert all(sample > 0 for sample in figures["samples"])          # the frame came after the write
    assert figures["presses_seen_by_links"] == TRIALS
    seats = [trial["seat"] for trial in figures["shown"]]
    assert seats == [1 + i % 3 for i in range(TRIALS)]                # novosibirsk: three seats, in turn
    for trial in figures["shown"]:
        assert trial["phase"] == "answering" and trial["answering"] == trial["seat"]
        assert trial["band"] and trial["error"] is None                # its answering band drawn, no drawing error
        assert trial["name"] == player_name(trial["seat"])

    journal = Journal(tmp_path / "game.sqlite", readonly=True)
    try:
        events = [cmd for _, cmd in journal.events()]
    finally:
        journal.close()
    presses = [cmd for cmd in events if cmd.address == "/sg/button"]
    assert [cmd.args[0] for cmd in presses] == seats
    # every press but the last is followed by an undo, then the window reopening
    after = [events[events.index(cmd) + 1:events.index(cmd) + 3] for cmd in presses[:-1]]
    assert all([c.address for c in pair] == ["/sg/undo", "/sg/reading/done"] for pair in after)
