"""The game's phases, which commands each phase accepts and which phases it moves on to: tables read before anything
changes.

Theory of operation. A game is always in exactly one `Phase` (the snapshot's `phase`). As h11's `_state.py` keeps
every (state, event) pair of a connection in one table that it consults before anything changes, `ACCEPTS` says
for every phase which commands it takes, and `admit` consults it once, before the handler, in this order:

1. a command the phase does not take, where the phase has its own word for that (`NOT_NOW[command, phase]`, then
   «the game has not started» in setup and «the game is over» at the end), is refused (`NotNow`);
2. every seat argument must be a seat of this game;
3. the `NEEDS` rows of the command that hold in any phase (not paused, manual buttons, a full board…);
4. a command the phase does not take is refused (`NotNow`) with the command's own reason or «not now: …» naming
   the phases that take it; a press is ignored instead (BZ8: buttons are simply not live);
5. the `NEEDS` rows of the command for this phase (the auction question still being read, a chooser…).

Handlers never look at the phase to refuse: what is left to them is the rules about the command's arguments
(which cell, how much, whose turn) and where the game goes next (a wrong answer leads to after_wrong or to reveal:
rules, not table) — and they go there only through `move`, which finds the move in `MOVES` (which phases each
phase moves on to, and when) before the phase changes. A move `MOVES` does not list is a bug of the engine
(`InternalError`; `Game.apply` rolls the command back), never a refusal. Nothing else assigns a phase: a game
begins in `setup` (a new `State`), and a state brought back whole (a rolled-back command, undo's checkpoint,
`Game.restore_point`) brings its own phase with it — a restore, not a move.

Refusal texts are the protocol's; the remote matches some of them. docs/ENGINE.md prints these tables
(`scoreboard phases --markdown`, `markdown()` here) and tests/engine/test_phases.py keeps the two equal.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Callable

from .commands import SPEC, Ignored, InternalError, NotNow, Refused

if TYPE_CHECKING:
    from .state import State
    from .table import Table


class Phase(StrEnum):
    """Values are the snapshot's and the journal's words: a member is its string (json, ==, f-strings)."""
    SETUP = "setup"
    ROUND_INTRO = "round_intro"
    CHOOSING = "choosing"
    TOPIC_INTRO = "topic_intro"
    READING = "reading"
    BUZZ_WINDOW = "buzz_window"
    ANSWERING = "answering"
    AFTER_WRONG = "after_wrong"
    REVEAL = "reveal"
    AUCTION = "auction"
    AUCTION_ANSWER = "auction_answer"
    FINAL_STAKES = "final_stakes"
    FINAL_ANSWER = "final_answer"
    FINAL_REVEAL = "final_reveal"
    GAME_OVER = "game_over"


P = Phase
LIVE = frozenset({P.READING, P.BUZZ_WINDOW})                        # a press wins the right to answer (BZ3)
SHOWN = LIVE | {P.ANSWERING, P.AFTER_WRONG, P.AUCTION_ANSWER}       # the open question's media is on screen
OPEN = SHOWN | {P.AUCTION}                                          # a question is open
BOARD = frozenset({P.ROUND_INTRO, P.CHOOSING, P.TOPIC_INTRO})       # the round's board, between questions
FINAL = frozenset({P.FINAL_STAKES, P.FINAL_ANSWER, P.FINAL_REVEAL})
# Where the host may put the photo finish on the hall's screens (BZ11, engine/photo_hall.py): a question that took
# presses is open, or between questions; never in an auction, the final or outside play (no presses there).
HALL_PHOTO = frozenset({P.READING, P.BUZZ_WINDOW, P.ANSWERING, P.AFTER_WRONG, P.REVEAL}) | BOARD

# Taken in every phase, the end included; then while the game is on; the table below lists the rest.
ALWAYS = frozenset({"/sg/undo", "/sg/player/name", "/sg/pause", "/sg/unpause", "/sg/screen"})
PLAYING = ALWAYS | {"/sg/buttons/manual", "/sg/score/adjust"}
BEFORE_FINAL = {"/sg/final/topic"}      # the final topic may be set until the final question is read
QUESTION = {"/sg/button", "/sg/question/replace", "/sg/media/pause", "/sg/media/play", "/sg/media/replay"}
CHOICE = {"/sg/chooser", "/sg/select"}
PHOTO = {"/sg/photo/show", "/sg/photo/hide"}     # the photo finish on the hall's screens (BZ11): HALL_PHOTO phases

ACCEPTS: dict[Phase, frozenset[str]] = {
    P.SETUP: ALWAYS | BEFORE_FINAL | {"/sg/game/new", "/sg/pack/load", "/sg/topics", "/sg/game/start",
                                      "/sg/chooser", "/sg/next", "/sg/buttons/manual"},
    P.ROUND_INTRO: PLAYING | PHOTO | BEFORE_FINAL | CHOICE | {"/sg/pack/load", "/sg/topics", "/sg/next",
                                                              "/sg/auction/waive"},
    P.CHOOSING: PLAYING | PHOTO | BEFORE_FINAL | CHOICE | {"/sg/topics", "/sg/auction/waive"},
    P.TOPIC_INTRO: PLAYING | PHOTO | BEFORE_FINAL | {"/sg/topics", "/sg/next", "/sg/auction/waive"},
    P.READING: PLAYING | PHOTO | BEFORE_FINAL | QUESTION | {"/sg/next", "/sg/reading/done", "/sg/time", "/sg/assign"},
    P.BUZZ_WINDOW: PLAYING | PHOTO | BEFORE_FINAL | QUESTION | {"/sg/next", "/sg/time", "/sg/assign", "/sg/clock"},
    P.ANSWERING: PLAYING | PHOTO | BEFORE_FINAL | QUESTION | {"/sg/judge/right", "/sg/judge/wrong", "/sg/answer/extend",
                                                      "/sg/answer/clarify", "/sg/clock", "/sg/answerer"},
    P.AFTER_WRONG: PLAYING | PHOTO | BEFORE_FINAL | QUESTION | {"/sg/next", "/sg/resume", "/sg/time", "/sg/assign"},
    P.REVEAL: PLAYING | PHOTO | BEFORE_FINAL | CHOICE | {"/sg/next", "/sg/auction/waive", "/sg/rejudge",
                                                 "/sg/question/replace"},
    P.AUCTION: PLAYING | BEFORE_FINAL | {"/sg/auction/bid", "/sg/auction/allin", "/sg/auction/pass",
                                         "/sg/question/replace"},
    P.AUCTION_ANSWER: PLAYING | BEFORE_FINAL | (QUESTION - {"/sg/button"}) | {
        "/sg/next", "/sg/reading/done", "/sg/judge/right", "/sg/judge/wrong", "/sg/answer/extend", "/sg/clock"},
    P.FINAL_STAKES: PLAYING | BEFORE_FINAL | {"/sg/next", "/sg/final/stake", "/sg/final/start"},
    P.FINAL_ANSWER: PLAYING | {"/sg/next", "/sg/time", "/sg/clock"},
    P.FINAL_REVEAL: PLAYING | {"/sg/next", "/sg/final/judge", "/sg/final/reveal"},
    P.GAME_OVER: ALWAYS | {"/sg/game/new"},
}

# Why a command does not fit, where «not now: the game is in …, this needs …» would not say it best:
# (command, phase) for one phase, (command, None) for every phase that does not take it.
_ANSWERING = "a player is answering: judge the answer (/sg/judge/right or /sg/judge/wrong)"
_NO_MEDIA = "no question with a video or a sound is open"
NOT_NOW: dict[tuple[str, Phase | None], str] = {
    ("/sg/game/new", None): "a game is in progress: finish it (or undo) before /sg/game/new",
    ("/sg/pack/load", None): "a pack can be loaded only before the game starts or while the first board is full",
    ("/sg/pack/load", P.GAME_OVER): "a pack can be loaded only before the game starts or while the first board is full",
    ("/sg/next", P.CHOOSING): "select a cell (/sg/select)",
    ("/sg/next", P.ANSWERING): "judge the answer first",
    ("/sg/next", P.AUCTION): "the auction is on: bid or pass",
    ("/sg/time", P.ANSWERING): _ANSWERING,
    ("/sg/time", P.AUCTION_ANSWER): _ANSWERING,
    ("/sg/final/topic", None): "the final topic can be set only before the final question",
    ("/sg/rejudge", None): "only the last resolved question can be re-judged, before the next one opens (G8)",
    ("/sg/question/replace", None): "no question to replace: only the open or the last resolved question (G9)",
    ("/sg/media/pause", None): _NO_MEDIA,
    ("/sg/media/play", None): _NO_MEDIA,
    ("/sg/media/replay", None): _NO_MEDIA,
    ("/sg/clock", None): "no deadline has passed",
    ("/sg/button", P.GAME_OVER): "the game is over",
    ("/sg/answerer", None): "the other player of a close call can be named only while the press's winner is "
                            "answering, before the verdict (BZ11)",
    ("/sg/photo/show", None): "the photo finish goes on the hall's screens only during a question that takes presses "
                              "or between questions (BZ11)",
    ("/sg/photo/hide", None): "the photo finish is not on the hall's screens",
}
OUTSIDE_PLAY = {P.SETUP: "the game has not started: /sg/game/start first", P.GAME_OVER: "the game is over"}
# A press is a fact, not a request: outside the phases that take it, it is ignored (logged), never refused (BZ8).
IGNORED = {"/sg/button": "buttons are not live in {phase} (BZ8)"}


# Which phases each phase moves on to, and when: every move the handlers make (tests/engine/test_moves.py plays
# each one). Left out on purpose: topic_intro → auction — a sequential regulation with auctions cannot open one
# (the auction starts with the chooser, AU3, and sequential play has none), so that move is a bug either way.
_REPLACED = "the question replaced by the topic's reserve (/sg/question/replace, G9)"
MOVES: dict[Phase, dict[Phase, str]] = {
    P.SETUP: {P.ROUND_INTRO: "the game starts (/sg/game/start, /sg/next)"},
    P.ROUND_INTRO: {P.CHOOSING: "/sg/next where the chooser chooses (G4)",
                    P.TOPIC_INTRO: "/sg/next in sequential play: the first topic (G4)",
                    P.READING: "a cell opens (/sg/select)",
                    P.AUCTION: "an auction cell opens (/sg/select, AU1)"},
    P.CHOOSING: {P.READING: "a cell opens (/sg/select)",
                 P.AUCTION: "an auction cell opens (/sg/select, AU1)"},
    P.TOPIC_INTRO: {P.READING: "/sg/next: the topic's next question (G4)",
                    P.TOPIC_INTRO: "/sg/next past a topic whose cells the pack left empty (G7)"},
    P.READING: {P.BUZZ_WINDOW: "the reading is done: the window opens (/sg/reading/done, /sg/next, BZ2)",
                P.ANSWERING: "a press, or the host names who answers (/sg/button, /sg/assign, BZ3, BZ9)",
                P.REVEAL: "«Время» (/sg/time, BZ2)",
                P.READING: _REPLACED},
    P.BUZZ_WINDOW: {P.ANSWERING: "a press, or the host names who answers (/sg/button, /sg/assign, BZ3, BZ9)",
                    P.REVEAL: "«Время», or the window runs out (/sg/time, /sg/next, /sg/clock, BZ2)",
                    P.READING: _REPLACED},
    P.ANSWERING: {P.AFTER_WRONG: "a wrong answer, or the answer time runs out (/sg/judge/wrong, /sg/clock, BZ5)",
                  P.REVEAL: "a right answer, or a wrong one that leaves nobody to press (/sg/judge/*, /sg/clock, BZ4)",
                  P.READING: _REPLACED,
                  P.ANSWERING: "in a close call the host names the other player instead (/sg/answerer, BZ11)"},
    P.AFTER_WRONG: {P.READING: "the host restarts a question not yet read to the end (/sg/resume, /sg/next, BZ6), "
                                "or " + _REPLACED,
                    P.BUZZ_WINDOW: "the host restarts: a new window (/sg/resume, /sg/next, BZ6)",
                    P.ANSWERING: "the host names who answers (/sg/assign, BZ9)",
                    P.REVEAL: "«Время» (/sg/time, BZ2)"},
    P.REVEAL: {P.CHOOSING: "/sg/next: the chooser chooses (G6)",
               P.READING: "a cell opens (/sg/select, /sg/next in sequential play), or " + _REPLACED,
               P.AUCTION: "an auction cell opens (/sg/select, AU1), or the auction question replaced (G9)",
               P.TOPIC_INTRO: "/sg/next in sequential play: the next topic (G4)",
               P.ROUND_INTRO: "/sg/next after the round's last question: the next round, or a tie-break "
                              "(G7, TB1–TB3)",
               P.FINAL_STAKES: "/sg/next after the last round: the final round (FN1)",
               P.GAME_OVER: "/sg/next after the last round: the winner, or no winner (FN1, TB5)"},
    P.AUCTION: {P.AUCTION_ANSWER: "nobody is left to outbid the holder, who answers (AU3, AU5, AU6)",
                P.AUCTION: "the auction question replaced: the bidding starts again (G9)"},
    P.AUCTION_ANSWER: {P.REVEAL: "the answer judged, or its time runs out (/sg/judge/*, /sg/clock, AU5)",
                       P.AUCTION: "the auction question replaced: the bidding starts again (G9)"},
    P.FINAL_STAKES: {P.FINAL_ANSWER: "every stake is in: the question is read, the writing clock runs "
                                     "(/sg/final/start, /sg/next, FN2)"},
    P.FINAL_ANSWER: {P.FINAL_REVEAL: "the writing ends (/sg/time, /sg/next, /sg/clock)"},
    P.FINAL_REVEAL: {P.GAME_OVER: "the last reveal decides the game (/sg/final/reveal, /sg/next, FN4, TB5)",
                     P.ROUND_INTRO: "the last reveal leaves a tie for first: a tie-break (TB1–TB3)"},
    P.GAME_OVER: {},                    # a new game replaces the state (/sg/game/new): not a move
}


def move(st: "State", to: Phase) -> None:
    """The one way the game's phase changes: a move MOVES does not list is a bug of the engine, not a refusal."""
    if to not in MOVES[st.phase]:
        raise InternalError(f"the engine moved the game from {st.phase} to {to}, which phases.MOVES does not list")
    st.phase = to


