"""The board's set-up desk for host sessions: `/sg/setup/catalog` and `/sg/setup/game` (docs/PROTOCOL.md, (ext)).

`/sg/setup/catalog [path]` answers that session alone with `/sg/setup/catalog json` (scoreboard/app/setup_catalog.py);
with a path, only that pack, with every topic. `/sg/setup/game ID` opens the tournament's game ID: the commands
`scoreboard.tournament.board_link.setup_commands` gives (new game with the draw's seed, names, topics) go through
the inbox like any other, and once the new game is applied the board records that game's result at game over.
Reading packs and the tournament file happens on a worker thread, so the OSC thread never waits for a disk.
"""
from __future__ import annotations

import json
import threading
import time
from typing import Callable, Optional

from scoreboard.app.setup_catalog import Catalog
from scoreboard.engine.commands import Command
from scoreboard.tournament.board_link import setup_commands

ADDRESSES = ("/sg/setup/catalog", "/sg/setup/game")
MAX_JSON = 60_000        # under the links' datagram limit, with room for the OSC framing
REUSE_FOR = 0.5          # seconds: a retried request is answered from the last build

Reply = Callable[[str], None]
Result = Callable[[bool, Optional[str]], None]


def shrink(catalog: dict, limit: int = MAX_JSON) -> str:
    """The catalogue as compact JSON that fits one datagram: past the limit the packs' topic names and warnings
    go first (counts stay; `/sg/setup/catalog PATH` gives one pack whole), `truncated` says so."""
    text = json.dumps(catalog, ensure_ascii=False, separators=(",", ":"))
    if len(text.encode()) <= limit:
        return text
    slim = dict(catalog, truncated=True)
    slim["packs"] = [dict(p, rounds=[{"name": r["name"], "topics": len(r["topics"])} for r in p["rounds"]],
                          warnings=p["warnings"][:1] + ([f"… +{len(p['warnings']) - 1}"] if len(p["warnings"]) > 1
                                                        else []), errors=p["errors"][:2])
                     for p in catalog["packs"]]
    text = json.dumps(slim, ensure_ascii=False, separators=(",", ":"))
    while len(text.encode()) > limit and slim["packs"]:
        slim["packs"] = slim["packs"][:len(slim["packs"]) * 3 // 4]
        slim["problems"] = list(catalog["problems"]) + ["too many packs for one answer; the list is cut"]
        text = json.dumps(slim, ensure_ascii=False, separators=(",", ":"))
    return text


class SetupDesk:
    def __init__(self, config: dict, inbox, clock: Callable[[], float], catalog: Catalog | None = None) -> None:
        self.config = config
        self.inbox = inbox
        self.clock = clock
        self.catalog = catalog or Catalog(config)
        self._lock = threading.Lock()
        self._last: tuple[float, str | None, str] | None = None    # (when, path, json)
        self.protocol = None    # app/protocol_desk.py: `/sg/protocol`, once the board knows its journal

    def handles(self, address: str) -> bool:
        return address in ADDRESSES or (address == "/sg/protocol" and self.protocol is not None)

    def handle(self, address: str, params: list, is_host: bool, reply: Reply, result: Result) -> None:
        if not is_host:
            result(False, "a view session may not set up a game" if address != "/sg/protocol" else
                   "a view session may not ask for the protocol")
            return
        if address == "/sg/protocol":
            self.protocol.handle(params, reply, result)
            return
        if address == "/sg/setup/catalog":
            if len(params) > 1 or (params and not isinstance(params[0], str)):
                result(False, "usage: /sg/setup/catalog [pack path]")
                return
            only = params[0] if params else None
            threading.Thread(target=self._answer, args=(only, reply, result), daemon=True,
                             name="setup-catalog").start()
            return
        if len(params) != 1 or not isinstance(params[0], (str, int)) or isinstance(params[0], bool):
            result(False, "usage: /sg/setup/game GAME_ID")
            return
        threading.Thread(target=self._open_game, args=(str(params[0]), result), daemon=True,
                         name="setup-game").start()

    def _answer(self, only: str | None, reply: Reply, result: Result) -> None:
        try:
            with self._lock:
                now = time.monotonic()
                if self._last is not None and self._last[1] == only and now - self._last[0] < REUSE_FOR:
                    text = self._last[2]
                else:
                    text = shrink(self.catalog.build(only))
                    self._last = (now, only, text)
        except Exception as error:   # a fault here must never take the OSC link with it
            result(False, f"catalogue: {error}")
            return
        reply(text)
        result(True, None)

    def _open_game(self, game_id: str, result: Result) -> None:
        tournament = self.config.get("tournament") or {}
        path = tournament.get("file") or ""
        if not path:
            result(False, "no tournament file ([tournament] file in the config)")
            return
        try:
            commands = setup_commands(path, game_id)
        except Exception as error:   # TournamentError and a damaged file alike: said, nothing changed
            result(False, str(error))
            return
        # One after the other: a name goes in only once the new game is there, so a refused game changes nothing.
        def step(index: int) -> None:
            address, args = commands[index]

            def done(ok: bool, reason: Optional[str]) -> None:
                if not ok:
                    result(False, reason or "refused")
                    return
                if index == 0:
                    tournament["game"] = game_id   # game over records this game (board._record_result)
                if index + 1 < len(commands):
                    step(index + 1)
                else:
                    result(True, None)
            self.inbox.put(Command(self.clock(), address, tuple(args)), "setup", done)

        step(0)


def attach(links, config: dict, inbox, clock) -> None:
    """The remote's set-up screens ask the board what it has: the OSC server answers them from this desk."""
    if getattr(links, "osc", None) is not None:
        links.osc.setup = SetupDesk(config, inbox, clock)
