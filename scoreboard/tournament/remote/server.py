"""`scoreboard tournament serve --file t.sqlite`: the organiser's machine takes results from boards in other rooms
over HTTP (issue 12 item 7, issue 24 item 7; docs/TOURNAMENTS.md "Board B over the network"). No ssh, no shared
disk: the file stays on this machine (WAL needs its writers on one host) and every write runs here, through the
same `record_snapshot` a local board uses.

    POST /v1/setup   {"v": 2, "kind": "setup", "tournament": ID|null, "game", "board": NAME|null, "nonce"}
    POST /v1/result  {"v": 2, "kind": "result", "tournament": ID, "game", "board": NAME|null, "nonce", "snapshot",
                      "protocol"?: the game's protocol, "journal_digest"?: its journal's sha256 (sent_protocol.py)}
    headers X-SG-Key: the board key's id;  X-SG-MAC: hex HMAC-SHA256(the key's secret, "sg-tournament-request\n"
            + the body's bytes)
    answer  {"ok", "outcome", "reason", "tournament", "game", "board", "nonce", …}, signed with the same key over
            "sg-tournament-answer\n" + nonce + "\n" + its bytes — only when the request's MAC checked

A request that does not prove a board's key (no key, a key no board has, a MAC that does not match, a path that is
not a request) is answered unsigned, echoes nothing, writes nothing to the file, and is said on the console once a
minute per address (door.py), as is a replay (a nonce seen before: a board makes a new nonce for every attempt, so
it is someone sending a sniffed request again; answered, signed, but not written). A proven request is the key's
board, whatever name it gives; refused and logged (the `remote_log` table and the console): another tournament's id, a game that is another board's (the first board to ask for a game's setup or send its
result holds it, unless `tournament assign` says otherwise), a result the rules refuse. A result sent again is
idempotent (`record` compares it with the stored one): "already recorded", with the same winner and digest. A
result's protocol is checked before anything is written (a bad one refuses the result: "bad request") and kept with
it in the `protocols` table (sent_protocol.py).
"""
from __future__ import annotations

import json
import re
import sqlite3
import threading
from http.server import BaseHTTPRequestHandler

from scoreboard.protocol import ProtocolError
from scoreboard.tournament import protocols
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.remote import keys, sent_protocol
from scoreboard.tournament.remote.door import GuardedHTTPServer, Limits, QuietLog
from scoreboard.tournament.service import Tournament, record_snapshot, snapshot_hash
from scoreboard.tournament.store import now_iso
from scoreboard.tournament.views import game_setup

VERSION = 2                     # 2: a key per board (issue 24); version 1 signed with one shared passcode
MAX_BODY = 4 * 1024 * 1024      # a final snapshot with its history is well under 1 MB
TABLES = """
CREATE TABLE IF NOT EXISTS remote_boards(game TEXT PRIMARY KEY, board TEXT NOT NULL, how TEXT NOT NULL, at TEXT);
CREATE TABLE IF NOT EXISTS remote_nonces(nonce TEXT PRIMARY KEY, board TEXT, at TEXT);
CREATE TABLE IF NOT EXISTS remote_log(id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, peer TEXT, kind TEXT,
                                      board TEXT, game TEXT, outcome TEXT NOT NULL, reason TEXT);
"""
STATUS = {"setup": 200, "recorded": 200, "already recorded": 200, "forged": 401, "replayed": 409,
          "bad request": 400, "refused": 403, "no such request": 404}


def ensure_tables(store) -> None:
    store.db.executescript(TABLES)
    store.db.execute(keys.TABLE)


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
            if board not in keys.known_boards(db):
                raise TournamentError(f"no board {board!r} (`scoreboard tournament board add {board}` gives it a key)")
            db.execute("INSERT OR REPLACE INTO remote_boards(game, board, how, at) VALUES (?, ?, ?, ?)",
                       (game_id, board, how, now_iso()))
            t.store.audit("board assign", {"game": game_id, "board": board})
    finally:
        t.close()


def boards(path) -> dict:
    """What the organiser sees: the boards and their keys' ids, which board holds which game, the link's log."""
    t = _open(path)
    try:
        db = t.store.db
        known = [dict(r) for r in db.execute("SELECT board, key_id, at FROM remote_keys ORDER BY board")]
        held = [dict(r) for r in db.execute("SELECT * FROM remote_boards ORDER BY game")]
        log = [dict(r) for r in db.execute("SELECT * FROM remote_log ORDER BY id")]
        games = {g["id"]: g["result"] is not None for g in t.store.games()}
    finally:
        t.close()
    for h in held:
        h["recorded"] = games.get(h["game"], False)
    return {"keys": known, "boards": held, "log": log}


