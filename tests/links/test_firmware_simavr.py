"""The reference firmware (firmware/buttonbox) built and run (issue 11 item 8): compiled with gcc-avr against the
Arduino core for an Uno, run in simavr with its UART on a real pty (firmware/sim/boxsim.c), its button pins pressed
and its lamp pins read by the harness.

Board tests: the board's real serial reader opens that pty as it opens a USB adapter, inside the real board loop
(`Board.frame`: inbox, holdback, publish) with a real Session journaled to SQLite. Firmware tests: the test speaks
PROTOCOL.md §5 to the box itself over the pty. Press times are the box's simulated microseconds, so spacings and
orders do not depend on the host's speed; waits are on conditions, bounded only against hangs.
"""
from __future__ import annotations

import time

import pygame
import pytest
import serial

from tests.conftest import need
from simbox import PACKAGES, SimBox, build
from scoreboard.app.board import Board
from scoreboard.app.start import open_session
from scoreboard.app.config import default_config
from scoreboard.display.theme.load import load_theme
from scoreboard.engine.commands import make
from scoreboard.links import Inbox, Links

HANG = 30.0          # seconds: bounds a hang, never a timing


@pytest.fixture(scope="module")
def firmware(tmp_path_factory):
    need(*PACKAGES)
    return build(tmp_path_factory.mktemp("firmware"))


@pytest.fixture
def box(firmware, tmp_path):
    box = SimBox(firmware, tmp_path / "box")
    # its power-up HELLO is out (3 ms at 115200 baud): a port opened meanwhile could flush half of it
    assert _until(lambda: box.clock() > 0.010), box.log.read_text()
    yield box
    print(box.stop())          # the harness's speed line: how fast simavr ran, any time given up to load


class RecordingInbox(Inbox):
    """The links' real inbox; it also keeps every item the board drained (what the board received)."""

    def __init__(self):
        super().__init__()
        self.received: list = []

    def drain(self):
        items = super().drain()
        self.received += items
        return items


class RealBoard:
    """The board's loop without screens: open_session's game in a SQLite journal, the links' reader on the box.
    Its clock (engine time, and the reader's PING and silence timing) is the simulated box's: a real board and box
    share real time, and a simulation slowed by a loaded host then slows both alike instead of looking like a
    crystal hundreds of thousands of ppm off."""

    def __init__(self, tmp_path, url: str, clock, **buttons):
        pygame.display.init()                         # the loop reads events (SDL's dummy driver: links/conftest)
        config = default_config()
        config["board"].update(journal=str(tmp_path / "game.sqlite"), sounds=False, setup_commands=[
            ("/sg/game/new", ("novosibirsk-2007", "1/9", 3, 0)), ("/sg/topics", ("Реки", "Горы", "Птицы", "Кино"))])
        self.console: list[str] = []
        session, _, start = open_session(config["board"], out=self.console.append)
        epoch = clock() - start                       # as scoreboard run: engine time = clock() - epoch
        self.inbox = RecordingInbox()
        self.links = Links({"osc": {"enabled": False}, "buttons": {"port": url, **buttons}}, self.inbox,
                           lambda: clock() - epoch, monotonic=clock)
        self.links.start()
        self.board = Board(config, session, epoch, [], load_theme("classic"), self.inbox, self.links,
                           clock=clock, out=self.console.append)
        self.session = session

    def until(self, predicate, timeout: float = HANG) -> bool:
        """Run board frames until predicate() holds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.board.frame()
            if predicate():
                return True
            self.board.sleep_until(time.perf_counter() + 0.002)
        return bool(predicate())

    def host(self, address: str, *args) -> None:
        """A remote's command, stamped on arrival as the OSC server stamps it, applied by the loop and acked."""
        acks: list = []
        self.inbox.put(make(self.board.now(), address, *args), "osc:1", lambda ok, why: acks.append((ok, why)))
        assert self.until(lambda: acks), address
        assert acks == [(True, None)], (address, acks)

    @property
    def state(self) -> dict:
        return self.session.snapshot()

    def presses(self) -> list:
        """The box's presses the board received, in the board's (stamp) order."""
        items = [item for item in self.inbox.received if item.source == "serial"]
        return sorted(items, key=lambda item: (item.cmd.at, item.seq))

    def stop(self) -> None:
        self.links.stop()
        self.session.close()


