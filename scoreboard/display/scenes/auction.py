"""The auction (AU1–AU6): the stake, who leads, whose turn, who passed, ВА-БАНК."""
from __future__ import annotations

import pygame

from scoreboard.display.render.canvas import Canvas
from scoreboard.display.scenes.common import Layout, header, name_of, remaining, score_text, timer
from scoreboard.display.scenes.question import current_topic


def draw_auction(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    theme = canvas.theme
    auction = snapshot.get("auction") or {}
    question = snapshot.get("question") or {}
    topic = current_topic(snapshot) or {}
    nominal = auction.get("nominal", question.get("value"))
    header(canvas, layout.header, theme.text("auction"), topic.get("name", ""), tag="auction:header")
    main = layout.main.inflate(-layout.m * 4, -layout.m)
    left = pygame.Rect(main.left, main.top, main.w * 58 // 100, main.h)
    right = pygame.Rect(left.right + layout.m, main.top, main.right - left.right - layout.m, main.h)

    # The stake, as big as the screen allows; ВА-БАНК replaces the word "stake" when it is an all-in (AU4).
    label = pygame.Rect(left.left, left.top, left.w, left.h // 5)
    if auction.get("allin"):
        canvas.fill(theme.color("accent"), label, radius=label.h // 3, tag="auction:allin:back")
        canvas.text(label.inflate(-label.h // 2, -label.h // 6), theme.text("allin"), "title",
                    theme.color("accent_text"), tag="auction:allin")
    else:
        canvas.text(label, theme.text("stake"), "body", theme.color("muted"), tag="auction:label:stake")
    stake_box = pygame.Rect(left.left, label.bottom, left.w, left.h * 3 // 5)
    canvas.text(stake_box, score_text(auction.get("stake", nominal)), "timer", theme.color("cell_text"),
                tag="auction:stake")
    if nominal is not None:
        canvas.text(pygame.Rect(left.left, stake_box.bottom, left.w, left.bottom - stake_box.bottom),
                    f"{theme.text('nominal')} {nominal}", "small", theme.color("muted"), tag="auction:nominal")

    # Who leads, whose turn, the running 15 s if the regulation times the bidding.
    rows = [(theme.text("holder"), auction.get("holder"), "auction:holder"),
            (theme.text("turn"), auction.get("turn"), "auction:turn")]
    row_h = right.h // 4
    for i, (word, seat, tag) in enumerate(rows):
        box = pygame.Rect(right.left, right.top + i * row_h, right.w, row_h)
        if seat is None:
            continue
        canvas.fill(theme.color("panel"), box.inflate(0, -layout.m), radius=row_h // 6, tag=f"{tag}:back")
        canvas.fill(theme.player_color(seat), pygame.Rect(box.left, box.top + layout.m // 2, row_h // 6,
                                                          box.h - layout.m), tag=f"{tag}:stripe")
        inner = box.inflate(-row_h // 2, -layout.m)   # clear of the stripe; two lines at the legible minimum
        canvas.text(pygame.Rect(inner.left, inner.top, inner.w, inner.h * 2 // 5), word, "small",
                    theme.color("muted"), align="left", tag=f"auction:label:{tag}")
        canvas.text(pygame.Rect(inner.left, inner.top + inner.h * 2 // 5, inner.w, inner.h * 3 // 5),
                    name_of(snapshot, seat), "name", theme.color("text"), align="left", tag=tag)
    # The engine lists a chooser who declined to raise among `passed`, yet they keep the nominal and lead (AU2):
    # the holder is never shown as having passed.
    passed = [seat for seat in auction.get("passed") or [] if seat != auction.get("holder")]
    if passed:
        box = pygame.Rect(right.left, right.top + 2 * row_h, right.w, row_h)
        names = ", ".join(name_of(snapshot, seat) for seat in passed)
        canvas.text(box, f"{theme.text('passed')}: {names}", "small", theme.color("muted"), tag="auction:passed",
                    max_lines=3)
    clock = remaining(snapshot, question.get("deadline"), now)
    if clock is not None:
        timer(canvas, pygame.Rect(right.left, right.top + 3 * row_h, right.w, row_h), clock, None, tag="auction:timer")
