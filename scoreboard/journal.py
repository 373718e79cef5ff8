"""The journal: every accepted command, durably appended before it counts (SQLite, WAL, synchronous=FULL).

The journal is the game's truth; the snapshot is its replay. Each row carries a CRC of its content and
rows are numbered without gaps, so a damaged or truncated file is refused with the row that is wrong,
never replayed halfway in silence. A journal written by a newer format is refused, not guessed at.

One board at a time: a writer holds an exclusive lock on `<journal>.lock` (which names its pid and host) for as
long as the journal is open (journal_lock.py), so a second board on the same file refuses to start instead of
interleaving rows.
SQLite's own locking is per transaction and would let two boards take turns appending to one game.

The `meta` table names the app, the format and (journals made since issue 27) when the journal was created and who
hosted the game (`host`, when the board was told; an older reader does not ask for it); the `ignored` table keeps
the commands the rules ignored (BZ8) for the protocol of a game, never replayed.

A failed append (disk full, read-only, the drive pulled) raises `JournalError` and leaves the file and `len()` as
they were, so the caller refuses that one command; the next append tries again. A batch (`begin`, appends, `commit`)
puts several appends in one transaction, so one fsync makes them all durable; a batch that fails is undone whole
(`abort`: the file, `len()` and the rows in memory are as before `begin`). Rows are also kept in memory: if
the file vanished with its folder and the folder comes back (a USB stick plugged in again), the next append
writes the journal there again from memory (or appends what is missing to the copy it finds there).
"""
from __future__ import annotations

import json
import math
import os
import sqlite3
import zlib
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from scoreboard.engine.commands import SPEC, BadCommand, Command, parse
from scoreboard.journal_lock import JournalError, JournalInUse, take_lock  # noqa: F401 (JournalInUse: re-exported)

FORMAT = 1
APP = "svoya-scoreboard"


HOST_NAME_MAX = 80      # characters: the protocol's header has one line for the host


def host_name_problem(name) -> str | None:
    """Why `name` cannot be the host's name in a journal (None: it can): a line of text, 1–80 characters."""
    if not isinstance(name, str) or not name.strip():
        return "must be a non-empty text"
    if len(name) > HOST_NAME_MAX:
        return f"is {len(name)} characters long; at most {HOST_NAME_MAX}"
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in name):
        return "has a control character (a line break?)"
    return None


def _canonical(seq: int, at: float, address: str, args: list, data: Any) -> bytes:
    return json.dumps([seq, at, address, args, data], ensure_ascii=False, separators=(",", ":"),
                      sort_keys=True).encode("utf-8")


