"""The one way scenes draw: boxes, fitted text and images on a surface, with an optional log of what was drawn.

The log (kind, tag, rect, box, text) is what the tests read: that a chooser mark sits in the chooser's panel, that every
text lies inside its box, that no stake is printed before its reveal. Sizes come from the theme as fractions of the
screen height, so one layout serves 720p to 4K.

Given a tile cache (tiles.py, a screen's own), the canvas records what is drawn and draws it at `finish()` through
the cache, so what did not change since an earlier frame is copied, not drawn again. Whoever takes `canvas.surface`
to draw on it directly gets what was recorded drawn first, and the rest of the frame is drawn at once.
"""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from scoreboard.display.render.text import TextCache
from scoreboard.display.theme.load import MIN_CAP_FRACTION, Theme

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
    def __init__(self, surface: pygame.Surface, theme: Theme, record: bool = False, min_fraction: float | None = None,
                 tiles=None, changed_only: bool = False):
        """`min_fraction` None (the hall's and the players' screens): no text's capital letters are shorter than
        MIN_CAP_FRACTION of the screen height, measured on the theme's real font. A number (the host's monitor, read
        from a desk): the smallest size as a fraction of the height."""
        self._surface = surface
        self._tiles = tiles
        self._changed_only = changed_only   # the surface shows the last frame: draw only tiles that differ
        self._ops: list | None = [] if tiles is not None else None   # recorded (operation, box it can touch)
        self.theme = theme
        self.w, self.h = surface.get_size()
        self.log: list[Drawn] | None = [] if record else None
        self.cache = text_cache()
        self.min_cap = self.h * MIN_CAP_FRACTION if min_fraction is None else 0.0
        self.min_px = self.min_px_of(theme.font("main")) if min_fraction is None else max(8, round(self.h * min_fraction))
        # Set to a list to learn what each text is drawn on: (tag, colour, ground pixels, px, font) per text.
        self.probe: list | None = None

    @property
    def surface(self) -> pygame.Surface:
        """The target, to draw on directly: what was recorded is drawn first, the rest of the frame at once."""
        self.finish()
        if self._tiles is not None:
            self._tiles.settle(self._surface)   # the tiles just drawn, kept before anything is drawn over them
            self._tiles.forget_shown()          # what it draws is not in any tile
        return self._surface

    @property
    def target(self) -> pygame.Surface:
        """The surface, for its size, format and clip only: drawing on it goes through `surface`."""
        return self._surface

    def finish(self, into=None) -> bool:
        """Draw what was recorded (through the tile cache) and stop recording. `into` (rect, picture): that area
        drawn into `picture` instead (TileCache.draw). False when nothing was recorded (drawn already)."""
        if self._ops is None:
            return False
        ops, self._ops = self._ops, None
        self._tiles.draw(self._surface, ops, _run, into, self._changed_only, [_cover(op) for op, _ in ops])
        return True

    def _do(self, op: tuple, box: pygame.Rect) -> None:
        if self._ops is not None and self.probe is None:
            self._ops.append((op, box))
        else:
            if self._tiles is not None:
                self._tiles.drawn_over(box)   # after `finish` (a fade's veil, its overlays): not what the tiles show
            _run(self._surface, op)

    def min_px_of(self, path: str | None) -> int:
        return self.cache.px_for_cap(path, self.min_cap) if self.min_cap else self.min_px

    # --- geometry -------------------------------------------------------------------------------------------
    def px(self, key_or_fraction) -> int:
        fraction = self.theme.size(key_or_fraction) if isinstance(key_or_fraction, str) else key_or_fraction
        return max(1, round(fraction * self.h))

    @property
    def rect(self) -> pygame.Rect:
        return self._surface.get_rect()

    def note(self, kind, tag, rect, box, text="", px=0, lines=()):
        if self.log is not None:
            self.log.append(Drawn(kind, tag, pygame.Rect(rect), pygame.Rect(box), text, px, tuple(lines)))

    # --- drawing --------------------------------------------------------------------------------------------
    def fill(self, color, rect=None, radius: int = 0, tag: str = "", width: int = 0):
        rect = pygame.Rect(rect) if rect is not None else self.rect
        self._do(("fill", tuple(color), tuple(rect), radius, width), rect)
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
        color = tuple(color)
        for line, rect in placed:
            where, touched = self.cache.line_rect(path, fit.px, line, color, rect.topleft)
            self._do(("text", path, fit.px, line, color, rect.topleft), touched)
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
            raw = pygame.image.tobytes(self._surface.subsurface(rect), "RGB")
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
        scaled = _IMAGES.get(key)
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
            scaled = scaled.convert(self._surface) if keep_aspect is False else _alpha_like(scaled, self._surface)
            _IMAGES[key] = scaled
        where = scaled.get_rect(center=box.center)
        self._do(("image", key, where.topleft), where)
        self.note("image", tag, where, box)
        return where

    def veil(self, rect, color, alpha: int) -> None:
        """A translucent plain colour over `rect`: one cached surface with surface alpha (much faster than
        per-pixel alpha at 4K)."""
        rect = pygame.Rect(rect)
        self.finish()            # a blend of what is under it: that is drawn first
        if self._tiles is not None:
            self._tiles.drawn_over(rect)   # only the tiles under it stop showing what they were drawn as
        surface = self._surface
        if alpha >= 255:   # opaque: a plain fill, not a blend
            surface.fill(color, rect)
            return
        key = ("veil", rect.size, tuple(color))
        veil = _IMAGES.get(key)
        if veil is None:
            veil = _IMAGES[key] = pygame.Surface(rect.size)
            veil.fill(color)
        veil.set_alpha(alpha)
        surface.blit(veil, rect.topleft)

    # Shapes the score chart draws (between.py), recorded like the rest; the box each can touch is generous.
    def line(self, color, start, end, width: int = 1) -> None:
        points = (tuple(start), tuple(end))
        self._do(("line", tuple(color), points, width), _around(points, width))

    def lines(self, color, points, width: int = 1) -> None:
        points = tuple(tuple(p) for p in points)
        self._do(("lines", tuple(color), points, width), _around(points, width))

    def circle(self, color, center, radius: int) -> None:
        center = tuple(center)
        self._do(("circle", tuple(color), center, radius), _around((center,), 2 * radius))

    def square(self, color, rect) -> None:
        """A plain filled rectangle that is part of a shape (no log entry, unlike `fill`)."""
        rect = pygame.Rect(rect)
        self._do(("fill", tuple(color), tuple(rect), 0, 0), rect)

    def polygon(self, color, points) -> None:
        points = tuple(tuple(p) for p in points)
        self._do(("polygon", tuple(color), points), _around(points, 0))

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


