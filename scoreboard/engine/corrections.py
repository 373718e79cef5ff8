"""The host's corrections (G8, G9): score adjustments, re-judging, replacing a question by the reserve.

All of them are new ledger entries, never edits of old ones, so a score stays the sum of its entries.
"""
from __future__ import annotations

from .commands import Refused
from .phases import Phase
from .question import chooser_after, open_cell
from .state import Answer
from .table import Table


def adjust(t: Table, seat: int, delta: int, reason: str | None) -> None:
    """G8: the host corrects a score by a signed amount, with a reason that the protocol shows (between the start
    and the end of the game: after it, the result stands, phases.py)."""
    st = t.st
    if delta == 0:
        raise Refused("an adjustment of 0 changes nothing")
    if abs(delta) > 100000:
        raise Refused(f"adjustment {delta} is out of range (at most ±100000)")
    t.score(seat, delta, "adjust")
    st.adjustments.append({"seat": seat, "delta": delta, "reason": reason or "", "time": t.at})


def rejudge(t: Table, seat: int, verdict: str) -> None:
    """G8: change a verdict on the last resolved question before the next one opens; scores and the
    choice are recomputed as if it had been judged so (a right verdict ends the question there). Only in reveal:
    the question has just resolved (phases.py)."""
    st = t.st
    q = st.last.question
    if seat not in [a.seat for a in q.answers]:
        raise Refused(f"seat {seat} did not answer this question")
    if [a.verdict for a in q.answers if a.seat == seat] == [verdict]:
        raise Refused(f"seat {seat}'s answer is judged {verdict} already")
    amount = q.stake if q.kind == "auction" else q.value
    before = {a.seat: a for a in q.answers}
    answers: list[Answer] = []
    for a in q.answers:
        v = verdict if a.seat == seat else a.verdict
        answers.append(Answer(a.seat, v, amount if v == "right" else -amount))
        if v == "right":
            break   # a right answer ends the question: later answers never happened
    after = {a.seat: a for a in answers}
    for s in set(before) | set(after):
        old = before[s].delta if s in before else 0
        new = after[s].delta if s in after else 0
        t.score(s, new - old, "rejudge")
        was = s in before and before[s].verdict == "right"
        now = s in after and after[s].verdict == "right"
        t.count_right(s, int(now) - int(was))
    q.answers = answers
    if t.reg.order == "choice":
        st.chooser = chooser_after(q)
        st.last.chooser_after = st.chooser


def replace(t: Table) -> None:
    """G9: the current or last question is withdrawn; everything scored on it is undone and the
    topic's reserve is played at the same value (phases.py: while a question is open, or at its reveal)."""
    st = t.st
    q = st.last.question if st.phase is Phase.REVEAL else st.question
    topic = st.round.topics[q.topic - 1]
    if topic.reserve_used:
        raise Refused(f"topic {topic.name!r} has no reserve question left (G9)")
    if t.plan is not None and st.round.pack_round is not None:
        ptopics = t.plan["rounds"][st.round.pack_round].get("topics") or []
        ptopic = ptopics[q.topic - 1] if q.topic - 1 < len(ptopics) else {}
        if not ptopic.get("reserve"):
            raise Refused(f"the pack has no reserve question for topic {topic.name!r} (G9)")
    for a in q.answers:
        t.score(a.seat, -a.delta, "replace")
        if a.verdict == "right":
            t.count_right(a.seat, -1)
    topic.reserve_used = True
    st.chooser = q.chooser_at_open
    st.auction = None
    open_cell(t, q.topic, q.index, replaced=True)
