"""The photo finish on the hall's screens (issue 27 item 2, BZ11): drawn only while the host has sent it there.

It reads the snapshot's `photo` (engine/photo_hall.py): the window's presses in the order of their stamps. One row a
press, large enough for the back of the hall: the place, the player in the seat's colour, how many ms after the first
press, the device and its error bound, and what the press did. A close call is said above the rows in words: the gap
against the bounds (BZ11), so nobody needs to know what ± means to see it was too close to call. Nothing else: the
record carries no answer, no stake, no reason of the rules.
"""
from __future__ import annotations

import pygame

from scoreboard.display.render.canvas import Canvas
from scoreboard.display.scenes.common import Layout, header, name_of

OUTCOME_COLOURS = {"won": "right", "too_late": "text", "false_start": "wrong", "locked_out": "wrong",
                   "ignored": "muted"}
SOURCES = ("box", "key", "phone", "remote")
MAX_ROWS = 8


def shown(snapshot: dict) -> dict | None:
    """The hall's photo finish when the host sent it and it has presses (a follower's snapshot is checked)."""
    photo = snapshot.get("photo")
    if isinstance(photo, dict) and isinstance(photo.get("presses"), list) and photo["presses"]:
        return photo
    return None


def ms(value) -> str:
    """Milliseconds as the hall reads them: tenths under 10, whole above, seconds past one."""
    if not isinstance(value, (int, float)):
        return "—"
    if abs(value) >= 1000:
        return f"{value / 1000:+.2f} с".replace(".", ",")
    text = f"{value:+.1f}" if abs(value) < 10 else f"{value:+.0f}"     # tenths where they decide
    return text.replace(".", ",") + " мс"


def _number(value) -> str:
    return f"{value:.1f}".replace(".", ",") if isinstance(value, float) and not value.is_integer() else \
        str(int(value)) if isinstance(value, (int, float)) else "?"


def close_line(canvas: Canvas, snapshot: dict, photo: dict) -> str:
    theme = canvas.theme
    close = next((p.get("close") for p in photo["presses"] if isinstance(p, dict) and isinstance(p.get("close"), dict)),
                 None)
    if close is None:
        return ""
    fields = {"gap": _number(close.get("gap_ms")), "bounds": _number(close.get("bounds_ms"))}
    return theme.text("photo_close_live" if close.get("with") == "live" else "photo_close", **fields)


def draw(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    """The scene: the header (the photo finish, the question's topic and value), the close call, the rows."""
    photo = shown(snapshot)
    if photo is None:
        return
    theme = canvas.theme
    topic = photo.get("topic_name") if isinstance(photo.get("topic_name"), str) else ""
    value = photo.get("value")
    right = " · ".join(part for part in (topic, str(value) if isinstance(value, int) else "") if part)
    title = theme.text("photo_title") + (f" — {theme.text('photo_last')}" if photo.get("of") == "last" else "")
    header(canvas, layout.header, title, right, tag="photo:header")
    main = layout.main.inflate(-layout.m * 4, 0)
    m = layout.m
    notes = []
    said = close_line(canvas, snapshot, photo)
    if said:
        notes.append((said, "locked", "photo:close"))
    named = photo["named"].get("seat") if isinstance(photo.get("named"), dict) else None   # BZ11: on its row
    rows = [p for p in photo["presses"] if isinstance(p, dict)][:MAX_ROWS]
    more = photo.get("more") if isinstance(photo.get("more"), int) else 0
    note_h = canvas.px("body") * 3 // 2
    top = main.top
    for text, colour, tag in notes:
        canvas.text(pygame.Rect(main.left, top, main.w, note_h), text, "body", theme.color(colour), tag=tag,
                    max_lines=1)
        top += note_h
    # a row holds two lines on its right at the theme's smallest legible size; rows that do not fit are counted
    min_row = canvas.min_px_of(theme.font("main")) * 3 + 2 * m
    if len(rows) > (main.bottom - top) // min_row:
        fit = max(1, (main.bottom - top - note_h) // min_row)
        more, rows = more + len(rows) - fit, rows[:fit]
    foot = note_h if more else 0
    row_h = max(min_row, min((main.bottom - top - foot) // max(1, len(rows)), canvas.px("title") * 2))
    top += (main.bottom - top - foot - row_h * len(rows)) // 2
    for i, press in enumerate(rows):
        _row(canvas, snapshot, press, i, pygame.Rect(main.left, top + i * row_h, main.w, row_h - m), named)
    if more:
        canvas.text(pygame.Rect(main.left, main.bottom - foot, main.w, foot), theme.text("photo_more", n=more),
                    "body", theme.color("muted"), tag="photo:more")


def _row(canvas: Canvas, snapshot: dict, press: dict, i: int, row: pygame.Rect, named: int | None) -> None:
    """place | name | on the right, two lines: ms after the first and what the press did (or that the host named
    this player to answer instead, BZ11); the device ± its bound."""
    theme = canvas.theme
    seat = press.get("seat")
    close = isinstance(press.get("close"), dict)
    canvas.fill(theme.color("panel"), row, radius=row.h // 6, tag=f"photo:{i}:back")
    if close:       # a close call's rows are framed: the dispute is between them
        canvas.fill(theme.color("locked"), row, radius=row.h // 6, width=max(2, row.h // 20), tag=f"photo:{i}:close")
    canvas.fill(theme.player_color(seat), pygame.Rect(row.left, row.top, row.h // 5, row.h), tag=f"photo:{i}:stripe")
    pad = row.h // 10
    inner = pygame.Rect(row.left + row.h // 3, row.top + pad, row.w - row.h // 3 - 3 * pad, row.h - 2 * pad)
    source = press.get("source") if press.get("source") in SOURCES else "remote"
    bound = press.get("bound_ms")
    device = theme.text(f"photo_{source}") + (f" ±{_number(bound)} мс" if isinstance(bound, (int, float)) else " ±?")
    outcome = press.get("outcome") if press.get("outcome") in OUTCOME_COLOURS else "ignored"
    gap = "0 мс" if i == 0 else ms(press.get("behind_ms"))
    said = ("≈ " if close else "") + theme.text("photo_named_row" if seat == named and named is not None
                                                 else f"photo_{outcome}")
    place_w = inner.h * 3 // 4
    right_w = inner.w * 9 // 20
    canvas.text(pygame.Rect(inner.left, inner.top, place_w, inner.h), str(i + 1), "title", theme.color("accent"),
                tag=f"photo:{i}:place")
    name = pygame.Rect(inner.left + place_w + row.h // 5, inner.top, inner.w - place_w - right_w - row.h // 3, inner.h)
    canvas.text(name, name_of(snapshot, seat), "title", theme.color("text"), align="left", max_lines=2,
                tag=f"photo:{i}:name")
    right = pygame.Rect(inner.right - right_w, inner.top, right_w, inner.h)
    top = pygame.Rect(right.left, right.top, right.w, right.h // 2)
    half = top.w // 2
    canvas.text(pygame.Rect(top.left, top.top, half - row.h // 6, top.h), gap, "title", theme.color("text"),
                align="right", tag=f"photo:{i}:gap")
    canvas.text(pygame.Rect(top.left + half, top.top, top.w - half, top.h), said, "title",
                theme.color("accent" if seat == named else "locked" if close else OUTCOME_COLOURS[outcome]),
                align="right", tag=f"photo:{i}:outcome")
    canvas.text(pygame.Rect(right.left, top.bottom, right.w, right.h - top.h), device, "small", theme.color("muted"),
                align="right", tag=f"photo:{i}:device")
