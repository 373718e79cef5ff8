"""Text that always fits its box: shrink and wrap at word boundaries (spaces, and after a hyphen inside a word); only
at the smallest size shorten a word too wide for a line, or the last line, with an ellipsis — never splitting a word
across lines, never spilling out and never cutting a glyph. Fonts, fits and rendered lines are cached, because a
board redraws the same names and numbers all evening.
"""
from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass

import pygame

ELLIPSIS = "…"
_NUMERIC = frozenset("0123456789.:,−-+")
# A line may break after a hyphen between two letters: "Преображенская-" / "Верхнеудинская".
_HYPHEN_BREAK = re.compile(r"(?<=\w-)(?=\w)")


class Lru(OrderedDict):
    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def remember(self, key, value):
        self[key] = value
        if len(self) > self.limit:
            self.popitem(last=False)
        return value

    def recall(self, key):
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value


@dataclass(frozen=True)
class Fit:
    px: int
    lines: tuple[str, ...]
    line_height: int
    truncated: bool


class TextCache:
    def __init__(self):
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[tuple[str | None, int], pygame.font.Font] = {}
        self._fits = Lru(4000)
        self._renders = Lru(3000)
        self._widths = Lru(20000)
        self._caps: dict[tuple[str | None, float], int] = {}

    def font(self, path: str | None, px: int) -> pygame.font.Font:
        key = (path, px)
        font = self._fonts.get(key)
        if font is None:
            try:
                font = pygame.font.Font(path, px)
            except (OSError, pygame.error):
                font = pygame.font.Font(None, px)  # the bundled font has Cyrillic too
            self._fonts[key] = font
        return font

    def line_height(self, path: str | None, px: int) -> int:
        """The height a line really takes: the larger of the font's line spacing and a rendered line's height."""
        font = self.font(path, px)
        return max(font.get_linesize(), font.size("ЁЙу")[1])

    def cap_height(self, path: str | None, px: int) -> int:
        """The rendered height of a capital "H" above the baseline at `px`: what the back row must resolve."""
        metrics = self.font(path, px).metrics("H")
        return metrics[0][3] if metrics and metrics[0] else px * 7 // 10

    def px_for_cap(self, path: str | None, cap: float) -> int:
        """The smallest size whose capital "H" is at least `cap` pixels tall."""
        key = (path, cap)
        px = self._caps.get(key)
        if px is None:
            px = max(1, int(cap))
            while self.cap_height(path, px) < cap:
                px += 1
            self._caps[key] = px
        return px

    def render(self, path: str | None, px: int, text: str, color) -> pygame.Surface:
        key = (path, px, text, tuple(color))
        surface = self._renders.recall(key)
        if surface is None:
            surface = self._renders.remember(key, self.font(path, px).render(text, True, color))
        return surface

    # A line is drawn token by token (and numbers glyph by glyph), each piece cached: a running clock or a lockout
    # "фальстарт 1.4" then costs a few blits a frame instead of rendering a new line at 4K sizes.
    @staticmethod
    def _pieces(line: str) -> list[str]:
        pieces: list[str] = []
        for i, token in enumerate(line.split(" ")):
            if i:
                pieces.append(" ")
            if token and all(ch in _NUMERIC for ch in token):
                pieces.extend(token)
            elif token:
                pieces.append(token)
        return pieces

    def width(self, path: str | None, px: int, text: str) -> int:
        key = (path, px, text)
        width = self._widths.get(key)
        if width is None:
            font = self.font(path, px)
            width = sum(font.size(piece)[0] for piece in self._pieces(text))
            self._widths[key] = width
            if len(self._widths) > self._widths.limit:
                self._widths.popitem(last=False)
        return width

    def _placed(self, path: str | None, px: int, line: str, color, topleft) -> tuple[list, pygame.Rect]:
        """The rendered pieces of a line with where each goes, and the line's rectangle."""
        x, y = topleft
        height = 0
        placed = []
        for piece in self._pieces(line):
            rendered = self.render(path, px, piece, color)
            placed.append((rendered, (x, y)))
            x += self.font(path, px).size(piece)[0] if piece == " " else rendered.get_width()
            height = max(height, rendered.get_height())
        return placed, pygame.Rect(topleft[0], y, x - topleft[0], height)

    def draw_line(self, target: pygame.Surface, path: str | None, px: int, line: str, color, topleft) -> pygame.Rect:
        placed, rect = self._placed(path, px, line, color, topleft)
        target.blits(placed, doreturn=False)
        return rect

    def line_rect(self, path: str | None, px: int, line: str, color, topleft) -> tuple[pygame.Rect, pygame.Rect]:
        """What draw_line would return, and every pixel its blits can touch (a tile cache's box), drawing nothing."""
        placed, rect = self._placed(path, px, line, color, topleft)
        touched = pygame.Rect(rect)
        for rendered, where in placed:
            touched.union_ip(rendered.get_rect(topleft=where))
        return rect, touched

    def fit(self, path: str | None, text: str, width: int, height: int, max_px: int, min_px: int,
            max_lines: int = 0) -> Fit:
        key = (path, text, width, height, max_px, min_px, max_lines)
        fit = self._fits.recall(key)
        if fit is None:
            fit = self._fits.remember(key, self._fit(path, text, width, height, max_px, min_px, max_lines))
        return fit

    def _fit(self, path, text, width, height, max_px, min_px, max_lines) -> Fit:
        min_px = max(1, min(min_px, max_px))
        # The largest size at which the words wrap into the box (fitting is monotone in the size): a binary search,
        # probing first the largest size (most texts fit it) and then the size that scales the text's one line to
        # the box. Each size probed is a font whose glyphs load afresh (0.15 ms at 4K sizes), so two or three probes
        # instead of eight are what a new text costs at a scene change.
        lo, hi, best = min_px, max_px, None

        def probe(px: int) -> bool:
            nonlocal lo, hi, best
            fit = self._try(path, text, width, height, px, max_lines)
            if fit is not None:
                best, lo = fit, px + 1
            else:
                hi = px - 1
            return fit is not None

        if probe(max_px):
            return best
        one_line = self.width(path, max_px, " ".join(text.split()))
        guess = min(max_px * width // max(1, one_line), max_px * height // self.line_height(path, max_px))
        if lo <= guess <= hi:
            if probe(guess):
                if guess + 1 <= hi:
                    probe(guess + 1)
            elif lo <= guess - 1:
                probe(guess - 1)
        while lo <= hi:
            probe((lo + hi) // 2)
        return best if best is not None else self._squeeze(path, text, width, height, min_px, max_lines)

    def _wrap(self, path, px, text, width, squeeze: bool = False) -> tuple[list[str], bool] | None:
        """Greedy lines at `px`, broken only at spaces and after a hyphen inside a word. A piece wider than the box
        fails the size (None) — or, when squeezing at the smallest size, is cut with an ellipsis on its own line
        (better one shortened word than a word split across two lines). Returns (lines, anything cut)."""
        width_of = lambda text: self.width(path, px, text)  # noqa: E731
        lines: list[str] = []
        cut = False
        for paragraph in text.split("\n"):
            current = ""
            for word in paragraph.split():
                for k, piece in enumerate(_HYPHEN_BREAK.split(word)):
                    candidate = (f"{current} {piece}" if k == 0 else current + piece) if current else piece
                    if width_of(candidate) <= width:
                        current = candidate
                        continue
                    if width_of(piece) > width:
                        if not squeeze:
                            return None  # a word wider than the box: try smaller
                        piece, cut = self._ellipsized(piece, width_of, width), True
                    if current:
                        lines.append(current)
                    current = piece
            lines.append(current)
        return lines, cut

    @staticmethod
    def _ellipsized(text: str, width_of, width: int) -> str:
        """`text` cut at a whole glyph so that it and "…" fit `width` (whole words first when there are several)."""
        while " " in text and width_of(text + ELLIPSIS) > width:
            text = text.rsplit(" ", 1)[0]
        while text and width_of(text + ELLIPSIS) > width:
            text = text[:-1]
        return text.rstrip(" -") + ELLIPSIS if width_of(ELLIPSIS) <= width else ""

    def _try(self, path, text, width, height, px, max_lines) -> Fit | None:
        line_height = self.line_height(path, px)
        wrapped = self._wrap(path, px, text, width)
        if wrapped is None:
            return None
        lines = wrapped[0]
        if len(lines) * line_height > height or (max_lines and len(lines) > max_lines):
            return None
        return Fit(px, tuple(lines), line_height, False)

    def _squeeze(self, path, text, width, height, px, max_lines) -> Fit:
        """At the smallest size: wrap at word boundaries as always, shorten only a word that cannot fit a line even
        alone, keep the lines that fit and end the last one with an ellipsis."""
        line_height = self.line_height(path, px)
        width_of = lambda text: self.width(path, px, text)  # noqa: E731
        room = max(1, height // line_height)
        if max_lines:
            room = min(room, max_lines)
        lines, cut = self._wrap(path, px, text, width, squeeze=True)
        truncated = cut or len(lines) > room
        if len(lines) > room:
            lines = lines[:room]
            lines[-1] = self._ellipsized(lines[-1].removesuffix(ELLIPSIS), width_of, width)
        return Fit(px, tuple(line for line in lines if line), line_height, truncated)