@pytest.fixture
def board(box, tmp_path):
    real = RealBoard(tmp_path, box.url, box.clock, ping_interval=0.1)
    yield real
    real.stop()


def test_bz3_bz1_bz7_bz8_a_question_on_the_real_firmware(box, board):
    """GIVEN the compiled firmware in simavr on a pty and the real board reading it (novosibirsk, 3 players)
    WHEN the host opens a cell THEN the box's live lamp lights (ARM: buttons live from the opening, BZ1);
    WHEN seat 3 then seat 1 press 150 µs apart by the box clock (against the box's pin scan order)
    THEN the board receives both, stamped in that order, seat 3 answers (BZ3), the box lights lamp 3 alone and is
    disarmed, and seat 1's press is ignored (BZ8);
    WHEN the host judges wrong and seat 2 presses while the box is disarmed THEN the press still reaches the board
    (the box reports every press) and is a false start (BZ7), and no lamp lights;
    WHEN the host resumes and seat 1 presses THEN seat 1 answers under lamp 1;
    WHEN the host judges right and seat 2 presses THEN the press is received and ignored (BZ8), every lamp is off."""
    status = board.links.status
    assert board.until(lambda: status()["buttons_online"] and board.links.buttons.box_clock.converged), status()
    assert (status()["box_name"], status()["box_players"]) == ("clubbox", 4)
    assert box.live == 0 and box.lamps == [0, 0, 0, 0]          # after HELLO: DISARM, every LED off

    for address, *args in [("/sg/game/start",), ("/sg/chooser", 1), ("/sg/select", 1, 1)]:
        board.host(address, *args)
    assert board.state["phase"] == "reading" and board.state["buttons_live"]
    assert box.wait(lambda b: b.live == 1), box.levels

    box.press((3, 0), (1, 150))
    assert board.until(lambda: len(board.presses()) == 2 and board.state["answering"] is not None), (
        board.presses(), board.session.ignored, box.edges[-6:], status(), board.console)
    first, second = board.presses()
    assert [first.cmd.args[:2], second.cmd.args[:2]] == [(3, "box"), (1, "box")]   # BZ11: its source
    assert first.cmd.at < second.cmd.at
    assert board.state["answering"] == 3
    assert (second.cmd, "buttons are not live in answering (BZ8)") in board.session.ignored
    assert box.wait(lambda b: b.lamps == [0, 0, 1, 0] and b.live == 0), box.levels

    box.release(3, 1)
    board.host("/sg/judge/wrong")
    assert board.state["phase"] == "after_wrong" and not board.state["buttons_live"]
    assert box.wait(lambda b: b.lamps == [0, 0, 0, 0] and b.live == 0), box.levels
    box.press((2, 0))
    assert board.until(lambda: board.state["players"][1]["locked_until"] is not None), board.presses()
    assert board.presses()[-1].cmd.args[0] == 2
    assert box.lamps == [0, 0, 0, 0] and box.live == 0

    box.release(2)
    board.host("/sg/resume")
    assert box.wait(lambda b: b.live == 1), box.levels
    box.press((1, 0))
    assert board.until(lambda: board.state["answering"] == 1), board.session.ignored
    assert box.wait(lambda b: b.lamps == [1, 0, 0, 0] and b.live == 0), box.levels

    board.host("/sg/judge/right")
    assert board.state["phase"] == "reveal"
    assert box.wait(lambda b: b.lamps == [0, 0, 0, 0] and b.live == 0), box.levels
    box.release(1)
    box.press((2, 0))
    assert board.until(lambda: len(board.presses()) == 5)
    late = board.presses()[-1]
    assert late.cmd.args[0] == 2
    assert board.until(lambda: (late.cmd, "buttons are not live in reveal (BZ8)") in board.session.ignored)
    assert board.state["answering"] is None and [p["score"] for p in board.state["players"]] == [10, 0, -10]
    counts = status()
    assert (counts["presses"], counts["seq_gaps"], counts["bad_lines"], counts["closes"]) == (5, 0, 0, 0), counts


