"""Issue 26 (false starts judged on time, BZ7): a host's command is stamped when its datagram reached the machine (the
kernel's receive stamp, osc/rxstamp.py), not when the board's busy OSC thread got to it; real UDP sockets on loopback."""
from __future__ import annotations

import socket
import sys
import time

import pytest

from linkhelp import RawPeer, of, wait_until
from scoreboard.engine.commands import Command, make
from scoreboard.links import Inbox, Links
from scoreboard.links.inbox import Item
from scoreboard.links.osc import rxstamp
from scoreboard.links.osc.rxstamp import ReceiveStamps
from scoreboard.session import Session

PASS = "s3cret"
BUSY = 0.06               # seconds the receiving thread is kept from the socket


def busy(seconds: float) -> None:
    """The receiving thread doing other work (a board redrawing its window holds the interpreter)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def kernel_stamps_on(timeout: float = 5.0) -> None:
    """Wait until the kernel stamps datagrams as they arrive: it turns stamping on lazily (a deferred switch when the
    first socket asks), and until then a datagram is stamped when read. Polls a pair of its own; a switch that never
    comes fails the wait."""
    receiver, sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM), socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind(("127.0.0.1", 0))
    stamps = ReceiveStamps(receiver, time.monotonic)
    try:
        def stamped_on_arrival() -> bool:
            sender.sendto(b"probe", receiver.getsockname())
            busy(0.005)
            _, _, at = stamps.recvfrom(100)
            return time.monotonic() - at >= 0.004
        assert stamps.kernel and wait_until(stamped_on_arrival, timeout), "the kernel never stamped a datagram"
    finally:
        receiver.close()
        sender.close()


@pytest.fixture
def pair():
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.bind(("127.0.0.1", 0))
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    yield receiver, sender
    receiver.close()
    sender.close()


def sent_and_read(receiver, sender, stamps) -> tuple[float, float, float]:
    early = time.monotonic()
    sender.sendto(b"x", receiver.getsockname())
    late = time.monotonic()
    busy(BUSY)
    _, _, at = stamps.recvfrom(100)
    return early, late, at


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SO_TIMESTAMPNS is Linux's")
def test_issue26_item1_a_datagram_read_late_is_stamped_when_it_arrived(pair):
    """GIVEN a socket read through ReceiveStamps on the board's monotonic clock WHEN a datagram arrives and the thread
    reads it 60 ms later THEN its stamp is the moment it was sent (loopback), not the reading."""
    receiver, sender = pair
    stamps = ReceiveStamps(receiver, time.monotonic)
    assert stamps.kernel
    kernel_stamps_on()
    early, late, at = sent_and_read(receiver, sender, stamps)
    assert early - 0.001 <= at <= late + 0.001, (early, late, at)


def test_issue26_item1_without_kernel_stamps_the_reading_time_as_before(pair, monkeypatch):
    """GIVEN a platform without SO_TIMESTAMPNS (Windows, macOS) WHEN a datagram is read 60 ms after it arrived THEN it
    is stamped when read, as before; and a wall clock stepped between arrival and reading is no stamp either."""
    receiver, sender = pair
    monkeypatch.setattr(rxstamp, "_OPTION", None)
    stamps = ReceiveStamps(receiver, time.monotonic)
    assert not stamps.kernel
    early, late, at = sent_and_read(receiver, sender, stamps)
    assert at >= late + BUSY
    monkeypatch.undo()
    if sys.platform.startswith("linux"):
        stepped = ReceiveStamps(receiver, time.monotonic, wall=lambda: time.time() + 3600.0)
        _, late, at = sent_and_read(receiver, sender, stepped)
        assert at >= late + BUSY
    assert rxstamp.kernel_time([]) is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SO_TIMESTAMPNS is Linux's")
def test_issue26_item1_the_host_resume_is_stamped_at_arrival_though_the_osc_thread_is_busy(monkeypatch):
    """GIVEN the board's OSC server whose thread spends 60 ms on each message before handling it (as behind a board
    redrawing) WHEN the host's /sg/resume arrives THEN the command on the inbox is stamped when the datagram arrived
    (the old stamp, taken by the thread, was 60 ms late: a touch 20 ms after the window opened was a false start)."""
    inbox = Inbox()
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS}}, inbox, time.monotonic)
    links.start()
    handle = links.osc.dispatch.handle
    monkeypatch.setattr(links.osc.dispatch, "handle", lambda message, sender: (busy(BUSY), handle(message, sender)))
    peer = RawPeer(("127.0.0.1", links.osc.address[1]))
    try:
        peer.send("/sg/connect", PASS)
        assert of(peer.receive(20.0, until=lambda m: of(m, "/sg/connected")), "/sg/connected")
        kernel_stamps_on()
        early = time.monotonic()
        peer.send("/sg/cmd/resume", 7)
        late = time.monotonic()
        assert wait_until(lambda: len(inbox) == 1)
        (item,) = inbox.drain()
        assert item.cmd.address == "/sg/resume"
        assert early - 0.001 <= item.cmd.at <= late + 0.001, (early, late, item.cmd.at)
    finally:
        peer.close()
        links.stop()


def test_issue26_item1_a_command_stamped_before_the_games_last_is_applied_at_it_never_refused():
    """GIVEN a game whose last command was at t=10 (a key, a deadline applied while the OSC thread was busy) WHEN the
    host's command stamped at its arrival, t=9.95, is delivered THEN it is applied at t=10 (not refused as "time goes
    backwards"); a press keeps its own stamp (judged on it: refused as before)."""
    session = Session()
    for address, *args in [("/sg/game/new", "novosibirsk-2007", "1/9", 3, 0), ("/sg/topics", "A", "B", "C", "D"),
                           ("/sg/game/start",), ("/sg/chooser", 1)]:
        session.submit(make(10.0, address, *args))
    inbox = Inbox()
    inbox.put(make(9.95, "/sg/select", 1, 1), "osc:1")
    inbox.put(Command(9.96, "/sg/button", (2, "phone", 10)), "phone:2")
    (select, ok, _), (press, pressed, reason) = inbox.deliver_all(session)
    assert ok and select.cmd.at == 10.0 and session.snapshot()["phase"] == "reading"
    assert not pressed and press.cmd.at == 9.96 and "backwards" in reason
    assert isinstance(select, Item)


def test_issue26_item1_datagrams_read_in_order_keep_their_order_across_both_sockets(pair):
    """GIVEN the board's two UDP sockets read through stamps sharing one floor, one socket with the kernel's stamps
    and one without (the reading's time) WHEN a host's «select» waits 60 ms unread on the first while its «time» is
    read at once from the second, then «select» is read THEN «select» is not stamped before «time»: commands keep
    the order they were read in (a quick host's pipelined taps were once swapped and refused)."""
    receiver, sender = pair
    other = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    other.bind(("127.0.0.1", 0))
    try:
        kernel = ReceiveStamps(receiver, time.monotonic)
        reading = ReceiveStamps(other, time.monotonic, floor=kernel.floor)
        reading.kernel = False
        sender.sendto(b"select", receiver.getsockname())
        busy(BUSY)
        sender.sendto(b"time", other.getsockname())
        _, _, time_at = reading.recvfrom(100)
        _, _, select_at = kernel.recvfrom(100)
        assert select_at >= time_at
    finally:
        other.close()
