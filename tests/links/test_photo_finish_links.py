"""Issue 27 item 2 (BZ11): the box's presses carry their source and error bound from the serial line to the host's
photo finish — the fake box on a real pty, the real serial reader and inbox, a real session, the host's OSC client."""

from linkhelp import host_and_box_at_the_window
from scoreboard.links.serial.buttons import ARRIVAL_BOUND_MS


def test_box_presses_reach_the_hosts_photo_finish_with_source_and_bound(tmp_path):
    """GIVEN a board with OSC and the fake box on a pty, a host client connected WHEN seats 3 and 1 press 0.3 ms
    apart by the box's clock in the window THEN the host's `/sg/host/question` shows both presses from `box`, seat 3
    winning and seat 1 too late 0.3 ms after it (an ignored press: the rev did not move, the record was sent anyway),
    each with a bound of at most the arrival bound, the same for both (one clock map), and the snapshot every session
    gets holds none of it."""
    with host_and_box_at_the_window(tmp_path) as (links, board, box, host):
        t = box.now_us() - 1000
        box.press_many([(1, t + 300), (3, t)])

        def both_shown():
            rec = ((host.question or {}).get("presses") or {}).get("current") or {}
            return sum(len(w["presses"]) for w in rec.get("windows", [])) == 2
        assert host.wait_for(both_shown, timeout=30), host.question
        rows = host.question["presses"]["current"]["windows"][-1]["presses"]
        assert [(r["seat"], r["source"], r["outcome"]) for r in rows] == [(3, "box", "won"), (1, "box", "too_late")]
        assert abs(rows[1]["gap_ms"] - 0.3) < 0.05
        assert 1 <= rows[0]["bound_ms"] == rows[1]["bound_ms"] <= ARRIVAL_BOUND_MS
        assert "presses" not in host.wait_state(lambda s: s["answering"] == 3, timeout=30)
