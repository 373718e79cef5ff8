"""The open question's video or sound as the hall sees it: one media clock in the state, so every screen and a
follower computes the same position (docs/ENGINE_API.md `question.media_state`).

The clock starts when the question's media first becomes visible (the question opens; after an auction's bidding,
when its answer opens). The host pauses, plays on and replays it; a game pause freezes it with every other clock.
"""
from __future__ import annotations

from .commands import Refused
from .phases import SHOWN
from .plan import planned_question
from .table import Table


def follow(t: Table) -> None:
    """After every command: a question whose media has just become visible starts its media clock."""
    q = t.st.question
    if q is not None and t.st.phase in SHOWN and q.media_at is None and q.media_paused is None:
        q.media_at = t.now


def _need_media(t: Table):
    """The open question's media, shown in phases.SHOWN (the only phases that take the media commands)."""
    q = t.st.question
    planned = planned_question(t.st, t.plan) or {}
    if not any(isinstance(m, dict) and m.get("kind") in ("video", "audio") for m in planned.get("media") or []):
        raise Refused("the open question has no video or sound")
    return q


def pause(t: Table) -> None:
    q = _need_media(t)
    if q.media_paused is not None:
        raise Refused("the question's media is paused already")
    q.media_paused, q.media_at = max(0.0, t.now - q.media_at), None


def play(t: Table) -> None:
    q = _need_media(t)
    if q.media_paused is None:
        raise Refused("the question's media is playing already")
    q.media_at, q.media_paused = t.now - q.media_paused, None


def replay(t: Table) -> None:
    q = _need_media(t)
    q.media_at, q.media_paused = t.now, None


def shift(t: Table, delta: float) -> None:
    """The game was paused for `delta` seconds: a playing media clock resumes where it stood."""
    q = t.st.question
    if q is not None and q.media_at is not None:
        q.media_at += delta


def state(q) -> dict | None:
    if q.media_paused is not None:
        return {"state": "paused", "started": None, "position": q.media_paused}
    if q.media_at is not None:
        return {"state": "playing", "started": q.media_at, "position": None}
    return None
