"""The photo finish on the host's monitor (issue 27 item 2, BZ11): who pressed in what order, the gaps in ms, each
press's source and error bound, and the close-call mark — to answer «I pressed first» at a glance.

It reads `host_question["presses"]` (engine/photo.py), which only the host's screen is given: the hall's screens never
draw this. Lines, top to bottom: what the window is (this question or the last), the close call if there is one,
then one row a press in the order of their stamps.
"""
from __future__ import annotations

import pygame

from scoreboard.display.render.canvas import Canvas
from scoreboard.display.scenes.common import name_of

SOURCE_WORDS = {"box": "кнопка", "key": "клавиша", "phone": "телефон", "remote": "пульт"}
OUTCOME_WORDS = {"won": "первый", "too_late": "позже", "false_start": "фальстарт", "locked_out": "блокирован",
                 "ignored": "не в счёт"}
OUTCOME_COLOURS = {"won": "right", "too_late": "text", "false_start": "wrong", "locked_out": "wrong",
                   "ignored": "muted"}
MAX_ROWS = 5


def shown_window(presses: dict | None) -> tuple[str, dict] | None:
    """("current" | "last", the newest window with presses): this question's, else the last question's."""
    if not isinstance(presses, dict):
        return None
    for which in ("current", "last"):
        rec = presses.get(which) or {}
        for window in reversed(rec.get("windows") or []):
            if window.get("presses"):
                return which, window
        if which == "current" and rec.get("windows"):
            return None      # this question's window is open and nobody pressed yet: nothing to dispute
    return None


def ms_text(ms) -> str:
    if ms is None:
        return "—"
    if abs(ms) >= 1000:
        return f"{ms / 1000:+.2f} с"
    return f"{ms:+.1f} мс" if abs(ms) < 100 else f"{ms:+.0f} мс"


def bound_text(press: dict) -> str:
    word = SOURCE_WORDS.get(press.get("source"), str(press.get("source")))
    bound = press.get("bound_ms")
    return f"{word} ±{bound}" if bound is not None else f"{word} ±?"


def close_text(snapshot: dict, press: dict) -> str:
    """«СПОРНО: …» — the two players (or a player and the start) and the gap against the bounds (BZ11)."""
    close = press.get("close") or {}
    gap, bounds = f"{close.get('gap_ms', 0):.1f} мс", f"±{close.get('bounds_ms')} мс"
    if close.get("with") == "live":
        return f"СПОРНО: {name_of(snapshot, press.get('seat'))} — {gap} от старта кнопок, погрешность {bounds}"
    return (f"СПОРНО: {name_of(snapshot, press.get('seat'))} и {name_of(snapshot, close.get('with'))} — {gap}, "
            f"погрешность {bounds}")


def carve(canvas: Canvas, snapshot: dict, host_question: dict, box: pygame.Rect) -> pygame.Rect:
    """Draw the panel at the bottom of `box` when there are presses to show; the rest of `box` is returned."""
    shown = shown_window(host_question.get("presses"))
    if shown is None:
        return box
    which, window = shown
    rows = window["presses"][:MAX_ROWS]
    m = canvas.px("margin")
    line = canvas.px("small") * 3 // 2
    lines = 1 + len(rows) + bool(window.get("close")) + bool(window.get("named"))
    height = min(box.h // 2, line * lines + 2 * m)
    panel = pygame.Rect(box.left, box.bottom - height, box.w, height)
    draw(canvas, snapshot, which, window, rows, panel)
    return pygame.Rect(box.left, box.top, box.w, panel.top - box.top - m)


def draw(canvas: Canvas, snapshot: dict, which: str, window: dict, rows: list[dict], panel: pygame.Rect) -> None:
    theme = canvas.theme
    m = canvas.px("margin")
    canvas.fill(theme.color("panel"), panel, radius=m, tag="host:photo:back")
    inner = panel.inflate(-2 * m, -m)
    lines = 1 + len(rows) + bool(window.get("close")) + bool(window.get("named"))
    h = inner.h // lines
    y = inner.top
    on_hall = snapshot.get("photo") is not None     # the host sent it to the hall's screens (issue 27 item 2)
    title = "Нажатия" + (" — прошлый вопрос" if which == "last" else "") + (" · на экране зала" if on_hall else "")
    canvas.text(pygame.Rect(inner.left, y, inner.w, h), title, "small", theme.color("accent" if on_hall else "muted"),
                align="left", tag="host:photo:title")
    y += h
    close = next((p for p in rows if p.get("close")), None)
    if close is not None:
        hint = " — можно назвать другого" if snapshot.get("phase") == "answering" else ""
        canvas.text(pygame.Rect(inner.left, y, inner.w, h), close_text(snapshot, close) + hint,
                    "small", theme.color("locked"), align="left", tag="host:photo:close")
        y += h
    named = window.get("named")
    if named:
        canvas.text(pygame.Rect(inner.left, y, inner.w, h),
                    f"Ведущий назвал: {name_of(snapshot, named.get('seat'))} вместо "
                    f"{name_of(snapshot, named.get('instead_of'))}", "small", theme.color("accent"), align="left",
                    tag="host:photo:named")
        y += h
    columns = (0, 38, 58, 80, 100)     # % of the width: who, when, source ± bound, outcome
    for i, press in enumerate(rows):
        seat = press.get("seat")
        when = press.get("after_ms") if i == 0 or press.get("gap_ms") is None else press.get("gap_ms")
        cells = [f"{i + 1}. {name_of(snapshot, seat)}", ms_text(when), bound_text(press),
                 OUTCOME_WORDS.get(press.get("outcome"), str(press.get("outcome")))]
        colour = "locked" if press.get("close") else OUTCOME_COLOURS.get(press.get("outcome"), "text")
        canvas.fill(theme.player_color(seat), pygame.Rect(inner.left, y + h // 6, max(2, m // 3), h * 2 // 3),
                    tag=f"host:photo:stripe:{i}")
        for k, text in enumerate(cells):
            left = inner.left + m + inner.w * columns[k] // 100
            cell = pygame.Rect(left, y, inner.w * (columns[k + 1] - columns[k]) // 100 - m // 2, h)
            canvas.text(cell, ("≈ " if press.get("close") and k == 3 else "") + text, "small",
                        theme.color(colour if k in (0, 3) else "text"), align="left", tag=f"host:photo:{i}:{k}")
        y += h
