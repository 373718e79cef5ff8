"""The one way scenes draw: boxes, fitted text and images on a surface, with an optional log of what was drawn.

The log (kind, tag, rect, box, text) is what the tests read: that a chooser mark sits in the chooser's panel, that every
text lies inside its box, that no stake is printed before its reveal. Sizes come from the theme as fractions of the
screen height, so one layout serves 720p to 4K.
"""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from scoreboard.display.text import TextCache
from scoreboard.display.theme import MIN_CAP_FRACTION, Theme

_CACHE: TextCache | None = None


def text_cache() -> TextCache:
    global _CACHE
    if _CACHE is None:
        _CACHE = TextCache()
    return _CACHE


@dataclass(frozen=True)
class Drawn:
    kind: str            # "text", "box", "image", "mark"
    tag: str             # what it is in the game: "cell:2:3", "score:1", "chooser", "stake:2", …
    rect: pygame.Rect    # where ink went
    box: pygame.Rect     # the box it had to stay inside
    text: str = ""
    px: int = 0
    lines: tuple[str, ...] = ()   # how a text was laid out (where it wrapped, whether it ends with "…")


class Canvas:
    def __init__(self, surface: pygame.Surface, theme: Theme, record: bool = False, min_fraction: float | None = None):
        """`min_fraction` None (the hall's and the players' screens): no text's capital letters are shorter than
        MIN_CAP_FRACTION of the screen height, measured on the theme's real font. A number (the host's monitor, read
        from a desk): the smallest size as a fraction of the height."""
        self.surface = surface
        self.theme = theme
        self.w, self.h = surface.get_size()
        self.log: list[Drawn] | None = [] if record else None
        self.cache = text_cache()
        self.min_cap = self.h * MIN_CAP_FRACTION if min_fraction is None else 0.0
        self.min_px = self.min_px_of(theme.font("main")) if min_fraction is None else max(8, round(self.h * min_fraction))
        # Set to a list to learn what each text is drawn on: (tag, colour, ground pixels, px, font) per text.
        self.probe: list | None = None
        self._images: dict = {}

    def min_px_of(self, path: str | None) -> int:
        return self.cache.px_for_cap(path, self.min_cap) if self.min_cap else self.min_px

    # --- geometry -------------------------------------------------------------------------------------------
    def px(self, key_or_fraction) -> int:
        fraction = self.theme.size(key_or_fraction) if isinstance(key_or_fraction, str) else key_or_fraction
        return max(1, round(fraction * self.h))

    @property
    def rect(self) -> pygame.Rect:
        return self.surface.get_rect()

    def note(self, kind, tag, rect, box, text="", px=0, lines=()):
        if self.log is not None:
            self.log.append(Drawn(kind, tag, pygame.Rect(rect), pygame.Rect(box), text, px, tuple(lines)))

    # --- drawing --------------------------------------------------------------------------------------------
    def fill(self, color, rect=None, radius: int = 0, tag: str = "", width: int = 0):
        rect = pygame.Rect(rect) if rect is not None else self.rect
        if radius or width:
            pygame.draw.rect(self.surface, color, rect, width=width, border_radius=radius)
        else:
            self.surface.fill(color, rect)
        self.note("box" if not tag.startswith("mark") else "mark", tag, rect, rect)

    def text(self, box, text: str, size="body", color=None, align: str = "center", font: str = "main",
             tag: str = "", max_lines: int = 0, valign: str = "middle") -> pygame.Rect:
        """Draw `text` as large as `size` allows inside `box`; shrink and wrap to fit, never below the minimum."""
        box = pygame.Rect(box)
        color = color or self.theme.color("text")
        path = self.theme.font(font) or self.theme.font("main")
        min_px = self.min_px_of(path)
        max_px = self.px(size) if not isinstance(size, int) else size
        max_px = max(max_px, min_px)
        fit = self.cache.fit(path, str(text), box.w, box.h, max_px, min_px, max_lines)
        total = fit.line_height * len(fit.lines)
        y = {"top": box.top, "bottom": box.bottom - total}.get(valign, box.centery - total // 2)
        placed = []
        for line in fit.lines:
            width = self.cache.width(path, fit.px, line)
            x = {"left": box.left, "right": box.right - width}.get(align, box.centerx - width // 2)
            placed.append((line, pygame.Rect(x, y, width, fit.line_height)))
            y += fit.line_height
        if self.probe is not None:
            self.probe.append((tag, tuple(color), self._ground(r for _, r in placed), fit.px, path))
        ink = pygame.Rect(box.centerx, placed[0][1].top if placed else box.centery, 0, 0)
        for line, rect in placed:
            where = self.cache.draw_line(self.surface, path, fit.px, line, color, rect.topleft)
            ink = ink.union(where) if ink.w or ink.h else where
        self.note("text", tag, ink, box, str(text), fit.px, fit.lines)
        return ink

    def _ground(self, rects, points: int = 400) -> list[tuple[int, int, int]]:
        """About `points` pixels sampled evenly under the lines a text is about to cover (before it is drawn)."""
        samples = []
        for rect in rects:
            rect = rect.clip(self.rect)
            if rect.w <= 0 or rect.h <= 0:
                continue
            step = max(1, int((rect.w * rect.h / points) ** 0.5))
            raw = pygame.image.tobytes(self.surface.subsurface(rect), "RGB")
            for y in range(step // 2, rect.h, step):
                row = y * rect.w * 3
                for x in range(step // 2, rect.w, step):
                    i = row + x * 3
                    samples.append((raw[i], raw[i + 1], raw[i + 2]))
        return samples

    def fits_whole(self, box, text: str, size="body", font: str = "main", max_lines: int = 0) -> bool:
        """Whether `text` fits `box` without an ellipsis (a layout then gives it more room, or not)."""
        box = pygame.Rect(box)
        path = self.theme.font(font) or self.theme.font("main")
        min_px = self.min_px_of(path)
        max_px = max(self.px(size) if not isinstance(size, int) else size, min_px)
        return not self.cache.fit(path, str(text), box.w, box.h, max_px, min_px, max_lines).truncated

    def fit_px(self, box, text: str, size="body", font: str = "main") -> int:
        """The size `text` would get in `box`: give it to a row of texts so they all match (a board's values)."""
        box = pygame.Rect(box)
        path = self.theme.font(font) or self.theme.font("main")
        min_px = self.min_px_of(path)
        max_px = max(self.px(size) if not isinstance(size, int) else size, min_px)
        return self.cache.fit(path, str(text), box.w, box.h, max_px, min_px, 1).px

    def image(self, path: str | None, box, tag: str = "", keep_aspect: bool = True) -> pygame.Rect | None:
        if not path:
            return None
        box = pygame.Rect(box)
        key = (path, box.size, keep_aspect)
        scaled = self._images.get(key) or _IMAGES.get(key)
        if scaled is None:
            try:
                original = pygame.image.load(path)
            except (OSError, pygame.error):
                return None  # the theme check reports it; a game goes on without the picture
            if keep_aspect:
                ratio = min(box.w / original.get_width(), box.h / original.get_height())
                size = (max(1, int(original.get_width() * ratio)), max(1, int(original.get_height() * ratio)))
            else:
                size = box.size
            scaled = pygame.transform.smoothscale(original, size)
            # In the target's pixel format, a full-screen blit is a plain copy (half the time at 4K).
            scaled = scaled.convert(self.surface) if keep_aspect is False else _alpha_like(scaled, self.surface)
            _IMAGES[key] = scaled
        where = scaled.get_rect(center=box.center)
        self.surface.blit(scaled, where)
        self.note("image", tag, where, box)
        return where

    def veil(self, rect, color, alpha: int) -> None:
        """A translucent plain colour over `rect`: one cached surface with surface alpha (much faster than
        per-pixel alpha at 4K)."""
        rect = pygame.Rect(rect)
        if alpha >= 255:   # opaque: a plain fill, not a blend
            self.surface.fill(color, rect)
            return
        key = ("veil", rect.size, tuple(color))
        veil = _IMAGES.get(key)
        if veil is None:
            veil = _IMAGES[key] = pygame.Surface(rect.size)
            veil.fill(color)
        veil.set_alpha(alpha)
        self.surface.blit(veil, rect.topleft)

    def dim(self, alpha: int = 170):
        self.veil(self.rect, self.theme.color("overlay"), alpha)

    # --- queries for tests ----------------------------------------------------------------------------------
    def texts(self, tag_prefix: str = "") -> list[Drawn]:
        return [d for d in (self.log or []) if d.kind == "text" and d.tag.startswith(tag_prefix)]

    def tagged(self, tag_prefix: str) -> list[Drawn]:
        return [d for d in (self.log or []) if d.tag.startswith(tag_prefix)]


_IMAGES: dict = {}


def _alpha_like(image: pygame.Surface, target: pygame.Surface) -> pygame.Surface:
    """`image` with its alpha, in the channel order of `target`: a PNG loads as RGBA bytes, and blending that onto
    an XRGB surface takes SDL's generic path, 30× slower (a 786-px logo: 7.6 ms a frame instead of 0.25).
    `convert_alpha` does this once a window has set the convert format; an off-screen board has none."""
    try:
        return image.convert_alpha()
    except pygame.error:
        pass
    red = target.get_masks()[0]
    order = {0xFF0000: "BGRA", 0xFF: "RGBA"}.get(red) if pygame.get_sdl_byteorder() == pygame.LIL_ENDIAN else None
    if order is None or target.get_bitsize() != 32:
        return image
    return pygame.image.frombytes(pygame.image.tobytes(image, order), image.get_size(), order)
