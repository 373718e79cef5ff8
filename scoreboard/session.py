"""A session: the engine plus its journal. Everything outside the engine talks to a session.

`submit` fires the deadlines that fall before the command (each journaled as `/sg/clock` at its own time),
resolves what a command needs from outside (the regulation's content, a pack's plan, a lot seed) into the
command's journaled `data`, applies it, and appends it to the journal before it counts: if the append
fails, the engine is rolled back and the command is refused. A failed append is also remembered
(`journal_status()`: the board's alarm) until the next append succeeds; every command tries again.

`submit_batch` is the board's turn: every command it drained is applied in order and journaled in one transaction,
so one fsync makes the whole batch durable, and no outcome is reported before it is. A batch that cannot be
committed is undone whole (engine, journal, notices) and its commands are submitted again one by one, each with its
own transaction: exactly the ones that still cannot be journaled are refused, the others are done.
"""
from __future__ import annotations

import logging
import secrets
import time
from pathlib import Path
from typing import Any, Callable

from scoreboard.engine import Command, Game, Refused
from scoreboard.engine.commands import INTERNAL
from scoreboard.engine.regulation import RegulationError
from scoreboard.regulations import load_regulation, read_regulation_table
from scoreboard.journal import Journal, JournalError

log = logging.getLogger("scoreboard.session")

def _default_pack_loader(path: str, topics: list[str] | None = None) -> dict:
    from scoreboard.packs import PackError, load_plan   # lazy: the packs' readers load with the first pack only
    try:
        return load_plan(path, topics=topics)
    except PackError as error:
        raise Refused(str(error)) from None


