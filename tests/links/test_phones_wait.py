"""Issue 26, what was left open (items 2 and 3 of its follow-up): the arbitration's wait for a phone, shortened by the
samples the phone sent since (its WebSocket keeps its order: a sample proves the presses before it have arrived), and
the clamp's security bound unchanged by it. Pure: every time is given."""
from __future__ import annotations

import pytest

from scoreboard.engine.commands import Command
from scoreboard.links.inbox import Holdback, Inbox, Item
from scoreboard.links.phones.clock import MAX_WAIT, SLACK, SYNCED_AFTER, LinkMeter
from scoreboard.links.phones.seats import Phones, Refused


def measured(meter: LinkMeter, rtt: float, at: float = 100.0) -> None:
    for n in range(SYNCED_AFTER + 1):
        meter.replied(n, at - 1 + n * 0.1)
        meter.request(n, 0.0, at - 1 + n * 0.1 + rtt)


def test_issue26_item2_a_phones_wait_ends_slack_after_its_last_sample_was_sent():
    """GIVEN a phone whose longest round trip of 10 s was 200 ms (delivery bound 240 ms) WHEN the board, at 100.000,
    has the sample the phone sent at 99.950 THEN it waits for that phone 90 ms (50 ms since the sample + the touch's
    slack), never more than the bound (a phone silent for a while: 240 ms), never past the sample's own arrival (a
    claimed send later than its arrival counts as the arrival)."""
    meter = LinkMeter()
    measured(meter, 0.2)
    assert meter.wait(100.0) == pytest.approx(0.2 + SLACK)          # no claim yet: the bound
    meter.sent_at(99.95, 99.99)
    assert meter.wait(100.0) == pytest.approx(0.05 + SLACK)
    assert meter.wait(100.5) == pytest.approx(0.2 + SLACK)          # silent since: the bound again
    meter.sent_at(float("nan"), 100.0)
    meter.sent_at(None, 100.0)
    assert meter.heard_sent == 99.95                               # not a time: nothing learned
    meter.sent_at(130.0, 100.02)                                    # "sent" after it arrived
    assert meter.heard_sent == 100.02 and meter.wait(100.03) == pytest.approx(0.01 + SLACK)
    meter.sent_at(99.0, 100.04)                                     # an older claim never moves it back
    assert meter.heard_sent == 100.02


def test_issue26_item2_a_page_lying_about_its_sends_gains_nothing_and_costs_no_one_else():
    """GIVEN two armed phones, seat 1 honest (its last sample sent 60 ms ago, bound 240 ms) and seat 2 a modified
    page that says each sample was sent when it arrived WHEN the board reads the wait and seat 2 presses with a
    touch 10 s early THEN the wait is seat 1's (100 ms), untouched by seat 2's claims, and seat 2's press is still
    stamped no earlier than its arrival minus its delivery bound (the clamp's security bound, MAX_WAIT at most)."""
    now = [100.0]
    phones = Phones(lambda: now[0])
    for sid, seat in ((1, 1), (2, 2)):
        assert phones.joined(sid, seat) == "holder"
        measured(phones.meters[sid], 0.2 if seat == 1 else 0.1)
    phones.armed = True
    phones.time(1, 50, 6, 0, 99.97, "99.940000", b"k1")
    phones.time(2, 50, 6, 0, 99.99, "199.990000", b"k2")
    assert phones.wait() == pytest.approx(0.06 + SLACK)
    cmd = phones.press(2, 2, [2, "90.0"], 100.0)
    assert cmd.at == pytest.approx(100.0 - min(MAX_WAIT, 0.1 + SLACK))


def test_issue26_item3_a_replayed_clock_sample_is_refused_until_the_key_changes():
    """GIVEN a seated phone whose signed sample n=7 was taken WHEN the same n (or an older one) comes again under the
    same session key THEN it is refused (a replay would change the link the board measures); under a new key (the page
    reconnected) its numbers may start again."""
    phones = Phones(lambda: 100.0)
    phones.joined(1, 1)
    phones.time(1, 7, -1, 0, 99.0, "", b"key")
    for n in (7, 3):
        with pytest.raises(Refused, match="seen before"):
            phones.time(1, n, -1, 0, 99.1, "", b"key")
    assert phones.time(1, 1, -1, 0, 99.2, "", b"new key") == (1, 99.2)
    with pytest.raises(Refused, match="sent"):
        phones.time(1, 2, -1, 0, 99.3, "inf", b"new key")


def test_issue26_item2_the_inbox_reads_the_wait_before_it_drains():
    """GIVEN the host's command stamped 10.05 waiting in the inbox, and a phone whose press stamped 10.00 is queued by
    the OSC thread just before the sample that shortens its wait to 20 ms (at the moment the board reads the wait)
    WHEN the board takes its turn at 10.10 THEN the press is in that turn and applied before the host's command (read
    after the drain, the short wait would have let the host's command through with the press still queued)."""
    inbox = Inbox()
    inbox.put(Command(10.05, "/sg/resume", ()), "osc:1")

    def wait() -> float:
        if not any(True for _ in queued):
            queued.append(inbox.put(Command(10.0, "/sg/button", (2, "phone", 10)), "phone:7"))
        return 0.02
    queued: list = []

    class Game:
        applied: list = []

        def submit_batch(self, cmds):
            self.applied += [cmd.address for cmd in cmds]
            return [(True, None)] * len(cmds)
    game = Game()
    inbox.deliver_all(game, Holdback(0.0, wait), 10.10)
    assert game.applied == ["/sg/button", "/sg/resume"]


def test_issue26_item2_deadlines_wait_as_long_as_the_items_of_the_turn_did():
    """GIVEN a turn whose items were held by a 300 ms wait WHEN the phones' wait drops to 50 ms before the board
    fires its deadlines THEN the deadlines still lag 300 ms this turn (a press counted on by that turn's items is not
    overtaken by «Время»)."""
    waits = [0.3]
    held = Holdback(0.03, lambda: waits[0])
    held.due([Item(Command(9.0, "/sg/resume", ()), "osc:1", None, 1)], 10.0, 0.3)
    waits[0] = 0.05
    assert held.delay() == 0.3
