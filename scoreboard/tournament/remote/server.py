"""`scoreboard tournament serve --file t.sqlite`: the organiser's machine takes results from boards in other rooms
over HTTP (issue 12 item 7; docs/TOURNAMENTS.md "Board B over the network"). No ssh, no shared disk: the file stays
on this machine (WAL needs its writers on one host) and every write runs here, through the same `record_snapshot` a
local board uses.

    POST /v1/setup   {"v": 1, "kind": "setup", "tournament": ID|null, "game", "board", "nonce"}
    POST /v1/result  {"v": 1, "kind": "result", "tournament": ID, "game", "board", "nonce", "snapshot": {…}}
    header X-SG-MAC: hex HMAC-SHA256(passcode, "sg-tournament-request\n" + the body's bytes)
    answer  {"ok", "outcome", "reason", "tournament", "game", "board", "nonce", …}, signed the same way over
            "sg-tournament-answer\n" + nonce + "\n" + its bytes

Refused and logged (the `remote_log` table and this process's output): a MAC that does not match (forged, or the
wrong passcode), a nonce seen before (a replayed request — a board makes a new nonce for every attempt), a request
for another tournament (its id), a game that is another board's (the first board to ask for a game's setup or send
its result holds it, unless `tournament assign` says otherwise), a result the rules refuse. A result sent again is
idempotent (`record` compares it with the stored one): the answer says "already recorded" with the same winner and
digest, and nothing is written twice.
"""
from __future__ import annotations

import json
import re
import sqlite3
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.remote import keys
from scoreboard.tournament.service import Tournament, record_snapshot, snapshot_hash
from scoreboard.tournament.store import now_iso
from scoreboard.tournament.views import game_setup

MAX_BODY = 4 * 1024 * 1024      # a final snapshot with its history is well under 1 MB
TABLES = """
CREATE TABLE IF NOT EXISTS remote_boards(game TEXT PRIMARY KEY, board TEXT NOT NULL, how TEXT NOT NULL, at TEXT);
CREATE TABLE IF NOT EXISTS remote_nonces(nonce TEXT PRIMARY KEY, board TEXT, at TEXT);
CREATE TABLE IF NOT EXISTS remote_log(id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, peer TEXT, kind TEXT,
                                      board TEXT, game TEXT, outcome TEXT NOT NULL, reason TEXT);
"""
STATUS = {"setup": 200, "recorded": 200, "already recorded": 200, "forged": 401, "replayed": 409,
          "bad request": 400, "refused": 403}


def ensure_tables(store) -> None:
    store.db.executescript(TABLES)


def _open(path):
    t = Tournament(path)
    ensure_tables(t.store)
    return t


def assign(path, game_id: str, board: str, how: str = "assigned") -> None:
    """`tournament assign GAME BOARD`: only `board` may set up and record `game_id` (an organiser's choice)."""
    t = _open(path)
    try:
        with t.store.tx() as db:
            t.game(game_id)
            db.execute("INSERT OR REPLACE INTO remote_boards(game, board, how, at) VALUES (?, ?, ?, ?)",
                       (game_id, board, how, now_iso()))
            t.store.audit("board assign", {"game": game_id, "board": board})
    finally:
        t.close()


def boards(path) -> dict:
    """What the organiser sees: which board holds which game, and the link's log (newest last)."""
    t = _open(path)
    try:
        db = t.store.db
        held = [dict(r) for r in db.execute("SELECT * FROM remote_boards ORDER BY game")]
        log = [dict(r) for r in db.execute("SELECT * FROM remote_log ORDER BY id")]
        games = {g["id"]: g["result"] is not None for g in t.store.games()}
    finally:
        t.close()
    for h in held:
        h["recorded"] = games.get(h["game"], False)
    return {"boards": held, "log": log}