@dataclass(frozen=True)
class Needs:
    """A command a phase takes may need more of the game's state; `phases` None: whatever the phase, checked
    before the phase is (step 3 above)."""
    command: str
    phases: frozenset[Phase] | None
    what: str                              # what must hold, in words (docs/ENGINE.md prints it)
    holds: Callable[["Table"], bool]
    reason: str                            # the refusal when it does not hold
    ignored: bool = False                  # a press: ignored (logged) instead of refused


def _board_full(t: "Table") -> bool:
    """No cell played yet (a pack's empty cell is played from the start and does not count, G7)."""
    r = t.st.round
    return r is None or not (r.tiebreak or any(c.played and not c.empty for tp in r.topics for c in tp.cells))


def _first_board_full(t: "Table") -> bool:
    return t.st.round.index == 0 and _board_full(t)


def _being_read(t: "Table") -> bool:
    return t.st.question.reading


NEEDS: tuple[Needs, ...] = (
    Needs("/sg/pause", None, "the game is not paused", lambda t: not t.st.paused, "the game is paused already"),
    Needs("/sg/unpause", None, "the game is paused", lambda t: t.st.paused, "the game is not paused"),
    Needs("/sg/clock", None, "the game is not paused", lambda t: not t.st.paused, "the game is paused: no clock runs"),
    Needs("/sg/button", None, "the game is not paused", lambda t: not t.st.paused, "the game is paused", True),
    Needs("/sg/button", None, "the buttons are not in manual mode", lambda t: not t.st.buttons_manual,
          "manual mode: the host names who answers (BZ9)", True),
    Needs("/sg/assign", None, "the buttons are in manual mode", lambda t: t.st.buttons_manual,
          "buttons are live: switch to manual mode first (/sg/buttons/manual 1, BZ9)"),
    Needs("/sg/select", None, "the regulation plays by choice", lambda t: t.reg.order == "choice",
          "this regulation plays topics in order: use /sg/next (G4)"),
    Needs("/sg/chooser", None, "the regulation plays by choice", lambda t: t.reg.order == "choice",
          "this regulation plays topics in order: there is no chooser (G4)"),
    Needs("/sg/topics", None, "the round's board is full (not a tie-break)", _board_full,
          "topics can be named only while the round's board is still full"),
    Needs("/sg/pack/load", frozenset({P.ROUND_INTRO}), "the first round's board is full", _first_board_full,
          "a pack can be loaded only before the game starts or while the first board is full"),
    Needs("/sg/select", frozenset({P.ROUND_INTRO, P.CHOOSING, P.REVEAL}), "someone holds the choice",
          lambda t: t.st.chooser is not None,
          "nobody holds the choice: the host sets the chooser first (/sg/chooser, G5)"),
    Needs("/sg/reading/done", frozenset({P.AUCTION_ANSWER}), "the question is being read", _being_read,
          "the auction question has been read already"),
    Needs("/sg/next", frozenset({P.AUCTION_ANSWER}), "the question is being read", _being_read,
          "judge the answer first"),
    Needs("/sg/answer/extend", frozenset({P.ANSWERING, P.AUCTION_ANSWER}), "an answer clock runs",
          lambda t: t.st.question.deadline is not None, "no answer clock is running: nothing to extend (BZ5)"),
    Needs("/sg/photo/show", frozenset({P.READING, P.BUZZ_WINDOW}), "the buttons are not live (paused, manual mode)",
          lambda t: t.st.paused or t.st.buttons_manual,
          "the buttons are live: the photo finish goes on the hall's screens once a player answers or the race "
          "stops (BZ11)"),
    Needs("/sg/photo/hide", None, "the photo finish is on the hall's screens", lambda t: t.st.photo.shown is not None,
          "the photo finish is not on the hall's screens"),
    Needs("/sg/answer/clarify", frozenset({P.ANSWERING}), "the regulation has «Уточните» (timers.clarify)",
          lambda t: t.reg.clarify, "this regulation has no «Уточните»: judge the answer (BZ10)"),
)
_NEEDS: dict[str, tuple[Needs, ...]] = {}
for _row in NEEDS:
    _NEEDS[_row.command] = _NEEDS.get(_row.command, ()) + (_row,)
