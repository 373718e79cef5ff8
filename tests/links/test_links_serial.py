"""The serial button box over a real pty / socket:// (PROTOCOL.md §5): handshake, lamps, stamps, faults."""
import time

from scoreboard.links.serial.buttons import SerialButtons
from linkhelp import drain_n, session_in_buzz_window, start_links, wait_until
from scoreboard.engine.commands import Refused
from scoreboard.links.serial.fake_box import FakeBox


def test_proto5_handshake_then_disarm_lamps_off_and_ping(box, board):
    """GIVEN a box on a pty WHEN the board opens it THEN it sends HELLO?, learns the box from HELLO,
    tells it DISARM and every lamp off, and PINGs it (PONGs come back)."""
    links, _ = board
    assert box.wait_for(lambda b: any(line.startswith("PING") for line in b.received), timeout=30)
    assert box.received[0] == "HELLO?"
    assert "DISARM" in box.received and all(box.leds[s] == "off" for s in range(1, 5))
    status = links.status()
    assert (status["box_name"], status["box_players"]) == ("fakebox", 4)
    assert wait_until(lambda: links.status()["pongs"] >= 1)


def test_bz3_answering_players_lamp_and_arm_follow_the_snapshot(box, board):
    """GIVEN an online box WHEN the board publishes buttons live, then seat 2 answering, then seat 3
    THEN the box gets ARM, LED 2 on, then LED 2 off and LED 3 on, then DISARM."""
    links, _ = board
    links.publish({"rev": 1, "buttons_live": True, "answering": None}, None)
    assert box.wait_for(lambda b: b.armed, timeout=30)
    links.publish({"rev": 2, "buttons_live": False, "answering": 2}, None)
    assert box.wait_for(lambda b: not b.armed and b.leds[2] == "on", timeout=30)
    links.publish({"rev": 3, "buttons_live": False, "answering": 3}, None)
    assert box.wait_for(lambda b: b.leds[2] == "off" and b.leds[3] == "on", timeout=30)


def test_bz3_presses_ordered_by_box_time_not_by_arrival(box, board):
    """GIVEN two presses 0.1 ms apart by the box clock, reported in one burst with the later one first
    WHEN the board drains them (one drain: a burst is never split) into a real session in buzz_window
    THEN the earlier press answers, and the stamps are 0.1 ms apart."""
    links, inbox = board
    t = box.now_us()
    box.press_many([(3, t + 100), (2, t)])
    assert inbox.wait(2.0)
    items = inbox.drain()
    assert [item.cmd.args[0] for item in items] == [2, 3]
    assert abs((items[1].cmd.at - items[0].cmd.at) - 0.0001) < 1e-6
    session = session_in_buzz_window(at=items[0].cmd.at - 1.0)   # read 1 s before the presses
    for item in items:                             # the board's loop: submit in drained (time) order
        session.submit(item.cmd)
    assert session.snapshot()["answering"] == 2


def test_bz3_press_stamps_survive_the_u32_wrap(tmp_path):
    """GIVEN a box clock 20 ms before its u32 wrap WHEN presses straddle the wrap
    THEN the one before the wrap is earlier, by the box's spacing."""
    box = FakeBox(players=4, link=str(tmp_path / "wrap"), t0_us=2**32 - 20_000).start()
    links, inbox = start_links(box.url)
    try:
        assert wait_until(lambda: links.status()["pongs"] >= 1)
        assert wait_until(lambda: 1_000 < box.now_us() < 2**31)   # the box clock has wrapped
        box.press(1, t_us=2**32 - 50)         # 50 µs before the wrap
        box.press(4, t_us=30)                 # 30 µs after it
        items = drain_n(inbox, 2)
        assert [i.cmd.args[0] for i in items] == [1, 4]
        assert abs((items[1].cmd.at - items[0].cmd.at) - 80e-6) < 1e-6
    finally:
        links.stop()
        box.stop()


def test_proto5_seq_gap_is_counted_and_the_press_still_counts(box, board):
    """GIVEN presses with seq 1 then 5 WHEN read THEN a gap is counted and both presses reach the inbox."""
    links, inbox = board
    box.send_raw(b"EV 1 1000 PRESS 1\nEV 5 2000 PRESS 2\n")
    assert len(drain_n(inbox, 2)) == 2
    assert links.status()["seq_gaps"] == 1


def test_proto5_bad_lines_counted_and_ignored(box, board):
    """GIVEN garbage, an over-long line and a seat beyond the box's players WHEN read
    THEN each is counted as bad, nothing reaches the inbox, and a good press after them still does."""
    links, inbox = board
    box.send_raw(b"garbage\n" + b"9" * 200 + b"\nEV 1 10 PRESS 7\n")
    box.press(1)
    items = drain_n(inbox, 1)
    assert [i.cmd.args[0] for i in items] == [1]
    assert wait_until(lambda: links.status()["bad_lines"] == 3), links.status()


