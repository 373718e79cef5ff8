"""The final round (FN2) or super-question (FN3): finalists, stakes "in" but never shown (FN4), the clock, the
reveal one player at a time."""
from __future__ import annotations

import pygame

from scoreboard.display.render.canvas import Canvas
from scoreboard.display.scenes.common import Layout, header, name_of, remaining, score_text, signed, timer
from scoreboard.display.scenes.question import clock_total


def _title(snapshot: dict, theme) -> str:
    final = snapshot.get("final") or {}
    return theme.text("super_question" if final.get("kind") == "super_question" else "final_round")


def _finalist_rows(canvas: Canvas, snapshot: dict, box: pygame.Rect, describe) -> None:
    """One row per finalist: colour stripe, name, and what `describe(seat)` says may be shown of them now."""
    theme = canvas.theme
    final = snapshot.get("final") or {}
    seats = final.get("eligible") or []
    if not seats:
        return
    gap = max(2, box.h // 40)
    row_h = min(box.h // len(seats), canvas.px("title") * 2)
    top = box.top + (box.h - row_h * len(seats)) // 2
    for i, seat in enumerate(seats):
        row = pygame.Rect(box.left, top + i * row_h, box.w, row_h - gap)
        canvas.fill(theme.color("panel"), row, radius=row.h // 6, tag=f"finalist:{seat}:back")
        canvas.fill(theme.player_color(seat), pygame.Rect(row.left, row.top, row.h // 6, row.h), tag=f"finalist:{seat}:stripe")
        inner = row.inflate(-row.h // 2, -row.h // 6)
        name_box = pygame.Rect(inner.left, inner.top, inner.w * 45 // 100, inner.h)
        canvas.text(name_box, name_of(snapshot, seat), "name", theme.color("text"), align="left",
                    tag=f"finalist:{seat}", max_lines=2)
        rest = pygame.Rect(name_box.right, inner.top, inner.right - name_box.right, inner.h)
        parts = describe(seat)
        share = rest.w // max(1, len(parts))
        space = canvas.px("margin") * 2
        for j, (text, color_key, tag) in enumerate(parts):
            canvas.text(pygame.Rect(rest.left + j * share + space, rest.top, share - space, rest.h), text, "name",
                        theme.color(color_key), align="right", tag=tag, max_lines=1)  # shrink, never wrap


def draw_final_stakes(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    theme = canvas.theme
    final = snapshot.get("final") or {}
    header(canvas, layout.header, _title(snapshot, theme), final.get("topic") or "", tag="final:header")
    stakes_in = set(final.get("stakes_in") or [])

    def describe(seat):
        if seat in stakes_in:
            return [(theme.text("stake_in"), "right", f"final:in:{seat}")]
        return [(theme.text("stake_waiting"), "muted", f"final:waiting:{seat}")]
    _finalist_rows(canvas, snapshot, layout.main.inflate(-layout.m * 4, -layout.m), describe)


def draw_final_answer(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    theme = canvas.theme
    final = snapshot.get("final") or {}
    header(canvas, layout.header, _title(snapshot, theme), final.get("topic") or "", tag="final:header")
    main = layout.main.inflate(-layout.m * 4, -layout.m)
    label = pygame.Rect(main.left, main.top, main.w, main.h // 4)
    canvas.text(label, theme.text("write_answer"), "title", theme.color("accent"), tag="final:write")
    deadline = final.get("deadline", (snapshot.get("question") or {}).get("deadline"))
    timer(canvas, pygame.Rect(main.left, label.bottom, main.w, main.bottom - label.bottom),
          remaining(snapshot, deadline, now), clock_total(snapshot), tag="final:timer")


def draw_final_reveal(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    """Revealed finalists show stake, verdict and new score; the others only that their stake is in."""
    theme = canvas.theme
    final = snapshot.get("final") or {}
    header(canvas, layout.header, _title(snapshot, theme), final.get("topic") or "", tag="final:header")
    revealed = {r.get("seat"): r for r in final.get("revealed") or []}

    def describe(seat):
        r = revealed.get(seat)
        if r is None:
            return [(theme.text("stake_in"), "muted", f"final:hidden:{seat}")]
        verdict = r.get("verdict") or "wrong"
        stake = int(r.get("stake", 0))
        delta = stake if verdict == "right" else -stake
        return [(f"{theme.text('stake')} {stake}", "accent", f"stake:{seat}"),
                (f"{theme.text(verdict).lower()} {signed(delta)}", verdict, f"final:verdict:{seat}"),
                (score_text(r.get("score", 0)), "text", f"final:score:{seat}")]
    _finalist_rows(canvas, snapshot, layout.main.inflate(-layout.m * 4, -layout.m), describe)
