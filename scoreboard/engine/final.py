"""The final round (FN1, FN2, novosibirsk) and the super-question (FN3, america final).

Theory of operation. After the last regular round, FN1 decides who goes on: nobody positive ends the game
with no winner, one positive player or a leader above twice the runner-up wins outright; else the finalists
stake secretly (`final_stakes`), the question is read and the writing clock runs (`final_answer`), then the
host judges and reveals one player at a time (`final_reveal`, FN4). The last reveal decides the game (TB).
"""
from __future__ import annotations

from .commands import Refused
from .phases import Phase, move
from .rounds import finish
from .state import Final
from .table import Table
from .tiebreak import decide


def open_final(t: Table) -> None:
    st, reg = t.st, t.reg
    st.question = None
    st.last = None
    seats = st.seats()
    if reg.final_eligibility == "positive":
        positive = sorted((s for s in seats if st.player(s).score > 0), key=lambda s: -st.player(s).score)
        if not positive:
            finish(t, None, "no player has a positive score after the last round (FN1)", "no_positive")
            return
        if len(positive) == 1:
            finish(t, positive[0])
            return
        leader, runner = st.player(positive[0]).score, st.player(positive[1]).score
        if reg.dominance_ratio > 0 and leader > reg.dominance_ratio * runner:
            finish(t, positive[0])
            return
        eligible = sorted(positive)
    else:
        eligible = seats
    st.final = Final(reg.final_kind, st.final_topic, eligible)
    for seat in eligible:
        if st.player(seat).score <= 0:
            st.final.stakes[seat] = 0    # FN3: a player with no points stakes 0
    move(st, Phase.FINAL_STAKES)
    st.chooser = None


def set_topic(t: Table, name: str) -> None:
    t.st.final_topic = name
    if t.st.final is not None:
        t.st.final.topic = name


def stake(t: Table, seat: int, amount: int) -> None:
    f = t.st.final
    if seat not in f.eligible:
        raise Refused(f"seat {seat} is not in the final round (FN1)")
    score = t.st.player(seat).score
    low, high = t.reg.final_min_stake, max(score, 0)
    if score <= 0:
        low = 0
    if not low <= amount <= high:
        raise Refused(f"seat {seat} may stake from {low} to {high}, got {amount} (FN2, FN3)")
    f.stakes[seat] = amount


def start(t: Table) -> None:
    f = t.st.final
    missing = [s for s in f.eligible if s not in f.stakes]
    if missing:
        raise Refused(f"stakes missing from seat(s) {', '.join(map(str, missing))} (FN2)")
    f.writing = True
    f.deadline, f.duration = t.now + t.reg.final_answer_time, t.reg.final_answer_time
    move(t.st, Phase.FINAL_ANSWER)


def end_writing(t: Table) -> None:
    f = t.st.final
    f.writing = False
    f.deadline = f.duration = None
    move(t.st, Phase.FINAL_REVEAL)


def _unrevealed_finalist(t: Table, seat: int, already: str) -> None:
    f = t.st.final
    if seat not in f.eligible:
        raise Refused(f"seat {seat} is not in the final round")
    if seat in f.revealed:
        raise Refused(f"seat {seat} has been revealed {already}")


def judge(t: Table, seat: int, verdict: str) -> None:
    _unrevealed_finalist(t, seat, "already: correct the score instead (/sg/score/adjust)")
    t.st.final.verdicts[seat] = verdict


def reveal(t: Table, seat: int) -> None:
    """FN2, FN4: one player's answer, stake and new score; the last reveal decides the game."""
    _unrevealed_finalist(t, seat, "already")
    f = t.st.final
    if seat not in f.verdicts:
        raise Refused(f"judge seat {seat}'s answer first (/sg/final/judge)")
    amount = f.stakes[seat]
    t.score(seat, amount if f.verdicts[seat] == "right" else -amount, "final")
    if f.verdicts[seat] == "right":
        t.count_right(seat, 1)
    f.revealed.append(seat)
    if len(f.revealed) == len(f.eligible):
        decide(t, list(f.eligible))


def reveal_next(t: Table) -> None:
    f = t.st.final
    pending = [s for s in f.eligible if s not in f.revealed]
    reveal(t, pending[0])
