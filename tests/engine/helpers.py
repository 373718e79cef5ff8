"""A small driver over a real Session for the engine tests: `g.do(at, address, *args)`."""
from __future__ import annotations

from scoreboard.engine import Refused, make
from scoreboard.session import Session


class Play:
    def __init__(self, regulation: str = "novosibirsk-2007", stage: str = "1/9", players: int | None = None,
                 seed: int | None = None, journal=None, start: bool = True, topics=None, chooser: int | None = 1):
        self.session = Session(journal)
        args = [regulation, stage]
        if players is not None or seed is not None:
            args.append(players if players is not None else 3)
        if seed is not None:
            args.append(seed)
        self.t = 0.0
        self.do(0, "/sg/game/new", *args)
        if topics:
            self.do(0, "/sg/topics", *topics)
        if start:
            self.do(0, "/sg/game/start")
            if chooser is not None and self.snap["order"] == "choice" and self.snap["chooser"] is None:
                self.do(0, "/sg/chooser", chooser)

    def do(self, at, address, *args):
        self.t = max(self.t, float(at))
        return self.session.submit(make(at, address, *args))

    def step(self, address, *args, dt=0.5):
        """The next command half a second later."""
        return self.do(self.t + dt, address, *args)

    def refused(self, address, *args, dt=0.5) -> str:
        before = self.session.snapshot()
        try:
            self.session.submit(make(self.t + dt, address, *args))
        except Refused as error:
            assert self.session.snapshot() == before, "a refused command changed the game"
            return str(error)
        raise AssertionError(f"{address} {args} was not refused")

    def wait(self, seconds):
        self.t += seconds
        self.session.advance(self.t)
        return self.snap

    @property
    def snap(self):
        return self.session.snapshot()

    def scores(self):
        return [p["score"] for p in self.snap["players"]]

    def player(self, seat):
        return self.snap["players"][seat - 1]

    # common sequences
    def answer(self, topic, index, seat, verdict="right"):
        """Choice mode: open a cell, read it, seat presses in the window, the host judges."""
        self.step("/sg/select", topic, index)
        self.step("/sg/reading/done")
        self.step("/sg/button", seat)
        return self.step(f"/sg/judge/{verdict}")

    def board_done(self):
        snap = self.snap
        return snap["phase"] == "reveal" and all(c["played"] for t in snap["round"]["topics"] for c in t["cells"])

    def play_out_in_order(self, kind=None):
        """Sequential play (G4): every question of the round closes unanswered ("Время"), up to the last reveal
        of the round of `kind` (default: the current round)."""
        steps = {"round_intro": "/sg/next", "topic_intro": "/sg/next", "reveal": "/sg/next",
                 "reading": "/sg/reading/done", "buzz_window": "/sg/time"}
        while not (self.board_done() and kind in (None, self.snap["round"]["kind"])):
            self.step(steps[self.snap["phase"]])

    def finish_round(self, corrections=None):
        """Choice mode: every unplayed cell closes unanswered, the host corrects scores by `corrections`
        ({seat: delta}, G8), then /sg/next ends the round. A round that still lacks its auction has it waived
        first (AU1 Decision)."""
        if self.snap["round"]["auctions_missing"]:
            self.step("/sg/auction/waive")
        for k, topic in enumerate(self.snap["round"]["topics"], start=1):
            for q, cell in enumerate(topic["cells"], start=1):
                if not cell["played"]:
                    self.unanswered(k, q)
        for seat, delta in (corrections or {}).items():
            self.step("/sg/score/adjust", seat, delta, "t")
        return self.step("/sg/next")

    def unanswered(self, topic, index):
        self.step("/sg/select", topic, index)
        self.step("/sg/reading/done")
        return self.step("/sg/time")
