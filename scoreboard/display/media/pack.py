"""Pack media of the open question (`question.media`, docs/ENGINE_API.md): its picture on the audience screen, its
sound played once when the question opens, a video's frame from the player (`video.py`).

A pack is outside input and its files may be missing, too large or not what their name says: each path is tried
once, a failure prints one warning and is drawn as a small "нет файла" note — never a crash, never a retry every
frame. Pictures are loaded once per path and scaled once per box size.
"""
from __future__ import annotations

import pygame

from scoreboard.display.media import files
from scoreboard.display.media.files import media_items, readable, warn_once
from scoreboard.display.media.video import PLAYER
from scoreboard.display.render.text import Lru

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
    files.forget_warnings()


def _load_once(cache, path: str, load, failure: str):
    """`load(path)` the first time only; a file that cannot be read or loaded is warned about once and
    remembered as missing (False in the cache), so a broken file never costs a frame twice."""
    known = cache.recall(path)
    if known is not None:
        return known or None
    loaded = None
    reason = readable(path)
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
    """The picture at `path`, loaded once (None, with one warning, when it cannot be)."""
    return _load_once(_originals, path, pygame.image.load, "not a readable image")


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


def draw_media(canvas, items: list[dict], box: pygame.Rect, tag: str = "media", snapshot: dict | None = None,
               now: float = 0.0) -> None:
    """The question's picture fitted into `box` (or a note: missing file, video, sound) — on a panel. `tag` prefixes
    what is drawn (the host's screen tells the question's picture from the answer's). With `snapshot` (the audience
    screen) a video shows its frame of the engine's media clock (scoreboard/display/media/video.py)."""
    theme = canvas.theme
    box = pygame.Rect(box)
    canvas.fill(theme.color("panel"), box, radius=max(4, box.h // 30), tag=f"{tag}:back")
    margin = min(canvas.px("margin"), box.w // 8, box.h // 8)    # a small box keeps room for its picture
    inner = box.inflate(-margin * 2, -margin * 2)
    image = next((m for m in items if m["kind"] == "image"), None)
    if image is not None:
        scaled = fitted(image["path"], inner.size)
        if scaled is not None:
            where = scaled.get_rect(center=inner.center)
            canvas.surface.blit(scaled, where)
            canvas.note("image", f"{tag}:image", where, inner, image["path"])
            return
        canvas.text(inner, theme.text("media_missing"), "small", theme.color("muted"), tag=f"{tag}:missing")
        return
    clip = next((m for m in items if m["kind"] == "video"), None) or next(m for m in items if m["kind"] == "audio")
    kind = clip["kind"]
    if PLAYER.problem(clip["path"]) is not None:      # undecodable: the host sees why; the game goes on
        canvas.text(inner, theme.text("media_broken"), "small", theme.color("muted"), tag=f"{tag}:broken")
        return
    frame = PLAYER.frame(clip["path"], inner.size, snapshot, now) if kind == "video" and snapshot else None
    if frame is not None:
        if frame.get_size() != inner.size and (frame.get_width() > inner.w or frame.get_height() > inner.h):
            frame = pygame.transform.scale(frame, fitted_size(frame.get_size(), inner.size))   # a resized window
        where = frame.get_rect(center=inner.center)
        canvas.surface.blit(frame, where)
        canvas.note("image", f"{tag}:video:frame", where, inner, clip["path"])
        return
    canvas.text(inner, theme.text(f"media_{kind}"), "title", theme.color("muted"), tag=f"{tag}:{kind}")


def fitted_size(size: tuple[int, int], box: tuple[int, int]) -> tuple[int, int]:
    ratio = min(box[0] / size[0], box[1] / size[1])
    return max(1, int(size[0] * ratio)), max(1, int(size[1] * ratio))


def audio_to_play(before: dict | None, after: dict) -> list[str]:
    """The sound files to start now: the audio of a question that has just opened (or whose media just appeared,
    as after an auction); nothing for the same question again."""
    paths = [m["path"] for m in media_items(after) if m["kind"] == "audio"]
    if not paths:
        return []
    if before is not None and _question_id(before) == _question_id(after) and any(
            m["kind"] == "audio" for m in media_items(before)):
        return []
    return paths


def _question_id(snapshot: dict) -> tuple | None:
    q = snapshot.get("question")
    if not isinstance(q, dict):
        return None
    return (q.get("round"), q.get("topic"), q.get("index"), q.get("replaced"))


def sound(path: str):
    """The pygame Sound for `path`, loaded once (None, with one warning, if the file or the mixer fails)."""
    def load(path):
        if not pygame.mixer.get_init():
            pygame.mixer.init()
        return pygame.mixer.Sound(path)
    return _load_once(_sounds, path, load, "cannot play")
