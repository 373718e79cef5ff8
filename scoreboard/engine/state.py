"""The game's state: plain data that the handlers change and `snapshot()` turns into PROTOCOL.md §3 JSON.

Nothing here knows the rules; it only holds what they need. The state is pickled for undo checkpoints,
so it holds no references to the regulation or the pack (those are looked up by name / index).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .phases import Phase
from .photo import PhotoFinish


@dataclass
class Player:
    seat: int
    name: str
    score: int = 0
    tiebreak_score: int = 0     # points of extra rounds/topics/questions: decide the winner only (TB1–TB3)
    answered: bool = False      # answered the open question (BZ4)
    pressed: bool = False       # pressed on the open question (BZ4, america)
    locked_until: float | None = None   # false-start lockout end (BZ7)
    in_play: bool = True        # takes part in the current round (tie-breaks: only the tied players)
    rights: int = 0             # questions answered right, tie-breaks excluded (T-A4 wild-card tie-break)


@dataclass
class Cell:
    value: int
    played: bool = False
    auction: bool = False
    empty: bool = False         # the pack's empty cell (SIGame price −1): played from the start, nothing to play (G7)


@dataclass
class Topic:
    name: str
    cells: list[Cell]
    reserve_used: bool = False
    pool: int | None = None     # a tie-break topic: its index in the pack's tie-break pool (tiebreak.py)
    offset: int = 0             # … and its first question there (extra questions take one at a time)
    planned: list | None = None     # … and the pack's questions for its cells (the host reads them)


@dataclass
class Round:
    index: int                  # position in the stage's rounds; tie-break rounds follow them
    kind: str                   # "blue", "red", or "tiebreak"
    topics: list[Topic]
    auctions: int               # auction cells allowed (AU1)
    tiebreak: bool = False
    topic: int | None = None    # sequential play: 1-based topic being played
    pack_round: int | None = None   # which plan round the topics came from
    auction_waived: bool = False    # AU1 Decision: the host confirmed this round goes without (all) its auctions


@dataclass
class Answer:
    seat: int
    verdict: str                # "right" | "wrong"
    delta: int


@dataclass
class Question:
    round: int
    topic: int                  # 1-based
    index: int                  # 1-based
    value: int
    kind: str = "normal"        # normal | auction | extra
    reading: bool = True        # the host is still reading (BZ1)
    reading_done: bool = False  # reading ended at least once (BZ6: a restart then opens a new window)
    deadline: float | None = None
    deadline_kind: str | None = None    # window | answer | auction_answer
    duration: float | None = None       # the running clock's full length (for a timer bar)
    answer_started: float | None = None
    extended: float = 0.0
    answers: list[Answer] = field(default_factory=list)
    chooser_at_open: int | None = None
    replaced: bool = False
    stake: int | None = None    # auction stake (AU5)
    media_at: float | None = None       # the media clock: engine time of position 0 while playing (media.py)
    media_paused: float | None = None   # …or the position it is paused at
    clarify: int = 0            # «Уточните» asked of the current answer (BZ10)


@dataclass
class Resolved:
    """The last resolved question, kept for re-judging (G8) and replacement (G9)."""
    question: Question
    chooser_after: int | None


@dataclass
class Auction:
    nominal: int
    stake: int
    holder: int
    order: list[int]
    turn: int | None
    passed: list[int] = field(default_factory=list)
    allin: bool = False


@dataclass
class Final:
    kind: str                   # final_round | super_question
    topic: str | None
    eligible: list[int]
    stakes: dict[int, int] = field(default_factory=dict)
    deadline: float | None = None
    duration: float | None = None
    writing: bool = False
    verdicts: dict[int, str] = field(default_factory=dict)
    revealed: list[int] = field(default_factory=list)


@dataclass
class Entry:
    """One line of the score ledger: every score is the sum of its entries."""
    seat: int
    delta: int
    kind: str                   # answer | auction | final | adjust | rejudge | replace | timeout
    tiebreak: bool = False


@dataclass
class State:
    regulation: str
    stage: str
    players: list[Player]
    seed: int = 0
    phase: Phase = Phase.SETUP
    paused: bool = False
    paused_at: float | None = None
    time: float = 0.0
    chooser: int | None = None
    answering: int | None = None
    buttons_manual: bool = False
    round: Round | None = None
    round_names: dict[int, list[str]] = field(default_factory=dict)   # /sg/topics per round index
    question: Question | None = None
    last: Resolved | None = None
    auction: Auction | None = None
    final: Final | None = None
    final_topic: str | None = None
    plan: int | None = None     # index of the loaded pack plan in Game.plans
    winner: int | None = None
    game_over: bool = False
    no_winner_reason: str | None = None
    no_winner: str | None = None   # a code for screens: no_positive | shared_first | still_tied
    shared: list[int] = field(default_factory=list)   # seats sharing first place where the stage has no tie-break
    screen: str = "board"
    adjustments: list[dict[str, Any]] = field(default_factory=list)
    lots: list[dict[str, Any]] = field(default_factory=list)
    history: list[list[int]] = field(default_factory=list)
    ledger: list[Entry] = field(default_factory=list)
    tiebreaks: int = 0          # extra rounds/topics/questions played so far
    pool_used: list[tuple[int, int]] = field(default_factory=list)   # (pool topic, question) taken by tie-breaks
    warnings: list[str] = field(default_factory=list)   # what the host must know about the loaded pack (AU1, TB)
    stake_changes: list[dict[str, Any]] = field(default_factory=list)   # FN5: stakes a correction lowered
    started: bool = False
    photo: PhotoFinish = field(default_factory=PhotoFinish)   # the presses, for the host only (BZ11)

    def player(self, seat: int) -> Player:
        return self.players[seat - 1]

    def seats(self) -> list[int]:
        return [p.seat for p in self.players]

    def in_play(self) -> list[int]:
        return [p.seat for p in self.players if p.in_play]
