"""A session: the engine plus its journal. Everything outside the engine talks to a session.

`submit` fires the deadlines that fall before the command (each journaled as `/sg/clock` at its own time),
resolves what a command needs from outside (the regulation's content, a pack's plan, a lot seed) into the
command's journaled `data`, applies it, and appends it to the journal before it counts: if the append
fails, the engine is rolled back and the command is refused.
"""
from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any, Callable

from scoreboard.engine import Command, Game, Refused
from scoreboard.engine.commands import INTERNAL
from scoreboard.engine.regulation import RegulationError
from scoreboard.regulations import REGULATIONS_DIR, load_regulation, read_regulation_table
from scoreboard.journal import Journal, JournalError


def _default_pack_loader(path: str, topics: list[str] | None = None) -> dict:
    try:
        from scoreboard.packs import PackError, load_plan
    except ImportError as error:
        raise Refused(f"packs are not available in this build ({error})") from None
    try:
        return load_plan(path, topics=topics)
    except PackError as error:
        raise Refused(str(error)) from None


class Session:
    def __init__(self, journal_path: str | Path | None = None, *, live_seed: bool = False,
                 pack_loader: Callable[..., dict] | None = None, regulations_dir: Path | None = None):
        """`live_seed`: add a random lot seed to /sg/game/new when it has none (the board); scripts keep 0."""
        self.regulations_dir = regulations_dir or REGULATIONS_DIR
        self.game = Game(lambda name: load_regulation(name, self.regulations_dir))
        self.journal = Journal(journal_path) if journal_path is not None else None
        self.live_seed = live_seed
        self.pack_loader = pack_loader or _default_pack_loader
        self.ignored: list[tuple[Command, str]] = []
        self.notices: list[str] = []   # for the operator: a loaded pack's warnings (P2, missing media, …)

    # -- the board's calls --------------------------------------------------------------------------
    def submit(self, cmd: Command) -> dict[str, Any]:
        if cmd.address in INTERNAL:
            raise Refused(f"{cmd.address} is internal to the board")
        self.advance(cmd.at)
        resolved = self._resolve(cmd)
        self._apply(resolved)
        if resolved.address == "/sg/pack/load" and isinstance(resolved.data, dict):
            self.notices += [f"pack {resolved.args[0]}: {w}" for w in resolved.data.get("warnings") or []]
        return self.snapshot()

    def advance(self, now: float) -> bool:
        """Fire every deadline up to `now`, in order, each at its own time."""
        changed = False
        while (due := self.game.next_deadline()) is not None and due <= now:
            self._apply(Command(due, "/sg/clock"))
            changed = True
        return changed

    def snapshot(self) -> dict[str, Any]:
        return self.game.snapshot()

    def host_question(self) -> dict | None:
        return self.game.host_question()

    def next_deadline(self) -> float | None:
        return self.game.next_deadline()

    @property
    def rev(self) -> int:
        return self.game.rev

    @property
    def time(self) -> float:
        return self.game.time

    # -- internals ----------------------------------------------------------------------------------
    def _resolve(self, cmd: Command) -> Command:
        if cmd.data is not None:
            return cmd
        if cmd.address == "/sg/game/new" and len(cmd.args) >= 2:
            args = tuple(cmd.args)
            if len(args) < 4 and self.live_seed:
                players = args[2] if len(args) > 2 else self._default_players(args[0])
                args = (args[0], args[1], players, secrets.randbelow(2 ** 31))
            return Command(cmd.at, cmd.address, args, {"regulation": self._regulation_data(args[0])})
        if cmd.address == "/sg/pack/load" and cmd.args:
            topics = list(cmd.args[1:]) or None
            plan = self.pack_loader(cmd.args[0], topics) if topics else self.pack_loader(cmd.args[0])
            return Command(cmd.at, cmd.address, cmd.args, plan)
        return cmd

    def _default_players(self, name: str) -> int:
        try:
            return load_regulation(name, self.regulations_dir).players_default
        except RegulationError as error:
            raise Refused(str(error)) from None

    def _regulation_data(self, name: str) -> dict | None:
        """The regulation's content is journaled with the game, so replay never depends on the file."""
        try:
            return read_regulation_table(name, self.regulations_dir)   # validated: every problem listed
        except RegulationError as error:
            raise Refused(str(error)) from None
        except OSError as error:   # the file vanished between the check and the read
            raise Refused(f"regulation {name!r}: {error}") from None

    def _apply(self, cmd: Command) -> None:
        commit = None if self.journal is None else self.journal.append
        outcome = self.game.apply(cmd, commit=commit)
        if not outcome.changed:
            self.ignored.append((cmd, outcome.note or ""))
            if self.journal is not None:
                self.journal.log_ignored(cmd, outcome.note or "")

    # -- recovery -----------------------------------------------------------------------------------
    @classmethod
    def recover(cls, journal_path: str | Path, **kwargs) -> "Session":
        """Rebuild a game from its journal; it comes back paused, so no clock runs for the time it was down."""
        session = cls(None, **kwargs)
        journal = Journal(journal_path, create=False)
        journal.check()
        replay_into(session.game, journal)
        session.journal = journal
        st = session.game.st
        if st is not None and not st.paused and not st.game_over:
            session._apply(Command(session.game.time, "/sg/pause", (), "recovered"))
        return session

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()


def replay_into(game: Game, journal: Journal) -> None:
    for seq, cmd in journal.events():
        try:
            outcome = game.apply(cmd, atomic=False)
        except Refused as error:
            raise JournalError(f"{journal.path}: event {seq} ({cmd.address}) does not replay: {error}") from None
        if not outcome.changed:
            raise JournalError(f"{journal.path}: event {seq} ({cmd.address}) changes nothing on replay: "
                               f"{outcome.note}")


def replay_snapshot(journal_path: str | Path) -> dict[str, Any]:
    """Read-only: the snapshot a journal ends in."""
    journal = Journal(journal_path, readonly=True)
    try:
        journal.check()
        game = Game(load_regulation)
        replay_into(game, journal)
        return game.snapshot()
    finally:
        journal.close()


def submit_reporting(session: "Session", cmd: Command,
                     on_result: Callable[[bool, str | None], None] | None = None) -> tuple[bool, str | None]:
    """`session.submit(cmd)`, with the outcome passed to `on_result` (that is what sends an OSC ack)."""
    try:
        session.submit(cmd)
        ok, reason = True, None
    except Refused as error:
        ok, reason = False, str(error)
    if on_result is not None:
        on_result(ok, reason)
    return ok, reason