class Journal:
    def __init__(self, path: str | Path, readonly: bool = False, create: bool = True):
        """`create=False`: the journal must exist already (recovery never makes an empty game of a typo or of
        a file truncated to nothing)."""
        self.path = Path(path)
        self.readonly = readonly
        if (readonly or not create) and not self.path.is_file():
            raise JournalError(f"{self.path}: no such journal")
        if not create and self.path.stat().st_size == 0:
            raise JournalError(f"{self.path}: the file is empty: not a journal (truncated to nothing?)")
        self._fresh = not self.path.exists() or self.path.stat().st_size == 0
        self._lock = None
        if not readonly:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._lock = take_lock(self.path)
        try:
            if readonly:
                self.db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None)
            else:
                self.db = self._connect()
            self._check_or_create()
            self._seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]
        except sqlite3.DatabaseError as error:
            self._release()
            raise JournalError(f"{self.path}: not a readable journal ({error})") from None
        except JournalError:
            self._release()
            raise
        self._rows: list[tuple] | None = None if readonly else self.db.execute(
            "SELECT seq, at, address, args, data, crc FROM events ORDER BY seq").fetchall()
        self._inode = self._file_id()
        self._batch: list[tuple] | None = None   # rows appended since `begin`, not yet committed
        self._host: str | None = None             # named here: written again if the file is written again

    def _connect(self) -> sqlite3.Connection:
        # the board appends from its input thread and closes from the main one, one at a time (Board.lock)
        db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        return db

    def _file_id(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def _lock_still_there(self) -> bool:
        if self._lock is None:
            return False
        try:
            held, there = os.fstat(self._lock.fileno()), os.stat(self.path.with_name(self.path.name + ".lock"))
        except OSError:
            return False
        return (held.st_dev, held.st_ino) == (there.st_dev, there.st_ino)

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def _check_or_create(self) -> None:
        tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables and not self.readonly and self._fresh:
            self.db.executescript(f"""
                BEGIN;
                CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE events (seq INTEGER PRIMARY KEY, at REAL NOT NULL, address TEXT NOT NULL,
                                     args TEXT NOT NULL, data TEXT, crc INTEGER NOT NULL);
                CREATE TABLE ignored (id INTEGER PRIMARY KEY, at REAL NOT NULL, address TEXT NOT NULL,
                                      args TEXT NOT NULL, reason TEXT NOT NULL, after INTEGER);
                INSERT INTO meta VALUES ('format', '{FORMAT}'), ('app', '{APP}'),
                                        ('created', '{datetime.now(timezone.utc).isoformat(timespec="seconds")}');
                COMMIT;""")
            self._ignored_after = True
            return
        if not {"meta", "events"} <= tables:
            raise JournalError(f"{self.path}: not a scoreboard journal (tables: {', '.join(sorted(tables)) or 'none'})")
        meta = dict(self.db.execute("SELECT key, value FROM meta"))
        if meta.get("app") != APP:
            raise JournalError(f"{self.path}: not a scoreboard journal (app={meta.get('app')!r})")
        try:
            version = int(meta.get("format", ""))
        except ValueError:
            raise JournalError(f"{self.path}: unreadable format {meta.get('format')!r}") from None
        if version > FORMAT:
            raise JournalError(f"{self.path}: written by a newer version (journal format {version}; "
                               f"this version reads up to {FORMAT}) — upgrade the scoreboard to open it")
        self._ignored_after = "ignored" in tables and any(
            row[1] == "after" for row in self.db.execute("PRAGMA table_info(ignored)"))
        if "ignored" in tables and not self._ignored_after and not self.readonly:
            # an older journal: ignored presses logged from now on say where they fall among the events
            self.db.execute("ALTER TABLE ignored ADD COLUMN after INTEGER")
            self._ignored_after = True

    # -- writing ------------------------------------------------------------------------------------
    def append(self, cmd: Command) -> int:
        """Durably append one accepted command; returns its row number. Raises JournalError."""
        seq = self._seq + 1
        args = list(cmd.args)
        payload = None if cmd.data is None else json.dumps(cmd.data, ensure_ascii=False, sort_keys=True)
        crc = zlib.crc32(_canonical(seq, cmd.at, cmd.address, args, cmd.data))
        row = (seq, cmd.at, cmd.address, json.dumps(args, ensure_ascii=False), payload, crc)
        if self._batch is not None:   # in a batch: the row waits for `commit` (the file was checked by `begin`)
            try:
                self.db.execute("INSERT INTO events (seq, at, address, args, data, crc) VALUES (?, ?, ?, ?, ?, ?)",
                                row)
            except sqlite3.Error as error:
                raise JournalError(f"{self.path}: cannot append ({error})") from None
            self._seq = seq
            self._batch.append(row)
            return seq
        if self._file_id() != self._inode:
            self._reattach()      # the file vanished (or another one is there): raises unless it is ours again
        try:
            self.db.execute("INSERT INTO events (seq, at, address, args, data, crc) VALUES (?, ?, ?, ?, ?, ?)", row)
        except sqlite3.Error as error:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise JournalError(f"{self.path}: cannot append ({error})") from None
        self._seq = seq
        if self._rows is not None:
            self._rows.append(row)
        return seq

    # -- batches: one transaction, one fsync, for every command a board turn drains ----------------------
    def begin(self) -> None:
        """Start a batch: the appends until `commit` share one transaction. Raises JournalError (nothing started)
        when the file is not the one this journal wrote (then append alone: that path writes it again)."""
        if self._batch is not None:
            raise JournalError(f"{self.path}: a batch is already open")
        if self._file_id() != self._inode:
            raise JournalError(f"{self.path}: the journal file changed; not batching")
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise JournalError(f"{self.path}: cannot append ({error})") from None
        self._batch = []
        self._batch_seq = self._seq

    def commit(self) -> None:
        """Make the batch durable (one fsync, synchronous=FULL). Raises JournalError and undoes the batch whole
        (as `abort`) when it cannot: then none of its rows is in the journal."""
        if self._batch is None:
            raise JournalError(f"{self.path}: no batch is open")
        try:
            if self._file_id() != self._inode:   # vanished meanwhile: committing would write into a ghost
                raise JournalError(f"{self.path}: the journal file changed during a batch")
            self.db.execute("COMMIT")
        except sqlite3.Error as error:
            self.abort()
            raise JournalError(f"{self.path}: cannot append ({error})") from None
        except JournalError:
            self.abort()
            raise
        if self._rows is not None:
            self._rows.extend(self._batch)
        self._batch = None

    def abort(self) -> None:
        """Undo the open batch: its rows were never durable, the next append numbers from where `begin` was."""
        if self._batch is None:
            return
        try:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
        except sqlite3.Error:
            pass   # SQLite rolled back already (a failed COMMIT) or the file is gone: nothing of the batch stays
        self._seq = self._batch_seq
        self._batch = None

    @property
    def in_batch(self) -> bool:
        return self._batch is not None

    def _reattach(self) -> None:
        """Write the journal again at its path after the file vanished: from memory into a new file, or the
        missing rows into the copy found there if it is this game's (its rows a prefix of ours)."""
        if not self.path.parent.is_dir():
            raise JournalError(f"{self.path}: the journal's folder is gone (drive pulled or folder removed); "
                               "nothing is journaled until it is back")
        rows = self._rows or []
        new_lock = self._lock if self._lock_still_there() else take_lock(self.path)   # it may have gone too
        try:
            fresh = not self.path.exists()
            if fresh:   # a new file must not pick up the vanished one's -wal/-shm left beside it
                self.db.close()
                for suffix in ("-wal", "-shm"):
                    self.path.with_name(self.path.name + suffix).unlink(missing_ok=True)
            db = self._connect()
            try:
                self.db, old = db, self.db
                self._fresh = fresh
                self._check_or_create()
                if fresh and self._host is not None:
                    db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('host', ?)", (self._host,))
                have = db.execute("SELECT seq, at, address, args, data, crc FROM events ORDER BY seq").fetchall()
                if [tuple(r) for r in have] != rows[:len(have)]:
                    raise JournalError(f"{self.path}: another journal is now at this path (not this game's): "
                                       "nothing is journaled; move it away")
                db.execute("BEGIN IMMEDIATE")
                db.executemany("INSERT INTO events (seq, at, address, args, data, crc) VALUES (?, ?, ?, ?, ?, ?)",
                               rows[len(have):])
                db.execute("COMMIT")
            except BaseException:
                self.db = old
                if db.in_transaction:
                    db.execute("ROLLBACK")
                db.close()
                raise
        except (sqlite3.Error, OSError) as error:
            if new_lock is not self._lock:
                new_lock.close()
            raise JournalError(f"{self.path}: cannot write the journal again ({error})") from None
        except BaseException:
            if new_lock is not self._lock:
                new_lock.close()
            raise
        try:
            old.close()
        except sqlite3.Error:
            pass
        if new_lock is not self._lock:
            self._release()
            self._lock = new_lock
        self._inode = self._file_id()

    def log_ignored(self, cmd: Command, reason: str) -> None:
        """BZ8: presses the rules ignore are kept for the record, outside the replayed events; `after` is the event
        it followed, so a replay notes it again at its place (the photo finish, BZ11)."""
        try:
            self.db.execute("INSERT INTO ignored (at, address, args, reason, after) VALUES (?, ?, ?, ?, ?)",
                            (cmd.at, cmd.address, json.dumps(list(cmd.args), ensure_ascii=False), reason,
                             self._seq))
        except sqlite3.Error:
            pass  # the record of an ignored press is not worth stopping a game for

    # -- reading ------------------------------------------------------------------------------------
    def events(self) -> Iterator[tuple[int, Command]]:
        """Every event in order, checked: gapless numbering, CRC, known address, valid arguments."""
        try:
            rows = self.db.execute("SELECT seq, at, address, args, data, crc FROM events ORDER BY seq").fetchall()
        except sqlite3.DatabaseError as error:
            raise JournalError(f"{self.path}: damaged journal ({error})") from None
        expected = 1
        last_at = 0.0
        for seq, at, address, args_text, data_text, crc in rows:
            where = f"{self.path}: event {seq}"
            if seq != expected:
                raise JournalError(f"{self.path}: event {expected} is missing (next is {seq}): the journal is truncated "
                                   "or edited")
            try:
                args = json.loads(args_text)
                data = None if data_text is None else json.loads(data_text)
            except (TypeError, ValueError) as error:
                raise JournalError(f"{where}: unreadable content ({error})") from None
            if not isinstance(at, (int, float)) or not math.isfinite(at) or at < last_at:
                raise JournalError(f"{where}: bad time {at!r}")
            if zlib.crc32(_canonical(seq, at, address, args, data)) != crc:
                raise JournalError(f"{where}: checksum mismatch: the row is damaged or was edited")
            if address not in SPEC or not isinstance(args, list):
                raise JournalError(f"{where}: unknown command {address!r}")
            try:
                typed = parse(address, args)
            except BadCommand as error:
                raise JournalError(f"{where}: {address}: {error}") from None
            last_at = at
            expected += 1
            yield seq, Command(float(at), address, typed, data)

    def ignored(self) -> list[tuple[Any, Any, Any, Any, Any]]:
        """The one reader of BZ8's record (the `ignored` table): (time, address, arguments — None when unreadable —,
        reason, the event it followed — None in older journals) of every command the rules ignored, in order. The
        views below read it; an unreadable table is no record (it is not the game's truth)."""
        after = "after" if self._ignored_after else "NULL"
        try:
            rows = self.db.execute(f"SELECT at, address, args, reason, {after} FROM ignored ORDER BY id").fetchall()
        except sqlite3.DatabaseError:
            return []
        out = []
        for at, address, args_text, reason, follows in rows:
            try:
                args = json.loads(args_text)
            except (TypeError, ValueError):
                args = None
            out.append((at, address, args, reason, follows))
        return out

    def ignored_rows(self, ignored: list | None = None) -> list[tuple[float, str, list, str]]:
        """By time, for the protocol of a game: (time, address, arguments, reason); an unreadable row is skipped.
        `ignored`: what `ignored()` read, when the caller has it already."""
        return [(float(at), str(address), args, str(reason))
                for at, address, args, reason, _ in (self.ignored() if ignored is None else ignored)
                if isinstance(at, (int, float)) and math.isfinite(at) and isinstance(args, list)]

    def ignored_presses(self, ignored: list | None = None) -> list[tuple[int, Command]]:
        """By place, for the photo finish (BZ11): (the event it followed, the press) of every row that says where it
        fell; a row that cannot be read as a command is skipped."""
        presses = []
        for at, address, args, _, follows in (self.ignored() if ignored is None else ignored):
            if follows is None or args is None:
                continue
            try:
                presses.append((int(follows), Command(float(at), address, parse(address, args))))
            except (TypeError, ValueError, BadCommand):
                continue
        return presses

    def meta(self, key: str) -> str | None:
        """A value of the `meta` table; None when this journal does not say (older ones: no `created`, no `host`)."""
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        except sqlite3.DatabaseError:
            return None
        return row[0] if row else None

    def created(self) -> str | None:
        """When the journal was made (UTC, ISO 8601), if it says (journals before this key do not)."""
        return self.meta("created")

    def host(self) -> str | None:
        """The game's host (ведущий) for the protocol's header, if the board was told (`board.host_name`)."""
        return self.meta("host")

    def name_host(self, name: str) -> None:
        """Write the game's host into `meta` (at the game's start). Raises JournalError: a bad name, a failed write."""
        problem = host_name_problem(name)
        if problem:
            raise JournalError(f"{self.path}: host name {problem}")
        try:
            self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('host', ?)", (name,))
        except sqlite3.Error as error:
            raise JournalError(f"{self.path}: cannot write the host's name ({error})") from None
        self._host = name

    def __len__(self) -> int:
        return self._seq

    def check(self) -> None:
        try:
            result = self.db.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as error:
            raise JournalError(f"{self.path}: damaged journal ({error})") from None
        if result != "ok":
            raise JournalError(f"{self.path}: damaged journal ({result})")

    def close(self) -> None:
        self.abort()
        self.db.close()
        self._release()
