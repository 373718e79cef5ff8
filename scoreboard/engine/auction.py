"""The auction question (AU1–AU6, novosibirsk).

Theory of operation. The cell opens at its nominal value held by the chooser. Turns go chooser first, then
the others by ascending score (ties by seat), cycling over those who have not passed (AU3 Decision). A
player whose score is not above the stake cannot outbid and is passed automatically (AU6); a bid of one's
whole score above the nominal is an all-in, beaten only by a larger all-in (AU4). When nobody but the
highest bidder is left, that player answers alone with 15 s (AU5).
"""
from __future__ import annotations

from .commands import Refused
from .phases import Phase, move
from .state import Auction, Round
from .table import Table


def open_auction(t: Table) -> None:
    st, q = t.st, t.st.question
    chooser = st.chooser
    others = sorted((s for s in st.in_play() if s != chooser), key=lambda s: (st.player(s).score, s))
    st.auction = Auction(nominal=q.value, stake=q.value, holder=chooser, order=[chooser] + others, turn=chooser)
    move(st, Phase.AUCTION)
    _settle(t, start=chooser, include_start=True)


def _can_outbid(t: Table, seat: int) -> bool:
    return t.st.player(seat).score > t.st.auction.stake


def _settle(t: Table, start: int, include_start: bool) -> None:
    """Give the turn to the next player who can still bid, passing those who cannot (AU6)."""
    a = t.st.auction
    order = a.order
    i = order.index(start)
    candidates = [order[(i + k) % len(order)] for k in range(0 if include_start else 1, len(order) + 1)]
    seen = set()
    for seat in candidates:
        if seat in seen:
            continue
        seen.add(seat)
        if seat in a.passed:
            continue
        if seat == a.holder and not (seat == order[0] and include_start and seat == start):
            continue
        if not _can_outbid(t, seat):
            a.passed.append(seat)
            continue
        a.turn = seat
        return
    _close(t)


def _close(t: Table) -> None:
    st, a, q = t.st, t.st.auction, t.st.question
    a.turn = None
    q.stake = a.stake
    st.answering = a.holder
    move(st, Phase.AUCTION_ANSWER)
    q.reading = True
    for p in st.players:
        p.pressed = p.seat == a.holder


def _need_turn(t: Table, seat: int) -> None:
    a = t.st.auction
    if seat in a.passed:
        raise Refused(f"seat {seat} has passed in this auction (AU3)")
    if a.turn != seat:
        raise Refused(f"it is seat {a.turn}'s turn to bid (AU3)")


def bid(t: Table, seat: int, amount: int) -> None:
    _need_turn(t, seat)
    a, score = t.st.auction, t.st.player(seat).score
    if amount > score:
        raise Refused(f"seat {seat} can bid at most its score {score} (AU2, AU3)")
    if amount <= a.stake:
        raise Refused(f"a bid must be above the stake {a.stake} (AU3)")
    allin = amount == score and score > a.nominal
    if a.allin and not allin:
        raise Refused("only a larger all-in beats an all-in (AU4)")
    a.stake, a.holder, a.allin = amount, seat, allin
    _settle(t, start=seat, include_start=False)


def allin(t: Table, seat: int) -> None:
    _need_turn(t, seat)
    a, score = t.st.auction, t.st.player(seat).score
    if score <= a.nominal:
        raise Refused(f"all-in needs a score above the nominal {a.nominal} (AU4)")
    if score <= a.stake:
        raise Refused(f"all-in of {score} does not beat the stake {a.stake} (AU4)")
    a.stake, a.holder, a.allin = score, seat, True
    _settle(t, start=seat, include_start=False)


def pass_(t: Table, seat: int) -> None:
    _need_turn(t, seat)
    t.st.auction.passed.append(seat)
    _settle(t, start=seat, include_start=False)


def missing_in(rnd: Round) -> int:
    """AU1: auction questions the round still needs (their places stay hidden); 0 once waived, and in a tie-break."""
    if rnd.tiebreak or rnd.auction_waived:
        return 0
    return max(0, rnd.auctions - sum(c.auction for tp in rnd.topics for c in tp.cells))


def missing(t: Table) -> int:
    """AU1: auction questions this round still lacks (none once the host has waived them)."""
    return 0 if t.st.round is None else missing_in(t.st.round)


def waive(t: Table) -> None:
    """/sg/auction/waive (AU1 Decision): the host confirms this round ends without its auction (journaled)."""
    rnd = t.st.round
    if rnd.auction_waived:
        raise Refused("the auction of this round is waived already (AU1)")
    if missing(t) == 0:
        raise Refused("this round has its auction question: nothing to waive (AU1)")
    rnd.auction_waived = True
