"""`scoreboard bench links`: press → inbox latency, arbitration by box timestamps, OSC command → ack.

Everything runs for real on this machine: the fake box on a pty, the serial reader thread, UDP on 127.0.0.1,
and a board loop thread that drains the inbox into a real `Session` (a stand-in loop when the session module
is missing, which the output says).
"""
from __future__ import annotations

import json
import os
import random
import tempfile
import threading
import time

from scoreboard.bench.figures import percentiles
from scoreboard.bench.links_board import bench_board
from scoreboard.links import Inbox, Links
from scoreboard.links.osc.client import OscClient
from scoreboard.links.serial.fake_box import FakeBox
from scoreboard.session import Session


def make_session():
    """A real in-memory Session."""
    return Session(journal_path=None)


class _StandIn:
    """Only when scoreboard.session is missing: accepts commands and bumps rev (no game rules)."""

    def __init__(self) -> None:
        self.rev = 0

    def submit(self, cmd) -> dict:
        self.rev += 1
        return self.snapshot()

    def snapshot(self) -> dict:
        return {"rev": self.rev, "phase": "setup", "buttons_live": False, "answering": None}

    def host_question(self) -> None:
        return None


class BoardThread:
    """The board's main-loop contract on a thread: drain, submit, report, publish on a new rev."""

    def __init__(self, links: Links, inbox: Inbox, session=None):
        self.links, self.inbox = links, inbox
        self.session = session if session is not None else _StandIn()
        self.real = not isinstance(self.session, _StandIn)
        self.applied: list = []
        self.refused: list = []          # (command, reason): what the game said no to
        self._running = True
        self._thread = threading.Thread(target=self._run, name="board-loop", daemon=True)

    def start(self) -> "BoardThread":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._running = False
        self._thread.join(timeout=2)

    def _run(self) -> None:
        rev = None
        while self._running:
            self.inbox.wait(0.05)
            for item, ok, reason in self.inbox.deliver_all(self.session):
                self.applied.append(item.cmd) if ok else self.refused.append((item.cmd, reason))
            # a new rev, or a press only the photo finish took (ignored by the rules: the rev stays)
            if (self.session.rev, getattr(self.session, "presses_seen", 0)) != rev:
                rev = (self.session.rev, getattr(self.session, "presses_seen", 0))
                self.links.publish(self.session.snapshot(), self.session.host_question())


def _serial_links(url: str, mode: str = "events", ping: float = 1.0) -> tuple[Links, Inbox]:
    inbox = Inbox()
    links = Links({"osc": {"enabled": False}, "buttons": {"port": url, "mode": mode, "ping_interval": ping}},
                  inbox, time.monotonic)
    links.start()
    deadline = time.monotonic() + 30          # only bounds a hang
    while not links.status()["buttons_online"]:
        if time.monotonic() > deadline:
            raise RuntimeError(f"fake box at {url} did not come online")
        time.sleep(0.005)
    return links, inbox


def _wait_items(inbox: Inbox, count: int, timeout: float = 30.0) -> list:
    # the timeout only bounds a hang: a loaded machine may deschedule the reader for seconds
    items, deadline = [], time.monotonic() + timeout
    while len(items) < count and time.monotonic() < deadline:
        inbox.wait(0.01)
        items += inbox.drain()
    return items


def bench_press_to_inbox(folder: str, trials: int) -> dict:
    box = FakeBox(players=4, link=os.path.join(folder, "box")).start()
    links, inbox = _serial_links(box.url)
    try:
        samples = []
        for i in range(trials):
            start = time.perf_counter()
            box.press(1 + i % 4)
            inbox.wait(1.0)
            samples.append(time.perf_counter() - start)
            inbox.drain()
        return percentiles(samples)
    finally:
        links.stop()
        box.stop()