def _around(points, width: int) -> pygame.Rect:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    pad = width + 2
    return pygame.Rect(min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad + 1, max(ys) - min(ys) + 2 * pad + 1)


def _cover(op: tuple) -> pygame.Rect | None:
    """The rectangle every pixel of which `op` paints opaquely (the board's surfaces have no alpha): a filled box — a
    rounded one, the wider band between its corners, a pixel clear of their arcs. None for anything blended or
    partial."""
    if op[0] != "fill" or op[4]:
        return None
    x, y, w, h = op[2]
    radius = min(op[3], w // 2, h // 2)
    if not radius:
        return pygame.Rect(x, y, w, h)
    across = pygame.Rect(x, y + radius + 1, w, h - 2 * radius - 2)
    down = pygame.Rect(x + radius + 1, y, w - 2 * radius - 2, h)
    band = max(across, down, key=lambda rect: rect.w * rect.h)
    return band if band.w > 0 and band.h > 0 else None


def _run(surface: pygame.Surface, op: tuple) -> None:
    """Draw one recorded operation (Canvas._do)."""
    kind = op[0]
    if kind == "text":
        text_cache().draw_line(surface, *op[1:])
    elif kind == "fill":
        _, color, rect, radius, width = op
        if radius or width:
            pygame.draw.rect(surface, color, rect, width=width, border_radius=radius)
        else:
            surface.fill(color, rect)
    elif kind == "image":
        surface.blit(_IMAGES[op[1]], op[2])
    elif kind == "lines":
        _, color, points, width = op
        pygame.draw.lines(surface, color, False, points, width)
    elif kind == "line":
        _, color, (start, end), width = op
        pygame.draw.line(surface, color, start, end, width)
    elif kind == "circle":
        pygame.draw.circle(surface, op[1], op[2], op[3])
    elif kind == "polygon":
        pygame.draw.polygon(surface, op[1], op[2])
