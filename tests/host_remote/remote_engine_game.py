"""Drive a real `Session` (the board's engine) step by step, and check the remote's action table against it."""
from __future__ import annotations

import copy

from scoreboard.engine.commands import Refused, make
from scoreboard.session import Session

from host_remote.actions import allowed_actions

# Undo is always offered (the remote cannot know whether there is anything to take back); the board's refusal
# "nothing to undo" is then the right answer, not a wrong button.
ALWAYS_OFFERED = {"undo"}
BOARD_REQUESTS = {"protocol"}   # answered by the board's desk (app/protocol_desk.py), never the engine's


class EngineGame:
    def __init__(self) -> None:
        self.session = Session()
        self.now = 0.0

    def go(self, address: str, *args, step: float = 0.1) -> dict:
        self.now += step
        return self.session.submit(make(self.now, address, *args))

    @property
    def snapshot(self) -> dict:
        return self.session.snapshot()

    def refused_actions(self) -> list[tuple[str, str]]:
        """Try every action the remote offers now on a copy of the session; return those the engine refuses."""
        refused = []
        for action in allowed_actions(self.snapshot):
            if action.key in ALWAYS_OFFERED | BOARD_REQUESTS or not action.enabled:   # a disabled slot is not offered
                continue
            if action.amount is None:
                address, args = action.command()
            else:
                amount = 5 if action.amount == "delta" else action.low
                address, args = action.command(amount)
            trial = copy.deepcopy(self.session)
            try:
                trial.submit(make(self.now + 0.05, address, *args))
            except Refused as error:
                refused.append((action.key, str(error)))
        return refused

    def pass_auction(self) -> None:
        while self.snapshot["phase"] == "auction":
            self.go("/sg/auction/pass", self.snapshot["auction"]["turn"])

    def clear_round(self, visit=None) -> None:
        """Play every remaining cell of a choice round: open it, let time run out (or win the auction); a round
        that still lacks its auction has it waived (AU1 Decision)."""
        if (self.snapshot["round"] or {}).get("auctions_missing"):
            self.go("/sg/auction/waive")
        while self.snapshot["phase"] in ("reveal", "choosing", "round_intro"):
            snapshot = self.snapshot
            cells = [(t, q) for t, topic in enumerate(snapshot["round"]["topics"], 1)
                     for q, cell in enumerate(topic["cells"], 1) if not cell["played"]]
            if not cells:
                return
            if snapshot["chooser"] is None:
                self.go("/sg/chooser", 1)
            self.go("/sg/select", *cells[0])
            if visit:
                visit(self)
            if self.snapshot["phase"] == "auction":
                self.pass_auction()
            if self.snapshot["phase"] == "auction_answer":
                self.go("/sg/judge/right")
                continue
            self.go("/sg/reading/done")
            self.go("/sg/time")
