"""Pieces every scene shares: the layout, the header, the always-visible score bar, clocks and overlays.

Everything is computed from the snapshot and `now` (engine seconds), so a window opened mid-game draws the same picture
as one that has been open all along.
"""
from __future__ import annotations

import math

import pygame

from scoreboard.display.render.canvas import Canvas
from scoreboard.display.theme.builtin import BUILTIN_STRINGS
from scoreboard.engine.phases import Phase

# Phases in which the audience screen may show a between-plays screen (scores, logo, chart…) instead of the game.
BETWEEN_PLAYS = frozenset({Phase.SETUP, Phase.ROUND_INTRO, Phase.CHOOSING, Phase.TOPIC_INTRO, Phase.REVEAL,
                           Phase.GAME_OVER})


def clock_now(snapshot: dict, now: float) -> float:
    """The engine time the clocks show: frozen at `paused_at` while paused."""
    if snapshot.get("paused") and snapshot.get("paused_at") is not None:
        return float(snapshot["paused_at"])
    return now


def remaining(snapshot: dict, deadline, now: float) -> float | None:
    if deadline is None:
        return None
    return max(0.0, float(deadline) - clock_now(snapshot, now))


def player(snapshot: dict, seat) -> dict | None:
    for p in snapshot.get("players", []):
        if p.get("seat") == seat:
            return p
    return None


def name_of(snapshot: dict, seat) -> str:
    p = player(snapshot, seat)
    return (p.get("name") or f"#{seat}") if p else f"#{seat}"


def round_title(snapshot: dict, theme) -> str:
    rnd = snapshot.get("round") or {}
    if rnd.get("tiebreak"):
        return theme.text("round_tiebreak")
    kind = rnd.get("kind")
    if kind in ("blue", "red"):
        return theme.text(f"round_{kind}")
    return theme.text("round_n", n=int(rnd.get("index", 0)) + 1)


def stage_title(snapshot: dict, theme) -> str:
    """The stage in the audience's words ("1/9" -> "1/9 финала", "cup" -> "Кубок"); a club preset's own stage
    without a theme string is shown as it is."""
    code = snapshot.get("stage")
    if not code:
        return ""
    key = "stage_" + str(code).replace("/", "_")
    return theme.text(key) if key in BUILTIN_STRINGS else str(code)


def no_winner_text(snapshot: dict, theme) -> str:
    """Why a finished game has no winner, from the snapshot's code (never the protocol's English sentence)."""
    code = snapshot.get("no_winner")
    if code == "shared_first":
        # A follower's snapshot checker passes fields it does not know unchecked: take only a short list of seats.
        seats = snapshot.get("shared_first")
        seats = [s for s in seats[:12] if isinstance(s, int)] if isinstance(seats, list) else []
        names = ", ".join(name_of(snapshot, seat) for seat in seats)
        return theme.text("no_winner_shared_first", names=names)
    if code in ("no_positive", "still_tied"):
        return theme.text(f"no_winner_{code}")
    return ""


def tiebreak_decision(snapshot: dict, theme) -> tuple[str, str] | None:
    """After a tie-break (TB1–TB4): the winner's tie-break points and what decided it — the tie-break itself, or
    the lot drawn when the tie-break left a tie (`lots`, last entry). None when the main game decided."""
    seat = snapshot.get("winner")
    if seat is None or not (snapshot.get("round") or {}).get("tiebreak"):
        return None
    p = player(snapshot, seat) or {}
    points = theme.text("tiebreak_points", points=score_text(p.get("tiebreak_score", 0)))
    lots = snapshot.get("lots")
    last = lots[-1] if isinstance(lots, list) and lots and isinstance(lots[-1], dict) else {}
    by_lot = str(last.get("what", "")).startswith("winner") and last.get("result") == seat
    return points, theme.text("won_by_lot" if by_lot else "won_by_tiebreak")


