"""An open question: reading, the 5 s window, who is answering, after a wrong answer, and the reveal."""
from __future__ import annotations

import copy

import pygame

from scoreboard.display.media.files import media_items, well_formed
from scoreboard.display.media.pack import draw_media
from scoreboard.display.render.canvas import Canvas
from scoreboard.display.scenes.common import (
    Layout,
    clock_now,
    current_topic,
    header,
    name_of,
    remaining,
    seconds_text,
    signed,
    timer,
)
from scoreboard.engine.phases import Phase


def clock_total(snapshot: dict) -> float | None:
    """The full length of the running clock, for the draining bar: the snapshot's `question.duration` (window,
    answer limit with any extension, auction answer) or `final.duration` — no regulation file is read, so a
    follower without the preset draws the same bar."""
    source = snapshot.get("final") if snapshot.get("phase") == Phase.FINAL_ANSWER else snapshot.get("question")
    duration = (source or {}).get("duration")
    if isinstance(duration, (int, float)) and not isinstance(duration, bool) and duration > 0:
        return float(duration)
    return None


def question_header(canvas: Canvas, snapshot: dict, layout: Layout) -> None:
    question = snapshot.get("question") or {}
    topic = current_topic(snapshot) or {}
    value = question.get("value")
    if snapshot.get("phase") == Phase.AUCTION_ANSWER and snapshot.get("auction"):
        value = snapshot["auction"].get("stake", value)
    # a cat in the bag is played under its own topic, which the hall sees once the question is open (issue 10)
    secret = question.get("secret") if isinstance(question.get("secret"), dict) else None
    name = canvas.theme.text("secret_topic", topic=secret["topic"]) if secret and secret.get("topic") else \
        topic.get("name", "")
    header(canvas, layout.header, name, str(value) if value is not None else "", tag="qheader")


