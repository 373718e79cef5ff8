"""Helpers shared by the links tests (imported as a plain module; pytest puts this folder on sys.path)."""
from __future__ import annotations

import time

from scoreboard.engine.commands import make
from scoreboard.links import Inbox, Links


def wait_until(predicate, timeout: float = 2.0, step: float = 0.002) -> bool:
    """Poll `predicate` until it holds (True) or the timeout passes (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())


def drain_n(inbox: Inbox, count: int, timeout: float = 2.0) -> list:
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


def start_links(url: str, clock=time.monotonic, **buttons) -> tuple[Links, Inbox]:
    inbox = Inbox()
    links = Links({"osc": {"enabled": False}, "buttons": {"port": url, **buttons}}, inbox, clock)
    links.start()
    return links, inbox
