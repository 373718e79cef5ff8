"""The question's picture for the hall's phones and the overlay — once, and only once, the hall's screens show it.

Theory of operation. The audience screen draws the open question's first picture (`question.media`: the engine sends
it only once the question is open, never during the auction's bidding) while it is read and answered, and at the
reveal the answer's first picture (`last.answer_media`) instead. The relay receives the same snapshot as a `view`
session, so `show(snapshot, view)` takes the same two pictures from it, in the same phases: the first time a picture
is shown it is read from the pack's file the board names (the relay runs on the board's machine; elsewhere the file
is not there and no picture is served), checked — at most MAX_BYTES, a raster picture whose header says its format
and size (packs/pictures.py: the pixel cap, SVG and the rest refused) — and kept under a new random token; the
hall's view then carries `/picture/TOKEN` instead of the path. So no URL exists before the hall's screens show its
picture, and none can be guessed (128 random bits; the server also wants the view key). The last KEEP pictures stay
served (a phone that loads a moment late), older ones go. Thread-safe: `show` runs on the relay's thread, `get` on
the server's loop.
"""
from __future__ import annotations

import os
import secrets
import threading
from collections import OrderedDict

from scoreboard.engine.phases import SHOWN, Phase
from scoreboard.packs.pictures import picture_size, refusal

MAX_BYTES = 4 * 1024 * 1024   # a question's picture for a phone; a bigger one is a pack's mistake (not served)
KEEP = 4                      # pictures served at once: the ones shown now and the last few before them
TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "BMP": "image/bmp", "WebP": "image/webp"}
MAGIC = {"PNG": b"\x89PNG", "JPEG": b"\xff\xd8", "GIF": b"GIF8", "BMP": b"BM", "WebP": b"RIFF"}
PREFIX = "/picture/"
# where the audience screen draws the open question's picture (the engine's SHOWN: display/scenes/question.py
# `with_media`), and the answer's (`draw_reveal`): so a phone never shows a picture the hall's screen does not
QUESTION_SHOWN = {phase.value for phase in SHOWN}
ANSWER_SHOWN = {Phase.REVEAL.value}


def shown_paths(snapshot: dict) -> dict[str, str]:
    """{"question": path, "answer": path}: the pictures the hall's screens draw from `snapshot` (the open question's
    first picture; at the reveal, the answer's first) — none other."""
    out = {}
    for part, section, field, phases in (("question", "question", "media", QUESTION_SHOWN),
                                         ("answer", "last", "answer_media", ANSWER_SHOWN)):
        if snapshot.get("phase") not in phases:
            continue
        holder = snapshot.get(section)
        media = holder.get(field) if isinstance(holder, dict) else None
        image = next((m for m in media if isinstance(m, dict) and m.get("kind") == "image"
                      and isinstance(m.get("path"), str) and m["path"]), None) if isinstance(media, list) else None
        if image is not None:
            out[part] = image["path"]
    return out


class Pictures:
    def __init__(self, max_bytes: int = MAX_BYTES, keep: int = KEEP, out=print):
        self.max_bytes, self.keep, self.out = max_bytes, keep, out
        self._lock = threading.Lock()
        self._served: OrderedDict[str, tuple[bytes, str]] = OrderedDict()   # token -> (bytes, content type)
        self._token_of: dict[str, str] = {}                                 # path -> token, while served
        self._refused: set[str] = set()                                     # paths said once, never read again

    def show(self, snapshot: dict, view: dict) -> None:
        """Put the URL of each picture the hall's screens show into `view` (`question.picture`, `last.picture`)."""
        for part, path in shown_paths(snapshot).items():
            url = self._url(path)
            target = view.get("question" if part == "question" else "last")
            if url is not None and isinstance(target, dict):
                target["picture"] = url

    def get(self, token: str) -> tuple[bytes, str] | None:
        with self._lock:
            return self._served.get(token)

    def _url(self, path: str) -> str | None:
        with self._lock:
            token = self._token_of.get(path)
            if token is not None:
                self._served.move_to_end(token)
                return PREFIX + token
            if path in self._refused:
                return None
        loaded = self._load(path)          # outside the lock: a read never holds the server's loop
        with self._lock:
            if loaded is None:
                if len(self._refused) < 1000:
                    self._refused.add(path)
                return None
            token = secrets.token_urlsafe(16)
            self._served[token] = loaded
            self._token_of[path] = token
            while len(self._served) > self.keep:
                old, _ = self._served.popitem(last=False)
                self._token_of = {p: t for p, t in self._token_of.items() if t != old}
            return PREFIX + token

    def _load(self, path: str) -> tuple[bytes, str] | None:
        try:
            if not os.path.isfile(path):
                return self._refuse(path, "not a file here (the relay serves pictures on the board's machine)")
            with open(path, "rb") as f:
                data = f.read(self.max_bytes + 1)
        except (OSError, ValueError) as error:      # ValueError: a NUL in a path
            return self._refuse(path, f"cannot read ({getattr(error, 'strerror', None) or error})")
        if len(data) > self.max_bytes:
            return self._refuse(path, f"over {self.max_bytes} bytes: not served to the hall's phones")
        why = refusal(path)
        found = picture_size(path)
        if why or found is None:
            return self._refuse(path, why or "not a picture")
        if not data.startswith(MAGIC[found[0]]):     # the bytes served are the ones whose header was read
            return self._refuse(path, "the file changed while it was read")
        return data, TYPES[found[0]]

    def _refuse(self, path: str, why: str) -> None:
        self.out(f"watch-relay: picture {os.path.basename(path)}: {why}")
        return None
