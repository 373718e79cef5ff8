"""Rounds: building a round's board, who chooses, the next round, the end of the game.

G2–G5 (boards, order, first chooser), G7 (every question is played). What comes after a round is flow.py's; who
wins (TB5) and the tie-breaks are tiebreak.py's, the final round final.py's.
"""
from __future__ import annotations

from .commands import Refused
from .phases import Phase, move
from .state import Cell, Round, Topic
from .table import Table


def plan_round(t: Table, index: int) -> dict | None:
    if t.plan is None:
        return None
    rounds = t.plan.get("rounds") or []
    return rounds[index] if index < len(rounds) else None


def round_size(t: Table, index: int) -> int:
    spec = t.stage.rounds[index]
    if not spec.open_size:
        return spec.topics
    planned = plan_round(t, index)
    if planned is not None:
        return max(spec.min_topics, len(planned.get("topics") or []))
    names = t.st.round_names.get(index)
    return len(names) if names else spec.topics


def build_round(t: Table, index: int) -> Round:
    spec = t.stage.rounds[index]
    values = t.reg.values[spec.kind]
    size = round_size(t, index)
    planned = plan_round(t, index)
    names = t.st.round_names.get(index) or []
    topics = []
    auctions_left = spec.auctions if t.reg.auctions else 0
    for k in range(size):
        ptopic = (planned or {}).get("topics", [])
        ptopic = ptopic[k] if k < len(ptopic) else None
        name = (ptopic or {}).get("name") or (names[k] if k < len(names) else str(k + 1))
        cells = [Cell(value) for value in values]
        if ptopic is not None:
            for q, question in enumerate((ptopic.get("questions") or [])[:len(cells)]):
                if question.get("empty"):
                    cells[q].played = cells[q].empty = True
                elif question.get("auction") and auctions_left > 0:
                    cells[q].auction = True
                    auctions_left -= 1
        topics.append(Topic(name, cells))
    return Round(index, spec.kind, topics, spec.auctions if t.reg.auctions else 0,
                 pack_round=index if planned is not None else None)


def set_topics(t: Table, names: tuple[str, ...]) -> None:
    """/sg/topics: names for the current round while its board is still full (P3, phases.NEEDS)."""
    st = t.st
    index = st.round.index if st.round is not None else 0
    spec = t.stage.rounds[index]
    if not names:
        raise Refused("/sg/topics needs at least one name")
    if spec.open_size:
        if len(names) < spec.min_topics:
            raise Refused(f"this round needs at least {spec.min_topics} topics, got {len(names)}")
    elif len(names) != spec.topics:
        raise Refused(f"this round has {spec.topics} topics, got {len(names)} names")
    if len(set(names)) != len(names):
        raise Refused("two topics of one round share a name")
    st.round_names[index] = list(names)
    if st.round is not None:
        marked = [(i, j) for i, tp in enumerate(st.round.topics) for j, c in enumerate(tp.cells) if c.auction]
        st.round = build_round(t, index)
        for i, j in marked:
            if i < len(st.round.topics):
                st.round.topics[i].cells[j].auction = True


def start(t: Table) -> None:
    """/sg/game/start: the first round's board, in round_intro; the first chooser by the regulation (G5)."""
    st = t.st
    st.started = True
    st.round = build_round(t, 0)
    move(st, Phase.ROUND_INTRO)
    st.history.append([p.score for p in st.players])
    if t.reg.order == "choice":
        rule = t.reg.first_chooser
        if rule == "lot":
            st.chooser = t.lot("first chooser", st.in_play())
        elif rule == "lowest_score":
            st.chooser = lowest_score(t)


def lowest_score(t: Table) -> int | None:
    """The player with the lowest score chooses; a tie among the lowest is settled by the host (None)."""
    seats = t.st.in_play()
    low = min(t.st.player(s).score for s in seats)
    lowest = [s for s in seats if t.st.player(s).score == low]
    return lowest[0] if len(lowest) == 1 else None


def set_chooser(t: Table, seat: int) -> None:
    if not t.st.player(seat).in_play:
        raise Refused(f"seat {seat} is not playing this round")
    if t.st.chooser == seat:
        raise Refused(f"seat {seat} already holds the choice")
    t.st.chooser = seat


def board_empty(t: Table) -> bool:
    return all(c.played for tp in t.st.round.topics for c in tp.cells)


def next_round(t: Table) -> None:
    """The stage's next round, in round_intro; its chooser by the regulation (G5)."""
    st = t.st
    nxt = st.round.index + 1
    st.round = build_round(t, nxt)
    move(st, Phase.ROUND_INTRO)
    st.question = None
    st.last = None
    if t.reg.order == "choice":
        rule = t.reg.next_chooser
        st.chooser = (t.lot("chooser of round %d" % (nxt + 1), st.in_play()) if rule == "lot"
                      else lowest_score(t) if rule == "lowest_score" else None)


def finish(t: Table, winner: int | None, reason: str | None = None, code: str | None = None) -> None:
    """The game is over. Without a winner, `reason` is for the protocol and `code` for screens."""
    st = t.st
    st.winner = winner
    st.game_over = True
    st.no_winner_reason = reason if winner is None else None
    st.no_winner = code if winner is None else None
    move(st, Phase.GAME_OVER)
    st.question = None
    st.answering = None
    st.screen = "winner"
    for p in st.players:
        p.in_play = True
