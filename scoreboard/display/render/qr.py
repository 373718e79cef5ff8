"""A QR code as a pygame surface (segno encodes; this only paints its modules), for the browser remote's address on
the host's screen: a host points the phone's camera at it instead of typing `http://192.168.1.20:8080/`."""
from __future__ import annotations

from functools import lru_cache

import pygame


@lru_cache(maxsize=8)
def qr_surface(text: str, side: int) -> pygame.Surface:
    """Dark modules on white with the standard 4-module quiet zone, scaled to at most `side` px without blurring
    (each module a whole number of pixels, so phones read it from across a table)."""
    import segno  # lazy: 70 ms at import beside pygame; only the host's screen before a game draws a QR code
    rows = [list(row) for row in segno.make(text, error="m").matrix_iter(scale=1, border=4)]
    n = len(rows)
    module = max(1, side // n)
    surface = pygame.Surface((n * module, n * module))
    surface.fill((255, 255, 255))
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                surface.fill((0, 0, 0), pygame.Rect(x * module, y * module, module, module))
    return surface