class ResultService:
    """The request handling, apart from HTTP: `handle(kind, body, key_id, mac, peer)` → (HTTP status, answer bytes,
    the answer's MAC or None when the request proved no board's key)."""

    def __init__(self, path, out=print, quiet: QuietLog | None = None):
        self.path = str(path)
        self.out = out
        self.quiet = quiet or QuietLog(out, Limits.quiet_every)
        t = _open(self.path)          # refuses a missing or foreign file before the port opens
        try:
            keys.tournament_id(t.store)
        finally:
            t.close()

    def handle(self, kind: str, body: bytes, key_id, mac, peer: str) -> tuple[int, bytes, str | None]:
        t = _open(self.path)
        try:
            found = keys.board_of(t.store.db, key_id)
            outcome, problem = _unproven(kind, body, key_id, mac, found)
            if problem:
                self.quiet.refused(peer.rpartition(":")[0] or peer, f"serve: {peer}: refused, nothing written: "
                                                                    f"{problem}")
                data = json.dumps({"ok": False, "outcome": outcome, "reason": problem}).encode("utf-8")
                return STATUS[outcome], data, None
            board, secret = found
            tid = keys.tournament_id(t.store)
            req = _claimed(body)
            answer = self._answer(t, tid, board, kind, req)
            nonce = req.get("nonce") if isinstance(req.get("nonce"), str) and len(req["nonce"]) <= 64 else None
            answer.update({"tournament": tid, "kind": kind, "board": board, "nonce": nonce})
            answer.setdefault("game", req.get("game") if isinstance(req.get("game"), str) else None)
            if answer["outcome"] == "replayed":      # a sniffed request sent again: written nowhere, said quietly
                self.quiet.refused(peer.rpartition(":")[0] or peer, f"serve: {peer}: refused, nothing written: "
                                                                    f"{answer['reason']}")
            else:
                self._log(t, peer, kind, answer)
        finally:
            t.close()
        data = json.dumps(answer, ensure_ascii=False, sort_keys=True).encode("utf-8")
        return STATUS.get(answer["outcome"], 400), data, keys.answer_mac(secret, str(nonce), data)

    def _answer(self, t, tid, board, kind, req) -> dict:
        """A request proven to be `board`'s: what it gets."""
        problem = _malformed(req, kind)
        if problem:
            return _no("bad request", problem)
        try:     # the protocol sent with a result, read as a stranger's before anything is written
            protocol = sent_protocol.verified(req, f"board {board}'s result") if kind == "result" else None
        except TournamentError as error:
            return _no("bad request", str(error))
        try:
            with t.store.tx() as db:
                db.execute("INSERT INTO remote_nonces(nonce, board, at) VALUES (?, ?, datetime('now'))",
                           (req["nonce"], board))
        except sqlite3.IntegrityError:
            return _no("replayed", f"nonce {req['nonce'][:12]}… was used before: a replayed request")
        if req.get("board") not in (None, board):
            return _no("refused", f"the request is signed with board {board!r}'s key but names board "
                                  f"{req['board']!r}: set that board's [tournament] board = \"{board}\" (or leave "
                                  f"it empty: the key says who the board is)")
        if req.get("tournament") not in (tid, None if kind == "setup" else tid):
            return _no("refused", f"the request is for tournament {req.get('tournament')!r}; this is {tid!r} "
                                  f"({t.format}, {t.store.path.name})")
        try:
            holder = self._hold(t, req["game"], board, kind)
            if holder != board:
                return _no("refused", f"game {req['game']} is held by board {holder!r}, not {board!r} "
                                      f"(`scoreboard tournament assign` to move it)")
            if kind == "setup":
                return {"ok": True, "outcome": "setup", "reason": "", "setup": game_setup(t, req["game"])}
            out = record_snapshot(self.path, req["game"], req["snapshot"], source=f"board {board}'s result")
        except TournamentError as error:
            return _no("refused", str(error))
        return {"ok": True, "outcome": "recorded" if out["recorded"] else "already recorded", "reason": "",
                "winner": out["winner"], "digest": snapshot_hash(req["snapshot"]),
                "protocol": self._keep(t, req["game"], board, protocol, out["recorded"])}

    def _keep(self, t, game_id: str, board: str, protocol: dict | None, recorded: bool) -> str | None:
        """The protocol sent with a result, kept as a local board's is (a result sent again keeps the first one):
        what the answer says of it."""
        if protocol is None:
            return None
        try:
            if recorded or protocols.get(t.store, game_id) is None:
                protocols.keep(t.store, t.flow, game_id, protocol, f"board {board}")
                return "kept"
            return "kept before"
        except (TournamentError, ProtocolError) as error:   # the result stays recorded: a protocol never loses it
            return f"not kept: {error}"

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


