"""Loopback harness for the remote's tests and benchmark: the board's real side and a hostile network.

Needs the board package (scoreboard.links, scoreboard.session); the remote app itself never imports this module.

BoardLoop — the board's real OSC server (and, when given, the real serial buttons) feeding a real `Session`, with
the board loop of docs/LINKS.md on one thread.

That thread plays the board's main thread: it is the only one that touches the session (drain the inbox in time
order, submit, ack through `on_result`, advance the clock, publish on every new rev).

LossyRelay — a hostile network on loopback: a UDP relay between one client and the board that drops, duplicates and
reorders datagrams in both directions (seeded, so a failure can be replayed).

    relay = LossyRelay(board_address, drop=0.2, duplicate=0.2, max_delay=0.03, seed=7)
    client = OscClient(*relay.address, ...)     # the client talks to the relay as if it were the board

Every datagram is dropped with probability `drop`, else delivered after a random delay in [0, max_delay] — which
reorders datagrams sent closer together than that — and, with probability `duplicate`, delivered a second time
after another random delay. With `record=True` it is also the sniffer on the venue's Wi-Fi: `seen` keeps every
datagram both ways, and `back` (its socket toward the board) sends from the client's address as the board sees it.
"""
from __future__ import annotations

import heapq
import random
import select
import socket
import threading
import time
from pathlib import Path

from scoreboard.app.setup_desk import SetupDesk
from scoreboard.links import Inbox, Links
from scoreboard.session import Session

PASSCODE = "4321"


class BoardLoop:
    def __init__(self, session: Session | None = None, buttons: dict | None = None, state_interval: float = 1.0,
                 port: int = 0, journal=None, setup: dict | None = None, osc: dict | None = None):
        """`journal`: open (or recover) the session from this journal file on the board thread — SQLite objects
        belong to the thread that made them, and on the real board that is the main thread.
        `setup`: a board config ([packs], [tournament]) for the set-up desk (`/sg/setup/*`), as the board has it.
        `osc`: more `[osc]` keys (e.g. `require_auth`)."""
        self.setup_config = setup
        self.journal = journal
        self.session = session if journal is None else None
        if self.session is None and journal is None:
            self.session = Session()
        self.inbox = Inbox()
        self.epoch = time.monotonic() - (self.session.time or 0.0) if self.session is not None else time.monotonic()
        self._ready = threading.Event()
        config = {"osc": {"bind": "127.0.0.1", "port": port, "passcode": PASSCODE, "state_interval": state_interval,
                          **(osc or {})}}
        if buttons:
            config["buttons"] = buttons
        self.links = Links(config, self.inbox, self.clock)
        self.applied: list = []       # every command the session accepted, in order
        self.refused: list = []       # (command, reason)
        self.published_rev = -1
        self._running = True
        self._thread = threading.Thread(target=self._run, name="board-main", daemon=True)

    def clock(self) -> float:
        return time.monotonic() - self.epoch

    @property
    def address(self) -> tuple[str, int]:
        return tuple(self.links.osc.address)

    def start(self) -> "BoardLoop":
        self.links.start()
        if self.setup_config is not None:
            self.links.osc.setup = SetupDesk(self.setup_config, self.inbox, self.clock)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the board loop did not start")
        return self

    def _run(self) -> None:
        if self.journal is not None:
            exists = Path(self.journal).exists() and Path(self.journal).stat().st_size > 0
            self.session = Session.recover(self.journal) if exists else Session(self.journal)
            self.epoch = time.monotonic() - (self.session.time or 0.0)
        self._ready.set()
        try:
            self._loop()
        finally:
            if self.journal is not None:
                self.session.close()

    def _loop(self) -> None:
        while self._running:
            self.inbox.wait(0.01)
            for item, ok, reason in self.inbox.deliver_all(self.session):
                self.applied.append(item.cmd) if ok else self.refused.append((item.cmd, reason))
            self.session.advance(self.clock())
            if self.session.rev != self.published_rev:
                self.published_rev = self.session.rev
                self.links.publish(self.session.snapshot(), self.session.host_question())

    def stop(self) -> None:
        self._running = False
        self._thread.join(timeout=2)
        self.links.stop()


class LossyRelay:
    def __init__(self, board: tuple[str, int], drop=0.2, duplicate=0.2, max_delay=0.03, seed=0, record=False):
        self.board = board
        self.seen: list[tuple[str, bytes]] | None = [] if record else None   # ("up"|"down", datagram): a sniffer
        self.drop, self.duplicate, self.max_delay = drop, duplicate, max_delay
        self.random = random.Random(seed)
        self.front = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)   # the client's side
        self.front.bind(("127.0.0.1", 0))
        self.back = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)    # the board's side
        self.back.bind(("127.0.0.1", 0))
        self.address = self.front.getsockname()
        self.client: tuple[str, int] | None = None
        self.counts = {"in": 0, "dropped": 0, "duplicated": 0, "delivered": 0, "reordered": 0}
        self._queue: list = []          # (due, seq, socket, data, destination)
        self._seq = 0
        self._last_due = {}             # per direction: a datagram due before the previous one was reordered
        self._running = True
        self._thread = threading.Thread(target=self._run, name="lossy-relay", daemon=True)
        self._thread.start()

    def _schedule(self, sock, data, destination, direction) -> None:
        self.counts["in"] += 1
        if self.seen is not None:
            self.seen.append((direction, data))
        if self.random.random() < self.drop:
            self.counts["dropped"] += 1
            return
        copies = 2 if self.random.random() < self.duplicate else 1
        if copies == 2:
            self.counts["duplicated"] += 1
        for _ in range(copies):
            due = time.monotonic() + self.random.uniform(0, self.max_delay)
            if due < self._last_due.get(direction, 0.0):
                self.counts["reordered"] += 1
            self._last_due[direction] = max(due, self._last_due.get(direction, 0.0))
            self._seq += 1
            heapq.heappush(self._queue, (due, self._seq, sock, data, destination))

    def _run(self) -> None:
        while self._running:
            timeout = 0.01
            if self._queue:
                timeout = max(0.0, min(timeout, self._queue[0][0] - time.monotonic()))
            try:
                readable, _, _ = select.select([self.front, self.back], [], [], timeout)
            except (OSError, ValueError):
                return
            for sock in readable:
                try:
                    data, sender = sock.recvfrom(65535)
                except OSError:
                    continue
                if sock is self.front:
                    self.client = sender
                    self._schedule(self.back, data, self.board, "up")
                elif self.client is not None:
                    self._schedule(self.front, data, self.client, "down")
            now = time.monotonic()
            while self._queue and self._queue[0][0] <= now:
                _, _, sock, data, destination = heapq.heappop(self._queue)
                try:
                    sock.sendto(data, destination)
                    self.counts["delivered"] += 1
                except OSError:
                    pass

    def close(self) -> None:
        self._running = False
        self._thread.join(timeout=1)
        self.front.close()
        self.back.close()
