"""One question from opening to reveal: reading, the press window, answering, wrong answers and restarts.

Theory of operation. A cell opens in `reading` with the buttons live (BZ1). A press stops the reading and
gives the right to answer (BZ3); the host's "reading done" opens the 5 s window (BZ2). A wrong verdict
(or the answer clock running out, BZ5) leaves `after_wrong` with the buttons dead; a press then is a false
start (BZ7: locked for 2 s where the regulation says so). `resume` restarts: reading goes on if it had not
ended, else a new window opens (BZ6). The question resolves to `reveal` on a right answer, when nobody is
left to answer, or on "Время". Every clock is a deadline in the state; `/sg/clock` fires it.
"""
from __future__ import annotations

from .auction import missing, open_auction
from .commands import Ignored, Refused
from .phases import LIVE, Phase, move
from .state import Answer, Question, Resolved
from .table import Table


def open_cell(t: Table, topic: int, index: int, replaced: bool = False) -> None:
    st = t.st
    cell = st.round.topics[topic - 1].cells[index - 1]
    cell.played = True
    st.last = None
    for p in st.players:
        p.answered = p.pressed = False
        p.locked_until = None
    st.answering = None
    kind = "auction" if cell.auction else ("extra" if st.round.tiebreak else "normal")
    st.question = Question(st.round.index, topic, index, cell.value, kind, chooser_at_open=st.chooser,
                           replaced=replaced)
    if cell.auction:
        open_auction(t)
    else:
        move(st, Phase.READING)


def select(t: Table, topic: int, index: int, mark: str | None = None) -> None:
    """/sg/select (choice mode, G4): open an unplayed cell; `auction` marks it when there is no pack (AU1)."""
    st = t.st
    topics = st.round.topics
    if not 1 <= topic <= len(topics):
        raise Refused(f"no topic {topic}: this round has topics 1–{len(topics)}")
    cells = topics[topic - 1].cells
    if not 1 <= index <= len(cells):
        raise Refused(f"no question {index}: a topic has questions 1–{len(cells)}")
    cell = cells[index - 1]
    if cell.empty:
        raise Refused(f"topic {topic} question {index} is an empty cell of the pack: nothing to play there")
    if cell.played:
        raise Refused(f"topic {topic} question {index} has been played")
    lacking = missing(t)
    if mark is not None:
        if mark != "auction":
            raise Refused(f"the third argument may only be 'auction', got {mark!r}")
        if cell.auction:
            raise Refused(f"topic {topic} question {index} is an auction already (AU1)")
        if sum(c.auction for tp in topics for c in tp.cells) >= st.round.auctions:
            if t.plan is not None and st.round.pack_round is not None:
                raise Refused("the pack sets the auction cells of this round: it has its "
                              f"{st.round.auctions} already (AU1)")
            raise Refused(f"this round has its {st.round.auctions} auction question(s) already (AU1)")
        cell.auction = True
    elif lacking and not cell.auction:
        plain = sum(not c.played and not c.auction for tp in topics for c in tp.cells)
        if plain <= lacking:
            raise Refused("this round has had no auction question yet (AU1): open this one as the auction, "
                          "or confirm that the round goes without its auction (waive it), then select again")
    open_cell(t, topic, index)


def next_in_order(t: Table) -> None:
    """Sequential play (G4): the next question of the topic, else the next topic's intro."""
    st, rnd = t.st, t.st.round
    if st.phase is Phase.ROUND_INTRO or rnd.topic is None:
        rnd.topic = 1
        move(st, Phase.TOPIC_INTRO)
        return
    pending = [i for i, c in enumerate(rnd.topics[rnd.topic - 1].cells, start=1) if not c.played]
    if pending:
        open_cell(t, rnd.topic, pending[0])
        return
    rnd.topic += 1
    move(st, Phase.TOPIC_INTRO)


def eligible_to_press(t: Table, seat: int) -> bool:
    p = t.st.player(seat)
    if not p.in_play or p.answered:
        return False
    return not (t.reg.one_press_per_question and p.pressed)


def press(t: Table, seat: int, source: str | None = None, bound_ms: int | None = None) -> None:
    """/sg/button: the first live press wins the right to answer (BZ3); the rest is BZ4, BZ7, BZ8 (a press while
    paused, in manual mode or outside the question is ignored by phases.py). `source` and `bound_ms` (BZ11) are
    journaled with the press; the judgment is on its stamp alone."""
    st = t.st
    player = st.player(seat)
    if not player.in_play:
        raise Ignored(f"seat {seat} is not playing this round")
    if st.phase in LIVE:
        if player.answered:
            raise Ignored(f"seat {seat} has answered this question (BZ4)")
        if t.reg.one_press_per_question and player.pressed:
            raise Ignored(f"seat {seat} has pressed on this question already (BZ4)")
        if player.locked_until is not None and t.at < player.locked_until:
            raise Ignored(f"seat {seat} is locked out after a false start (BZ7)")
        give_answer(t, seat)
        return
    if st.phase is Phase.ANSWERING and t.reg.one_press_per_question and not player.pressed and not player.answered:
        player.pressed = True   # america: a press that lost the race still uses up the player's press
        return
    if st.phase is Phase.AFTER_WRONG and t.reg.false_start_lockout > 0 and not player.answered:
        player.locked_until = t.at + t.reg.false_start_lockout
        return
    raise Ignored(f"buttons are not live in {st.phase} (BZ8)")