def test_proto5_pongs_keep_the_real_box_online_and_a_hung_box_goes_offline_and_back(box, tmp_path):
    """GIVEN the firmware in simavr and the board's serial reader with PINGs every 0.1 s and offline_after 0.5 s
    WHEN ten PONGs have come back (over a second: twice offline_after, no presses) THEN the box stayed online on
    its first open, named clubbox (this test runs on wall time, as the board does, so the simulation's speed
    shows as PONG round trips only);
    WHEN the box hangs (the simulator stopped) THEN the reader shows it offline with the reason;
    WHEN it runs again THEN the reader reopens it and it is online again."""
    inbox = Inbox()
    links = Links({"osc": {"enabled": False}, "buttons": {"port": box.url, "ping_interval": 0.1,
                                                           "offline_after": 0.5}}, inbox, time.monotonic)
    links.start()
    try:
        status = links.status
        assert _until(lambda: status()["buttons_online"]), status()
        seen_offline = []
        assert _until(lambda: seen_offline.append(not status()["buttons_online"]) or status()["pongs"] >= 10)
        counts = status()
        assert not any(seen_offline) and (counts["opens"], counts["closes"]) == (1, 0), counts
        assert links.box_status() == {"state": "online", "since": None, "detail": "clubbox"}

        box.freeze()
        assert _until(lambda: not status()["buttons_online"]
                      and "no line from the box" in (status()["buttons_error"] or "")), status()
        assert links.box_status()["state"] in ("offline", "reconnecting")
        box.thaw()
        assert _until(lambda: status()["buttons_online"]), status()
        assert status()["opens"] >= 2 and status()["hellos"] >= 2
    finally:
        links.stop()


def _until(predicate, timeout: float = HANG) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return bool(predicate())


# --- the firmware alone: the test is the board ---------------------------------------------------------------
class Wire:
    """The board's end of the pty, spoken by hand: lines out, lines in."""

    def __init__(self, url: str):
        self.port = serial.serial_for_url(url, baudrate=115200, timeout=0.02)
        self.buffer = b""
        self.lines: list[str] = []

    def say(self, *lines: str, end: str = "\n") -> None:
        self.port.write("".join(line + end for line in lines).encode("ascii"))

    def until(self, predicate, timeout: float = HANG) -> bool:
        deadline = time.monotonic() + timeout
        while not predicate(self.lines):
            if time.monotonic() > deadline:
                return False
            self.buffer += self.port.read(max(1, self.port.in_waiting))
            *done, self.buffer = self.buffer.split(b"\n")
            self.lines += [line.decode("ascii") for line in done]
        return True

    def events(self) -> list[tuple[int, int, int]]:
        """(seq, t_us, seat) of every EV line so far."""
        return [(int(w[1]), int(w[2]), int(w[4])) for w in (line.split() for line in self.lines) if w[:1] == ["EV"]]

    def close(self) -> None:
        self.port.close()


@pytest.fixture
def wire(box):
    wire = Wire(box.url)
    wire.say("HELLO?")
    assert wire.until(lambda lines: "HELLO clubbox proto=1 players=4" in lines), wire.lines
    yield wire
    wire.close()


