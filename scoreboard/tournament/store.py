"""The tournament file: one SQLite database (WAL) that every board and the organiser's laptop write through.

Every change is one `BEGIN IMMEDIATE` transaction, so two rooms recording results at once (T-A6) are serialised by
SQLite itself: the second waits (busy timeout), then sees the first's row. Nothing here knows the rules.
"""
from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from scoreboard.tournament.errors import TournamentError

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players(
    name TEXT PRIMARY KEY, team TEXT, seeded INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL,            -- active | waiting | withdrawn | substitute
    entered INTEGER NOT NULL,        -- registration order (waiting list order, T-A1)
    cups TEXT NOT NULL DEFAULT '[]'  -- samara: the cups entered (T-S1)
);
CREATE TABLE IF NOT EXISTS relatives(a TEXT NOT NULL, b TEXT NOT NULL, PRIMARY KEY(a, b));
CREATE TABLE IF NOT EXISTS stages(
    id TEXT PRIMARY KEY, seq INTEGER NOT NULL UNIQUE, kind TEXT NOT NULL, engine_stage TEXT NOT NULL,
    state TEXT NOT NULL,             -- drawn | advanced
    draw TEXT NOT NULL,              -- JSON: the draw's input, seed label and output (re-run by draw --verify)
    advancement TEXT                 -- JSON: who went on and why
);
CREATE TABLE IF NOT EXISTS games(
    id TEXT PRIMARY KEY, stage TEXT NOT NULL REFERENCES stages(id), number INTEGER NOT NULL,
    players TEXT NOT NULL,           -- JSON list of names in seat order
    topics TEXT,                     -- JSON list of topic ids (T-S8)
    result TEXT, journal_hash TEXT, recorded_at TEXT
);
CREATE TABLE IF NOT EXISTS topics(id TEXT PRIMARY KEY, name TEXT NOT NULL, author TEXT, game TEXT);
CREATE TABLE IF NOT EXISTS audit(id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, what TEXT NOT NULL,
                                 detail TEXT NOT NULL);
"""


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Store:
    def __init__(self, path: str | Path, create: bool = False):
        self.path = Path(path)
        if not create and not self.path.exists():
            raise TournamentError(f"{self.path}: no such tournament file (create it with `scoreboard tournament new`)")
        try:
            self.db = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA busy_timeout = 30000")
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = FULL")
            if create:
                self.db.executescript(SCHEMA)
            version = self.meta("schema")
        except sqlite3.DatabaseError as error:
            raise TournamentError(f"{self.path}: not a tournament file ({error})") from None
        if not create and version is None:
            raise TournamentError(f"{self.path}: not a tournament file (no schema version)")
        if version is not None and int(version) > SCHEMA_VERSION:
            raise TournamentError(f"{self.path}: written by a newer version (schema {version})")

    def close(self):
        self.db.close()

    @contextmanager
    def tx(self):
        """One write transaction; the write lock is taken at the start so reads inside it are current."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # -- meta
    def meta(self, key: str, default=None):
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        except sqlite3.OperationalError:
            return default
        return json.loads(row["value"]) if row else default

    def set_meta(self, key: str, value) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, json.dumps(value)))

    # -- players
    def players(self, status: str | None = None) -> list[dict]:
        sql = "SELECT * FROM players" + (" WHERE status = ?" if status else "") + " ORDER BY entered"
        rows = self.db.execute(sql, (status,) if status else ()).fetchall()
        return [dict(r, cups=json.loads(r["cups"])) for r in rows]

    def player(self, name: str) -> dict | None:
        row = self.db.execute("SELECT * FROM players WHERE name = ?", (name,)).fetchone()
        return dict(row, cups=json.loads(row["cups"])) if row else None

    def relatives(self) -> list[tuple[str, str]]:
        return [(r["a"], r["b"]) for r in self.db.execute("SELECT a, b FROM relatives ORDER BY a, b")]

    # -- stages and games
    def stages(self) -> list[dict]:
        rows = self.db.execute("SELECT * FROM stages ORDER BY seq").fetchall()
        return [_stage(r) for r in rows]

    def stage(self, stage_id: str) -> dict | None:
        row = self.db.execute("SELECT * FROM stages WHERE id = ?", (stage_id,)).fetchone()
        return _stage(row) if row else None

    def add_stage(self, stage_id, kind, engine_stage, draw: dict) -> None:
        seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM stages").fetchone()[0]
        self.db.execute("INSERT INTO stages(id, seq, kind, engine_stage, state, draw) VALUES (?, ?, ?, ?, 'drawn', ?)",
                        (stage_id, seq, kind, engine_stage, json.dumps(draw, ensure_ascii=False)))

    def set_advancement(self, stage_id, advancement: dict) -> None:
        self.db.execute("UPDATE stages SET state = 'advanced', advancement = ? WHERE id = ?",
                        (json.dumps(advancement, ensure_ascii=False), stage_id))

    def add_game(self, game_id, stage_id, number, players: list[str]) -> None:
        self.db.execute("INSERT INTO games(id, stage, number, players) VALUES (?, ?, ?, ?)",
                        (game_id, stage_id, number, json.dumps(players, ensure_ascii=False)))

    def games(self, stage_id: str | None = None) -> list[dict]:
        sql = ("SELECT g.* FROM games g JOIN stages s ON s.id = g.stage"
               + (" WHERE g.stage = ?" if stage_id else "") + " ORDER BY s.seq, g.number")
        return [_game(r) for r in self.db.execute(sql, (stage_id,) if stage_id else ()).fetchall()]

    def game(self, game_id: str) -> dict | None:
        row = self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return _game(row) if row else None

    def audit(self, what: str, detail: dict) -> None:
        self.db.execute("INSERT INTO audit(at, what, detail) VALUES (?, ?, ?)",
                        (now_iso(), what, json.dumps(detail, ensure_ascii=False)))

    def audit_log(self) -> list[dict]:
        return [dict(r, detail=json.loads(r["detail"])) for r in self.db.execute("SELECT * FROM audit ORDER BY id")]


def _stage(row) -> dict:
    d = dict(row)
    d["draw"] = json.loads(d["draw"])
    d["advancement"] = json.loads(d["advancement"]) if d["advancement"] else None
    return d


def _game(row) -> dict:
    d = dict(row)
    d["players"] = json.loads(d["players"])
    d["topics"] = json.loads(d["topics"]) if d["topics"] else None
    d["result"] = json.loads(d["result"]) if d["result"] else None
    return d
