"""The protocol's model, built by replaying a journal event by event through the engine.

Theory of operation. Each journaled command is applied to a fresh `Game` (as `session.replay_into` does) and what
the rules did is read off the state around it: which phase it left, whose score moved by how much, which question
opened. The presses the rules ignored (the journal's `ignored` table, BZ8) are merged in by their time. Nothing is
re-derived: a verdict's points are the scores' difference, a winner is the engine's. An undo is a line of its own,
naming what it took back, and the lines it took back stay in the protocol marked `undone` (the engine drops the last
host command and everything after it: the same rule, mirrored with `NOT_HOST`). A journal holding several games
gives the protocol of the last one.

Times: `at` is the game's clock (seconds from the journal's first command); a press's `ms` counts from the moment the
buttons last went live on its question (the cell opened for reading, or a restart), a false start's from the window
it was too early for (negative), when one opened.
"""
from __future__ import annotations

import hashlib
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from scoreboard.engine import Command, Game
from scoreboard.journal import Journal, JournalError
from scoreboard.protocol.record import FORMAT, VERSION, ProtocolError, Recorder, apply_event
from scoreboard.regulations import load_regulation
__all__ = ["FORMAT", "VERSION", "ProtocolError", "build"]


def build(journal_path: str | Path, host: str | None = None) -> dict[str, Any]:
    """The protocol of the last game in the journal at `journal_path` (read-only; raises ProtocolError). `host`: the
    host's name for the header, over the one the journal keeps (none in journals before it kept one)."""
    path = Path(journal_path)
    try:
        journal = Journal(path, readonly=True)
    except JournalError as error:
        raise ProtocolError(str(error)) from None
    try:
        journal.check()
        events = list(journal.events())
        record = journal.ignored()             # BZ8's record, read once: two views of it
        ignored = journal.ignored_rows(record)
        placed = journal.ignored_presses(record)   # the same presses where they fell: the game notes them (BZ11)
        created = journal.created()
        named = journal.host()                 # the board was told who hosted (board.host_name, `run --host`)
    except JournalError as error:
        raise ProtocolError(str(error)) from None
    finally:
        journal.close()
    if not events:
        raise ProtocolError(f"{path}: the journal holds no game")
    starts = [i for i, (_, cmd) in enumerate(events) if cmd.address == "/sg/game/new"]
    first = starts[-1] if starts else 0
    recorder = Recorder(path)
    start = events[first][1].at
    recorder.ignored_next = next((i for i, row in enumerate(ignored) if row[0] >= start), len(ignored))
    game = Game(load_regulation)
    k = 0
    for index, (seq, cmd) in enumerate(events):
        # the ignored presses before this event, noted by the game as the board did (session.replay_into): a close
        # call's /sg/answerer needs the press that lost (engine/photo.py)
        while k < len(placed) and placed[k][0] < seq:
            game.replay_ignored(placed[k][1])
            k += 1
        if index < first:
            apply_event(game, seq, cmd, path)     # an earlier game of the same journal: replayed, not recorded
            continue
        recorder.ignored_until(cmd.at, ignored, game)
        recorder.command(game, seq, cmd)
    recorder.ignored_until(float("inf"), ignored, game)
    model = recorder.finish(game)
    model["journal"] = {"file": path.name, "digest": _digest(events), "events": len(events),
                        "games": max(1, len(starts)), "ignored": len(recorder.ignored_seen),
                        "created": created, "modified": _mtime(path)}
    model["header"]["date"] = (created or model["journal"]["modified"] or "")[:10] or None
    model["header"]["host"] = host or named
    return model


def _digest(events: list[tuple[int, Command]]) -> str:
    """The game's content, independent of SQLite's pages: the same journal copied anywhere has the same digest."""
    h = hashlib.sha256()
    for seq, cmd in events:
        h.update(repr((seq, cmd.at, cmd.address, cmd.args)).encode("utf-8"))
    return h.hexdigest()


def _mtime(path: Path) -> str | None:
    try:
        return datetime.fromtimestamp(os.stat(path).st_mtime, timezone.utc).isoformat(timespec="seconds")
    except OSError:
        return None
