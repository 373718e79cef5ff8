"""One frame of a role's screen: `draw(surface, snapshot, theme, now, role=…)` picks the scene for the phase and the
role and draws it.

A scene reads only the snapshot (plus, for the host, the open question's text; for the badges, the links' status) and
changes nothing. `frame_key` says what a frame shows that changes with time alone, so the loop redraws only when the
snapshot or that key changes.
"""
from __future__ import annotations

import math

import pygame

from scoreboard.display.media.video import PLAYER
from scoreboard.display.render.canvas import Canvas
from scoreboard.display.roles import host, players
from scoreboard.display.scenes import auction, between, board, final, photo_finish, question, watch_qr
from scoreboard.display.scenes.common import (
    BETWEEN_PLAYS,
    Layout,
    background,
    clock_now,
    elapsed_text,
    overlays,
    score_bar,
    seconds_text,
)
from scoreboard.engine.phases import Phase

ROLES = ("audience", "host", "players")

PHASE_SCENES = {
    Phase.SETUP: between.draw_setup,
    Phase.ROUND_INTRO: board.draw_topic_list,
    Phase.CHOOSING: board.draw_grid,
    Phase.TOPIC_INTRO: board.draw_topic_intro,
    Phase.READING: question.draw_reading,
    Phase.BUZZ_WINDOW: question.draw_window,
    Phase.ANSWERING: question.draw_answering,
    Phase.AFTER_WRONG: question.draw_after_wrong,
    Phase.REVEAL: question.draw_reveal,
    Phase.AUCTION: auction.draw_auction,
    Phase.AUCTION_ANSWER: question.draw_answering,
    Phase.FINAL_STAKES: final.draw_final_stakes,
    Phase.FINAL_ANSWER: final.draw_final_answer,
    Phase.FINAL_REVEAL: final.draw_final_reveal,
    Phase.GAME_OVER: between.draw_winner,
}

SCREEN_SCENES = {
    "scores": between.draw_scores,
    "logo": between.draw_logo,
    "winner": between.draw_winner,
    "chart": between.draw_chart,
}


def scene_name(snapshot: dict, role: str = "audience") -> str:
    """Which scene the audience sees: a between-plays screen when one is chosen and no question is open."""
    phase = snapshot.get("phase", Phase.SETUP)
    screen = snapshot.get("screen") or "board"
    if role == "audience" and photo_finish.shown(snapshot) is not None:
        return "photo"          # the host sent the photo finish to the hall (BZ11): it stays until taken away
    if role == "audience" and screen != "board" and phase in BETWEEN_PLAYS:
        return f"screen:{screen}"
    return phase


def draw(surface: pygame.Surface, snapshot: dict, theme, now: float, role: str = "audience", *,
         status: dict | None = None, host_question: dict | None = None, tournament=None,
         animate: bool = True, record: bool = False, fade_cache=None, probe: list | None = None,
         tiles=None, changed_only: bool = False) -> Canvas:
    """Draw one frame for `role`. Returns the canvas (its `.log` lists what was drawn when `record`). While the
    reveal fades, `fade_cache` (fade.FadeCache) keeps the main area as drawn before its veil, for the next ticks.
    `probe`, a list, receives what each text was drawn on — the legibility check's view, see Canvas.probe.
    `tiles` (tiles.TileCache, the screen's own; never the host's) draws what did not change from kept tiles;
    `changed_only` (a clock tick on a surface that shows the last frame): only the tiles that differ from it."""
    if role == "host":
        canvas = Canvas(surface, theme, record=record, min_fraction=0.022)
        canvas.probe = probe
        host.draw(canvas, snapshot, now, host_question, status)
        overlays(canvas, snapshot, status)
        return canvas
    canvas = Canvas(surface, theme, record=record, tiles=tiles if probe is None else None, changed_only=changed_only)
    canvas.probe = probe
    background(canvas)
    if role == "players":
        players.draw(canvas, snapshot, now)
        overlays(canvas, snapshot, status)
        canvas.finish()
        return canvas
    name = scene_name(snapshot, role)
    full_screen = name in ("screen:logo", "screen:bracket", "screen:standings", Phase.SETUP)
    layout = Layout(canvas, score_bar=not full_screen)
    if name in ("screen:bracket", "screen:standings"):
        kind = name.split(":")[1]
        view = tournament(kind) if callable(tournament) else None
        between.draw_tournament(canvas, snapshot, now, layout, kind, view)
    else:
        scene = SCREEN_SCENES.get(name.removeprefix("screen:")) if name.startswith("screen:") else (
            photo_finish.draw if name == "photo" else PHASE_SCENES.get(name))
        (scene or between.draw_logo)(canvas, snapshot, now, layout)
    if not full_screen:
        score_bar(canvas, snapshot, now, layout.bar)
    if animate:
        _reveal_fade(canvas, snapshot, now, layout, fade_cache)
    watch_qr.draw(canvas, snapshot, status)     # the hall's phones' link, between games only (issue 27)
    overlays(canvas, snapshot, status)
    canvas.finish()
    return canvas