def give_answer(t: Table, seat: int) -> None:
    st, q = t.st, t.st.question
    st.player(seat).pressed = True
    st.answering = seat
    q.reading = False
    q.answer_started = t.now
    move(st, Phase.ANSWERING)
    if t.reg.answer_limit > 0:
        q.deadline, q.deadline_kind, q.duration = t.now + t.reg.answer_limit, "answer", t.reg.answer_limit
    else:
        q.deadline, q.deadline_kind, q.duration = None, None, None
    q.extended = 0.0
    q.clarify = 0


def clarify(t: Table) -> None:
    """/sg/answer/clarify (BZ10 Decision): the host finds the answer close and says «Уточните»; the board shows it
    for the answering player and the answer time (BZ5) starts again (where the regulation has it, phases.NEEDS)."""
    q = t.st.question
    q.clarify += 1
    q.answer_started = t.now
    q.extended = 0.0
    if t.reg.answer_limit > 0:
        q.deadline, q.deadline_kind, q.duration = t.now + t.reg.answer_limit, "answer", t.reg.answer_limit


def assign(t: Table, seat: int) -> None:
    """/sg/assign (BZ9): in manual mode the host names the player who answers."""
    player = t.st.player(seat)
    if not player.in_play:
        raise Refused(f"seat {seat} is not playing this round")
    if player.answered:
        raise Refused(f"seat {seat} has answered this question (BZ4)")
    give_answer(t, seat)


def manual(t: Table, on: bool) -> None:
    if t.st.buttons_manual == on:
        raise Refused(f"manual mode is {'on' if on else 'off'} already")
    t.st.buttons_manual = on


def reading_done(t: Table) -> None:
    """The host has read the question: the window opens (BZ2); an auction question's 15 s start (AU5)."""
    st, q = t.st, t.st.question
    if st.phase is Phase.AUCTION_ANSWER:
        q.reading = False
        q.reading_done = True
        q.answer_started = t.now
        q.deadline, q.deadline_kind, q.duration = t.now + t.reg.auction_answer, "auction_answer", t.reg.auction_answer
        return
    open_window(t)


def open_window(t: Table) -> None:
    q = t.st.question
    q.reading = False
    q.reading_done = True
    q.deadline, q.deadline_kind, q.duration = t.now + t.reg.buzz_window, "window", t.reg.buzz_window
    move(t.st, Phase.BUZZ_WINDOW)


def judge(t: Table, verdict: str) -> None:
    st, q = t.st, t.st.question
    seat = st.answering
    amount = q.stake if q.kind == "auction" else q.value
    delta = amount if verdict == "right" else -amount
    record(t, seat, verdict, delta, "auction" if q.kind == "auction" else "answer")
    if verdict == "right" or q.kind == "auction":
        resolve(t)
    else:
        after_wrong(t)


def record(t: Table, seat: int, verdict: str, delta: int, kind: str) -> None:
    st, q = t.st, t.st.question
    player = st.player(seat)
    player.answered = True
    if verdict == "right":
        t.count_right(seat, 1)
    q.answers.append(Answer(seat, verdict, delta))
    t.score(seat, delta, kind)


def after_wrong(t: Table) -> None:
    st, q = t.st, t.st.question
    st.answering = None
    q.deadline = q.deadline_kind = q.duration = None
    q.answer_started = None
    if not any(eligible_to_press(t, s) for s in st.seats()):
        resolve(t)
        return
    move(st, Phase.AFTER_WRONG)


def resume(t: Table) -> None:
    """/sg/resume (BZ6): reading goes on if it had not ended, else a new 5 s window; where the regulation's
    restart is a new window (america: «сбрасывает отсчет времени»), the window opens at once either way."""
    if t.st.question.reading_done or t.reg.restart == "new_window":
        open_window(t)
    else:
        t.st.question.reading = True
        move(t.st, Phase.READING)


def call_time(t: Table) -> None:
    """/sg/time: the host calls "Время" — the question closes unanswered (BZ2)."""
    resolve(t)


def extend(t: Table, seconds: float) -> None:
    """/sg/answer/extend (BZ5): more time for the current answer, where there is an answer clock."""
    q = t.st.question
    if seconds <= 0 or seconds > 600:
        raise Refused(f"extension must be more than 0 and at most 600 seconds, got {seconds:g}")
    q.deadline += seconds
    q.duration += seconds
    q.extended += seconds


def fire(t: Table) -> None:
    """/sg/clock: the question's deadline has passed."""
    st, q = t.st, t.st.question
    kind = q.deadline_kind
    if kind == "window":
        resolve(t)
    elif kind in ("answer", "auction_answer"):
        amount = q.stake if q.kind == "auction" else q.value
        record(t, st.answering, "wrong", -amount, "timeout")   # BZ5: a timeout counts as a wrong answer
        if q.kind == "auction":
            resolve(t)
        else:
            after_wrong(t)
    else:
        raise Refused("no deadline to fire")


def resolve(t: Table) -> None:
    """The question is over: the answer is shown, the choice passes (G6, AU5)."""
    st, q = t.st, t.st.question
    q.deadline = q.deadline_kind = q.duration = None
    q.reading = False
    st.answering = None
    st.auction = None
    if t.reg.order == "choice":
        st.chooser = chooser_after(q)
    st.last = Resolved(q, st.chooser)
    move(st, Phase.REVEAL)


def chooser_after(q: Question) -> int | None:
    """G6: a right answer takes the choice; AU5: the auction player takes it whatever the answer."""
    if q.kind == "auction" and q.answers:
        return q.answers[-1].seat
    rights = [a.seat for a in q.answers if a.verdict == "right"]
    return rights[-1] if rights else q.chooser_at_open
