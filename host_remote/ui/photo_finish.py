"""The photo finish on the host's remote (issue 27 item 2, BZ11): the presses of the newest window in a few lines under
the question, and the «name instead» button of a close call. The words and the choice of window are the board's own
screen's (scoreboard/display/roles/photo_finish.py), so the host reads the same thing on both."""
from __future__ import annotations

import pygame

from scoreboard.display.roles.photo_finish import OUTCOME_WORDS, bound_text, ms_text, shown_window
from scoreboard.display.scenes.common import name_of

from .. import actions as act
from . import widgets as w

MAX_ROWS = 4
LINE = 19


def lines(question: dict | None, snapshot: dict | None) -> list[tuple[str, tuple]]:
    """(text, colour) of each line: the title, the close call, who the host named, then a press a line."""
    shown = shown_window((question or {}).get("presses"))
    if shown is None:
        return []
    snap = snapshot or {}
    which, window = shown
    on_hall = snap.get("photo") is not None     # the host sent it to the hall's screens (issue 27 item 2)
    out = [("Нажатия" + (" — прошлый вопрос" if which == "last" else "") + (" · НА ЭКРАНЕ ЗАЛА" if on_hall else ""),
            w.ACCENT if on_hall else w.DIM)]
    rows = window.get("presses") or []
    close = next((p for p in rows if p.get("close")), None)
    if close is not None:   # the names are on the rows (≈): the gap against the bounds is what the line adds
        call = close.get("close") or {}
        out.append((f"СПОРНО: {call.get('gap_ms', 0):.1f} мс, погрешность ±{call.get('bounds_ms')} мс"
                    + (" от старта кнопок" if call.get("with") == "live" else ""), w.ACCENT))
    named = window.get("named")
    if named:
        out.append((f"Ведущий назвал: {name_of(snap, named.get('seat'))} вместо "
                    f"{name_of(snap, named.get('instead_of'))}", w.ACCENT))
    for i, p in enumerate(rows[:MAX_ROWS]):
        when = p.get("after_ms") if i == 0 or p.get("gap_ms") is None else p.get("gap_ms")
        mark = "≈ " if p.get("close") else ""
        out.append((f"{i + 1}. {name_of(snap, p.get('seat'))}  {ms_text(when)}  {bound_text(p)}  "
                    f"{mark}{OUTCOME_WORDS.get(p.get('outcome'), p.get('outcome'))}",
                    w.ACCENT if p.get("close") else w.TEXT))
    return out


def height(question: dict | None, snapshot: dict | None) -> int:
    found = lines(question, snapshot)
    return len(found) * LINE + 8 if found else 0


def draw(surface, question: dict | None, snapshot: dict | None, box: pygame.Rect) -> None:
    y = box.top
    for text, colour in lines(question, snapshot):
        shown, size = w.fit_line(text, 16, box.width, minimum=11)   # smaller before cut: every figure counts
        w.put(surface, w.text(shown, size, colour), (box.left, y), pygame.Rect(box.left, y, box.width, LINE), shown)
        y += LINE


def name_actions(question: dict | None, snapshot: dict | None) -> list[act.Action]:
    """BZ11: while the press's winner answers, before the verdict: «Назвать: …» for the other player of a close
    call (`/sg/answerer seat`)."""
    snap = snapshot or {}
    shown = shown_window((question or {}).get("presses"))
    if shown is None or shown[0] != "current" or snap.get("phase") != "answering":
        return []
    seats = []
    for p in shown[1].get("presses") or []:
        if p.get("close") and p.get("seat") != snap.get("answering") and p.get("seat") not in seats:
            seats.append(p.get("seat"))
    return [act.Action(f"answerer:{seat}", f"Назвать: {name_of(snap, seat)}", "/sg/answerer", (seat,), act.SEAT,
                       seat=seat) for seat in seats if isinstance(seat, int)]


def hall_actions(question: dict | None, snapshot: dict | None) -> list[act.Action]:
    """Issue 27 item 2: «Фотофиниш на экран» sends the photo finish to the hall's screens (`/sg/photo/show`);
    while it is there, «Убрать фотофиниш» takes it away (`/sg/photo/hide`). The board refuses it while the buttons
    are live, and takes it away itself when the next race starts."""
    snap = snapshot or {}
    if snap.get("photo") is not None:
        return [act.Action("photo:hide", "Убрать фотофиниш", "/sg/photo/hide", (), act.SEAT)]
    if shown_window((question or {}).get("presses")) is None or snap.get("buttons_live"):
        return []
    return [act.Action("photo:show", "Фотофиниш на экран", "/sg/photo/show", (), act.SEAT)]
