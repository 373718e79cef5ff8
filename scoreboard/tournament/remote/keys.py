"""The boards' keys and the MACs of the board ↔ organiser link (issue 12 item 7, issue 24 item 7; docs/TOURNAMENTS.md
"Board B over the network").

Each board has its own key, made on the organiser's machine by `scoreboard tournament board add NAME` and copied
into that board's `[tournament] key`: `KEYID.SECRET`, the id naming the board to the server, the secret (192 random
bits) never sent. A request proves the secret with HMAC-SHA256 over its exact bytes, as the board's authenticated
OSC does (links/osc/auth.py: the same domain-separated "\n"-joined construction and constant-time comparison); the
server then knows the board from the key, whatever name the request gives. The answer is signed with the same key
over its bytes and the request's nonce — and only once the request's MAC checked — so a board believes «recorded»
only from the server that holds its key, and only for its own request. The key travels on the organiser's own
terms (a USB stick, a message): whoever has it is that board.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.names import clean_name
from scoreboard.tournament.store import now_iso

REQUEST = "sg-tournament-request"
ANSWER = "sg-tournament-answer"
HEADER = "X-SG-MAC"
KEY_HEADER = "X-SG-Key"              # the key's id: which board's secret the MAC is checked with
KEY_SHAPE = re.compile(r"([0-9a-f]{8})\.([A-Za-z0-9_-]{32})")
TABLE = ("CREATE TABLE IF NOT EXISTS remote_keys(board TEXT PRIMARY KEY, key_id TEXT UNIQUE NOT NULL, "
         "secret TEXT NOT NULL, at TEXT NOT NULL)")
GONE = ("the tournament's shared passcode is gone: each board has its own key now. On the organiser's machine run "
        "`scoreboard tournament board add NAME --file t.sqlite` and put the key it prints into this board's "
        "[tournament] key = \"…\" (and remove passcode)")


def tournament_id(store) -> str:
    """The file's tournament id (made, and kept, on first use): requests name it, so a board set up from another
    tournament's server is refused."""
    tid = store.meta("tournament_id")
    if tid:
        return tid
    with store.tx():
        tid = store.meta("tournament_id") or secrets.token_hex(8)
        store.set_meta("tournament_id", tid)
    return tid


def split_key(key) -> tuple[str, str]:
    """`KEYID.SECRET` → (key id, secret); TournamentError naming what to do for anything else."""
    found = KEY_SHAPE.fullmatch(key.strip()) if isinstance(key, str) else None
    if not found:
        raise TournamentError("[tournament] key is not a board key (expected what `scoreboard tournament board add "
                              "NAME` printed on the organiser's machine: 8 hex digits, a dot, 32 characters)")
    return found.group(1), found.group(2)


def add_board(store, name: str, rekey: bool = False) -> str:
    """`tournament board add NAME` (or `key NAME`, `rekey`): the board's new key; its old key, if any, stops working.
    Audited without the secret."""
    name = clean_name(name, "board name")
    store.db.execute(TABLE)
    with store.tx() as db:
        known = db.execute("SELECT key_id FROM remote_keys WHERE board = ?", (name,)).fetchone()
        if known and not rekey:
            raise TournamentError(f"board {name!r} already has a key (`scoreboard tournament board key {name}` "
                                  f"makes a new one; the old one then stops working)")
        if not known and rekey:
            raise TournamentError(f"no board {name!r} (`scoreboard tournament board add {name}` first)")
        key_id, secret = secrets.token_hex(4), secrets.token_urlsafe(24)
        db.execute("INSERT OR REPLACE INTO remote_keys(board, key_id, secret, at) VALUES (?, ?, ?, ?)",
                   (name, key_id, secret, now_iso()))
        store.audit("board key", {"board": name, "key_id": key_id, "new": bool(known)})
    return f"{key_id}.{secret}"


def remove_board(store, name: str) -> None:
    store.db.execute(TABLE)
    with store.tx() as db:
        if not db.execute("DELETE FROM remote_keys WHERE board = ?", (name,)).rowcount:
            raise TournamentError(f"no board {name!r}")
        store.audit("board remove", {"board": name})


def board_of(db, key_id) -> tuple[str, str] | None:
    """(board name, secret) for a key id the request names, or None (no such key, or no id at all)."""
    if not isinstance(key_id, str) or not re.fullmatch(r"[0-9a-f]{8}", key_id):
        return None
    row = db.execute("SELECT board, secret FROM remote_keys WHERE key_id = ?", (key_id,)).fetchone()
    return (row["board"], row["secret"]) if row else None


def known_boards(db) -> set[str]:
    return {row["board"] for row in db.execute("SELECT board FROM remote_keys")}


def _mac(secret: str, *parts: bytes) -> str:
    return hmac.new(secret.encode("utf-8"), b"\n".join(parts), hashlib.sha256).hexdigest()


def request_mac(secret: str, body: bytes) -> str:
    return _mac(secret, REQUEST.encode(), body)


def answer_mac(secret: str, nonce: str, body: bytes) -> str:
    return _mac(secret, ANSWER.encode(), str(nonce).encode("utf-8"), body)


def same(given, expected: str) -> bool:
    """A MAC from the network against the expected one, in constant time; anything that is not text (or text with
    any bytes at all) is simply not the same — never an exception."""
    if not isinstance(given, str):
        return False
    return hmac.compare_digest(given.strip().lower().encode("utf-8", "surrogateescape"), expected.encode("ascii"))


def new_nonce() -> str:
    return secrets.token_hex(16)
