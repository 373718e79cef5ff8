"""The hall's phones' QR code (issue 27 item 4) on the audience screen: only between games — before the first
question (`setup`) and after the last (`game_over`) — and only on the logo, whose corner is empty: the scores, the
chart and the tournament's tables reach the corners (checked: the QR covered a standings column and the chart's
legend), so there the host shows the logo (`/sg/screen logo`) for the hall to scan. tests/display/test_watch_qr.py
checks what the logo scene drew against it. Its link carries the view key after `#`: the relay's, never the
board's (links/watch, docs/STREAMING.md)."""
from __future__ import annotations

from functools import lru_cache

import pygame

from scoreboard.display.render.canvas import Canvas
from scoreboard.engine.phases import Phase

BETWEEN_GAMES = frozenset({Phase.SETUP, Phase.GAME_OVER})
SIDE = 0.17          # of the screen's height: a phone reads it from the hall's middle rows on a projector


def shown(snapshot: dict, status: dict | None) -> bool:
    """Between games, on the logo: `setup` draws the logo unless another screen is chosen; `game_over` the winner
    unless the host chose the logo."""
    if not ((status or {}).get("watch") or {}).get("qr") or snapshot.get("phase") not in BETWEEN_GAMES:
        return False
    screen = snapshot.get("screen") or "board"
    return screen == "logo" or (screen == "board" and snapshot.get("phase") == Phase.SETUP)


@lru_cache(maxsize=4)
def _modules(text: str) -> tuple[int, tuple]:
    """(modules a side, dark runs as (row, first column, length)) with the 4-module quiet zone."""
    import segno  # lazy: 70 ms at import beside pygame; only a screen between games draws this code
    rows = [list(row) for row in segno.make(text, error="m").matrix_iter(scale=1, border=4)]
    runs = []
    for y, row in enumerate(rows):
        x = 0
        while x < len(row):
            if row[x]:
                start = x
                while x < len(row) and row[x]:
                    x += 1
                runs.append((y, start, x - start))
            else:
                x += 1
    return len(rows), tuple(runs)


def area(canvas: Canvas) -> pygame.Rect:
    """Where the code goes: the top-right corner, inside the screen's margin."""
    n_side = round(canvas.h * SIDE)
    m = canvas.px("margin")
    return pygame.Rect(canvas.w - m - n_side, m, n_side, n_side)


def draw(canvas: Canvas, snapshot: dict, status: dict | None) -> pygame.Rect | None:
    if not shown(snapshot, status):
        return None
    n, runs = _modules(status["watch"]["qr"])
    box = area(canvas)
    module = max(1, box.w // n)
    code = pygame.Rect(box.right - module * n, box.top, module * n, module * n)
    canvas.fill((255, 255, 255), code, tag="watch:qr")
    for y, x, length in runs:
        canvas.fill((0, 0, 0), pygame.Rect(code.left + x * module, code.top + y * module, length * module, module))
    canvas.note("image", "watch:qr", code, box)
    return code