def test_bz3_firmware_stamps_each_press_at_its_edge_in_time_order(box, wire):
    """GIVEN the firmware WHEN seats 4, 3, 2, 1 close 40 µs apart (the reverse of the order the box scans its pins,
    and while it is still sending the first EV line) THEN it sends EV lines for 4, 3, 2, 1 with consecutive seq,
    their t_us spaced as the buttons were: within 20 µs (micros() counts in 4 µs; a press may wait out another
    interrupt, e.g. the UART's, for its stamp)."""
    box.press((4, 0), (3, 40), (2, 80), (1, 120))
    assert wire.until(lambda lines: len(wire.events()) == 4), wire.lines
    events = wire.events()
    assert [seat for _, _, seat in events] == [4, 3, 2, 1]
    assert [seq for seq, _, _ in events] == list(range(events[0][0], events[0][0] + 4))
    closed = [box.pressed_at(seat)[-1] for seat in (4, 3, 2, 1)]
    for (_, t_us, _), (_, first_us, _), edge in zip(events, [events[0]] * 4, closed):
        assert abs((t_us - first_us) - (edge - closed[0])) <= 20, (events, closed)


def test_proto5_firmware_debounces_without_losing_or_doubling_a_press(box, wire):
    """GIVEN the firmware WHEN a button bounces (closes, opens for 2 ms, closes and stays), opens, closes again after
    10 ms (inside DEBOUNCE_US, 20 ms), opens, and closes again 25 ms after that THEN exactly two presses are sent:
    the first edge and the last one, with seq one apart and t_us 100 ms apart."""
    box.send(*(f"{verb} {box.button(2)} +{at}" for verb, at in [
        ("press", 0), ("release", 2_000), ("press", 5_000), ("release", 60_000), ("press", 70_000),
        ("release", 75_000), ("press", 100_000), ("release", 130_000)]))
    assert box.wait(lambda b: len(b.pressed_at(2)) == 4), box.edges
    assert wire.until(lambda lines: len(wire.events()) >= 2), wire.lines
    wire.say("PING 1")                         # everything the box sent before its PONG is in by then
    assert wire.until(lambda lines: any(line.startswith("PONG 1 ") for line in lines)), wire.lines
    (seq1, t1, seat1), (seq2, t2, seat2) = wire.events()
    assert (seat1, seat2, seq2 - seq1) == (2, 2, 1)
    assert abs((t2 - t1) - 100_000) <= 20, wire.events()


def test_proto5_firmware_lamps_arm_and_the_lines_it_must_ignore(box, wire):
    """GIVEN the firmware WHEN the board sends ARM / DISARM / LED p on|off|blink (with \\n or \\r\\n) THEN the live
    lamp and player lamps follow, a blinking lamp changes every 250 ms of box time; malformed lines (a seat out of
    1..4, junk after the seat, an unknown mode, lower case, a missing field, an over-long line) change nothing;
    PING echoes its nonce with the box time, up to the u32 maximum, and a nonce that is not a u32 is not answered
    (the PONG would be a line the board cannot parse)."""
    wire.say("ARM")
    assert box.wait(lambda b: b.live == 1)
    wire.say("LED 02 on", end="\r\n")
    assert box.wait(lambda b: b.lamps == [0, 1, 0, 0])
    wire.say("DISARM", "LED 2 off", "LED 3 blink")
    assert box.wait(lambda b: b.live == 0 and b.lamp(2) == 0)
    lamp3 = box.wiring["lamps"][2]
    assert box.wait(lambda b: len([e for e in b.edges if e[0] == lamp3]) >= 4), box.edges
    times = [t for pin, _, t in box.edges if pin == lamp3][-3:]
    assert all(abs((later - earlier) - 250_000) <= 2_100 for earlier, later in zip(times, times[1:])), times
    wire.say("LED 3 off", "LED 5 on", "LED 0 on", "LED 1x on", "LED +1 on", "LED 1 dim", "led 1 on", "LED 1",
             "ARM " + "x" * 80, "PING " + "9" * 90, "LED 4 on")
    assert box.wait(lambda b: b.lamp(4) == 1)
    assert box.lamps == [0, 0, 0, 1] and box.live == 0
    wire.say("PING 4294967296", "PING 12a", "PING -1", "PING ", "PING 4294967295")
    assert wire.until(lambda lines: any(line.startswith("PONG ") for line in lines)), wire.lines
    pongs = [line.split() for line in wire.lines if line.startswith("PONG ")]
    assert len(pongs) == 1 and pongs[0][1] == "4294967295" and pongs[0][2].isdigit(), pongs
