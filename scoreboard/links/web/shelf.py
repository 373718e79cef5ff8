"""Pages the board hands to one host session: the protocol of a game (issue 27 item 1), behind an unguessable link.

The host's signed session asks (`/sg/protocol`, app/protocol_desk.py); the board puts the page here and answers that
session alone with `/protocol/TOKEN`. Anyone else — the hall, a phone that guesses — gets 404: a token is 24 random
bytes, lives `TTL` seconds, and the shelf holds at most `KEEP` pages (the oldest goes first), so a host asking again
and again never grows the board's memory.
"""
from __future__ import annotations

import secrets
import threading
import time

TTL = 600.0          # seconds a link works: enough to open it and print
KEEP = 8             # pages at most
PREFIX = "/protocol/"
# The protocol is one self-contained page: its own inline style, no script, nothing fetched.
PAGE_HEADERS = {"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
                "Content-Type": "text/html; charset=utf-8"}


class Shelf:
    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self._pages: dict[str, tuple[float, bytes]] = {}
        self._lock = threading.Lock()

    def put(self, page: str) -> str:
        """Keep `page`; its path (`/protocol/TOKEN`)."""
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._expire()
            while len(self._pages) >= KEEP:
                del self._pages[next(iter(self._pages))]
            self._pages[token] = (self.clock() + TTL, page.encode("utf-8"))
        return PREFIX + token

    def get(self, token: str) -> bytes | None:
        with self._lock:
            self._expire()
            entry = self._pages.get(token)
        return None if entry is None else entry[1]

    def _expire(self) -> None:
        now = self.clock()
        for token in [t for t, (until, _) in self._pages.items() if until <= now]:
            del self._pages[token]
