"""The command table: which rule handler each address runs, and the small housekeeping commands
(`/sg/next`, names, pause, screen, the internal clock)."""
from __future__ import annotations

from typing import Callable

from . import auction, corrections, final, question, rounds
from .commands import INTERNAL, Refused
from .table import Table


def _next(t: Table) -> None:
    """/sg/next: the one obvious next step of the current phase (docs/PROTOCOL.md has the table)."""
    st = t.st
    phase = st.phase
    if phase == "setup":
        rounds.start(t)
    elif phase == "round_intro" and t.reg.order == "choice":
        st.phase = "choosing"
    elif phase in ("round_intro", "topic_intro"):
        question.next_in_order(t)
    elif phase == "reveal":
        if rounds.board_empty(t):
            rounds.end_of_round(t)
        elif t.reg.order == "choice":
            st.phase = "choosing"
        else:
            question.next_in_order(t)
    elif phase == "reading":
        question.reading_done(t)
    elif phase == "buzz_window":
        question.call_time(t)
    elif phase == "after_wrong":
        question.resume(t)
    elif phase == "auction_answer" and st.question.reading:
        question.reading_done(t)
    elif phase == "final_stakes":
        final.start(t)
    elif phase == "final_answer":
        final.end_writing(t)
    elif phase == "final_reveal":
        final.reveal_next(t)
    else:
        raise Refused({"choosing": "select a cell (/sg/select)",
                       "answering": "judge the answer first",
                       "auction_answer": "judge the answer first",
                       "auction": "the auction is on: bid or pass"}.get(phase, f"no next step in {phase}"))


def _name(t: Table, seat: int, name: str) -> None:
    t.need_seat(seat)
    if len(name) > 80:
        raise Refused("a name is at most 80 characters")
    if t.st.player(seat).name == name:
        raise Refused(f"seat {seat} is named {name!r} already")
    t.st.player(seat).name = name


def _pause(t: Table) -> None:
    if t.st.paused:
        raise Refused("the game is paused already")
    t.st.paused, t.st.paused_at = True, t.at


def _unpause(t: Table) -> None:
    st = t.st
    if not st.paused:
        raise Refused("the game is not paused")
    shift = t.at - st.paused_at
    if st.question is not None and st.question.deadline is not None:
        st.question.deadline += shift
    if st.question is not None and st.question.answer_started is not None:
        st.question.answer_started += shift
    if st.final is not None and st.final.deadline is not None:
        st.final.deadline += shift
    for p in st.players:
        if p.locked_until is not None and p.locked_until > st.paused_at:
            p.locked_until += shift
    st.paused, st.paused_at = False, None


def _screen(t: Table, scene: str) -> None:
    if t.st.screen == scene:
        raise Refused(f"the audience screen shows {scene} already")
    t.st.screen = scene


def _clock(t: Table) -> None:
    st = t.st
    if st.paused:
        raise Refused("the game is paused: no clock runs")
    if st.final is not None and st.final.deadline is not None and st.final.deadline <= t.at:
        final.end_writing(t)
    elif st.question is not None and st.question.deadline is not None and st.question.deadline <= t.at:
        question.fire(t)
    else:
        raise Refused("no deadline has passed")


def _select(t: Table, topic: int, index: int, mark: str | None = None) -> None:
    question.select(t, topic, index, mark)


HANDLERS: dict[str, Callable[..., None]] = {
    "/sg/player/name": _name,
    "/sg/topics": lambda t, *names: rounds.set_topics(t, names),
    "/sg/game/start": rounds.start,
    "/sg/chooser": rounds.set_chooser,
    "/sg/select": _select,
    "/sg/next": _next,
    "/sg/reading/done": question.reading_done,
    "/sg/judge/right": lambda t: question.judge(t, "right"),
    "/sg/judge/wrong": lambda t: question.judge(t, "wrong"),
    "/sg/resume": question.resume,
    "/sg/time": question.call_time,
    "/sg/answer/extend": question.extend,
    "/sg/buttons/manual": question.manual,
    "/sg/assign": question.assign,
    "/sg/auction/bid": auction.bid,
    "/sg/auction/allin": auction.allin,
    "/sg/auction/pass": auction.pass_,
    "/sg/final/topic": final.set_topic,
    "/sg/final/stake": final.stake,
    "/sg/final/start": final.start,
    "/sg/final/judge": final.judge,
    "/sg/final/reveal": final.reveal,
    "/sg/score/adjust": lambda t, seat, delta, reason=None: corrections.adjust(t, seat, delta, reason),
    "/sg/rejudge": corrections.rejudge,
    "/sg/question/replace": corrections.replace,
    "/sg/pause": _pause,
    "/sg/unpause": _unpause,
    "/sg/screen": _screen,
    "/sg/button": question.press,
    "/sg/clock": _clock,
}
SETUP_OK = frozenset({"/sg/player/name", "/sg/topics", "/sg/game/start", "/sg/chooser", "/sg/next",
                      "/sg/final/topic", "/sg/pause", "/sg/unpause", "/sg/screen", "/sg/buttons/manual",
                      "/sg/button"})
OVER_OK = frozenset({"/sg/player/name", "/sg/screen", "/sg/pause", "/sg/unpause"})
assert not INTERNAL - set(HANDLERS)
