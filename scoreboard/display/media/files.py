"""A pack's media files as outside input: a size cap, one warning per file, and which entries of a snapshot's media
list are usable at all. Shared by the pictures and sounds (`pack.py`) and the video player (`video.py`)."""
from __future__ import annotations

import os
import sys

# A question's picture or sound is small; a bigger file is a mistake in the pack (or not a picture at all).
MAX_MEDIA_BYTES = 64 * 1024 * 1024

_warned: set[str] = set()


def forget_warnings() -> None:
    _warned.clear()


def warn_once(path: str, reason: str) -> None:
    """Say once per file what is wrong with it (stderr; the board's console and log)."""
    if path not in _warned:
        _warned.add(path)
        print(f"media: {path}: {reason}", file=sys.stderr)


def readable(path: str) -> str | None:
    """Why `path` cannot be used, or None."""
    try:
        size = os.stat(path).st_size
    except OSError as error:
        return f"file missing ({error.strerror or error})"
    except ValueError as error:      # a NUL inside a path received over the network
        return f"not a usable path ({error})"
    if not os.path.isfile(path):
        return "not a file"
    if size > MAX_MEDIA_BYTES:
        return f"too large ({size} bytes, at most {MAX_MEDIA_BYTES})"
    return None


def well_formed(media) -> list[dict]:
    """The entries of a media list (a snapshot's or `host_question`'s) that have a known kind and a path string."""
    if not isinstance(media, list):
        return []
    return [m for m in media if isinstance(m, dict) and m.get("kind") in ("image", "audio", "video")
            and isinstance(m.get("path"), str) and m["path"]]


def media_items(snapshot: dict) -> list[dict]:
    """The open question's media entries that are well formed (a kind and a path string); nothing before it opens."""
    question = snapshot.get("question")
    return well_formed(question.get("media") if isinstance(question, dict) else None)