def test_proto5_unplugged_pty_reopens_within_one_second(box, board):
    """GIVEN an online box WHEN its pty is closed THEN the board shows the buttons offline and tries to reopen it
    every `reopen_interval` (at most 1 s, by the reader's own schedule, not the test's stopwatch);
    WHEN it is plugged back in THEN the first try after that opens it, the board is online again and presses arrive."""
    links, inbox = board
    reader = links.buttons
    tries: list[tuple[float, bool]] = []           # (when a try began, whether it opened the port)
    pauses: list[float] = []                       # every pause the reader asked for between tries
    real_open, real_wait = reader._open, reader._stop.wait

    def open_and_note():
        began = time.monotonic()
        opened = real_open()
        tries.append((began, opened))
        return opened

    def wait_and_note(timeout=None):
        pauses.append(timeout)
        return real_wait(timeout)
    reader._open, reader._stop.wait = open_and_note, wait_and_note
    box.unplug()
    assert wait_until(lambda: not links.status()["buttons_online"], timeout=30.0)
    assert wait_until(lambda: sum(1 for _, opened in tries if not opened) >= 2, timeout=30.0), tries
    box.plug()
    plugged = time.monotonic()
    assert wait_until(lambda: links.status()["buttons_online"], timeout=30.0)
    assert all(opened for began, opened in tries if began >= plugged), tries
    assert pauses and all(pause <= 1.0 for pause in pauses), pauses
    box.press(4)
    assert [i.cmd.args[0] for i in drain_n(inbox, 1)] == [4]
    assert links.status()["opens"] == 2


def test_proto5_socket_url_box_reconnects(tmp_path):
    """GIVEN a box on TCP opened as socket://127.0.0.1:PORT WHEN the box hangs up and listens again
    THEN the board reconnects within 1 s and its presses arrive."""
    box = FakeBox(players=2, tcp_port=0).start()
    links, inbox = start_links(box.url)
    try:
        assert wait_until(lambda: links.status()["buttons_online"])
        box.press(2)
        assert [i.cmd.args[0] for i in drain_n(inbox, 1)] == [2]
        box.unplug()
        assert wait_until(lambda: not links.status()["buttons_online"], timeout=30.0)
        box.plug()
        assert wait_until(lambda: links.status()["buttons_online"], timeout=30.0)
        box.press(1)
        assert [i.cmd.args[0] for i in drain_n(inbox, 1)] == [1]
    finally:
        links.stop()
        box.stop()


def test_proto5_silent_box_goes_offline(tmp_path):
    """GIVEN a box that stops answering PINGs (hung firmware, port still open)
    WHEN offline_after passes with no line THEN the board shows the buttons offline."""
    box = FakeBox(players=2, link=str(tmp_path / "mute"), answer_pings=False).start()
    links, _ = start_links(box.url, offline_after=0.5)
    try:
        assert wait_until(lambda: links.status()["buttons_online"])
        assert wait_until(lambda: not links.status()["buttons_online"], timeout=30.0)
    finally:
        links.stop()
        box.stop()


def test_proto5_hello_again_means_a_reset_and_lamps_are_resent(box, board):
    """GIVEN an armed box WHEN it says HELLO again (it rebooted), with its first press in the same read
    THEN the board re-sends ARM and lamps, and the press after the HELLO still counts."""
    links, inbox = board
    links.publish({"rev": 1, "buttons_live": True, "answering": 1}, None)
    assert box.wait_for(lambda b: b.armed and b.leds[1] == "on", timeout=30)
    box.armed = False
    box.leds.clear()
    box.send_raw(b"HELLO fakebox proto=1 players=4\nEV 1 500 PRESS 4\n")
    assert box.wait_for(lambda b: b.armed and b.leds.get(1) == "on" and b.leds.get(2) == "off", timeout=30)
    assert links.status()["hellos"] == 2
    assert [item.cmd.args[0] for item in drain_n(inbox, 1)] == [4]
    assert links.status()["seq_gaps"] == 0           # seq starts again after a reset


def test_proto5_one_digit_mode_stamps_arrival(tmp_path):
    """GIVEN a one-digit box WHEN it sends '2', garbage and '3' 2 ms apart
    THEN two presses arrive in order, stamped by arrival, and the garbage is counted."""
    box = FakeBox(players=9, link=str(tmp_path / "digits"), digits=True).start()
    links, inbox = start_links(box.url, mode="digits")
    try:
        assert wait_until(lambda: links.status()["buttons_online"])
        box.press(2)
        box.send_raw(b"x")
        time.sleep(0.002)
        box.press(3)
        items = drain_n(inbox, 2)
        assert [i.cmd.args[0] for i in items] == [2, 3] and items[0].cmd.at < items[1].cmd.at
        assert links.status()["bad_lines"] == 1 and items[0].source == "digits"
    finally:
        links.stop()
        box.stop()


def test_proto5_one_digit_presses_read_together_keep_their_byte_order():
    """GIVEN a one-digit box WHEN '3' and '2' reach the board in one read (one arrival time, as when the reader
    was late to the port) THEN both presses arrive, 3 stamped strictly before 2 (the byte order, not a tie for the
    engine to break), neither after the read."""
    from scoreboard.links import Inbox
    from scoreboard.links.config import resolve
    inbox = Inbox()
    portless = SerialButtons(resolve({"buttons": {"port": "loop://", "mode": "digits"}})["buttons"], inbox,
                             lambda: 3.0)
    portless.feed(b"32")
    items = inbox.drain()
    assert [i.cmd.args[0] for i in items] == [3, 2]
    assert items[0].cmd.at < items[1].cmd.at <= 3.0


def test_bz3_press_is_refused_by_session_when_not_live_but_links_still_deliver(box, board):
    """GIVEN a session whose buttons are not live (setup) WHEN a box press is submitted
    THEN the session refuses or ignores it (links never decide game rules) and the game is unchanged."""
    from scoreboard.session import Session
    _, inbox = board
    session = Session()
    before = session.snapshot()
    box.press(1)
    (item,) = drain_n(inbox, 1)
    try:
        session.submit(item.cmd)
    except Refused:
        pass
    after = session.snapshot()
    assert after["players"] == before["players"] and after["phase"] == before["phase"]