class ResultService:
    """The request handling, apart from HTTP: `handle(kind, body, mac, peer)` → (HTTP status, answer bytes, mac)."""

    def __init__(self, path, out=print):
        self.path = str(path)
        self.out = out
        t = _open(self.path)          # refuses a missing or foreign file before the port opens
        try:
            keys.credentials(t.store)
        finally:
            t.close()

    def handle(self, kind: str, body: bytes, mac, peer: str) -> tuple[int, bytes, str]:
        t = _open(self.path)
        try:
            tid, passcode = keys.credentials(t.store)
            claimed = _claimed(body)
            answer = self._answer(t, tid, passcode, kind, body, mac, claimed)
            answer.update({"tournament": tid, "kind": kind})
            for field in ("game", "board", "nonce"):
                answer.setdefault(field, claimed.get(field))
            self._log(t, peer, kind, answer)
        finally:
            t.close()
        data = json.dumps(answer, ensure_ascii=False, sort_keys=True).encode("utf-8")
        return STATUS.get(answer["outcome"], 400), data, keys.answer_mac(passcode, str(answer.get("nonce")), data)

    def _answer(self, t, tid, passcode, kind, body, mac, req) -> dict:
        if kind not in ("setup", "result"):
            return _no("bad request", f"no such request {kind!r} (POST /v1/setup or /v1/result)")
        if len(body) > MAX_BODY:
            return _no("bad request", f"the request is {len(body)} bytes (at most {MAX_BODY})")
        if not keys.same(mac, keys.request_mac(passcode, body)):
            return _no("forged", f"the {keys.HEADER} does not match this tournament's passcode: forged, altered, or "
                                 f"the board's [tournament] passcode is not this tournament's")
        problem = _malformed(req, kind)
        if problem:
            return _no("bad request", problem)
        try:
            with t.store.tx() as db:
                db.execute("INSERT INTO remote_nonces(nonce, board, at) VALUES (?, ?, datetime('now'))",
                           (req["nonce"], req["board"]))
        except sqlite3.IntegrityError:
            return _no("replayed", f"nonce {req['nonce'][:12]}… was used before: a replayed request")
        if req.get("tournament") not in (tid, None if kind == "setup" else tid):
            return _no("refused", f"the request is for tournament {req.get('tournament')!r}; this is {tid!r} "
                                  f"({t.format}, {t.store.path.name})")
        try:
            holder = self._hold(t, req["game"], req["board"], kind)
            if holder != req["board"]:
                return _no("refused", f"game {req['game']} is held by board {holder!r}, not {req['board']!r} "
                                      f"(`scoreboard tournament assign` to move it)")
            if kind == "setup":
                return {"ok": True, "outcome": "setup", "reason": "", "setup": game_setup(t, req["game"])}
            out = record_snapshot(self.path, req["game"], req["snapshot"], source=f"board {req['board']}'s result")
        except TournamentError as error:
            return _no("refused", str(error))
        return {"ok": True, "outcome": "recorded" if out["recorded"] else "already recorded", "reason": "",
                "winner": out["winner"], "digest": snapshot_hash(req["snapshot"])}

    def _hold(self, t, game_id: str, board: str, kind: str) -> str:
        """The board that holds the game: the one assigned, else the first to ask (claimed now)."""
        with t.store.tx() as db:
            t.game(game_id)
            row = db.execute("SELECT board FROM remote_boards WHERE game = ?", (game_id,)).fetchone()
            if row:
                return row["board"]
            db.execute("INSERT INTO remote_boards(game, board, how, at) VALUES (?, ?, ?, ?)",
                       (game_id, board, f"claimed by {kind}", now_iso()))
        return board

    def _log(self, t, peer, kind, answer) -> None:
        with t.store.tx() as db:
            db.execute("INSERT INTO remote_log(at, peer, kind, board, game, outcome, reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (now_iso(), peer, kind, _text(answer.get("board")), _text(answer.get("game")),
                        answer["outcome"], answer.get("reason", "")))
        tail = f": {answer['reason']}" if answer.get("reason") else ""
        self.out(f"serve: {peer} board {_text(answer.get('board'))!r} {kind} {_text(answer.get('game'))}: "
                 f"{answer['outcome']}{tail}")


def _no(outcome: str, reason: str) -> dict:
    return {"ok": False, "outcome": outcome, "reason": reason}


def _text(value) -> str:
    return str(value)[:60] if value is not None else "?"


def _claimed(body: bytes) -> dict:
    """The request as it says it is (untrusted until its MAC checks): for the answer and the log."""
    try:
        req = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return {}
    return req if isinstance(req, dict) else {}


def _malformed(req: dict, kind: str) -> str | None:
    if req.get("v") != 1 or req.get("kind") != kind:
        return f"not a version-1 {kind} request"
    for field in ("game", "board"):
        if not isinstance(req.get(field), str) or not 0 < len(req[field]) <= 60:
            return f"{field}: a text of 1–60 characters"
    if not isinstance(req.get("nonce"), str) or not re.fullmatch(r"[0-9a-f]{16,64}", req["nonce"]):
        return "nonce: 16–64 hex digits"
    if kind == "result" and not isinstance(req.get("snapshot"), dict):
        return "snapshot: the board's final snapshot, a JSON object"
    return None


class _Handler(BaseHTTPRequestHandler):
    service: ResultService
    protocol_version = "HTTP/1.1"

    def do_POST(self):      # noqa: N802 (http.server's name)
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self.send_error(413, "request too large or without a length")
            return
        body = self.rfile.read(length)
        kind = self.path.removeprefix("/v1/") if self.path.startswith("/v1/") else self.path
        status, data, mac = self.service.handle(kind, body, self.headers.get(keys.HEADER),
                                                f"{self.client_address[0]}:{self.client_address[1]}")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header(keys.HEADER, mac)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):     # the service logs each request itself
        pass


class Server:
    """The HTTP server on `bind:port` (port 0: any free one); `start()` serves on a thread, `serve_forever()` here."""

    def __init__(self, path, bind: str = "0.0.0.0", port: int = 9010, out=print):
        handler = type("Handler", (_Handler,), {"service": ResultService(path, out)})
        ThreadingHTTPServer.allow_reuse_address = True
        self.http = ThreadingHTTPServer((bind, port), handler)
        self.http.daemon_threads = True
        self.address = self.http.server_address[:2]
        self.thread: threading.Thread | None = None

    def start(self) -> "Server":
        self.thread = threading.Thread(target=self.http.serve_forever, name="tournament-serve", daemon=True)
        self.thread.start()
        return self

    def serve_forever(self) -> None:
        self.http.serve_forever()

    def stop(self) -> None:
        self.http.shutdown()
        self.http.server_close()
