"""Drawing helpers for the remote: fonts, a text cache, word wrap and a touch-sized button.

Everything is laid out in a fixed 1024×600 design space (a 7" tablet) and scaled to the window, so a laptop window
and a 10" tablet show the same layout. Buttons are at least 56 px high in design space: a thumb, not a mouse.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pygame

from scoreboard.folders import shipped

DESIGN = (1024, 600)

# Colours: dark, high contrast, readable under stage light. Each button kind has its own colour so that
# "right" and "wrong" are never confused at a glance.
BG = (18, 22, 38)
PANEL = (30, 36, 60)
TEXT = (235, 238, 245)
DIM = (150, 158, 180)
ACCENT = (250, 200, 70)
KIND_COLOURS = {
    "flow": (52, 92, 170), "grid": (40, 60, 120), "seat": (70, 70, 110), "tools": (60, 64, 84),
    "right": (40, 140, 70), "wrong": (170, 50, 50), "disabled": (45, 48, 60), "primary": (52, 92, 170),
}
STATE_COLOURS = {"connected": (60, 190, 90), "retrying": (235, 180, 40), "connecting": (235, 180, 40),
                 "lost": (220, 60, 60), "denied": (220, 60, 60), "idle": (130, 130, 140)}

_FONT_FILES = (shipped("assets", "fonts", "DejaVuSans.ttf"),
               Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
_fonts: dict[int, pygame.font.Font] = {}
_text_cache: dict[tuple, pygame.Surface] = {}
# When a list, every text drawn through `put` records (its rect, the rect it must stay in, the text): the long-name
# tests read it to check that no text leaves its place (issue 9 item 4).
TRACE: list | None = None


def put(surface, label: pygame.Surface, pos, box: pygame.Rect, value: str = "") -> pygame.Rect:
    """Blit a rendered text at `pos` (a point or a rect to centre in) and note it against the box it belongs in."""
    rect = label.get_rect(center=pos.center) if isinstance(pos, pygame.Rect) else label.get_rect(topleft=pos)
    surface.blit(label, rect)
    if TRACE is not None:
        TRACE.append((rect, pygame.Rect(box), value))
    return rect


def font(size: int) -> pygame.font.Font:
    """A Cyrillic-capable font: the project's DejaVu Sans if present, else pygame's default (it has Cyrillic)."""
    if size not in _fonts:
        path = next((p for p in _FONT_FILES if p.is_file()), None)
        _fonts[size] = pygame.font.Font(str(path) if path else None, size)
    return _fonts[size]


def printable(value) -> str:
    """Text as it may be drawn: control characters (a NUL stops SDL_ttf cold) become a visible mark."""
    value = str(value)
    return value if value.isprintable() else "".join(ch if ch.isprintable() else "�" for ch in value)


def text(value: str, size: int, colour=TEXT) -> pygame.Surface:
    """Rendered text, cached: the same labels are drawn every frame."""
    value = printable(value)
    key = (value, size, colour)
    surface = _text_cache.get(key)
    if surface is None:
        if len(_text_cache) > 2000:
            _text_cache.clear()
        surface = font(size).render(value, True, colour)
        _text_cache[key] = surface
    return surface


def wrap(value: str, size: int, width: int) -> list[str]:
    """Break text into lines no wider than `width` (long words are cut, never overflow)."""
    lines: list[str] = []
    f = font(size)
    for paragraph in str(value).split("\n"):
        paragraph = printable(paragraph)
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}".strip()
            if f.size(candidate)[0] <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while f.size(word)[0] > width and len(word) > 1:
                cut = len(word)
                while cut > 1 and f.size(word[:cut])[0] > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            line = word
        lines.append(line)
    return lines


def draw_text_block(surface, value: str, size: int, rect: pygame.Rect, colour=TEXT, max_lines: int | None = None) -> int:
    """Draw wrapped text into rect (clipped); return the y after the last line."""
    y = rect.top
    lines = wrap(value, size, rect.width)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines - 1] + [lines[max_lines - 1] + " …"]
    for line in lines:
        if y + font(size).get_linesize() > rect.bottom:
            break
        put(surface, text(line, size, colour), (rect.left, y), rect, line)
        y += font(size).get_linesize()
    return y


def fit_line(value: str, size: int, width: int, minimum: int = 14, keep: str = "start") -> tuple[str, int]:
    """(text, size) that fits `width` on one line: shrunk down to `minimum`, then cut with «…» (an 80-character name
    on a button). keep="end" cuts from the left instead (a field being typed in)."""
    value = printable(value)
    while size > minimum and font(size).size(value)[0] > width:
        size -= 1
    if font(size).size(value)[0] <= width:
        return value, size
    cut = value
    while cut and font(size).size((cut + "…") if keep == "start" else ("…" + cut))[0] > width:
        cut = cut[:-1] if keep == "start" else cut[1:]
    return ((cut + "…") if keep == "start" else ("…" + cut)), size


@dataclass
class Button:
    rect: pygame.Rect
    label: str
    kind: str = "flow"
    payload: object = None
    enabled: bool = True
    hint: str = ""          # the keyboard shortcut, shown small in a corner
    sub: str = ""           # a second, smaller line (what «Отменить» undoes: whose, how much)

    def draw(self, surface, pressed: bool = False) -> None:
        colour = KIND_COLOURS.get(self.kind if self.enabled else "disabled", KIND_COLOURS["flow"])
        if pressed:
            colour = tuple(min(255, c + 50) for c in colour)
        pygame.draw.rect(surface, colour, self.rect, border_radius=10)
        if self.sub:   # two lines: what (top), whose and how much (below, the name cut first)
            top, bottom = self.rect.copy(), self.rect.copy()
            top.height = bottom.height = self.rect.height // 2
            bottom.top = top.bottom
            shown, size = fit_line(self.label, 16, self.rect.width - 10, minimum=12)
            put(surface, text(shown, size, TEXT if self.enabled else DIM), top.move(0, 3), self.rect, shown)
            shown, size = fit_line(self.sub, 14, self.rect.width - 10, minimum=11)
            put(surface, text(shown, size, ACCENT if self.enabled else DIM), bottom.move(0, -3), self.rect, shown)
        else:
            shown, size = fit_line(self.label, 24 if self.rect.height >= 56 else 18, self.rect.width - 12)
            label = text(shown, size, TEXT if self.enabled else DIM)
            put(surface, label, self.rect, self.rect, shown)
        if self.hint:
            hint = text(self.hint, 12, DIM)
            surface.blit(hint, (self.rect.right - hint.get_width() - 6, self.rect.bottom - hint.get_height() - 3))

    def hit(self, pos) -> bool:
        return self.enabled and self.rect.collidepoint(pos)


def flow_rows(rects_area: pygame.Rect, count: int, height: int, gap: int = 8, min_width: int = 150) -> list[pygame.Rect]:
    """Lay `count` buttons left to right in rows inside an area; as wide as the row allows."""
    if count <= 0:
        return []
    per_row = max(1, min(count, (rects_area.width + gap) // (min_width + gap)))
    width = (rects_area.width - gap * (per_row - 1)) // per_row
    rects = []
    for i in range(count):
        row, col = divmod(i, per_row)
        rects.append(pygame.Rect(rects_area.left + col * (width + gap), rects_area.top + row * (height + gap),
                                 width, height))
    return rects
