"""A pack's media files as outside input: a size cap, a pixel cap read from a picture's header before it is decoded
(packs/pictures.py: a small file can decode to gigabytes), one warning per file, which entries of a snapshot's media
list are usable at all, and pictures and sounds loaded once. Shared by the question's drawing (`pack.py`) and the
video player (`video.py`)."""
from __future__ import annotations

import os
import sys

import pygame

from scoreboard.display.render.text import Lru
from scoreboard.packs.pictures import refusal

# A question's picture or sound is small; a bigger file is a mistake in the pack (or not a picture at all).
MAX_MEDIA_BYTES = 64 * 1024 * 1024

_warned: set[str] = set()
# A pack may hold hundreds of pictures and a 4K picture is tens of MB: keep only the last few decoded and scaled
# (a question's picture is drawn on many frames in a row, then never again). A file that failed is remembered
# (False) so it is not retried every frame.
_originals = Lru(6)      # path -> Surface, or False when it cannot be loaded
_scaled = Lru(6)         # (path, size) -> Surface
_sounds = Lru(6)         # path -> Sound, or False


def forget() -> None:
    """Drop every kept picture and sound, and the files already warned about (a test starting clean)."""
    for cache in (_originals, _scaled, _sounds):
        cache.clear()
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


def _load_once(cache, path: str, load, failure: str, check=None):
    """`load(path)` the first time only, unless `check(path)` says why not; a file that cannot be read or loaded is
    warned about once and remembered as missing (False in the cache), so a broken file never costs a frame twice."""
    known = cache.recall(path)
    if known is not None:
        return known or None
    loaded = None
    reason = readable(path) or (check(path) if check else None)
    if reason is None:
        try:
            loaded = load(path)
        except (OSError, pygame.error, ValueError) as error:
            reason = f"{failure} ({error})"
    if reason is not None:
        warn_once(path, reason)
    cache.remember(path, loaded if loaded is not None else False)
    return loaded


def picture(path: str) -> pygame.Surface | None:
    """The picture at `path`, loaded once (None, with one warning, when it cannot be or is over the pixel limit)."""
    return _load_once(_originals, path, _decode, "not a readable image", check=refusal)


def _decode(path: str) -> pygame.Surface:
    """A GIF or a palette PNG decodes to 8 bits a pixel, which smoothscale refuses (a ValueError mid-frame): such a
    picture is laid on 32 bits with alpha, its transparent colour kept transparent."""
    surface = pygame.image.load(path)
    if surface.get_bitsize() in (24, 32):
        return surface
    rgba = pygame.Surface(surface.get_size(), pygame.SRCALPHA, 32)
    rgba.blit(surface, (0, 0))
    return rgba


def fitted(path: str, size: tuple[int, int]) -> pygame.Surface | None:
    """The picture scaled to fit `size` with its aspect kept (cached per path and size)."""
    key = (path, tuple(size))
    known = _scaled.recall(key)
    if known is not None:
        return known
    original = picture(path)
    if original is None or size[0] <= 0 or size[1] <= 0:
        return None
    ratio = min(size[0] / original.get_width(), size[1] / original.get_height())
    scaled = pygame.transform.smoothscale(original, (max(1, int(original.get_width() * ratio)),
                                                     max(1, int(original.get_height() * ratio))))
    return _scaled.remember(key, scaled)


def sound(path: str):
    """The pygame Sound for `path`, loaded once (None, with one warning, if the file or the mixer fails)."""
    def load(path):
        if not pygame.mixer.get_init():
            pygame.mixer.init()
        return pygame.mixer.Sound(path)
    return _load_once(_sounds, path, load, "cannot play")