def current_topic(snapshot: dict) -> dict | None:
    """The topic of the open question (1-based `question.topic`), or of sequential play's `round.topic`."""
    rnd = snapshot.get("round") or {}
    topics = rnd.get("topics") or []
    index = (snapshot.get("question") or {}).get("topic") or rnd.get("topic")
    if isinstance(index, int) and 1 <= index <= len(topics):
        return topics[index - 1]
    return None


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("−" + str(-value) if value < 0 else "0")


def score_text(value) -> str:
    return ("−" + str(-value)) if isinstance(value, int) and value < 0 else str(value)


def seconds_text(value: float) -> str:
    # Tenths under 10 s (the last seconds matter), whole seconds above; ceil so "0.0" means really over.
    if value < 10:
        return f"{math.ceil(value * 10) / 10:.1f}"
    return str(math.ceil(value))


def elapsed_text(value: float) -> str:
    value = int(max(0.0, value))
    return f"{value // 60}:{value % 60:02d}"


class Layout:
    """Header on top, score bar at the bottom, the scene's main area between them."""

    def __init__(self, canvas: Canvas, score_bar: bool = True):
        self.m = canvas.px("margin")
        h, w = canvas.h, canvas.w
        header_h = canvas.px("header")
        bar_h = canvas.px("score_bar") if score_bar else 0
        self.header = pygame.Rect(self.m, self.m, w - 2 * self.m, header_h)
        self.bar = pygame.Rect(self.m, h - self.m - bar_h, w - 2 * self.m, bar_h)
        top = self.header.bottom + self.m
        bottom = (self.bar.top - self.m) if score_bar else h - self.m
        self.main = pygame.Rect(self.m, top, w - 2 * self.m, bottom - top)


def background(canvas: Canvas) -> None:
    path = canvas.theme.values["images"].get("background")
    # A background picture covers the whole screen: no need to fill under it first.
    if not path or canvas.image(path, canvas.rect, tag="background", keep_aspect=False) is None:
        canvas.fill(canvas.theme.color("background"))


def header(canvas: Canvas, box: pygame.Rect, title: str, right: str = "", tag: str = "header") -> None:
    theme = canvas.theme
    if right:
        right_w = box.w // 4
        canvas.text(pygame.Rect(box.right - right_w, box.top, right_w, box.h), right, "title",
                    theme.color("accent"), align="right", tag=f"{tag}:right")
        box = pygame.Rect(box.left, box.top, box.w - right_w - canvas.px("margin"), box.h)
    canvas.text(box, title, "title", theme.color("text"), align="left", tag=f"{tag}:title")


def player_status(snapshot: dict, p: dict, now: float, theme) -> tuple[str, str, str]:
    """(status text, colour key, mark tag) under a player's score, in order of what matters most now."""
    seat = p.get("seat")
    phase = snapshot.get("phase")
    locked = p.get("locked_until")
    if locked is not None and float(locked) > clock_now(snapshot, now):
        left = float(locked) - clock_now(snapshot, now)
        return f"{theme.text('locked')} {seconds_text(left)}", "locked", f"mark:locked:{seat}"
    if snapshot.get("answering") == seat and phase in (Phase.ANSWERING, Phase.AUCTION_ANSWER):
        return theme.text("answering").lower(), "accent", f"mark:answering:{seat}"
    auction = snapshot.get("auction")
    if phase == Phase.AUCTION and auction:
        if seat in (auction.get("passed") or []) and seat != auction.get("holder"):   # the holder leads (AU2)
            return theme.text("passed"), "muted", f"mark:passed:{seat}"
        if auction.get("turn") == seat:
            return theme.text("turn").lower(), "accent", f"mark:turn:{seat}"
        if auction.get("holder") == seat:
            return theme.text("holder"), "text", f"mark:holder:{seat}"
    final = snapshot.get("final")
    if final and phase in (Phase.FINAL_STAKES, Phase.FINAL_ANSWER, Phase.FINAL_REVEAL):
        if seat not in (final.get("eligible") or []):
            return theme.text("not_in_final"), "muted", f"mark:out:{seat}"
        if phase == Phase.FINAL_STAKES:
            if seat in (final.get("stakes_in") or []):
                return theme.text("stake_in"), "right", f"mark:stake_in:{seat}"
            return theme.text("stake_waiting"), "muted", f"mark:stake_waiting:{seat}"
        if phase == Phase.FINAL_REVEAL:
            if seat in [r.get("seat") for r in final.get("revealed") or []]:
                return theme.text("revealed"), "muted", f"mark:revealed:{seat}"
            if seat in (final.get("judged") or []):
                return theme.text("judged"), "accent", f"mark:judged:{seat}"
            return theme.text("to_judge"), "muted", f"mark:to_judge:{seat}"
    rnd = snapshot.get("round") or {}
    if snapshot.get("chooser") == seat and phase in (Phase.ROUND_INTRO, Phase.CHOOSING):
        return theme.text("chooser"), "accent", f"mark:chooser:{seat}"
    if rnd.get("tiebreak") and p.get("in_play", True) and phase not in (Phase.GAME_OVER,):
        # The tie-break's own points decide (TB1–TB3): shown under the main score, which they never change.
        return f"{theme.text('tiebreak')}: {score_text(p.get('tiebreak_score', 0))}", "accent", f"mark:tiebreak:{seat}"
    if snapshot.get("chooser") == seat and phase == Phase.REVEAL:
        return theme.text("chooser"), "accent", f"mark:chooser:{seat}"
    return "", "muted", ""


