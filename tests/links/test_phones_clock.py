"""Players' phones as buttons (issue 26 items 3–5; RULES BZ3, BZ7, BZ11), the pure parts: the phone's clock fit, the
board's measure of its link, the clamp of a press's stamp, the arbitration's wait, a forged early time, one phone per
seat and a phone's press budget. No sockets: every time is given."""
from __future__ import annotations

import random

import pytest

from scoreboard.engine.commands import Command
from scoreboard.links.inbox import Holdback, Item
from scoreboard.links.phones.clock import MAX_WAIT, SLACK, SYNCED_AFTER, TOUCH_ERROR, ClockFit, LinkMeter, clamp
from scoreboard.links.phones.seats import PRESSES_PER_SECOND, Phones, Refused


def test_item3_clock_fit_finds_offset_and_drift_through_jitter():
    """GIVEN a phone whose clock is 1234.5 s behind the board's and runs 80 ppm fast, sampled 10 times a second for 8 s
    over a link of 40 ms ± 30 ms each way (asymmetric on every sample)
    WHEN the phone fits its best round trips
    THEN its board time of a touch is within 3 ms of the truth, though single samples are off by up to 30 ms."""
    rng, fit = random.Random(7), ClockFit()
    phone = lambda board: (board - 1234.5) * (1 + 80e-6)            # noqa: E731 - the phone's clock of a board time
    board = 100.0
    for _ in range(80):
        up, down = 0.04 + rng.uniform(-0.03, 0.03), 0.04 + rng.uniform(-0.03, 0.03)
        t1 = board + up
        fit.add(phone(board), t1, t1 + 0.0002, phone(t1 + 0.0002 + down))
        board += 0.1
    touch = board + 0.5
    assert fit.synced
    assert abs(fit.board_time(phone(touch)) - touch) < 0.003


def test_item3_clamp_keeps_a_stamp_within_what_the_link_allows():
    """GIVEN a press arriving at board time 50.0 from a phone whose delivery bound is 120 ms
    WHEN its touch says 49.95, 10.0 (far too early), 50.2 (after its own arrival), nothing, NaN
    THEN the stamps are 49.95, 49.88, 50.0, 50.0, 50.0: never later than the arrival, never earlier than the bound."""
    assert clamp(49.95, 50.0, 0.12) == pytest.approx(49.95)
    assert clamp(10.0, 50.0, 0.12) == pytest.approx(49.88)
    assert clamp(50.2, 50.0, 0.12) == 50.0
    assert clamp(None, 50.0, 0.12) == 50.0
    assert clamp(float("nan"), 50.0, 0.12) == 50.0


def test_item3_link_meter_measures_round_trips_itself():
    """GIVEN the board's replies sent at its own stamps and the phone's next requests naming them with a hold
    WHEN the round trips are 30–60 ms, one bogus hold (longer than the gap) and one naming no reply
    THEN the bogus samples are dropped, the bound is the longest round trip + slack, capped at MAX_WAIT, and an
    unmeasured phone's bound is MAX_WAIT (the arbitration waits the most for a phone it knows nothing of)."""
    meter, now = LinkMeter(), 10.0
    assert meter.bound(now) == MAX_WAIT and meter.error(now) is None
    for n, rtt in enumerate([0.03, 0.06, 0.04, 0.05, 0.035, 0.045]):
        meter.replied(n, now)
        assert meter.request(n, 0.02, now + 0.02 + rtt) == pytest.approx(rtt)
        now += 0.1
    meter.replied(99, now)
    assert meter.request(99, 5.0, now + 0.05) is None            # a hold longer than the gap: no sample
    assert meter.request(12345, 0.0, now + 0.05) is None         # no such reply
    assert meter.synced(now) and len(meter.recent(now)) == 6 >= SYNCED_AFTER
    assert meter.bound(now) == pytest.approx(0.06 + SLACK)
    assert meter.error(now) == pytest.approx(0.015 + TOUCH_ERROR)
    meter.replied(100, now)
    meter.request(100, 0.0, now + 2.0)                           # a 2 s round trip: the bound stops at the cap
    assert meter.bound(now + 2.0) == MAX_WAIT


def _phones(now=lambda: 100.0, live=lambda sid: True) -> Phones:
    return Phones(now, live)


def _measured(phones: Phones, sid: int, rtt: float, at: float = 100.0) -> None:
    for n in range(SYNCED_AFTER + 1):
        phones.replied(sid, n, at - 1 + n * 0.1)
        phones.time(sid, n + 1, n, 0, at - 1 + n * 0.1 + rtt)


def test_item5_forged_early_time_gains_at_most_the_clamp_bound():
    """GIVEN a seated, measured phone (round trips 50 ms) whose modified page says its touch was 10 s ago
    WHEN its press arrives at 100.0
    THEN it is stamped 100.0 − (50 ms + slack): the forgery gains the bound (65 ms), never more; and a phone that
    inflates its round trips gains at most MAX_WAIT."""
    phones = _phones()
    assert phones.joined(7, 2) == "holder"
    _measured(phones, 7, 0.05)
    cmd = phones.press(7, 2, [2, "90.0"], 100.0)
    assert cmd.address == "/sg/button" and cmd.args[:2] == (2, "phone")
    assert cmd.at == pytest.approx(100.0 - 0.05 - SLACK)
    liar = _phones()
    liar.joined(8, 3)
    _measured(liar, 8, 3.0)                                      # a page that holds every reply 3 s
    assert liar.press(8, 3, [3, "0.0"], 100.0).at == pytest.approx(100.0 - MAX_WAIT)


