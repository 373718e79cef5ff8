"""The journal: every accepted command, durably appended before it counts (SQLite, WAL, synchronous=FULL).

The journal is the game's truth; the snapshot is its replay. Each row carries a CRC of its content and
rows are numbered without gaps, so a damaged or truncated file is refused with the row that is wrong,
never replayed halfway in silence. A journal written by a newer format is refused, not guessed at.
"""
from __future__ import annotations

import json
import math
import sqlite3
import zlib
from pathlib import Path
from typing import Any, Iterator

from scoreboard.engine.commands import SPEC, BadCommand, Command, parse

FORMAT = 1
APP = "svoya-scoreboard"


class JournalError(Exception):
    pass


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
        try:
            if readonly:
                self.db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.db = sqlite3.connect(str(self.path), isolation_level=None)
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=FULL")
            self._check_or_create()
        except sqlite3.DatabaseError as error:
            raise JournalError(f"{self.path}: not a readable journal ({error})") from None
        self._seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]

    def _check_or_create(self) -> None:
        tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables and not self.readonly and self._fresh:
            self.db.executescript(f"""
                BEGIN;
                CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE events (seq INTEGER PRIMARY KEY, at REAL NOT NULL, address TEXT NOT NULL,
                                     args TEXT NOT NULL, data TEXT, crc INTEGER NOT NULL);
                CREATE TABLE ignored (id INTEGER PRIMARY KEY, at REAL NOT NULL, address TEXT NOT NULL,
                                      args TEXT NOT NULL, reason TEXT NOT NULL);
                INSERT INTO meta VALUES ('format', '{FORMAT}'), ('app', '{APP}');
                COMMIT;""")
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

    # -- writing ------------------------------------------------------------------------------------
    def append(self, cmd: Command) -> int:
        """Durably append one accepted command; returns its row number. Raises JournalError."""
        seq = self._seq + 1
        args = list(cmd.args)
        payload = None if cmd.data is None else json.dumps(cmd.data, ensure_ascii=False, sort_keys=True)
        crc = zlib.crc32(_canonical(seq, cmd.at, cmd.address, args, cmd.data))
        try:
            self.db.execute("INSERT INTO events (seq, at, address, args, data, crc) VALUES (?, ?, ?, ?, ?, ?)",
                            (seq, cmd.at, cmd.address, json.dumps(args, ensure_ascii=False), payload, crc))
        except sqlite3.Error as error:
            raise JournalError(f"{self.path}: cannot append ({error})") from None
        self._seq = seq
        return seq

    def log_ignored(self, cmd: Command, reason: str) -> None:
        """BZ8: presses the rules ignore are kept for the record, outside the replayed events."""
        try:
            self.db.execute("INSERT INTO ignored (at, address, args, reason) VALUES (?, ?, ?, ?)",
                            (cmd.at, cmd.address, json.dumps(list(cmd.args), ensure_ascii=False), reason))
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
        self.db.close()
