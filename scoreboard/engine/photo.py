"""The photo finish (issue 27 item 2, BZ11): every press of the current and the last question, for the host only.

Theory of operation. `Game` notes every `/sg/button` here — the presses the rules took (`follow`, after the handler)
and the ones they ignored (`ignored`, after the state came back) — in the window it belongs to. A window opens at the
live instant (the buttons go live: the question opens, the host restarts after a wrong answer, an unpause); a press
while the buttons are not live yet (a false start, BZ7) waits in the next window, so its time after the opening is
negative. The record lives in the state, so undo's checkpoints and a replay (ignored presses are replayed from the
journal's `ignored` table, session.py) rebuild it exactly; it is bounded (two questions, KEEP_* below).

Close calls (BZ11) are read from the record when it is shown (`view`), never stored: the two earliest presses of
seats that could win, or a press and the live instant, closer than their error bounds combined. The host may then
name the other player instead, before the verdict (`/sg/answerer`, question.name_instead).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .phases import HALL_PHOTO, LIVE, Phase

if TYPE_CHECKING:
    from .state import State
    from .table import Table

KEEP_PRESSES = 32       # per question: a stuck button cannot grow the record (the journal keeps everything)
KEEP_WINDOWS = 8        # per question (each restart or unpause opens one)
CONTENDERS = ("won", "too_late")    # presses of seats that could have won the window


@dataclass
class Press:
    seat: int
    source: str                 # box | key | phone | remote (commands.SOURCES)
    bound_ms: int | None        # how far the stamp may be from the touch; None: a remote's, unknown
    at: float                   # the stamp (engine time)
    outcome: str                # won | too_late | false_start | locked_out | ignored
    reason: str | None = None   # why the rules ignored it
    locked_until: float | None = None   # a false start's lockout end (BZ7)


@dataclass
class Window:
    opened_at: float | None = None      # the live instant; None while the buttons are not live yet
    presses: list[Press] = field(default_factory=list)
    named: dict | None = None           # BZ11: {"seat", "instead_of", "at"} when the host named another player


@dataclass
class QuestionPresses:
    round: int
    topic: int
    index: int
    value: int
    kind: str
    windows: list[Window] = field(default_factory=list)
    dropped: int = 0                    # presses past KEEP_PRESSES / in windows past KEEP_WINDOWS


@dataclass
class PhotoFinish:
    current: QuestionPresses | None = None
    last: QuestionPresses | None = None
    seen: int = 0                       # presses noted so far: changes whenever the record does without a new rev
    # On the hall's screens (/sg/photo/show, photo_hall.py): the window the host sent there and whose record it is
    # ("current" | "last"); None while it is not shown. The same object as in the record (pickling keeps that).
    shown: Window | None = None
    shown_of: str | None = None
    shown_count: int = 0                # the window's presses when it was sent: the hall sees what the host sent


def live(st: "State") -> bool:
    return st.phase in LIVE and not st.paused and not st.buttons_manual


def before(st: "State") -> tuple:
    """What `follow` compares with: the question, the buttons' liveness, the phase."""
    return st.question, live(st), st.phase, st.paused


def follow(t: "Table", address: str, args: tuple, was: tuple) -> None:
    """After a command the rules took: a new question starts a new record, the buttons going live open a window,
    a press is noted with its outcome."""
    st = t.st
    pf = st.photo
    question, was_live, phase, paused = was
    q = st.question
    if q is not None and q is not question:
        pf.last, pf.current = pf.current, QuestionPresses(q.round, q.topic, q.index, q.value, q.kind)
        pf.shown = pf.shown_of = None       # the next question opens: the hall's photo finish goes away
    if pf.current is not None and live(st) and not was_live:
        pf.shown = pf.shown_of = None       # the buttons go live again: the hall sees the race, not the panel
        windows = pf.current.windows
        if windows and windows[-1].opened_at is None:
            windows[-1].opened_at = t.at
        else:
            _add_window(pf.current, Window(t.at))
    if st.phase not in HALL_PHOTO:
        pf.shown = pf.shown_of = None       # an auction, the final, the end: no photo finish on the hall's screens
    if address != "/sg/button":
        return
    seat = args[0]
    if st.answering == seat and phase in LIVE:
        outcome = "won"
    elif phase is Phase.AFTER_WRONG:
        outcome = "false_start"
    else:
        outcome = "too_late"        # america: a press that lost the race uses up the player's press (BZ4)
    _note(st, args, t.at, outcome, None, pending=phase is Phase.AFTER_WRONG,
          locked_until=st.player(seat).locked_until if outcome == "false_start" else None)