def bench_arbitration(folder: str, trials: int, gap_us: int = 100, pace: float = 0.0008) -> dict:
    """Two presses `gap_us` apart by box time, one trial every `pace` seconds so that the run lasts long
    enough for the box clock (150 ppm fast) to be fitted from PONGs and for its u32 counter to wrap. Half
    the trials report the presses as a box that sends in time order does (two writes); half as one burst in
    random order (a box reporting one scan in button order). The board's first drained press (what it
    would submit first) must be the earlier one."""
    rng = random.Random(7)
    box = FakeBox(players=8, link=os.path.join(folder, "arb"), t0_us=2**32 - 300_000, drift_ppm=150).start()
    links, inbox = _serial_links(box.url, ping=0.25)
    right = wrapped = 0
    try:
        start = time.monotonic()
        for trial in range(trials):
            while time.monotonic() < start + trial * pace:
                time.sleep(0.0002)
            first, second = rng.sample(range(1, 9), 2)
            t = box.now_us()
            wrapped += t < 2**31
            lines = [(first, t), (second, t + gap_us)]
            if trial % 2:
                box.press(first, t_us=t)
                box.press(second, t_us=t + gap_us)
            else:
                rng.shuffle(lines)
                box.press_many(lines)
            items = _wait_items(inbox, 2)
            right += len(items) == 2 and items[0].cmd.args[0] == first
        status = links.status()
        return {"trials": trials, "right": right, "gap_ms": gap_us / 1000, "after_wrap": wrapped,
                "seconds": round(time.monotonic() - start, 1), "pongs": status["pongs"],
                "drift_ppm_fitted": status["box_drift_ppm"]}
    finally:
        links.stop()
        box.stop()


def bench_arbitration_digits(folder: str, trials: int, gap: float = 0.002) -> dict:
    """One-digit mode: presses 2 ms apart by the wall clock; the board stamps arrival."""
    rng = random.Random(11)
    box = FakeBox(players=9, link=os.path.join(folder, "digits"), digits=True).start()
    links, inbox = _serial_links(box.url, mode="digits")
    right = same_read = 0
    try:
        for _ in range(trials):
            first, second = rng.sample(range(1, 10), 2)
            box.press(first)
            until = time.perf_counter() + gap
            while time.perf_counter() < until:
                pass
            box.press(second)
            items = _wait_items(inbox, 2)
            # Both digits in one read (the reader thread was descheduled) are stamped 1 µs apart, in byte order.
            right += len(items) == 2 and items[0].cmd.args[0] == first
            same_read += len(items) == 2 and abs(items[1].cmd.at - items[0].cmd.at) <= 1.5e-6
        return {"trials": trials, "right": right, "gap_ms": gap * 1000, "same_read": same_read}
    finally:
        links.stop()
        box.stop()


def bench_osc_ack(trials: int) -> dict:
    inbox = Inbox()
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": "bench"}}, inbox, time.monotonic)
    links.start()
    board = BoardThread(links, inbox, make_session()).start()
    client = OscClient("127.0.0.1", links.osc.address[1], "bench", bind=("127.0.0.1", 0))
    try:
        client.connect(timeout=3.0)
        if board.real:
            ok, reason = client.command("/sg/game/new", "novosibirsk-2007", "1/9", 3, 1)
            assert ok, reason
        samples, refused = [], 0
        for i in range(trials):
            start = time.perf_counter()
            ok, _ = client.command("/sg/player/name", 1 + i % 3, f"Игрок {i}", retry=1.0)
            samples.append(time.perf_counter() - start)
            refused += not ok
        return {**percentiles(samples), "refused": refused,
                "session": "real scoreboard.session.Session" if board.real else "stand-in loop (no session yet)"}
    finally:
        client.close()
        board.stop()
        links.stop()


def bench_links(args) -> int:
    if getattr(args, "board", False):   # the same OSC path measured on the real `scoreboard run` under Xvfb
        return bench_board(args)
    quick = getattr(args, "quick", False)
    n = 200 if quick else 2000
    arb = 1000 if quick else 10_000
    with tempfile.TemporaryDirectory() as folder:
        figures = {
            "press_to_inbox": bench_press_to_inbox(folder, n),
            "arbitration_0.1ms": bench_arbitration(folder, arb),
            "arbitration_digits_2ms": bench_arbitration_digits(folder, arb // 4 if quick else arb),
            "osc_command_to_ack": bench_osc_ack(n),
        }
    if getattr(args, "json", False):
        print(json.dumps(figures, ensure_ascii=False, indent=1))
    else:
        for name, values in figures.items():
            print(f"{name:24} " + "  ".join(f"{k}={v}" for k, v in values.items()))
    ok = (figures["press_to_inbox"]["p99_ms"] <= 2 and figures["osc_command_to_ack"]["p99_ms"] <= 5
          and figures["arbitration_0.1ms"]["right"] == figures["arbitration_0.1ms"]["trials"]
          and figures["arbitration_digits_2ms"]["right"] == figures["arbitration_digits_2ms"]["trials"])
    return 0 if ok else 1
