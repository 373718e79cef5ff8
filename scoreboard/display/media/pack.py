"""Pack media of the open question on screen (`question.media`, docs/ENGINE_API.md): its picture fitted into a box,
a video's frame from the player (`video.py`), and a note for a sound or a file that cannot be shown.

A pack is outside input and its files may be missing, too large or not what their name says (files.py): a failure
is drawn as a small "нет файла" note — never a crash, never a retry every frame.
"""
from __future__ import annotations

import pygame

from scoreboard.display.media.files import fitted
from scoreboard.display.media.video import PLAYER


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
