"""The photo finish on the hall's screens (issue 27 item 2, BZ11): what the host sends there, and its public form.

Theory of operation. The record (photo.py) is the host's: its `view` goes in the host's question only. When a
player in the hall says «I pressed first», the host may show everyone the same window: `/sg/photo/show` points the
state at the newest window with presses — of the open question; between questions, of the question just played or,
if it took none, the one before — and the snapshot carries its public form (`public`, the snapshot's `photo`) for
every screen, the extra ones and `follow`. It is a host command like `/sg/screen`: journaled, replayed, undoable.

What the hall sees of it is what the hall saw anyway, measured: who pressed, in what order, how many ms apart, from
which device and within what bound, and the close call (BZ11). Never the rules' internal reasons, the question's
text or answer (the record has none), nor a stake. It goes away by itself when the next question opens or the
buttons go live again (photo.follow: the race must not be drawn over), and when play leaves the phases that take it
(phases.HALL_PHOTO: an auction, the final, the end); `/sg/photo/hide` takes it away at once.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .commands import Refused
from .phases import OPEN
from .photo import QuestionPresses, Window, close_calls

if TYPE_CHECKING:
    from .state import State
    from .table import Table

MAX_ROWS = 8            # the hall's panel: the first presses of the window, by their stamps


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)     # as the host's view rounds them (photo.py): both screens say the same


def _newest(rec: QuestionPresses | None) -> Window | None:
    for window in reversed(rec.windows if rec is not None else []):
        if window.presses:
            return window
    return None


def pick(st: "State") -> tuple[str, Window] | None:
    """What `/sg/photo/show` would send: ("current" | "last", window), or None when there is nothing to show."""
    pf = st.photo
    window = _newest(pf.current)
    if window is not None:
        return "current", window
    if st.phase in OPEN:
        return None             # the open question took no press yet: the last question's is not this one's
    window = _newest(pf.last)
    return ("last", window) if window is not None else None


def show(t: "Table") -> None:
    """/sg/photo/show: the newest window with presses goes on the hall's screens, as it is now (sent again, it
    takes the presses noted since)."""
    pf = t.st.photo
    picked = pick(t.st)
    if picked is None:
        raise Refused("no press to show: the photo finish of this question (or, between questions, the last one) "
                      "is empty (BZ11)")
    which, window = picked
    if pf.shown is window and pf.shown_of == which and pf.shown_count == len(window.presses):
        raise Refused("the photo finish is on the hall's screens already")
    pf.shown, pf.shown_of, pf.shown_count = window, which, len(window.presses)


def hide(t: "Table") -> None:
    """/sg/photo/hide (phases.NEEDS: only while it is shown)."""
    t.st.photo.shown = t.st.photo.shown_of = None


def public(st: "State | None") -> dict[str, Any] | None:
    """The snapshot's `photo`: the shown window for the hall, or None. The presses in the order of their stamps."""
    if st is None or st.photo.shown is None:
        return None
    pf = st.photo
    rec = pf.current if pf.shown_of == "current" else pf.last
    window = pf.shown
    if rec is None or not any(w is window for w in rec.windows):
        return None             # dropped from the bounded record (KEEP_WINDOWS): nothing true to draw
    # the presses noted by the time the host sent it (a stuck button's later ones change nothing the hall sees:
    # the hall's screens redraw on a new rev, and an ignored press makes none)
    window = Window(window.opened_at, window.presses[:pf.shown_count], window.named)
    calls = close_calls(window)
    order = sorted(range(len(window.presses)), key=lambda i: window.presses[i].at)
    first = window.presses[order[0]].at if order else None
    rows = []
    for i in order[:MAX_ROWS]:
        p = window.presses[i]
        close = calls.get(i)
        rows.append({"seat": p.seat, "source": p.source, "bound_ms": p.bound_ms,
                     "after_ms": None if window.opened_at is None else _ms(p.at - window.opened_at),
                     "behind_ms": _ms(p.at - first), "outcome": p.outcome,
                     "close": None if close is None else {"with": close["with"], "gap_ms": close["gap_ms"],
                                                          "bounds_ms": close["bounds_ms"]}})
    named = window.named
    topic_name = None
    if st.round is not None and st.round.index == rec.round and 1 <= rec.topic <= len(st.round.topics):
        topic_name = st.round.topics[rec.topic - 1].name
    return {"of": pf.shown_of, "round": rec.round, "topic": rec.topic, "index": rec.index, "value": rec.value,
            "topic_name": topic_name, "close": bool(calls), "presses": rows, "more": max(0, len(order) - MAX_ROWS),
            "named": None if not named else {"seat": named["seat"], "instead_of": named.get("instead_of")}}
