"""The board's side for the remote's fault and end-to-end tests: the links agent's real OSC server (and, when
given, the real serial buttons) feeding a real `Session`, with the board loop of docs/LINKS.md on one thread.

That thread plays the board's main thread: it is the only one that touches the session (drain the inbox in time
order, submit, ack through `on_result`, advance the clock, publish on every new rev).
"""
from __future__ import annotations

import threading
import time

from scoreboard.engine.commands import Refused
from scoreboard.links import Inbox, Links
from scoreboard.session import Session

PASSCODE = "4321"


class BoardLoop:
    def __init__(self, session: Session | None = None, buttons: dict | None = None, state_interval: float = 1.0):
        self.session = session or Session()
        self.inbox = Inbox()
        self.epoch = time.monotonic() - (self.session.time or 0.0)
        config = {"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASSCODE, "state_interval": state_interval}}
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
        self._thread.start()
        return self

    def _run(self) -> None:
        while self._running:
            self.inbox.wait(0.01)
            for item in self.inbox.drain():
                try:
                    self.session.submit(item.cmd)
                    ok, reason = True, None
                    self.applied.append(item.cmd)
                except Refused as error:
                    ok, reason = False, str(error)
                    self.refused.append((item.cmd, reason))
                if item.on_result is not None:
                    item.on_result(ok, reason)
            self.session.advance(self.clock())
            if self.session.rev != self.published_rev:
                self.published_rev = self.session.rev
                self.links.publish(self.session.snapshot(), self.session.host_question())

    def stop(self) -> None:
        self._running = False
        self._thread.join(timeout=2)
        self.links.stop()