_SEATS = {address: [i for i, kind in enumerate(spec) if kind.rstrip("?") == "seat"] for address, spec in SPEC.items()}


def accepted_in(address: str) -> list[Phase]:
    return [phase for phase in Phase if address in ACCEPTS[phase]]


def not_now(address: str, phase: Phase) -> str:
    """The refusal of a command the phase does not take (step 4)."""
    return NOT_NOW.get((address, None)) or (
        f"not now: the game is in {phase}, this needs {' or '.join(accepted_in(address))}")


def admit(t: "Table", address: str, args: tuple) -> None:
    """Refuse (or, for a press, ignore) a command the game's phase and state do not take; see the top."""
    phase = t.st.phase
    taken = address in ACCEPTS[phase]
    if not taken:
        why = NOT_NOW.get((address, phase))
        if why is None and address not in IGNORED:
            why = OUTSIDE_PLAY.get(phase)
        if why is not None:
            raise NotNow(why)
    for i in _SEATS[address]:
        if i < len(args):
            t.need_seat(args[i])
    rows = _NEEDS.get(address, ())
    _check(t, [row for row in rows if row.phases is None])
    if not taken:
        if address in IGNORED:
            raise Ignored(IGNORED[address].format(phase=phase))
        raise NotNow(not_now(address, phase))
    _check(t, [row for row in rows if row.phases is not None and phase in row.phases])


