"""The reveal fade (0.6 s after a result) at the cost of one blended blit a tick (issue 9 item 3).

The fade veils the scene's main area with the background colour, falling from opaque to clear. Redrawing the whole
scene under a new veil every tick cost a full 4K frame and more (7.6 ms quiet, 24 ms under load). Instead the frame
that starts the fade keeps a copy of the main area as drawn, before its veil; each later tick fills that area with
the background colour and blits the copy over it with the surface alpha of the step — the same blend as the veil
(scene + (colour − scene)·a), in one pass, with nothing redrawn. A new snapshot, a resize, a clock that moves or an
overlay draw the frame whole again (and keep a new copy).
"""
from __future__ import annotations

import pygame


class FadeCache:
    def __init__(self):
        self.rect: pygame.Rect | None = None     # the fading area of the kept picture; None: nothing kept
        self.picture: pygame.Surface | None = None

    def keep(self, surface: pygame.Surface, rect) -> None:
        """The main area as the scene drew it, before the veil (scenes.draw calls this while a fade runs)."""
        rect = pygame.Rect(rect).clip(surface.get_rect())
        if self.picture is None or self.picture.get_size() != rect.size:
            self.picture = pygame.Surface(rect.size).convert(surface)
        self.picture.set_alpha(None)
        self.picture.blit(surface, (0, 0), rect)
        self.rect = rect

    def show(self, surface: pygame.Surface, veil_alpha: int, color) -> None:
        """The kept picture under a veil of `color` at `veil_alpha` (0: the picture as drawn)."""
        if veil_alpha <= 0:
            self.picture.set_alpha(None)
        else:
            surface.fill(color, self.rect)
            self.picture.set_alpha(255 - veil_alpha)
        surface.blit(self.picture, self.rect.topleft)

    def forget(self) -> None:
        self.rect = None