def fade_tick(surface: pygame.Surface, snapshot: dict, theme, now: float, status: dict | None, fade_cache) -> Canvas:
    """A tick of a running fade: the kept picture under this step's veil, then the overlays again (the badges are
    opaque, so drawing them twice changes nothing; a paused game has no ticks)."""
    fade_cache.show(surface, fade_alpha(snapshot, now, theme), theme.color("background"))
    canvas = Canvas(surface, theme, record=True)
    overlays(canvas, snapshot, status)
    return canvas


FADE_STEPS = 20   # steps of the reveal fade a frame key tells apart (the loop draws at most one a step)


def fade_alpha(snapshot: dict, now: float, theme) -> int:
    """The veil's alpha at `now`: opaque for the first step (the frame that starts the fade is then a plain fill, not
    a blend: a 4K frame that also keeps its picture stays within a frame's budget), then falling with the share."""
    share = _fade_share(snapshot, now, theme)
    return 255 if math.ceil(share * FADE_STEPS) == FADE_STEPS else int(255 * share)


def _fade_share(snapshot: dict, now: float, theme) -> float:
    """1.0 just after a result (reveal, final reveal, game over) arrives, falling to 0 over the reveal animation."""
    if snapshot.get("phase") not in (Phase.REVEAL, Phase.FINAL_REVEAL, Phase.GAME_OVER) or snapshot.get("time") is None:
        return 0.0
    duration = theme.seconds("reveal")
    if duration <= 0:
        return 0.0
    age = clock_now(snapshot, now) - float(snapshot["time"])
    return max(0.0, min(1.0, 1.0 - age / duration))


def _reveal_fade(canvas: Canvas, snapshot: dict, now: float, layout: Layout, fade_cache=None) -> None:
    share = _fade_share(snapshot, now, canvas.theme)
    if share > 0:
        alpha = fade_alpha(snapshot, now, canvas.theme)
        if fade_cache is not None:
            # Under an opaque veil the main area is drawn straight into the kept picture (tiles.py), not shown.
            target = canvas.target
            if alpha < 255 or target.get_clip() != canvas.rect or \
                    not canvas.finish(into=(layout.main, fade_cache.prepare(target, layout.main))):
                fade_cache.keep(canvas.surface, layout.main)
        canvas.veil(layout.main, canvas.theme.color("background"), alpha)


def frame_key(snapshot: dict, now: float, theme, role: str = "audience") -> tuple:
    """What the picture shows that moves with time alone: clock digits, lockouts, a fade step."""
    at = clock_now(snapshot, now)
    parts: list = []
    for deadline in ((snapshot.get("question") or {}).get("deadline"), (snapshot.get("final") or {}).get("deadline")):
        if deadline is not None:
            parts.append(seconds_text(max(0.0, float(deadline) - at)))
    q = snapshot.get("question") or {}
    if snapshot.get("phase") in (Phase.ANSWERING, Phase.AUCTION_ANSWER) and q.get("deadline") is None and q.get("answer_started") is not None:
        parts.append(elapsed_text(at - float(q["answer_started"])))
    for p in snapshot.get("players") or []:
        locked = p.get("locked_until")
        if locked is not None and float(locked) > at:
            parts.append((p.get("seat"), seconds_text(float(locked) - at)))
        elif locked is not None:
            parts.append((p.get("seat"), "free"))
    if role == "audience" and q.get("media"):      # a playing video: its next frame's time has come
        parts.append(("video", PLAYER.frame_time(snapshot, now)))
    share = _fade_share(snapshot, now, theme)
    parts.append(math.ceil(share * FADE_STEPS))
    return tuple(parts)
