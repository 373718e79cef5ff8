"""A whole question across every link: the host's client over real UDP, the fake box on a real pty, and a
board loop draining the inbox into a real session (the display process is the board agent's; this runs its
loop contract on a thread)."""

from linkhelp import host_and_box_at_the_window
from scoreboard.bench.links import bench_arbitration, bench_arbitration_digits


def test_bz3_g6_whole_question_host_remote_and_box(tmp_path):
    """GIVEN a board with OSC and a button box, and a host client connected with the passcode
    WHEN the host sets up a game, opens a cell, ends the reading; seats 3 and 1 press 0.1 ms apart by the box
    clock, reported in one burst in button order (1 before 3); the host judges right
    THEN seat 3 answers, its lamp lights and the box is disarmed while it answers; after the verdict seat 3
    has +10 (G6) and the game shows the answer (reveal); every host command was acked exactly once."""
    with host_and_box_at_the_window(tmp_path) as (links, board, box, host):
        t = box.now_us() - 1000
        box.press_many([(1, t + 100), (3, t)])
        state = host.wait_state(lambda s: s["phase"] != "buzz_window", timeout=30)
        assert (state["phase"], state["answering"]) == ("answering", 3), board.refused
        assert box.wait_for(lambda b: b.leds.get(3) == "on" and not b.armed, timeout=30)
        assert host.command("/sg/judge/right", timeout=30) == (True, None)
        state = host.wait_state(lambda s: s["phase"] == "reveal", timeout=30)
        assert [p["score"] for p in state["players"]] == [0, 0, 10]
        assert box.wait_for(lambda b: b.leds.get(3) == "off", timeout=30)
        hosts = [c for c in board.applied if c.address != "/sg/button"]
        assert len(hosts) == 7 and len({(c.address, c.args) for c in hosts}) == 7
        assert links.status()["osc"]["duplicates"] == 0


def test_bz3_arbitration_bench_orders_every_trial(tmp_path):
    """GIVEN the arbitration benchmark at small size (presses 0.1 ms apart by box time, random wire order,
    150 ppm drift, the u32 wrap; one-digit presses 2 ms apart) THEN every trial is ordered right."""
    events = bench_arbitration(str(tmp_path), 600)
    assert events["right"] == events["trials"] == 600 and events["after_wrap"] > 0
    digits = bench_arbitration_digits(str(tmp_path), 60)
    assert digits["right"] == digits["trials"] == 60
