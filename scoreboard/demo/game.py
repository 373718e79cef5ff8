"""The demo's game on a bare session — no board, no links, no clock — and the narrator that prints it.

The scene tests, screenshots and the display bench use `play()` to get every snapshot of a whole game in a fraction
of a second; `scoreboard demo` plays the same story on the board's real path (demo.py).
"""
from __future__ import annotations

from scoreboard.demo.simulated import Director, Step
from scoreboard.engine.commands import make
from scoreboard.engine.phases import Phase


def _command(at: float, step: Step):
    return make(at, step.address, *step.args, data=step.data)


def _scores(snap: dict) -> str:
    return ", ".join(f"{p['name']} {p['score']}" for p in snap["players"])


class Narrator:
    """Prints what a viewer would notice: phase changes, results, the winner."""

    def __init__(self, out=print):
        self.out = out
        self.phase = None

    def step(self, at: float, step: Step) -> None:
        if step.note:
            self.out(f"{at:8.1f}s  {step.note}: {step.address} {' '.join(map(str, step.args))}".rstrip())

    def snapshot(self, at: float, snap: dict) -> None:
        phase = snap.get("phase")
        if phase == self.phase:
            return
        self.phase = phase
        extra = ""
        if phase == Phase.ROUND_INTRO:
            rnd = snap["round"]
            extra = f" — round {rnd['index'] + 1} ({rnd['kind']}{', tie-break' if rnd.get('tiebreak') else ''})"
        elif phase == Phase.REVEAL:
            last = snap.get("last") or {}
            answers = ", ".join(f"seat {a['seat']} {a['verdict']} {a['delta']:+d}" for a in last.get("answers") or [])
            extra = f" — {answers or 'nobody answered'}; scores: {_scores(snap)}"
        elif phase == Phase.FINAL_STAKES:
            extra = f" — finalists {snap['final']['eligible']}; scores: {_scores(snap)}"
        elif phase == Phase.GAME_OVER:
            winner = snap.get("winner")
            name = next((p["name"] for p in snap["players"] if p["seat"] == winner), None)
            extra = (f" — WINNER: {name} (seat {winner})" if winner else
                     f" — no winner ({snap.get('no_winner_reason')})") + f"; scores: {_scores(snap)}"
        self.out(f"{at:8.1f}s  phase {phase}{extra}")


def play(session, director: Director, on_event=None, limit: int = 5000) -> dict:
    """Drive `session` to the end of the game on a simulated clock. `on_event(at, snap, step)` after each change."""
    at = 0.0
    for step in director.opening():
        at += step.delay
        session.submit(_command(at, step))
        if on_event:
            on_event(at, session.snapshot(), step)
    for _ in range(limit):
        snap = session.snapshot()
        step = director.decide(snap)
        deadline = session.next_deadline()
        if step is None and deadline is None:
            return snap  # game over (or stuck with nothing to do: the caller checks game_over)
        due = at + step.delay if step is not None else None
        if deadline is not None and (due is None or deadline <= due):
            at = max(at, deadline)
            session.advance(at)
            if on_event:
                on_event(at, session.snapshot(), None)
            continue
        at = due
        session.submit(_command(at, step))
        if on_event:
            on_event(at, session.snapshot(), step)
    raise RuntimeError("the demo game did not end")
