"""The reveal fade (0.6 s after a result) at the cost of one blended blit a tick (issue 9 item 3).

The fade veils the scene's main area with the background colour, falling from opaque to clear. Redrawing the whole
scene under a new veil every tick cost a full 4K frame and more (7.6 ms quiet, 24 ms under load). Instead the frame
that starts the fade keeps a copy of the main area as drawn, before its veil; each later tick copies it back and
blends the veil's colour in (FadeCache.show) — the same blend as the veil (scene + (colour − scene)·a), with
nothing redrawn. A new snapshot, a resize, a clock that moves or an
overlay draw the frame whole again (and keep a new copy). With a tile cache, the tiles wholly under the first
frame's veil go into the picture after the flip (tiles.py, `settle`) — new ones drawn there, kept ones copied —
since the screen shows only the veil there meanwhile; the tiles it half covers go in during the frame.
"""
from __future__ import annotations

import pygame

BAND_BYTES = 1 << 20   # a band of the surface blended at a time: with the picture's band, about a core's L2 cache


class FadeCache:
    def __init__(self):
        self.rect: pygame.Rect | None = None     # the fading area of the kept picture; None: nothing kept
        self.picture: pygame.Surface | None = None
        self._memory: pygame.Surface | None = None

    def reserve(self, surface: pygame.Surface) -> None:
        """Memory for a picture as large as `surface`, written once now (the screen opening or resized): the first
        fade of the evening then does not wait for fresh pages (27 MB at 4K: 25 ms instead of 4 ms, measured)."""
        if self._memory is None or self._memory.get_size() != surface.get_size():
            self._memory = pygame.Surface(surface.get_size()).convert(surface)
            self._memory.fill((0, 0, 0))
            self.picture = None

    def prepare(self, surface: pygame.Surface, rect) -> pygame.Surface:
        """The picture to keep `rect` of `surface` in (in its pixel format), for a tile cache to draw straight into: it
        lies at the same place in memory of the surface's size, so the scene's operations can be run there as they
        are."""
        rect = pygame.Rect(rect).clip(surface.get_rect())
        self.reserve(surface)
        if self.picture is None or self.picture.get_abs_offset() != rect.topleft or self.picture.get_size() != rect.size:
            self.picture = self._memory.subsurface(rect)
        self.rect = rect
        return self.picture

    def keep(self, surface: pygame.Surface, rect) -> None:
        """The main area as the scene drew it, before the veil (scenes.draw calls this while a fade runs)."""
        self.prepare(surface, rect).blit(surface, (0, 0), self.rect)

    def show(self, surface: pygame.Surface, veil_alpha: int, color) -> None:
        """The kept picture under a veil of `color` at `veil_alpha` (0: the picture as drawn).

        picture·(1 − a) + colour·a as an opaque copy, a multiplying fill and an adding fill: three passes of
        pygame-ce's vectorised loops cost two thirds of one alpha blit (4.1 against 6.2 ms at 4K), and round
        closer to the exact blend (≤ 1.4 of 255 against ≤ 1.8). Done a band at a time: the passes are bound by
        memory, not arithmetic."""
        if veil_alpha >= 255:
            surface.fill(color, self.rect)
            return
        if veil_alpha <= 0:
            surface.blit(self.picture, self.rect.topleft)
            return
        keep = 255 - veil_alpha
        veil = tuple(round(c * veil_alpha / 255) for c in color[:3])
        # Band by band, so the second and third passes find the band still in the CPU's cache: at 4K the three passes
        # over the whole area took 10.8 ms, in bands of 64 rows 5.9 ms (same pixels; 2026-12-04, /tmp bench).
        left, top = self.rect.topleft
        width, rows = self.rect.size
        band = max(1, BAND_BYTES // max(1, width * surface.get_bytesize()))
        for y in range(0, rows, band):
            area = pygame.Rect(left, top + y, width, min(band, rows - y))
            surface.blit(self.picture, area, (0, y, width, area.h))
            surface.fill((keep, keep, keep), area, special_flags=pygame.BLEND_RGB_MULT)
            surface.fill(veil, area, special_flags=pygame.BLEND_RGB_ADD)

    def forget(self) -> None:
        self.rect = None
