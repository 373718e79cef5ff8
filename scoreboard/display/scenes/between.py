"""Between plays: the logo, the scores, the winner (or no winner), the chart of the game, tournament screens."""
from __future__ import annotations

import pygame

from scoreboard.display.render.canvas import Canvas
from scoreboard.display.scenes import tournament
from scoreboard.display.scenes.common import (
    Layout,
    header,
    name_of,
    no_winner_text,
    player,
    round_title,
    score_text,
    stage_title,
    tiebreak_decision,
)


def draw_logo(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    theme = canvas.theme
    main = pygame.Rect(0, layout.header.top, canvas.w, layout.main.bottom - layout.header.top)
    logo = theme.values["images"].get("logo")
    title_box = pygame.Rect(main.left, main.bottom - main.h // 4, main.w, main.h // 4)
    if logo:
        canvas.image(logo, pygame.Rect(main.left, main.top, main.w, main.h - title_box.h), tag="logo")
        canvas.text(title_box, stage_title(snapshot, theme) or theme.text("title"), "title", theme.color("text"),
                    tag="logo:caption")
    else:
        canvas.text(main, theme.text("title"), int(canvas.h * 0.16), theme.color("accent"), tag="logo:title")


def draw_setup(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    draw_logo(canvas, snapshot, now, layout)


def draw_scores(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    """The table, best first: place, name, score."""
    theme = canvas.theme
    header(canvas, layout.header, theme.text("scores"), round_title(snapshot, theme) if snapshot.get("round") else "")
    players = sorted(snapshot.get("players") or [], key=lambda p: (-p.get("score", 0), p.get("seat", 0)))
    if not players:
        return
    main = layout.main.inflate(-layout.m * 6, 0)
    row_h = min(main.h // len(players), canvas.px("title") * 2)
    top = main.top + (main.h - row_h * len(players)) // 2
    for i, p in enumerate(players):
        seat = p.get("seat")
        row = pygame.Rect(main.left, top + i * row_h, main.w, row_h - layout.m)
        canvas.fill(theme.color("panel"), row, radius=row.h // 6, tag=f"scores:{seat}:back")
        canvas.fill(theme.player_color(seat), pygame.Rect(row.left, row.top, row.h // 5, row.h), tag=f"scores:{seat}:stripe")
        place = pygame.Rect(row.left + row.h // 4, row.top, row.h, row.h)
        canvas.text(place.inflate(-row.h // 5, -row.h // 5), str(i + 1), "title", theme.color("accent"),
                    tag=f"scores:{seat}:place")
        score_box = pygame.Rect(row.right - row.w // 4, row.top, row.w // 4 - row.h // 4, row.h)
        name_box = pygame.Rect(place.right, row.top, score_box.left - place.right - layout.m, row.h)
        canvas.text(name_box.inflate(0, -row.h // 6), p.get("name") or f"#{seat}", "title", theme.color("text"),
                    align="left", tag=f"scores:{seat}:name", max_lines=2)
        canvas.text(score_box.inflate(0, -row.h // 6), score_text(p.get("score", 0)), "title",
                    theme.color("wrong") if p.get("score", 0) < 0 else theme.color("text"), align="right",
                    tag=f"scores:{seat}:score")


def draw_chart(canvas: Canvas, snapshot: dict, now: float, layout: Layout, box: pygame.Rect | None = None) -> None:
    """Every player's score after each resolved question, one line per seat in the seat's colour and with the seat's
    marker shape (so no one needs to tell the colours apart)."""
    theme = canvas.theme
    if box is None:
        header(canvas, layout.header, theme.text("chart"), "")
        box = layout.main.inflate(-layout.m * 4, -layout.m)
    history = [row for row in snapshot.get("history") or [] if isinstance(row, list)]
    players = snapshot.get("players") or []
    canvas.fill(theme.color("panel"), box, radius=layout.m, tag="chart:back")
    if not history or not players:
        return
    values = [v for row in history for v in row if isinstance(v, (int, float))] + [0]
    low, high = min(values), max(values)
    span = (high - low) or 1
    inner = box.inflate(-layout.m * 4, -layout.m * 2)
    plot, keys = _legend_layout(canvas, players, inner, layout.m)
    zero_y = plot.bottom - int((0 - low) / span * plot.h)
    canvas.line(theme.color("muted"), (plot.left, zero_y), (plot.right, zero_y), max(1, canvas.h // 400))
    steps = max(1, len(history) - 1)
    width = max(2, canvas.h // 180)
    mark_r = width * 3
    # Colour is not the only cue (issue 9 item 6): each seat's line carries its own marker shape, spaced along the
    # line and always at its end, and the legend shows the same shape beside the name.
    every = max(1, -(-steps * mark_r * 5 // max(1, plot.w)))
    for i, p in enumerate(players):
        seat = p.get("seat", i + 1)
        points = [(plot.left + int(k * plot.w / steps), plot.bottom - int((row[i] - low) / span * plot.h))
                  for k, row in enumerate(history) if i < len(row)]
        if len(points) >= 2:
            canvas.lines(theme.player_color(seat), points, width)
        for k, point in enumerate(points):
            if k == len(points) - 1 or (k + i) % every == 0:
                marker(canvas, i, theme.player_color(seat), point, mark_r, f"chart:marker:{seat}")
    for i, (p, row) in enumerate(zip(players, keys)):
        seat = p.get("seat", i + 1)
        key_w = min(row.h, canvas.min_px * 2) // 2
        canvas.fill(theme.player_color(seat), pygame.Rect(row.left, row.centery - width // 2, key_w, width),
                    tag=f"chart:key:{seat}")
        marker(canvas, i, theme.player_color(seat), (row.left + key_w // 2, row.centery), mark_r, f"chart:keymark:{seat}")
        canvas.text(pygame.Rect(row.left + key_w * 3 // 2, row.top, row.w - key_w * 3 // 2, row.h),
                    p.get("name") or f"#{seat}", "small", theme.color("text"), align="left", tag=f"chart:name:{seat}",
                    max_lines=3)


MARKERS = ("circle", "square", "triangle", "diamond", "triangle_down", "ring")


def marker(canvas: Canvas, index: int, color, center, r: int, tag: str) -> None:
    """The `index`-th seat's marker shape at `center`, outlined in the panel colour so crossing lines stay apart."""
    shape = MARKERS[index % len(MARKERS)]
    x, y = center
    outline = canvas.theme.color("panel")
    for grow, paint in ((max(2, r // 3), outline), (0, color)):
        q = r + grow
        if shape in ("circle", "ring"):
            canvas.circle(paint, center, q)
            if shape == "ring" and not grow:
                canvas.circle(outline, center, max(1, q // 2))
        elif shape == "square":
            canvas.square(paint, pygame.Rect(x - q * 4 // 5, y - q * 4 // 5, q * 8 // 5, q * 8 // 5))
        else:
            up = {"triangle": -1, "triangle_down": 1}.get(shape, 0)
            points = [(x, y - q), (x + q, y), (x, y + q), (x - q, y)] if not up else \
                [(x, y + up * q * 6 // 5), (x + q * 11 // 10, y - up * q * 7 // 10), (x - q * 11 // 10, y - up * q * 7 // 10)]
            canvas.polygon(paint, points)
    canvas.note("mark", f"{tag}:{shape}", pygame.Rect(x - r, y - r, 2 * r, 2 * r), canvas.rect)


def _legend_layout(canvas: Canvas, players: list, inner: pygame.Rect, m: int):
    """(plot, one key box per player). The legend goes beside the plot, from a fifth up to two fifths of its width,
    if every name fits there whole (wrapped at its spaces into up to three lines); else in a strip of columns under
    the plot (a short chart, as on the winner screen; up to 3/5 of its height, so that a three-word name stays whole at
    the legible minimum size) — a name is cut with "…" only if neither holds it."""
    line = canvas.cache.line_height(canvas.theme.font("main"), canvas.min_px)
    names = [p.get("name") or f"#{p.get('seat', i + 1)}" for i, p in enumerate(players)]
    key_w = canvas.min_px * 3 // 2

    def whole(w, h):
        return all(canvas.fits_whole((0, 0, w - key_w, h), name, "small", max_lines=3) for name in names)

    row_h = min(inner.h // len(players), max(canvas.px("name") * 2, 3 * line))
    for share in (20, 25, 30, 35, 40):
        side_w = inner.w * share // 100
        if whole(side_w, row_h):
            break
    else:
        col_w = (inner.w - m * (len(players) - 1)) // len(players)
        for lines in (1, 2, 3):
            if lines * line <= inner.h * 3 // 5 and whole(col_w, lines * line):
                plot = pygame.Rect(inner.left, inner.top, inner.w, inner.h - lines * line - m)
                return plot, [pygame.Rect(inner.left + i * (col_w + m), plot.bottom + m, col_w, lines * line)
                              for i in range(len(players))]
    plot = pygame.Rect(inner.left, inner.top, inner.w - side_w - m, inner.h)
    return plot, [pygame.Rect(plot.right + m, inner.top + i * row_h, side_w, row_h) for i in range(len(players))]


def draw_winner(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    """The winner's name in their colour frame, or "no winner" with the reason; the game's chart below."""
    theme = canvas.theme
    seat = snapshot.get("winner")
    header(canvas, layout.header, theme.text("game_over") if snapshot.get("game_over") else theme.text("scores"),
           stage_title(snapshot, theme))
    main = layout.main
    top = pygame.Rect(main.left, main.top, main.w, main.h * 48 // 100)
    band = top.inflate(-main.w // 6, -layout.m)
    if seat is not None:
        p = player(snapshot, seat) or {}
        canvas.fill(theme.color("panel"), band, radius=band.h // 6, tag="winner:back")
        canvas.fill(theme.player_color(seat), band, radius=band.h // 6, width=max(4, band.h // 18), tag="winner:frame")
        inner = band.inflate(-band.h // 3, -band.h // 6)
        decided = tiebreak_decision(snapshot, theme)
        # Rows of the band: label, name, score; after a tie-break also the tie-break points and what decided it,
        # so a screen showing equal scores says why this player won (TB1–TB4).
        shares = (2, 4, 2) if decided is None else (2, 3, 2, 2)
        unit = inner.h / sum(shares)
        rows, y = [], inner.top
        for share in shares:
            rows.append(pygame.Rect(inner.left, round(y), inner.w, round(unit * share)))
            y += unit * share
        canvas.text(rows[0], theme.text("winner"), "body", theme.color("accent"), tag="winner:label")
        canvas.text(rows[1], name_of(snapshot, seat), int(canvas.h * 0.11), theme.color("text"), tag="winner:name",
                    max_lines=2)
        score = score_text(p.get("score", 0))
        canvas.text(rows[2], score if decided is None else f"{score} · {decided[0]}", "body", theme.color("text"),
                    tag="winner:score")
        if decided is not None:
            canvas.text(rows[3], decided[1], "body", theme.color("accent"), tag="winner:decided")
    elif snapshot.get("game_over"):
        canvas.text(band, theme.text("no_winner"), int(canvas.h * 0.11), theme.color("text"), tag="winner:none")
        reason = no_winner_text(snapshot, theme)
        if reason:
            canvas.text(pygame.Rect(band.left, band.bottom - band.h // 4, band.w, band.h // 4), reason, "small",
                        theme.color("muted"), tag="winner:reason", max_lines=2)
    else:
        draw_scores(canvas, snapshot, now, layout)
        return
    draw_chart(canvas, snapshot, now, layout, pygame.Rect(main.left, top.bottom + layout.m, main.w,
                                                          main.bottom - top.bottom - layout.m))


def draw_tournament(canvas: Canvas, snapshot: dict, now: float, layout: Layout, kind: str, view) -> None:
    """bracket / standings from the tournament package, or a placeholder when no tournament is configured.

    `view` is what the tournament's `screen_view` gives: (drawing kind, view dict), or None."""
    theme = canvas.theme
    if view is not None:
        try:
            draw_kind, data = view
            tournament.draw(canvas, draw_kind, data)
            canvas.note("box", f"tournament:{draw_kind}", canvas.rect, canvas.rect)
            return
        except Exception as error:  # a tournament drawing bug must not take the board down
            canvas.fill(theme.color("background"))
            canvas.text(layout.header, f"{kind}: {error}", "small", theme.color("wrong"), tag="tournament:error")
    header(canvas, layout.header, theme.text("title"), "")
    canvas.text(layout.main, theme.text("no_tournament"), "title", theme.color("muted"), tag="tournament:none")
