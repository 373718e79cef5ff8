"""The tournament's passcode and id, and the MACs of the board ↔ organiser link (issue 12 item 7, docs/TOURNAMENTS.md
"Board B over the network").

The passcode is generated when the file is created (`scoreboard tournament passcode` shows it; a file made before
this existed gets one the first time it is asked for) and is never sent: a request proves it with HMAC-SHA256 over
the request's exact bytes, as the board's authenticated OSC does (links/osc/auth.py: the same domain-separated
"\n"-joined construction and constant-time comparison). The answer is signed too, over its bytes and the request's
nonce, so a board believes «recorded» only from the server that knows the passcode, and only for its own request.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

from scoreboard.tournament.errors import TournamentError

ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"     # no 0/o, 1/l/i: read aloud and typed into a board's config
REQUEST = "sg-tournament-request"
ANSWER = "sg-tournament-answer"
HEADER = "X-SG-MAC"


def _new_passcode() -> str:
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(4))


def credentials(store, rotate: bool = False) -> tuple[str, str]:
    """(tournament id, passcode) of the file, made (and audited) on first use; `rotate` makes a new passcode."""
    tid, passcode = store.meta("tournament_id"), store.meta("passcode")
    if tid and passcode and not rotate:
        return tid, passcode
    with store.tx():
        tid = store.meta("tournament_id") or secrets.token_hex(8)
        if rotate or not store.meta("passcode"):
            store.set_meta("passcode", _new_passcode())
            store.audit("passcode", {"rotated": bool(rotate)})      # never the passcode itself
        store.set_meta("tournament_id", tid)
    return tid, store.meta("passcode")


def _mac(passcode: str, *parts: bytes) -> str:
    if not passcode:
        raise TournamentError("no tournament passcode: set [tournament] passcode (see `scoreboard tournament passcode`)")
    return hmac.new(passcode.encode("utf-8"), b"\n".join(parts), hashlib.sha256).hexdigest()


def request_mac(passcode: str, body: bytes) -> str:
    return _mac(passcode, REQUEST.encode(), body)


def answer_mac(passcode: str, nonce: str, body: bytes) -> str:
    return _mac(passcode, ANSWER.encode(), str(nonce).encode("utf-8"), body)


def same(given, expected: str) -> bool:
    return isinstance(given, str) and hmac.compare_digest(given.strip().lower(), expected)


def new_nonce() -> str:
    return secrets.token_hex(16)