def score_bar(canvas: Canvas, snapshot: dict, now: float, box: pygame.Rect) -> None:
    """Every player's name and score, with the one status that matters (chooser, answering, lockout, pass…)."""
    players = snapshot.get("players") or []
    if not players or box.h <= 0:
        return
    theme = canvas.theme
    gap = canvas.px("margin")
    width = (box.w - gap * (len(players) - 1)) // len(players)
    stripe = max(4, box.h // 14)
    path = theme.font("main")
    min_line = canvas.cache.line_height(path, canvas.min_px)
    status_line = canvas.cache.line_height(path, max(canvas.min_px, canvas.px("small")))
    for i, p in enumerate(players):
        seat = p.get("seat", i + 1)
        panel = pygame.Rect(box.left + i * (width + gap), box.top, width, box.h)
        radius = max(4, box.h // 12)
        canvas.fill(theme.color("panel"), panel, radius=radius, tag=f"panel:{seat}")
        canvas.fill(theme.player_color(seat), pygame.Rect(panel.left, panel.top, panel.w, stripe),
                    tag=f"stripe:{seat}")
        status, color_key, mark = player_status(snapshot, p, now, theme)
        out = p.get("in_play") is False
        if mark.startswith(("mark:answering", "mark:turn")):
            canvas.fill(theme.color("accent"), panel, radius=radius, width=max(3, box.h // 25), tag=mark)
        inner = panel.inflate(-2 * gap, 0)
        # The name box holds two lines at the minimum size, so a long double-barrelled name wraps instead of "…";
        # a name that needs a third line (three long words on a narrow panel) gets it from the score, which keeps
        # at least one line. The status line holds one line of small text; the score takes the rest.
        name = p.get("name") or f"#{seat}"
        top = panel.top + stripe + gap // 2
        status_box = pygame.Rect(inner.left, panel.bottom - gap // 2 - status_line, inner.w, status_line)
        name_lines, shared = 2, False
        if not canvas.fits_whole((0, 0, inner.w, 2 * min_line), name, "name", max_lines=2):
            if status_box.top - top - 3 * min_line >= min_line:
                name_lines = 3
            elif status_box.bottom - top - 3 * min_line >= status_line:
                name_lines, shared = 3, True   # the score and the status then share the last line
        name_box = pygame.Rect(inner.left, top, inner.w, name_lines * min_line)
        score_box = pygame.Rect(inner.left, name_box.bottom, inner.w, status_box.top - name_box.bottom)
        if shared:
            row = pygame.Rect(inner.left, name_box.bottom, inner.w, status_box.bottom - name_box.bottom)
            score_box = pygame.Rect(row.left, row.top, row.w * 2 // 5, row.h)
            status_box = pygame.Rect(score_box.right, row.bottom - status_line, row.right - score_box.right,
                                     status_line)
        text_color = theme.color("muted") if out else theme.color("text")
        canvas.text(name_box, name, "name", text_color, tag=f"name:{seat}", max_lines=name_lines)
        score = p.get("score", 0)
        canvas.text(score_box, score_text(score), "score", theme.color("wrong") if score < 0 and not out else
                    text_color, tag=f"score:{seat}")
        if status:
            if mark.startswith("mark:chooser"):
                badge = status_box.inflate(-inner.w // 4, 0)
                canvas.fill(theme.color("accent"), badge, radius=badge.h // 2, tag=mark)
                canvas.text(badge.inflate(-badge.h // 2, 0), status, "small", theme.color("accent_text"),
                            tag=f"status:{seat}")
            else:
                if mark and not mark.startswith(("mark:answering", "mark:turn")):
                    canvas.note("mark", mark, status_box, panel)
                canvas.text(status_box, status, "small", theme.color(color_key), tag=f"status:{seat}")


def timer(canvas: Canvas, box: pygame.Rect, left: float | None, total: float | None, elapsed: float | None = None,
          tag: str = "timer") -> None:
    """A big countdown with a draining bar, or (no limit) the elapsed time in a quieter colour."""
    theme = canvas.theme
    if left is None:
        if elapsed is not None:
            canvas.text(box, elapsed_text(elapsed), "timer", theme.color("muted"), tag=f"{tag}:elapsed")
        return
    low = left <= theme.seconds("timer_low")
    color = theme.color("timer_low") if low else theme.color("timer")
    bar_h = max(6, box.h // 10)
    number_box = pygame.Rect(box.left, box.top, box.w, box.h - bar_h * 2)
    canvas.text(number_box, seconds_text(left), "timer", color, tag=f"{tag}:left")
    if total and total > 0:
        track = pygame.Rect(box.left + box.w // 8, box.bottom - bar_h, box.w * 3 // 4, bar_h)
        canvas.fill(theme.color("panel"), track, radius=bar_h // 2, tag=f"{tag}:track")
        share = max(0.0, min(1.0, left / total))
        if share > 0:
            canvas.fill(color, pygame.Rect(track.left, track.top, max(bar_h, int(track.w * share)), bar_h),
                        radius=bar_h // 2, tag=f"{tag}:bar")


def overlays(canvas: Canvas, snapshot: dict, status: dict | None) -> None:
    """Pause veil, and badges for buttons offline / manual mode: drawn last, on top of any scene."""
    theme = canvas.theme
    badges = []
    # Only a configured box can be offline; a board run with OSC or keyboard buttons alone shows no badge.
    if status is not None and status.get("buttons_online") is False and status.get("buttons_configured", True) \
            and not snapshot.get("game_over"):
        badges.append((theme.text("buttons_offline"), "wrong", "badge:buttons_offline"))
    if snapshot.get("buttons_manual"):
        badges.append((theme.text("manual"), "accent", "badge:manual"))
    m = canvas.px("margin")
    y = m + canvas.px("header") + m // 2   # under the header: the question's value there stays visible
    for text, color_key, tag in badges:
        box = pygame.Rect(canvas.w * 5 // 8, y, canvas.w * 3 // 8 - m, canvas.px("small") * 2)
        canvas.fill(theme.color("overlay"), box, radius=box.h // 3, tag=tag + ":back")
        canvas.fill(theme.color(color_key), box, radius=box.h // 3, width=max(2, box.h // 12), tag=tag + ":frame")
        canvas.text(box.inflate(-box.h // 2, -box.h // 4), text, "small", theme.color(color_key), tag=tag)
        y = box.bottom + m // 2
    if snapshot.get("paused"):
        canvas.dim()
        box = pygame.Rect(0, canvas.h // 3, canvas.w, canvas.h // 3)
        canvas.text(box, theme.text("paused").upper(), "timer", theme.color("text"), tag="paused")
