"""What comes next between questions: after a round's intro, after a reveal, after a round (G4, G7, AU1, FN1, TB5).

The one module above the rule modules: it reads where the game stands and hands it to the module whose rule takes it
on (question, rounds, final, tiebreak); none of them imports it, so the rules form no circle.
"""
from __future__ import annotations

from .auction import missing
from .commands import Refused
from .final import open_final
from .phases import Phase, move
from .question import next_in_order
from .rounds import board_empty, next_round
from .table import Table
from .tiebreak import decide, settle_tiebreak


def after_round_intro(t: Table) -> None:
    """The round's board has been shown: the chooser chooses (choice), or the first topic is announced (G4)."""
    if t.reg.order == "choice":
        move(t.st, Phase.CHOOSING)
    else:
        next_in_order(t)


def after_reveal(t: Table) -> None:
    """The answer has been shown: the round ends with its last question (G7), else the chooser chooses, else the
    next question in order (G4)."""
    if board_empty(t):
        end_of_round(t)
    elif t.reg.order == "choice":
        move(t.st, Phase.CHOOSING)
    else:
        next_in_order(t)


def end_of_round(t: Table) -> None:
    """After the last question of a round: next round, final round, tie-break or the end (G7, FN1)."""
    st = t.st
    if st.round.tiebreak:
        settle_tiebreak(t)
        return
    if missing(t):
        raise Refused("the round has had no auction question (AU1): confirm that it goes without its auction "
                      "(waive it) or undo to the last question and open it as the auction")
    if st.round.index + 1 < len(t.stage.rounds):
        next_round(t)
        return
    if t.stage.final:
        open_final(t)
        return
    decide(t, st.seats())
