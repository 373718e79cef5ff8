"""`/sg/protocol` (issue 27 item 1): the host's remote asks for the protocol of the game once it is over.

The board builds it from its own journal (read-only, on a worker thread: the OSC thread never waits for a disk),
puts the HTML on the page server's shelf (links/web/shelf.py) and answers the asking host session alone with
`/sg/protocol/link PATH PORT`: the phone page opens PATH on the board it was loaded from, the Python remote
`http://BOARD:PORT/PATH`. A view session is refused, and so is a game not over yet — the protocol then would hold
final stakes the hall has not seen (FN4). Without the page server (`[remote_web]` off) there is nowhere to open it:
refused with what to do instead.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable, Optional

from scoreboard.protocol import ProtocolError, build, render

ADDRESS = "/sg/protocol"
LINK = "/sg/protocol/link"


class ProtocolDesk:
    def __init__(self, journal_path: Path, web, game: Callable[[], Optional[str]] = lambda: None) -> None:
        self.journal_path = Path(journal_path)
        self.web = web                  # the page server (links/web/server.py), or None when it is off
        self.game = game                # the tournament's game id being played, if any (for the header)

    def handle(self, params: list, reply: Callable, result: Callable[[bool, Optional[str]], None]) -> None:
        if params:
            result(False, "usage: /sg/protocol (no arguments)")
            return
        if self.web is None or not self.web.alive:
            result(False, "the protocol is opened on the board's page, and [remote_web] is off: on the board, "
                          f"`scoreboard protocol {self.journal_path}`")
            return
        threading.Thread(target=self._answer, args=(reply, result), daemon=True, name="protocol").start()

    def _answer(self, reply: Callable, result: Callable[[bool, Optional[str]], None]) -> None:
        try:
            model = build(self.journal_path)
            if not model["result"]["game_over"]:
                result(False, "the protocol is given once the game is over")
                return
            model["header"]["game"] = self.game()
            path = self.web.shelf.put(render(model, "html"))
        except ProtocolError as error:
            result(False, f"protocol: {error}")
            return
        except Exception as error:   # a fault here must never take the OSC link with it
            result(False, f"protocol: {error!r}")
            return
        reply(path, int(self.web.port or 0), address=LINK)
        result(True, None)


def attach(links, journal_path: Path, config: dict) -> None:
    """The board's set-up desk answers `/sg/protocol` from this desk (OSC and the page alike)."""
    desk = getattr(getattr(links, "osc", None), "setup", None)
    if desk is not None:
        tournament = config.get("tournament") or {}
        desk.protocol = ProtocolDesk(journal_path, getattr(links, "web", None), lambda: tournament.get("game"))