def _check(t: "Table", rows: list[Needs]) -> None:
    for row in rows:
        if not row.holds(t):
            raise (Ignored if row.ignored else Refused)(row.reason)


# -- the tables as docs/ENGINE.md prints them -------------------------------------------------------------------------

def _code(items) -> str:
    return ", ".join(f"`{item}`" for item in items)


def _phases(phases) -> str:
    return "any phase" if phases is None else _code(p for p in Phase if p in phases)


def markdown() -> str:
    """The section of docs/ENGINE.md, generated: commands in the vocabulary's order (commands.SPEC)."""
    order = list(SPEC)
    lines = ["## Phases and the commands each accepts", "",
             "<!-- generated from scoreboard/engine/phases.py by `scoreboard phases --markdown`; "
             "tests/engine/test_phases.py fails when this differs -->", "",
             f"Every phase accepts {_code(c for c in order if c in ALWAYS)}; every phase but `setup` and "
             f"`game_over` also {_code(c for c in order if c in PLAYING - ALWAYS)}. Each row lists the rest.", "",
             "| phase | accepts also |", "|---|---|"]
    for phase in Phase:
        rest = ACCEPTS[phase] - (ALWAYS if phase in (P.SETUP, P.GAME_OVER) else PLAYING)
        lines.append(f"| `{phase}` | {_code(c for c in order if c in rest) or '—'} |")
    lines += ["", "A command its phase does not accept is refused and changes nothing, with the first that "
              "applies of: its own reason in that phase (below); in `setup` "
              f"«{OUTSIDE_PLAY[P.SETUP]}», in `game_over` «{OUTSIDE_PLAY[P.GAME_OVER]}»; its own reason "
              "elsewhere (below); «not now: the game is in PHASE, this needs PHASES» (the phases that accept it). "
              "A press (`/sg/button`) is ignored and logged instead (BZ8): "
              f"«{IGNORED['/sg/button'].format(phase='PHASE')}».", "",
              "| command | in | refused with |", "|---|---|---|"]
    for (command, phase), why in sorted(NOT_NOW.items(), key=lambda kv: (order.index(kv[0][0]),
                                                                          -1 if kv[0][1] is None else
                                                                          list(Phase).index(kv[0][1]))):
        where = "elsewhere" if phase is None else f"`{phase}`"
        lines.append(f"| `{command}` | {where} | «{why}» |")
    lines += ["", "A command its phase accepts may need more of the game's state. Rows for any phase are checked "
              "before the phase; the others once the phase accepts the command.", "",
              "| command | in | needs | else |", "|---|---|---|---|"]
    for row in sorted(NEEDS, key=lambda r: (order.index(r.command), r.phases is not None)):
        outcome = "ignored" if row.ignored else "refused"
        lines.append(f"| `{row.command}` | {_phases(row.phases)} | {row.what} | {outcome}: «{row.reason}» |")
    lines += ["", "### Where each phase moves on to", "",
              "A phase changes only to one of the phases its row lists (`phases.MOVES`); a move the table does not "
              "list is a bug of the engine (`InternalError`, the command rolled back), never a refusal. A new game "
              "begins in `setup`; undo and a rolled-back command bring a saved state back whole, phase and all. "
              "Not listed: `topic_intro` → `auction` — a sequential regulation with auctions cannot open one (the "
              "auction starts with the chooser, AU3, and sequential play has none): the engine raises "
              "`InternalError` there.", "",
              "| phase | moves on to | when |", "|---|---|---|"]
    for phase in Phase:
        nexts = [p for p in Phase if p in MOVES[phase]] or [None]
        for to in nexts:
            when = "— (a new game replaces the state: `/sg/game/new`)" if to is None else MOVES[phase][to]
            lines.append(f"| `{phase}` | {'—' if to is None else f'`{to}`'} | {when} |")
    return "\n".join(lines) + "\n"


def text() -> str:
    """The tables for a terminal: the commands each phase accepts, one line per phase; then where it moves on to."""
    accepts = "".join(f"{phase:<15} {' '.join(c for c in SPEC if c in ACCEPTS[phase])}\n" for phase in Phase)
    moves = "".join(f"{phase:<15} → {' '.join(p for p in Phase if p in MOVES[phase]) or '—'}\n" for phase in Phase)
    return accepts + "\n" + moves