def test_item3_unsynced_phone_is_stamped_on_arrival_with_a_large_bound():
    """GIVEN a seated phone the board has not measured yet WHEN it presses saying 99.9
    THEN the press is stamped on its arrival (100.0) with the whole bound as its error (BZ11 shows it)."""
    phones = _phones()
    phones.joined(7, 1)
    cmd = phones.press(7, 1, [1, "99.9"], 100.0)
    assert cmd.at == 100.0 and cmd.args[2] == round(MAX_WAIT * 1000)


def test_item4_holdback_waits_for_the_phones_then_orders_by_stamp():
    """GIVEN buttons armed with a phone whose delivery bound is 150 ms, and a box press stamped 10.000 applied-by-box
    WHEN a phone press stamped 9.970 (the earlier touch) arrives 100 ms later
    THEN nothing is applied before 10.150 and then the phone's press comes first (BZ3: the earliest stamp wins);
    with no phone armed the same box press is applied at once (the box's path unchanged)."""
    box = Item(Command(10.0, "/sg/button", (1, "box", 1)), "serial", None, 1)
    phone = Item(Command(9.97, "/sg/button", (2, "phone", 20)), "phone:7", None, 2)
    held = Holdback(0.03, lambda: 0.15)
    assert held.due([box], 10.001) == []
    assert held.delay() == 0.15
    assert held.due([phone], 10.1) == []
    assert [i.cmd.args[0] for i in held.due([], 10.16)] == [2, 1]
    plain = Holdback(0.03, lambda: 0.0)
    assert plain.due([box], 10.001) == [box]


def test_item4_false_start_judged_on_the_stamp_not_the_arrival():
    """GIVEN the host's restart stamped 20.000 (after a wrong answer, BZ7) and a phone's press stamped 19.980 that
    arrives 60 ms after the restart WHEN the board takes its turns with the phones' wait of 100 ms
    THEN the press is applied before the restart: judged a false start, as its touch was."""
    restart = Item(Command(20.0, "/sg/judge/restart", ()), "osc:1", None, 1)
    press = Item(Command(19.98, "/sg/button", (2, "phone", 10)), "phone:7", None, 2)
    held = Holdback(0.0, lambda: 0.1)
    assert held.due([restart], 20.001) == []
    applied = held.due([press], 20.06) + held.due([], 20.11)
    assert [i.cmd.address for i in applied] == ["/sg/button", "/sg/judge/restart"]


def test_item1_one_phone_per_seat_second_waits_for_the_hosts_tap():
    """GIVEN seat 1 held by phone 7 WHEN phone 8 joins seat 1 and presses, phone 7 presses for seat 2, the host admits
    THEN phone 8 waits and its press is refused; the other seat's press is refused; after the tap phone 8 presses and
    phone 7's press is refused (let go)."""
    phones = _phones()
    assert phones.joined(7, 1) == "holder" and phones.joined(8, 1) == "waiting"
    with pytest.raises(Refused, match="held by another phone"):
        phones.press(8, 1, [1, ""], 100.0)
    with pytest.raises(Refused, match="seat 1 only"):
        phones.press(7, 1, [2, ""], 100.0)
    with pytest.raises(Refused, match="no phone is waiting"):
        phones.admit(2)
    phones.admit(1)
    assert phones.press(8, 1, [1, ""], 100.0).args[0] == 1
    with pytest.raises(Refused):
        phones.press(7, 1, [1, ""], 100.0)
    assert [s["seat"] for s in phones.status()["seats"]] == [1]


def test_item5_a_phones_presses_are_budgeted():
    """GIVEN a seated phone WHEN it sends 50 presses within one millisecond, then one more a second later
    THEN PRESSES_PER_SECOND of the burst are stamped, the rest refused and counted, and the next second's is taken."""
    phones = _phones()
    phones.joined(7, 1)
    taken = refused = 0
    for i in range(50):
        try:
            phones.press(7, 1, [1, ""], 100.0 + i * 1e-5)
            taken += 1
        except Refused:
            refused += 1
    assert taken == PRESSES_PER_SECOND and refused == 50 - PRESSES_PER_SECOND
    assert phones.status()["over_budget"] == refused
    assert phones.press(7, 1, [1, ""], 101.1).args[0] == 1


def test_item4_wait_only_while_armed_and_capped():
    """GIVEN two seated phones, one measured at 80 ms round trips, one unmeasured
    WHEN the state's phase takes presses, then not, then the host switches to manual mode (BZ9)
    THEN the wait is the longest bound (the unmeasured one's MAX_WAIT) only while armed and not manual."""
    phones = _phones()
    phones.joined(7, 1)
    phones.joined(8, 2)
    _measured(phones, 7, 0.08)
    phones.armed_by({"phase": "buzz_window", "buttons_manual": False})
    assert phones.wait() == MAX_WAIT
    phones.armed_by({"phase": "choosing"})
    assert phones.wait() == 0.0
    phones.armed_by({"phase": "reading", "buttons_manual": True})
    assert phones.wait() == 0.0