def _unproven(kind: str, body: bytes, key_id, mac, found) -> tuple[str, str | None]:
    """(outcome, why) for a request that proves no board's key; (…, None) for one that does."""
    if kind not in ("setup", "result"):
        return "no such request", f"no such request {kind[:40]!r} (POST /v1/setup or /v1/result)"
    if key_id is None:
        return "forged", (f"no {keys.KEY_HEADER} header: a board of the shared-passcode version (gone: give it "
                          f"a key with `scoreboard tournament board add NAME`), or not a board")
    if found is None:
        return "forged", f"no board has the key {str(key_id)[:16]!r} (removed, given a new key, or never added)"
    if not keys.same(mac, keys.request_mac(found[1], body)):
        return "forged", f"the {keys.HEADER} does not match board {found[0]!r}'s key: forged or altered"
    return "", None


def _no(outcome: str, reason: str) -> dict:
    return {"ok": False, "outcome": outcome, "reason": reason}


def _text(value) -> str:
    return str(value)[:60] if value is not None else "?"


def _claimed(body: bytes) -> dict:
    """A proven request's JSON (a board's bug may still send anything: {} then, a bad request)."""
    try:
        req = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return {}
    return req if isinstance(req, dict) else {}


def _malformed(req: dict, kind: str) -> str | None:
    if req.get("v") != VERSION or req.get("kind") != kind:
        return f"not a version-{VERSION} {kind} request"
    if not isinstance(req.get("game"), str) or not 0 < len(req["game"]) <= 60:
        return "game: a text of 1–60 characters"
    if req.get("board") is not None and (not isinstance(req["board"], str) or not 0 < len(req["board"]) <= 60):
        return "board: a text of 1–60 characters, or null"
    if not isinstance(req.get("nonce"), str) or not re.fullmatch(r"[0-9a-f]{16,64}", req["nonce"]):
        return "nonce: 16–64 hex digits"
    if kind == "result" and not isinstance(req.get("snapshot"), dict):
        return "snapshot: the board's final snapshot, a JSON object"
    return sent_protocol.malformed(req) if kind == "result" else None


class _Handler(BaseHTTPRequestHandler):
    service: ResultService
    server: GuardedHTTPServer
    protocol_version = "HTTP/1.1"

    def setup(self):
        self.timeout = self.server.limits.read_timeout      # each read; the server's deadline bounds the whole
        super().setup()

    def do_POST(self):      # noqa: N802 (http.server's name)
        self.close_connection = True                         # one request per connection
        try:
            length = int(self.headers.get("Content-Length") or "")
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self._send(413, json.dumps({"ok": False, "outcome": "bad request", "reason": f"a request needs its "
                                        f"Content-Length, at most {MAX_BODY} bytes"}).encode(), None)
            return
        try:
            body = self.rfile.read(length)
        except OSError:             # the read timed out, or the deadline shut the connection
            return
        if len(body) != length:     # the peer stopped sending (or was shut at its deadline): nothing to answer
            return
        self.server.request_read(self.connection)
        kind = self.path.removeprefix("/v1/") if self.path.startswith("/v1/") else self.path
        status, data, mac = self.service.handle(kind, body, self.headers.get(keys.KEY_HEADER),
                                                self.headers.get(keys.HEADER),
                                                f"{self.client_address[0]}:{self.client_address[1]}")
        self._send(status, data, mac)

    def _send(self, status: int, data: bytes, mac: str | None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        if mac is not None:
            self.send_header(keys.HEADER, mac)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):     # the service logs each request itself
        pass


class Server:
    """The HTTP server on `bind:port` (port 0: any free one); `start()` serves on a thread, `serve_forever()` here."""

    def __init__(self, path, bind: str = "0.0.0.0", port: int = 9010, out=print, limits: Limits = Limits()):
        quiet = QuietLog(out, limits.quiet_every)
        handler = type("Handler", (_Handler,), {"service": ResultService(path, out, quiet)})
        self.http = GuardedHTTPServer((bind, port), handler, limits, quiet)
        self.address = self.http.server_address[:2]
        self.thread: threading.Thread | None = None

    def start(self) -> "Server":
        self.thread = threading.Thread(target=self.serve_forever, name="tournament-serve", daemon=True)
        self.thread.start()
        return self

    def serve_forever(self) -> None:
        self.http.serve_forever(poll_interval=0.1)      # stop() returns within 0.1 s

    def stop(self) -> None:
        self.http.shutdown()
        self.http.server_close()

