"""The host's monitor: the question text and answer to read from (with the question's picture, and the answer's
picture once resolved), the next action, the clock and the scores.

Only this screen draws `host_question` (the audience never sees an answer early). Stakes stay hidden here too until
revealed (FN4): the host screen reads the same snapshot.
"""
from __future__ import annotations

import time

import pygame

from scoreboard.display.media.files import media_items, well_formed
from scoreboard.display.media.pack import draw_media
from scoreboard.display.render.canvas import Canvas
from scoreboard.display.render.qr import qr_surface
from scoreboard.display.roles import phones
from scoreboard.display.roles import photo_finish
from scoreboard.display.scenes import board
from scoreboard.display.scenes.common import (
    background,
    clock_now,
    current_topic,
    elapsed_text,
    name_of,
    no_winner_text,
    player_status,
    remaining,
    round_title,
    score_text,
    seconds_text,
    stage_title,
    tiebreak_decision,
)
from scoreboard.engine.phases import Phase


def draw(canvas: Canvas, snapshot: dict, now: float, host_question: dict | None, status: dict | None = None) -> None:
    theme = canvas.theme
    background(canvas)
    m = canvas.px("margin")
    phase = snapshot.get("phase", Phase.SETUP)
    head = pygame.Rect(m, m, canvas.w - 2 * m, canvas.px("header"))
    title = (theme.text("game_over") if snapshot.get("game_over") else
             round_title(snapshot, theme) if snapshot.get("round") else theme.text("setup"))
    canvas.text(pygame.Rect(head.left, head.top, head.w * 2 // 3, head.h), title, "title", theme.color("text"),
                align="left", tag="host:round")
    canvas.text(pygame.Rect(head.left + head.w * 2 // 3, head.top, head.w // 3, head.h), stage_title(snapshot, theme),
                "body", theme.color("muted"), align="right", tag="host:stage")
    lines = status_lines(snapshot.get("status"))
    strip = canvas.px("small") * 2 * len(lines)
    if lines:
        _status_badge(canvas, lines, pygame.Rect(m, canvas.h - m - strip, canvas.w - 2 * m, strip))
        strip += m
    left = pygame.Rect(m, head.bottom + m, canvas.w * 62 // 100 - m, canvas.h - head.bottom - 2 * m - strip)
    right = pygame.Rect(left.right + m, left.top, canvas.w - left.right - 2 * m, left.h)

    if host_question and phase != Phase.GAME_OVER:
        left = photo_finish.carve(canvas, snapshot, host_question, left)   # the presses, under the question (BZ11)
        _question(canvas, snapshot, host_question, left)
    elif phase in (Phase.CHOOSING, Phase.ROUND_INTRO, Phase.REVEAL) and (snapshot.get("round") or {}).get("topics"):
        board.draw_grid(canvas, snapshot, now, _Area(left, m), show_header=False)
    elif snapshot.get("game_over"):
        winner = snapshot.get("winner")
        if winner is not None:
            text = f"{theme.text('winner')}: {name_of(snapshot, winner)}"
            decided = tiebreak_decision(snapshot, theme)
            if decided is not None:
                text += f"\n{decided[0]}; {decided[1]}"
        else:
            text = f"{theme.text('no_winner')}: {no_winner_text(snapshot, theme)}".rstrip(": ")
        canvas.text(left, text, "title", theme.color("accent"), tag="host:winner", max_lines=3)
    elif not ((status or {}).get("connect") or {}).get("web") or phase != Phase.SETUP:   # the QR takes its place
        topic = current_topic(snapshot) or {}
        canvas.text(left, topic.get("name") or theme.text("title"), "title", theme.color("muted"), tag="host:idle")
    connect = (status or {}).get("connect")
    if connect and phase == Phase.SETUP:   # before the game: how the remote connects (only the host sees this screen)
        box = pygame.Rect(left.left, left.bottom - canvas.px("body") * 3, left.w, canvas.px("body") * 3)
        canvas.fill(theme.color("panel"), box, radius=box.h // 6, tag="host:connect:back")
        canvas.text(box.inflate(-m * 2, -m), theme.text("host_connect", **connect), "body", theme.color("text"),
                    tag="host:connect", max_lines=2)
        if connect.get("web"):
            room = pygame.Rect(left.left, left.top, left.w, box.top - left.top - m)
            if connect.get("seats"):         # the players' phones: a code per seat above the remote's
                codes, room = room.copy(), room.copy()
                codes.h = room.h * 45 // 100
                room.top, room.h = codes.bottom + m, room.h - codes.h - m
                phones.draw_codes(canvas, connect["seats"], phones.seats_shown(snapshot), codes)
            _web_remote(canvas, connect, room, m)

    hint = pygame.Rect(right.left, right.top, right.w, right.h // 5)
    canvas.fill(theme.color("accent"), hint, radius=hint.h // 6, tag="host:hint:back")
    canvas.text(hint.inflate(-m * 2, -m), theme.text(f"hint_{phase}"), "body", theme.color("accent_text"),
                tag="host:hint", max_lines=3)
    clock_box = pygame.Rect(right.left, hint.bottom + m, right.w, right.h // 5)
    _clock(canvas, snapshot, now, clock_box)
    seated = phones.phones_line((status or {}).get("phones"))
    line = canvas.px("small") * 2 if seated else 0
    _scores(canvas, snapshot, now, pygame.Rect(right.left, clock_box.bottom + m, right.w,
                                               right.bottom - clock_box.bottom - m - line))
    if seated:
        phones.draw_line(canvas, status["phones"], pygame.Rect(right.left, right.bottom - line, right.w, line))


def _web_remote(canvas: Canvas, connect: dict, area: pygame.Rect, m: int) -> None:
    """The browser remote's address and its QR code: the host points a phone's camera at it (issue 13)."""
    side = min(area.h, area.w // 2)
    if side < 80:
        return
    code = qr_surface(connect.get("qr") or connect["web"], side)      # the link with the board's key
    where = code.get_rect(bottomright=area.bottomright)
    canvas.surface.blit(code, where)
    canvas.note("image", "host:web:qr", where, area)
    text = pygame.Rect(area.left, where.top, where.left - area.left - m, where.h)
    canvas.text(text, canvas.theme.text("host_web", **connect), "body", canvas.theme.color("text"),
                tag="host:web", max_lines=3)


def _clock_of(since) -> str:
    return time.strftime("%H:%M:%S", time.localtime(since)) if isinstance(since, (int, float)) else "?"


def status_lines(status) -> list[tuple[str, str]]:
    """(text, colour) for what the host must know about the board itself: the button box when it is not
    online, a journal that is not being written, a link that is down or retrying, an internal error.
    Nothing when all is well (or the snapshot has no `status`: unknown, as from an older board)."""
    if not isinstance(status, dict):
        return []
    lines = []
    journal = status.get("journal") or {}
    if journal.get("ok") is False:
        lines.append((f"ЖУРНАЛ НЕ ПИШЕТСЯ с {_clock_of(journal.get('since'))}: команды не выполняются — "
                      f"{journal.get('error') or ''}", "wrong"))
    box = status.get("box") or {}
    if box.get("state") == "offline":
        lines.append((f"Кнопки: нет связи с {_clock_of(box.get('since'))} ({box.get('detail') or ''})", "wrong"))
    elif box.get("state") == "reconnecting":
        lines.append((f"Кнопки: переподключение… (нет связи с {_clock_of(box.get('since'))})", "locked"))
    for link in status.get("links") or []:
        if isinstance(link, dict) and link.get("state") == "warning":
            lines.append((f"Пульт (сеть): {link.get('detail') or ''}", "locked"))
        elif isinstance(link, dict) and link.get("state") in ("retrying", "down"):
            name = {"osc": "Пульт (сеть)", "buttons": "Кнопки", "tournament": "Результат турнира"}.get(
                link.get("name"), str(link.get("name")))
            what = "повтор…" if link.get("state") == "retrying" else "остановлен"
            lines.append((f"{name}: {what} {link.get('detail') or ''}", "wrong"))
    for alert in status.get("alerts") or []:
        lines.append((f"Ошибка программы: {alert}", "wrong"))
    return lines[:4]


def _status_badge(canvas: Canvas, lines: list[tuple[str, str]], box: pygame.Rect) -> None:
    canvas.fill(canvas.theme.color("panel"), box, radius=box.h // (4 * len(lines)), tag="host:alarm:back")
    row = box.h // len(lines)
    for i, (text, colour) in enumerate(lines):
        canvas.text(pygame.Rect(box.left + row // 4, box.top + i * row, box.w - row // 2, row), text, "small",
                    canvas.theme.color(colour), align="left", tag=f"host:alarm:{i}")


class _Area:
    """A Layout over an arbitrary rectangle (the grid drawn small on the host's screen)."""

    def __init__(self, box: pygame.Rect, m: int):
        self.m = m
        self.header = pygame.Rect(box.left, box.top, box.w, 0)
        self.main = pygame.Rect(box)
        self.bar = pygame.Rect(box.left, box.bottom, box.w, 0)


def _pack_price(theme, price) -> str:
    """A cat in the bag's price in the pack's own figures: « (300)», « (100…500)», « (100…500, шаг 100)»."""
    if not isinstance(price, dict) or not isinstance(price.get("min"), int) or not isinstance(price.get("max"), int):
        return ""
    if price["min"] == price["max"]:
        return f" ({price['min']})"
    step = price.get("step")
    tail = ", " + theme.text("price_step", step=step) if isinstance(step, int) and 0 < step < price["max"] - price["min"] \
        else ""
    return f" ({price['min']}…{price['max']}{tail})"


def _question(canvas: Canvas, snapshot: dict, hq: dict, box: pygame.Rect) -> None:
    theme = canvas.theme
    question = snapshot.get("question") or {}
    auction = snapshot.get("auction") or {}
    topic_name = hq.get("topic_name") or (current_topic(snapshot) or {}).get("name", "")
    secret = hq.get("secret") if isinstance(hq.get("secret"), dict) else None
    if secret and secret.get("topic"):             # a cat in the bag: its own topic and the pack's price
        topic_name = theme.text("secret_topic", topic=secret["topic"]) + _pack_price(theme, secret.get("price"))
    if snapshot.get("final"):
        worth = theme.text("super_question" if hq.get("kind") == "super_question" else "final_round")
    else:
        worth = auction.get("stake") if snapshot.get("phase") == Phase.AUCTION_ANSWER else question.get("value", "")
    m = canvas.px("margin")
    title = pygame.Rect(box.left, box.top, box.w, box.h // 9)
    canvas.text(title, f"{topic_name} — {worth}", "body", theme.color("accent"), align="left", tag="host:topic")
    text_box = pygame.Rect(box.left, title.bottom + m, box.w, box.h * 55 // 100)
    # The picture the audience sees (the host's copy also covers an auction's bidding and the final, where the
    # snapshot carries none), on the left of the text.
    shown = well_formed(hq.get("media")) or media_items(snapshot)
    if shown:
        share = 45 if any(item["kind"] == "image" for item in shown) else 25
        media_box = pygame.Rect(text_box.left, text_box.top, text_box.w * share // 100, text_box.h)
        draw_media(canvas, shown, media_box, tag="host:media")
        text_box = pygame.Rect(media_box.right + m, text_box.top, text_box.right - media_box.right - m, text_box.h)
    canvas.fill(theme.color("panel"), text_box, radius=m, tag="host:text:back")
    canvas.text(text_box.inflate(-2 * m, -2 * m), hq.get("text") or "—", "body", theme.color("text"), font="text",
                align="left", tag="host:text")
    answer_box = pygame.Rect(box.left, text_box.bottom + m, box.w, box.bottom - text_box.bottom - m)
    # The answer's own picture (SIGame packs have them), small beside the answer once the question is resolved.
    answer_media = well_formed(hq.get("answer_media"))
    if answer_media and snapshot.get("phase") == Phase.REVEAL:
        side = min(answer_box.w // 3, answer_box.h)
        draw_media(canvas, answer_media, pygame.Rect(answer_box.right - side, answer_box.top, side, side),
                   tag="host:answer_media")
        answer_box.w -= side + m
    accepts = hq.get("accepts") or []
    answer = f"{theme.text('answer')}: {hq.get('answer') or '—'}"
    if accepts:
        answer += " [" + "; ".join(str(a) for a in accepts) + "]"
    wrong = [str(w) for w in hq.get("wrong") or []]
    if wrong:                                      # the pack's wrong answers (SIGame `<wrong>`)
        answer += f"\n{theme.text('wrong_answers')}: " + "; ".join(wrong)
    if hq.get("pack_kind") == "secretNoQuestion":
        answer += f"\n{theme.text('secret_no_question')}"
    comment = hq.get("comment")
    if comment:
        answer += f"\n{comment}"
    canvas.text(answer_box, answer, "body", theme.color("right"), font="text", align="left", valign="top",
                tag="host:answer")


def _clock(canvas: Canvas, snapshot: dict, now: float, box: pygame.Rect) -> None:
    theme = canvas.theme
    q = snapshot.get("question") or {}
    final = snapshot.get("final") or {}
    left = remaining(snapshot, q.get("deadline") if q else final.get("deadline"), now)
    if left is not None:
        canvas.text(box, seconds_text(left), "timer", theme.color("timer"), tag="host:clock")
    elif snapshot.get("phase") in (Phase.ANSWERING, Phase.AUCTION_ANSWER) and q.get("answer_started") is not None:
        canvas.text(box, elapsed_text(clock_now(snapshot, now) - float(q["answer_started"])), "timer",
                    theme.color("muted"), tag="host:elapsed")
    elif snapshot.get("answering"):
        canvas.text(box, name_of(snapshot, snapshot["answering"]), "title", theme.color("text"), tag="host:answering")


def _scores(canvas: Canvas, snapshot: dict, now: float, box: pygame.Rect) -> None:
    theme = canvas.theme
    players = snapshot.get("players") or []
    if not players:
        return
    row_h = min(box.h // len(players), canvas.px("title") * 2)
    for i, p in enumerate(players):
        seat = p.get("seat")
        row = pygame.Rect(box.left, box.top + i * row_h, box.w, row_h - canvas.px("margin") // 2)
        canvas.fill(theme.color("panel"), row, radius=row.h // 6, tag=f"host:row:{seat}")
        canvas.fill(theme.player_color(seat), pygame.Rect(row.left, row.top, row.h // 6, row.h), tag=f"host:stripe:{seat}")
        inner = row.inflate(-row.h // 2, -row.h // 8)
        status, color_key, _ = player_status(snapshot, p, now, theme)
        name = p.get("name") or f"#{seat}"
        canvas.text(pygame.Rect(inner.left, inner.top, inner.w * 65 // 100, inner.h * 3 // 5), name, "name",
                    theme.color("text"), align="left", tag=f"host:name:{seat}")
        canvas.text(pygame.Rect(inner.left, inner.top + inner.h * 3 // 5, inner.w * 65 // 100, inner.h * 2 // 5),
                    status or " ", "small", theme.color(color_key), align="left", tag=f"host:status:{seat}")
        canvas.text(pygame.Rect(inner.left + inner.w * 65 // 100, inner.top, inner.w * 35 // 100, inner.h),
                    score_text(p.get("score", 0)), "score", theme.color("text"), align="right", tag=f"host:score:{seat}")
