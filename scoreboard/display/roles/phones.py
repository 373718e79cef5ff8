"""The players' phones on the host's screen (issue 26, docs/PHONE_BUTTONS.md): a QR code per seat before the game (the
seat's link carries its key: the host's screen only, never the hall's) and, while phones are seated, one line of
their state — synced and ± ms, the link's round trip, lost — and how long the arbitration waits for them."""
from __future__ import annotations

import pygame

from scoreboard.display.render.canvas import Canvas
from scoreboard.display.render.qr import qr_surface


def seats_shown(snapshot: dict) -> list[int]:
    """The seats of the game's players, or 1–3 before there are any."""
    return [p["seat"] for p in snapshot.get("players") or []] or [1, 2, 3]


def draw_codes(canvas: Canvas, links: dict, seats: list[int], area: pygame.Rect) -> None:
    """One QR code per seat in a row across `area`, each named under it."""
    shown = [seat for seat in seats if links.get(seat) or links.get(str(seat))]
    if not shown:
        return
    label = canvas.px("small") * 2
    side = min(area.h - label, area.w // len(shown) - canvas.px("margin") // 2)
    if side < 80:
        return
    step = area.w // len(shown)
    for i, seat in enumerate(shown):
        code = qr_surface(links.get(seat) or links.get(str(seat)), side)
        where = code.get_rect(midtop=(area.left + step * i + step // 2, area.top))
        canvas.surface.blit(code, where)
        canvas.note("image", f"host:seat:qr:{seat}", where, area)
        canvas.text(pygame.Rect(where.left, where.bottom, where.w, label), canvas.theme.text("host_seat_code", seat=seat),
                    "small", canvas.theme.color("text"), tag=f"host:seat:{seat}")


def phones_line(phones: dict | None) -> str:
    """`1 ±6 ms · 2 ±41 ms · 3 lost` for the host: empty when no phone is seated."""
    if not phones or not phones.get("seats"):
        return ""
    parts = []
    for entry in phones["seats"]:
        state = entry.get("state")
        text = f"{entry['seat']} " + (f"±{entry['error_ms']:.0f} мс ({entry.get('rtt_ms') or 0:.0f})" if state == "synced"
                                      else {"syncing": "синхр.", "lost": "нет связи"}.get(state, "—"))
        if entry.get("waiting"):
            text += " +ждёт"
        parts.append(text)
    return " · ".join(parts)


def draw_line(canvas: Canvas, phones: dict | None, box: pygame.Rect) -> None:
    text = phones_line(phones)
    if text:
        canvas.text(box, canvas.theme.text("host_phones", phones=text, wait=phones.get("wait_ms", 0)), "small",
                    canvas.theme.color("muted"), align="left", tag="host:phones")
