"""What a rule handler sees: the state, the regulation, the loaded pack plan and the command's time.

`Ignored` (commands.py) is for a well-formed command that has no effect by the rules (a press after "Время",
BZ8): the game is unchanged and the board logs it. `Refused` is for a command that does not fit; both leave the
state exactly as it was (game.py restores it). Which phase takes which command is phases.py's.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .commands import Refused
from .regulation import Regulation, StageSpec
from .state import Entry, State


@dataclass
class Table:
    st: State
    reg: Regulation
    plan: dict[str, Any] | None
    at: float

    @property
    def now(self) -> float:
        """Clocks started while paused start from the moment of the pause."""
        return self.st.paused_at if self.st.paused else self.at

    @property
    def stage(self) -> StageSpec:
        return self.reg.stage(self.st.stage)

    def need_seat(self, seat: int) -> None:
        if not 1 <= seat <= len(self.st.players):
            raise Refused(f"no seat {seat}: this game has seats 1–{len(self.st.players)}")

    def score(self, seat: int, delta: int, kind: str) -> None:
        """Every score change goes through the ledger, so a score is always the sum of its entries."""
        if delta == 0:
            return
        tiebreak = self.st.round is not None and self.st.round.tiebreak and kind in ("answer", "timeout", "rejudge",
                                                                                       "replace")
        player = self.st.player(seat)
        if tiebreak:
            player.tiebreak_score += delta
        else:
            player.score += delta
        self.st.ledger.append(Entry(seat, delta, kind, tiebreak))

    def count_right(self, seat: int, change: int) -> None:
        """Questions answered right (T-A4 wild cards): tie-break questions do not count."""
        if not (self.st.round is not None and self.st.round.tiebreak):
            self.st.player(seat).rights += change

    def lot(self, what: str, among: list[int], names: list[str] | None = None) -> int:
        """TB4/G5: a lot drawn from the game's seed and the lot's number, so a replay draws the same.
        `names` (a topic lot, TB3): what each of `among` (1-based) stands for, kept with the lot."""
        rng = random.Random(f"{self.st.seed}:{len(self.st.lots)}:{what}")
        result = rng.choice(sorted(among))
        entry = {"what": what, "seed": self.st.seed, "number": len(self.st.lots), "among": sorted(among),
                 "result": result}
        if names is not None:
            entry["names"], entry["choice"] = list(names), names[result - 1]
        self.st.lots.append(entry)
        return result