def ignored(st: "State", args: tuple, at: float, reason: str) -> None:
    """A press the rules ignored (BZ4, BZ7, BZ8): the state is as before it; only the record changes."""
    if st is None:
        return
    seat = args[0]
    player = st.player(seat) if 1 <= seat <= len(st.players) else None
    if "(BZ7)" in reason:
        outcome = "locked_out"
    elif (st.phase is Phase.ANSWERING and not st.paused and player is not None and seat != st.answering
          and player.in_play and not player.answered):
        outcome = "too_late"
    else:
        outcome = "ignored"
    pending = st.phase is Phase.AFTER_WRONG or (st.phase in LIVE and not live(st))
    _note(st, args, at, outcome, reason, pending=pending)


def _note(st: "State", args: tuple, at: float, outcome: str, reason: str | None, pending: bool,
          locked_until: float | None = None) -> None:
    pf = st.photo
    rec = pf.current
    if rec is None or st.phase in (Phase.GAME_OVER, Phase.FINAL_STAKES, Phase.FINAL_ANSWER, Phase.FINAL_REVEAL):
        return
    pf.seen += 1
    windows = rec.windows
    if not windows or (pending and windows[-1].opened_at is not None):
        _add_window(rec, Window(None))
    if sum(len(w.presses) for w in rec.windows) >= KEEP_PRESSES:
        rec.dropped += 1
        return
    source = args[1] if len(args) > 1 else "remote"
    bound = args[2] if len(args) > 2 else None
    rec.windows[-1].presses.append(Press(args[0], source, bound, at, outcome, reason, locked_until))


def _add_window(rec: QuestionPresses, window: Window) -> None:
    rec.windows.append(window)
    while len(rec.windows) > KEEP_WINDOWS:
        rec.dropped += len(rec.windows.pop(0).presses)


# -- close calls (BZ11) ------------------------------------------------------------------------------------------

def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def close_calls(window: Window) -> dict[int, dict]:
    """Index of a press in `window.presses` → its close call: {"with": seat | "live", "gap_ms", "bounds_ms"}."""
    calls: dict[int, dict] = {}
    order = sorted(range(len(window.presses)), key=lambda i: window.presses[i].at)
    contenders = [i for i in order if window.presses[i].outcome in CONTENDERS]
    if contenders:
        first = window.presses[contenders[0]]
        other = next((i for i in contenders[1:] if window.presses[i].seat != first.seat), None)
        if other is not None:
            second = window.presses[other]
            gap, bounds = _ms(second.at - first.at), (first.bound_ms or 0) + (second.bound_ms or 0)
            if gap < bounds:
                calls[contenders[0]] = {"with": second.seat, "gap_ms": gap, "bounds_ms": bounds}
                calls[other] = {"with": first.seat, "gap_ms": gap, "bounds_ms": bounds}
    if window.opened_at is not None:
        for i in order:
            press = window.presses[i]
            gap, bound = _ms(press.at - window.opened_at), press.bound_ms or 0
            early = gap < 0 and press.outcome in ("false_start", "ignored") and -gap < bound
            first_in = contenders and i == contenders[0] and 0 <= gap < bound
            if (early or first_in) and i not in calls:
                calls[i] = {"with": "live", "gap_ms": abs(gap), "bounds_ms": bound}
    return calls


# -- the host's view -----------------------------------------------------------------------------------------------

def view(st: "State") -> dict[str, Any]:
    """The host-only part (`host_question()["presses"]`; never the snapshot): the presses of the current and the
    last question, each window's in the order of their stamps."""
    pf = st.photo
    return {"current": _question(pf.current), "last": _question(pf.last), "seen": pf.seen}


def _question(rec: QuestionPresses | None) -> dict | None:
    if rec is None:
        return None
    return {"round": rec.round, "topic": rec.topic, "index": rec.index, "value": rec.value, "kind": rec.kind,
            "dropped": rec.dropped, "windows": [_window(w) for w in rec.windows]}


def _window(w: Window) -> dict:
    calls = close_calls(w)
    rows, previous = [], None
    for i in sorted(range(len(w.presses)), key=lambda i: w.presses[i].at):
        p = w.presses[i]
        rows.append({"seat": p.seat, "source": p.source, "bound_ms": p.bound_ms, "at": p.at,
                     "after_ms": None if w.opened_at is None else _ms(p.at - w.opened_at),
                     "gap_ms": None if previous is None else _ms(p.at - previous),
                     "outcome": p.outcome, "reason": p.reason, "locked_until": p.locked_until,
                     "close": calls.get(i)})
        previous = p.at
    return {"opened_at": w.opened_at, "named": dict(w.named) if w.named else None, "presses": rows,
            "close": bool(calls)}
