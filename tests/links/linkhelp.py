"""Helpers shared by the links tests (imported as a plain module; pytest puts this folder on sys.path)."""
from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from scoreboard.bench.links import BoardThread
from scoreboard.engine.commands import make
from scoreboard.links import Inbox, Links


def wait_until(predicate, timeout: float = 30.0, step: float = 0.002) -> bool:
    """Poll `predicate` until it holds (True) or the timeout passes (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())


def drain_n(inbox: Inbox, count: int, timeout: float = 30.0) -> list:
    items: list = []
    deadline = time.monotonic() + timeout
    while len(items) < count and time.monotonic() < deadline:
        inbox.wait(0.01)
        items += inbox.drain()
    return sorted(items, key=lambda item: (item.cmd.at, item.seq))


def session_in_buzz_window(at: float = 0.0):
    """A real session: novosibirsk 1/9, 3 players, the first cell read; buttons live (BZ2)."""
    from scoreboard.session import Session
    session = Session()
    script = [("/sg/game/new", "novosibirsk-2007", "1/9", 3, 0), ("/sg/topics", "A", "B", "C", "D"),
              ("/sg/game/start",), ("/sg/chooser", 1), ("/sg/select", 1, 1), ("/sg/reading/done",)]
    for address, *args in script:
        session.submit(make(at, address, *args))
    assert session.snapshot()["phase"] == "buzz_window"
    return session


@contextmanager
def board_on_loopback(config: dict) -> Iterator[tuple[Links, BoardThread]]:
    """A board in this process: the links of `config` (each on a port of the system's choice), engine seconds from
    1.0, and a loop thread applying to a real session with a novosibirsk 1/9 game of 3 players set up (G1)."""
    from scoreboard.session import Session
    epoch = time.monotonic()
    inbox = Inbox()
    links = Links(config, inbox, lambda: time.monotonic() - epoch + 1.0)
    links.start()
    session = Session()
    session.submit(make(0.0, "/sg/game/new", "novosibirsk-2007", "1/9", 3, 0))
    board = BoardThread(links, inbox, session).start()
    try:
        yield links, board
    finally:
        board.stop()
        links.stop()


@contextmanager
def host_and_box_at_the_window(folder) -> Iterator[tuple]:
    """A board in this process with OSC and the fake box on a real pty, its loop thread on a real session, and a
    host client (passcode "tablet") that set up novosibirsk 1/9 and opened the first cell: the window is open and the
    box armed. Yields (links, board, box, host); engine seconds from 0."""
    from scoreboard.links.osc.client import OscClient
    from scoreboard.links.serial.fake_box import FakeBox
    from scoreboard.session import Session
    epoch = time.monotonic()
    box = FakeBox(players=3, link=str(folder / "box")).start()
    inbox = Inbox()
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": "tablet"}, "buttons": {"port": box.url}},
                  inbox, lambda: time.monotonic() - epoch)
    links.start()
    board = BoardThread(links, inbox, Session()).start()
    host = OscClient("127.0.0.1", links.osc.address[1], "tablet", bind=("127.0.0.1", 0))
    try:
        assert wait_until(lambda: links.status()["buttons_online"])
        host.connect(timeout=30)
        for address, *args in [("/sg/game/new", "novosibirsk-2007", "1/9", 3, 0),
                               ("/sg/topics", "Реки", "Горы", "Птицы", "Кино"), ("/sg/game/start",),
                               ("/sg/chooser", 1), ("/sg/select", 1, 1), ("/sg/reading/done",)]:
            assert host.command(address, *args, timeout=30) == (True, None), address
        host.wait_state(lambda s: s["phase"] == "buzz_window", timeout=30)
        assert box.wait_for(lambda b: b.armed, timeout=30)
        yield links, board, box, host
    finally:
        host.close()
        board.stop()
        links.stop()
        box.stop()


def start_links(url: str, clock=time.monotonic, **buttons) -> tuple[Links, Inbox]:
    inbox = Inbox()
    links = Links({"osc": {"enabled": False}, "buttons": {"port": url, **buttons}}, inbox, clock)
    links.start()
    return links, inbox


class RawPeer:
    """A bare UDP socket on 127.0.0.1 speaking OSC by hand, to see every datagram the board sends back."""

    def __init__(self, board: tuple[str, int]):
        import socket
        self.board = board
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.02)

    @property
    def addr(self) -> tuple[str, int]:
        return self.sock.getsockname()

    def send(self, address: str, *args) -> None:
        from scoreboard.links.osc.messages import build
        self.sock.sendto(build(address, *args), self.board)

    def send_raw(self, data: bytes) -> None:
        self.sock.sendto(data, self.board)

    def receive(self, wait: float = 0.3, until=None) -> list[tuple[str, list]]:
        """Every message received within `wait` s (or until `until(messages)` holds)."""
        import socket
        from pythonosc.osc_message import OscMessage
        messages: list[tuple[str, list]] = []
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                data, _ = self.sock.recvfrom(65535)
            except socket.timeout:
                continue
            message = OscMessage(data)
            messages.append((message.address, list(message.params)))
            if until is not None and until(messages):
                break
        return messages

    def close(self) -> None:
        self.sock.close()


def of(messages, address: str) -> list[list]:
    """The params of every received message with this address."""
    return [params for addr, params in messages if addr == address]