def with_media(canvas: Canvas, snapshot: dict, layout: Layout, now: float = 0.0) -> Layout:
    """An open question with a picture (or sound, or video) shows it on the left of the main area; the scene then
    draws in what is left. Without media the layout is unchanged. The engine sends media only once the question
    is open, and never during the auction's bidding."""
    items = media_items(snapshot)
    if not items:
        return layout
    main = layout.main
    share = 70 if any(m["kind"] == "video" for m in items) else 62 if any(m["kind"] == "image" for m in items) else 40
    media_box = pygame.Rect(main.left + layout.m * 2, main.top, main.w * share // 100 - layout.m * 2, main.h)
    draw_media(canvas, items, media_box, snapshot=snapshot, now=now)
    rest = copy.copy(layout)
    rest.main = pygame.Rect(media_box.right, main.top, main.right - media_box.right, main.h)
    return rest


def _split(main: pygame.Rect, top_share: int) -> tuple[pygame.Rect, pygame.Rect]:
    top = pygame.Rect(main.left, main.top, main.w, main.h * top_share // 100)
    return top, pygame.Rect(main.left, top.bottom, main.w, main.bottom - top.bottom)


def draw_reading(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    theme = canvas.theme
    question_header(canvas, snapshot, layout)
    layout = with_media(canvas, snapshot, layout, now)
    question = snapshot.get("question") or {}
    top, bottom = _split(layout.main, 60)
    canvas.text(top.inflate(-layout.m * 4, -layout.m), str(question.get("value", "")), "timer",
                theme.color("cell_text"), tag="question:value")
    canvas.text(bottom.inflate(-layout.m * 4, -layout.m), theme.text("reading"), "body", theme.color("muted"),
                tag="question:reading")


def press_word(snapshot: dict, theme) -> str:
    """«Жмите!» only while the buttons are live; in manual mode the host names who answers (BZ9)."""
    if snapshot.get("buttons_live", True):
        return theme.text("press")
    return theme.text("manual") if snapshot.get("buttons_manual") else theme.text("wait_host")


def draw_window(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    """buzz_window: the 5 s to press (BZ2), counting down."""
    theme = canvas.theme
    question_header(canvas, snapshot, layout)
    layout = with_media(canvas, snapshot, layout, now)
    question = snapshot.get("question") or {}
    top, bottom = _split(layout.main, 72)
    timer(canvas, top.inflate(-layout.m * 4, -layout.m), remaining(snapshot, question.get("deadline"), now),
          clock_total(snapshot))
    canvas.text(bottom.inflate(-layout.m * 4, -layout.m), press_word(snapshot, theme), "body", theme.color("accent"),
                tag="question:press")


def draw_answering(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    """Who is answering, in their colour, with the answer clock (america) or the elapsed time (no limit, BZ5)."""
    theme = canvas.theme
    question_header(canvas, snapshot, layout)
    layout = with_media(canvas, snapshot, layout, now)
    question = snapshot.get("question") or {}
    seat = snapshot.get("answering")
    top, bottom = _split(layout.main, 50)
    band = top.inflate(-layout.m * 4, -layout.m)
    color = theme.player_color(seat or 1)
    canvas.fill(theme.color("panel"), band, radius=band.h // 6, tag=f"answering:{seat}")
    canvas.fill(color, band, radius=band.h // 6, width=max(4, band.h // 20), tag=f"answering:frame:{seat}")
    canvas.fill(color, pygame.Rect(band.left, band.top, band.h // 5, band.h), radius=band.h // 6,
                tag=f"answering:stripe:{seat}")
    inner = pygame.Rect(band.left + band.h // 4, band.top, band.w - band.h // 2, band.h).inflate(0, -band.h // 8)
    auction = snapshot.get("auction") or {}
    label, label_color = theme.text("answering"), "muted"
    if snapshot.get("phase") == Phase.AUCTION_ANSWER:
        # The hall sees it was an auction and for what stake, even one nobody could outbid (AU6: no bidding shown)
        label, label_color = f"{theme.text('auction')} · {theme.text('stake')} {auction.get('stake', '')}", "accent"
    canvas.text(pygame.Rect(inner.left, inner.top, inner.w, inner.h // 3), label, "body",
                theme.color(label_color), tag="answering:label")
    canvas.text(pygame.Rect(inner.left, inner.top + inner.h // 3, inner.w, inner.h * 2 // 3), name_of(snapshot, seat),
                int(canvas.h * 0.11), theme.color("text"), tag="answering:name", max_lines=2)
    left = remaining(snapshot, question.get("deadline"), now)
    started = question.get("answer_started")
    elapsed = (clock_now(snapshot, now) - float(started)) if (left is None and started is not None) else None
    timer(canvas, bottom.inflate(-layout.m * 4, -layout.m), left, clock_total(snapshot), elapsed)
    if snapshot.get("phase") == Phase.AUCTION_ANSWER and auction.get("allin"):
        badge = pygame.Rect(bottom.left + layout.m * 2, bottom.top + layout.m, bottom.w // 4, canvas.px("title") * 3 // 2)
        canvas.fill(theme.color("accent"), badge, radius=badge.h // 3, tag="auction:allin:back")
        canvas.text(badge.inflate(-badge.h // 3, -badge.h // 6), theme.text("allin"), "title",
                    theme.color("accent_text"), tag="auction:allin")
    extended = float(question.get("extended") or 0)
    if extended and left is not None:
        canvas.text(pygame.Rect(bottom.right - bottom.w // 4, bottom.top, bottom.w // 4, canvas.px("small") * 2),
                    f"+{seconds_text(extended)}", "small", theme.color("accent"), tag="answering:extended")


def draw_after_wrong(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    """Who answered wrong, who is locked out for a false start (BZ7) and for how long; waiting for the host."""
    theme = canvas.theme
    question_header(canvas, snapshot, layout)
    layout = with_media(canvas, snapshot, layout, now)
    question = snapshot.get("question") or {}
    lines: list[tuple[str, str, str]] = []
    value = question.get("value") or 0
    for answer in question.get("answered") or []:
        verdict = answer.get("verdict")
        delta = value if verdict == "right" else -value
        lines.append((f"{name_of(snapshot, answer.get('seat'))} — {theme.text(verdict or 'wrong').lower()} "
                      f"{signed(delta)}", verdict or "wrong", f"answered:{answer.get('seat')}"))
    at = clock_now(snapshot, now)
    for p in snapshot.get("players") or []:
        locked = p.get("locked_until")
        if locked is not None and float(locked) > at:
            lines.append((f"{p.get('name')} — {theme.text('locked')} {seconds_text(float(locked) - at)}", "locked",
                          f"lockout:{p.get('seat')}"))
    lines.append((theme.text("wait_host"), "muted", "after_wrong:wait"))
    _lines(canvas, layout, lines)


def _lines(canvas: Canvas, layout: Layout, lines: list[tuple[str, str, str]]) -> None:
    main = layout.main.inflate(-layout.m * 4, -layout.m)
    row_h = min(main.h // max(1, len(lines)), canvas.px("title") * 2)
    top = main.top + (main.h - row_h * len(lines)) // 2
    for i, (text, color_key, tag) in enumerate(lines):
        canvas.text(pygame.Rect(main.left, top + i * row_h, main.w, row_h), text, "title",
                    canvas.theme.color(color_key), tag=tag, max_lines=2)


def draw_reveal(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    """The resolved question: every answer with its verdict and points, or nobody."""
    theme = canvas.theme
    last = snapshot.get("last") or {}
    rnd = snapshot.get("round") or {}
    topics = rnd.get("topics") or []
    topic_index = last.get("topic")
    topic = topics[topic_index - 1] if isinstance(topic_index, int) and 1 <= topic_index <= len(topics) else {}
    header(canvas, layout.header, topic.get("name", ""), str(last.get("value", "")), tag="qheader")
    lines = []
    for answer in last.get("answers") or []:
        verdict = answer.get("verdict") if answer.get("verdict") in ("right", "wrong") else "wrong"   # a stray value
        lines.append((f"{name_of(snapshot, answer.get('seat'))} — {theme.text(verdict).lower()} "
                      f"{signed(int(answer.get('delta', 0)))}", verdict, f"result:{answer.get('seat')}"))
    if not lines:
        lines.append((theme.text("nobody"), "muted", "result:nobody"))
    # the answer's own picture (SIGame packs have them): the engine sends it only at the reveal
    pictures = [m for m in well_formed(last.get("answer_media")) if m["kind"] == "image"]
    if pictures:
        main = layout.main
        box = pygame.Rect(main.left + layout.m * 2, main.top, main.w * 55 // 100 - layout.m * 2, main.h)
        draw_media(canvas, pictures, box, tag="answer_media")
        layout = copy.copy(layout)
        layout.main = pygame.Rect(box.right, main.top, main.right - box.right, main.h)
    _lines(canvas, layout, lines)