class Session:
    def __init__(self, journal_path: str | Path | None = None, *, live_seed: bool = False,
                 pack_loader: Callable[..., dict] | None = None, regulations_dir: Path | None = None):
        """`live_seed`: add a random lot seed to /sg/game/new when it has none (the board); scripts keep 0."""
        self.regulations_dir = regulations_dir        # None: the shipped presets, then the club's own
        self.game = Game(lambda name: load_regulation(name, self.regulations_dir))
        self.journal = Journal(journal_path) if journal_path is not None else None
        self.live_seed = live_seed
        self.pack_loader = pack_loader or _default_pack_loader
        self.ignored: list[tuple[Command, str]] = []
        self.notices: list[str] = []   # for the operator: a loaded pack's warnings (P2, missing media, …)
        self.journal_error: str | None = None    # the last append's failure, until one succeeds
        self.journal_error_since: float | None = None   # Unix time of the first failure in a row

    # -- the board's calls --------------------------------------------------------------------------
    def submit(self, cmd: Command) -> dict[str, Any]:
        """Apply and journal `cmd` (raises Refused, JournalError, InternalError); the snapshot after it."""
        self.accept(cmd)
        return self.snapshot()

    def accept(self, cmd: Command) -> None:
        """`submit` without building the snapshot (a batch builds one after all its commands)."""
        if cmd.address in INTERNAL:
            raise Refused(f"{cmd.address} is internal to the board")
        self.advance(cmd.at)
        resolved = self._resolve(cmd)
        self._apply(resolved)
        if resolved.address == "/sg/pack/load" and isinstance(resolved.data, dict):
            self.notices += [f"pack {resolved.args[0]}: {w}" for w in resolved.data.get("warnings") or []]
            # what the engine found for this game's stage (AU1 auction cells, TB tie-break topics)
            self.notices += [f"pack {resolved.args[0]}: {w}" for w in self.snapshot().get("warnings") or []]

    def try_submit(self, cmd: Command) -> tuple[bool, str | None]:
        """`submit`, as an outcome: (True, None) or (False, why). Never raises for one command (see
        `submit_reporting`)."""
        return outcome(self, cmd)

    def submit_batch(self, cmds: list[Command]) -> list[tuple[bool, str | None]]:
        """Each command's outcome, in order, returned once every accepted one is durable (one transaction)."""
        if len(cmds) < 2 or not hasattr(self.journal, "begin"):   # (no journal, or a test's recorder)
            return [self.try_submit(cmd) for cmd in cmds]
        point, notices, ignored = self.game.save_point(), len(self.notices), len(self.ignored)
        try:
            self.journal.begin()
        except JournalError:
            return [self.try_submit(cmd) for cmd in cmds]   # the file changed: each alone writes it again
        try:
            outcomes = [outcome(self, cmd, journal_raises=True) for cmd in cmds]
            self.journal.commit()
        except JournalError as error:
            self.journal.abort()
            self.game.restore_point(point)
            del self.notices[notices:], self.ignored[ignored:]
            log.info("journal: a batch of %d failed (%s); each is journaled alone", len(cmds), error)
            return [self.try_submit(cmd) for cmd in cmds]
        self._journal_ok()
        return outcomes

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
    def presses_seen(self) -> int:
        """Changes with the photo finish when the rev does not (an ignored press): the host's page is sent again."""
        st = self.game.st
        return 0 if st is None else st.photo.seen

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

    def journal_status(self) -> dict:
        """`status.journal` of the board's snapshot: ok, or the reason nothing is being journaled."""
        return {"ok": self.journal_error is None, "error": self.journal_error, "since": self.journal_error_since}

    def _commit(self, cmd: Command) -> None:
        try:
            self.journal.append(cmd)
        except JournalError as error:
            self._journal_failed(error)
            raise
        if not getattr(self.journal, "in_batch", False):   # a batch's rows count at its commit
            self._journal_ok()

    def _journal_failed(self, error: JournalError) -> None:
        if self.journal_error is None:
            self.journal_error_since = time.time()
            log.error("journal: %s", error)
        self.journal_error = str(error)

    def _journal_ok(self) -> None:
        if self.journal_error is not None:
            log.warning("journal: writing again after %s", self.journal_error)
            self.journal_error = self.journal_error_since = None

    def _apply(self, cmd: Command) -> None:
        commit = None if self.journal is None else self._commit
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
    """Every event in order; the presses the rules ignored (the journal's `ignored` table) are noted again where
    they fell, so the photo finish comes back as it was (engine/photo.py)."""
    ignored = journal.ignored_presses()
    k = 0
    for seq, cmd in journal.events():
        while k < len(ignored) and ignored[k][0] < seq:
            game.replay_ignored(ignored[k][1])
            k += 1
        try:
            outcome = game.apply(cmd, atomic=False)
        except Refused as error:
            raise JournalError(f"{journal.path}: event {seq} ({cmd.address}) does not replay: {error}") from None
        if not outcome.changed:
            raise JournalError(f"{journal.path}: event {seq} ({cmd.address}) changes nothing on replay: "
                               f"{outcome.note}")
    for _, cmd in ignored[k:]:
        game.replay_ignored(cmd)


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


def outcome(session, cmd: Command, journal_raises: bool = False) -> tuple[bool, str | None]:
    """`session.submit(cmd)` as (True, None) or (False, why). A refusal, a journal that cannot be written (the
    command is not done: the engine is rolled back; `journal_raises`: raised instead, for a batch to undo itself)
    and a bug (the engine's `InternalError`, or anything else) each refuse this command only, so the rest of a
    drained batch is still submitted and answered."""
    try:
        getattr(session, "accept", session.submit)(cmd)
        return True, None
    except Refused as error:
        return False, str(error)
    except JournalError as error:
        if journal_raises:
            raise
        return False, f"not journaled, not done: {error}"
    except Exception as error:   # a bug: the engine rolled back; say so loudly, keep the show going
        log.exception("internal error on %s %s", cmd.address, list(cmd.args))
        notices = getattr(session, "notices", None)
        if notices is not None:
            notices.append(f"board: INTERNAL ERROR on {cmd.address}: {error!r} (logged; the command was not done)")
        return False, f"internal error on {cmd.address}: {error!r}"


def submit_reporting(session: "Session", cmd: Command,
                     on_result: Callable[[bool, str | None], None] | None = None) -> tuple[bool, str | None]:
    """`outcome(session, cmd)`, passed to `on_result` too (that is what sends an OSC ack)."""
    ok, reason = outcome(session, cmd)
    if on_result is not None:
        on_result(ok, reason)
    return ok, reason
