"""The command table: which rule handler each address runs, and the small housekeeping commands
(`/sg/next`, «Время», names, pause, screen, the internal clock). Which phase takes which command is phases.py's: a handler
runs only where `phases.admit` let the command in."""
from __future__ import annotations

from typing import Callable

from . import auction, corrections, final, flow, media, photo_hall, question, rounds
from .commands import INTERNAL, SPEC, Refused
from .phases import ACCEPTS, Phase
from .table import Table


# /sg/next: the one obvious next step of each phase that takes it (docs/PROTOCOL.md has the same table).
NEXT_STEP: dict[Phase, Callable[[Table], None]] = {
    Phase.SETUP: rounds.start,
    Phase.ROUND_INTRO: flow.after_round_intro,
    Phase.TOPIC_INTRO: question.next_in_order,
    Phase.REVEAL: flow.after_reveal,
    Phase.READING: question.reading_done,
    Phase.BUZZ_WINDOW: question.call_time,
    Phase.AFTER_WRONG: question.resume,
    Phase.AUCTION_ANSWER: question.reading_done,   # phases.NEEDS: only while the auction question is being read
    Phase.FINAL_STAKES: final.start,
    Phase.FINAL_ANSWER: final.end_writing,
    Phase.FINAL_REVEAL: final.reveal_next,
}


def _next(t: Table) -> None:
    NEXT_STEP[t.st.phase](t)


def _name(t: Table, seat: int, name: str) -> None:
    if len(name) > 80:
        raise Refused("a name is at most 80 characters")
    if t.st.player(seat).name == name:
        raise Refused(f"seat {seat} is named {name!r} already")
    t.st.player(seat).name = name


def _pause(t: Table) -> None:
    t.st.paused, t.st.paused_at = True, t.at


def _unpause(t: Table) -> None:
    st = t.st
    shift = t.at - st.paused_at
    media.shift(t, shift)
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
    if st.final is not None and st.final.deadline is not None and st.final.deadline <= t.at:
        final.end_writing(t)
    elif st.question is not None and st.question.deadline is not None and st.question.deadline <= t.at:
        question.fire(t)
    else:
        raise Refused("no deadline has passed")


def _time(t: Table) -> None:
    """/sg/time: «Время» — the question closes unanswered (BZ2), or the final's writing ends."""
    if t.st.phase is Phase.FINAL_ANSWER:
        final.end_writing(t)
    else:
        question.call_time(t)


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
    "/sg/time": _time,
    "/sg/answer/extend": question.extend,
    "/sg/answer/clarify": question.clarify,
    "/sg/buttons/manual": question.manual,
    "/sg/assign": question.assign,
    "/sg/auction/bid": auction.bid,
    "/sg/auction/allin": auction.allin,
    "/sg/auction/pass": auction.pass_,
    "/sg/auction/waive": auction.waive,
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
    "/sg/media/pause": media.pause,
    "/sg/media/play": media.play,
    "/sg/media/replay": media.replay,
    "/sg/button": question.press,
    "/sg/answerer": question.name_instead,
    "/sg/photo/show": photo_hall.show,
    "/sg/photo/hide": photo_hall.hide,
    "/sg/clock": _clock,
}
# Game.apply runs these three itself (they replace or point the state): every other address has a handler.
BY_GAME = frozenset({"/sg/game/new", "/sg/undo", "/sg/pack/load"})
assert not INTERNAL - set(HANDLERS) and set(HANDLERS) | BY_GAME == set(SPEC)
assert set(NEXT_STEP) == {phase for phase in Phase if "/sg/next" in ACCEPTS[phase]}
