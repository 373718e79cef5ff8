"""The screen facing the players: what they must act on — press now, who answers and their clock, lockouts."""
from __future__ import annotations

import pygame

from scoreboard.display.render.canvas import Canvas
from scoreboard.display.scenes import question as question_scenes
from scoreboard.display.scenes.common import Layout, clock_now, name_of, remaining, score_bar, seconds_text, timer
from scoreboard.engine.phases import Phase


def draw(canvas: Canvas, snapshot: dict, now: float) -> None:
    theme = canvas.theme
    layout = Layout(canvas)
    phase = snapshot.get("phase", Phase.SETUP)
    q = snapshot.get("question") or {}
    final = snapshot.get("final") or {}
    main = layout.main.inflate(0, layout.header.h)  # no header here: the action gets the room
    main.top = layout.header.top
    top = pygame.Rect(main.left, main.top, main.w, main.h * 45 // 100)
    bottom = pygame.Rect(main.left, top.bottom, main.w, main.bottom - top.bottom)
    if phase in (Phase.ANSWERING, Phase.AUCTION_ANSWER):
        seat = snapshot.get("answering")
        canvas.fill(theme.player_color(seat or 1), top.inflate(-layout.m * 2, -layout.m), radius=top.h // 8,
                    width=max(4, top.h // 16), tag=f"players:answering:{seat}")
        canvas.text(top.inflate(-layout.m * 6, -layout.m * 3), name_of(snapshot, seat), "timer", theme.color("text"),
                    tag="players:answering", max_lines=2)
        left = remaining(snapshot, q.get("deadline"), now)
        started = q.get("answer_started")
        elapsed = clock_now(snapshot, now) - float(started) if left is None and started is not None else None
        timer(canvas, bottom.inflate(-layout.m * 4, -layout.m), left, question_scenes.clock_total(snapshot), elapsed,
              tag="players:timer")
    elif phase == Phase.BUZZ_WINDOW:
        canvas.text(top, question_scenes.press_word(snapshot, theme).upper(), "timer", theme.color("accent"),
                    tag="players:press")
        timer(canvas, bottom.inflate(-layout.m * 4, -layout.m), remaining(snapshot, q.get("deadline"), now),
              question_scenes.clock_total(snapshot), tag="players:timer")
    elif phase == Phase.FINAL_ANSWER:
        canvas.text(top, theme.text("write_answer"), "title", theme.color("accent"), tag="players:write")
        timer(canvas, bottom.inflate(-layout.m * 4, -layout.m), remaining(snapshot, final.get("deadline",
              q.get("deadline")), now), question_scenes.clock_total(snapshot), tag="players:timer")
    else:
        words = {Phase.READING: theme.text("reading"), Phase.AFTER_WRONG: theme.text("wait_host"),
                 Phase.AUCTION: theme.text("auction"), Phase.GAME_OVER: theme.text("game_over")}
        canvas.text(top, words.get(phase, ""), "title", theme.color("muted"), tag="players:phase")
    # Lockouts in big type: a false starter must see at once why their button does nothing (BZ7).
    at = clock_now(snapshot, now)
    locked = [p for p in snapshot.get("players") or [] if p.get("locked_until") is not None and float(p["locked_until"]) > at]
    if locked and phase not in (Phase.ANSWERING, Phase.AUCTION_ANSWER):
        text = "  ".join(f"{p.get('name')}: {theme.text('locked')} {seconds_text(float(p['locked_until']) - at)}"
                         for p in locked)
        canvas.text(bottom.inflate(-layout.m * 4, -layout.m), text, "title", theme.color("locked"),
                    tag="players:locked", max_lines=2)
    score_bar(canvas, snapshot, now, layout.bar)
