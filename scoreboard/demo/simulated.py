"""Simulated players and host for `scoreboard demo`: they watch the snapshot and answer with timed commands.

The director is a policy, not a fixed script: given the current snapshot it says what the next command is and how long
after now it comes, so it follows whatever the engine decides (auto-passes, FN1, tie-breaks). It stages the moments a
demo must show — a press during reading, a wrong answer and a resume, a false start (where the regulation locks one
out), nobody answering, an auction with ВА-БАНК, the final stakes set so that the final ends in a tie, the tie-break —
and otherwise gives right answers to whoever trails, which keeps every score positive and the game close.
"""
from __future__ import annotations

import contextlib
import functools
import json
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from scoreboard.folders import shipped
from scoreboard.regulations import load_regulation

DEMO_PLAN = shipped("assets", "demo", "plan.json")
NAMES = ("Анна Петрова", "Борис Кузнецов", "Вера Смирнова-Оболенская", "Григорий Ли")
DEFAULT_STAGE = {"novosibirsk-2007": "1/9", "america-2005": "final", "samara-2003": "cup"}


@dataclass(frozen=True)
class Step:
    delay: float          # engine seconds after the moment it was decided
    address: str
    args: tuple = ()
    data: object = None
    note: str = ""        # what a viewer should notice (printed by the headless demo)


@functools.lru_cache(maxsize=4)
def _regulation(name: str):
    return load_regulation(name)


def demo_plan(regulation: str, stage: str) -> dict:
    """The built-in Russian pack, cut to the stage's rounds (a samara round would otherwise take every topic)."""
    plan = json.loads(Path(DEMO_PLAN).read_text(encoding="utf-8"))
    spec = _regulation(regulation).stage(stage)
    rounds, used = [], set()
    for i, round_spec in enumerate(spec.rounds):
        source = plan["rounds"][min(i, len(plan["rounds"]) - 1)]
        topics = [t for t in source["topics"] if t["name"] not in used][:round_spec.topics]
        # A stage with more topics than the pack's round (novosibirsk's final: 6 in the red round) borrows the
        # pack's topics no other round of this game plays (G3 needs the full count).
        spare = [t for r in plan["rounds"] for t in r["topics"] if t["name"] not in used and t not in topics]
        topics += spare[:round_spec.topics - len(topics)]
        used.update(t["name"] for t in topics)
        rounds.append({**source, "topics": topics})
    return {**plan, "rounds": rounds}


class Director:
    def __init__(self, regulation: str = "novosibirsk-2007", stage: str | None = None, players: int | None = None,
                 pack: bool = True):
        """`pack=False` plays the same game from topic names alone (P3), as a simulation script can."""
        self.pack = pack
        self.regulation = regulation
        self.reg = _regulation(regulation)
        self.stage = stage or DEFAULT_STAGE.get(regulation) or next(iter(self.reg.stages))
        self.players = players or self.reg.players_default
        self.opened = 0                     # questions opened so far (picks each one's little story)
        self.story: dict[tuple, dict] = {}  # per question: what has happened in its story
        self.shown: set[str] = set()        # one-off moments already staged (screens, pause)
        self.final_plan: dict[int, tuple[int, str]] | None = None
        self.plan = demo_plan(self.regulation, self.stage)

    # -- the start ---------------------------------------------------------------------------------------
    def opening(self) -> list[Step]:
        steps = [Step(0, "/sg/game/new", (self.regulation, self.stage, self.players), note="new game")]
        steps += [Step(0, "/sg/player/name", (seat, NAMES[seat - 1])) for seat in range(1, self.players + 1)]
        if self.pack:
            steps.append(Step(0, "/sg/pack/load", ("builtin:demo",), data=self.plan))
        else:
            steps.append(Step(0, "/sg/topics", self._names(0)))
        steps.append(Step(2.0, "/sg/game/start", note="game starts"))
        return steps

    # -- every later moment ------------------------------------------------------------------------------
    def decide(self, snap: dict) -> Step | None:
        """The next command for this snapshot, or None when only a running clock can move the game."""
        phase = snap.get("phase")
        handler = getattr(self, f"_on_{phase}", None)
        return handler(snap) if handler else None

    def _names(self, index: int) -> tuple[str, ...]:
        return tuple(t["name"] for t in self.plan["rounds"][index]["topics"])

    def _on_round_intro(self, snap: dict) -> Step | None:
        rnd = snap["round"]
        if not self.pack and 0 < rnd["index"] < len(self.plan["rounds"]) and not rnd.get("tiebreak") \
                and f"topics{rnd['index']}" not in self.shown:
            self.shown.add(f"topics{rnd['index']}")
            return Step(1.0, "/sg/topics", self._names(rnd["index"]), note="the red round's topics")
        if rnd["index"] > 0 and not rnd.get("tiebreak") and f"scores{rnd['index']}" not in self.shown:
            if snap.get("screen") != "scores":
                return Step(1.5, "/sg/screen", ("scores",), note="between rounds: the scores")
            self.shown.add(f"scores{rnd['index']}")
            return Step(3.0, "/sg/screen", ("board",))
        if snap.get("screen") not in (None, "board"):
            return Step(1.0, "/sg/screen", ("board",))
        if snap.get("order") == "sequential":
            return Step(3.0, "/sg/next", note="topics announced")
        if snap.get("chooser") is None:
            return Step(2.0, "/sg/chooser", (self._lowest(snap),), note="the host names the chooser")
        return Step(3.0, "/sg/next", note="the board is open")

    def _on_choosing(self, snap: dict) -> Step | None:
        return self._select(snap, 1.5)

    def _on_topic_intro(self, snap: dict) -> Step | None:
        return Step(2.0, "/sg/next")

    def _on_reveal(self, snap: dict) -> Step | None:
        if snap.get("buttons_manual"):
            return Step(1.0, "/sg/buttons/manual", (0,), note="the buttons work again")
        return Step(2.5, "/sg/next")  # choice play: back to the board, where the chooser picks

    def _on_reading(self, snap: dict) -> Step | None:
        story = self._story(snap)
        if story["kind"] == "manual" and not story.get("manual_on"):
            story["manual_on"] = True
            return Step(1.0, "/sg/buttons/manual", (1,), note="the buttons fail: manual mode, на хлопок (BZ9)")
        if story["kind"] == "interrupt" and not story.get("pressed"):
            story["pressed"] = True
            return Step(1.2, "/sg/button", (self._answerer(snap),), note="a press during reading stops it (BZ1)")
        return Step(2.5, "/sg/reading/done")

    def _on_buzz_window(self, snap: dict) -> Step | None:
        story = self._story(snap)
        if snap.get("buttons_manual"):
            seat = self._answerer(snap)
            return Step(1.5, "/sg/assign", (seat,), note="the host names who answers (BZ9)") if seat else None
        if story["kind"] == "silence":
            return None  # nobody presses: the 5 s window closes by itself (BZ2)
        seat = self._answerer(snap)
        if seat is None:
            return None
        return Step(1.3, "/sg/button", (seat,))

    def _on_answering(self, snap: dict) -> Step | None:
        story = self._story(snap)
        if story["kind"] == "extend" and (snap.get("question") or {}).get("deadline") and not story.get("extended"):
            story["extended"] = True
            return Step(1.0, "/sg/answer/extend", (2,), note="the host gives 2 s more (BZ5)")
        wrong_first = story["kind"] in ("wrong", "false_start") and not story.get("wrong_done")
        if wrong_first:
            story["wrong_done"] = True
            return Step(1.8, "/sg/judge/wrong", note="a wrong answer")
        return Step(1.8, "/sg/judge/right")

    def _on_after_wrong(self, snap: dict) -> Step | None:
        story = self._story(snap)
        if story["kind"] == "false_start" and self.reg.false_start_lockout > 0 and not story.get("false_started"):
            story["false_started"] = True
            seat = self._answerer(snap)
            if seat is not None:
                story["false_starter"] = seat
                return Step(0.8, "/sg/button", (seat,), note="a false start: locked out (BZ7)")
        return Step(1.2, "/sg/resume", note="the host resumes (BZ6)")

    def _on_auction(self, snap: dict) -> Step | None:
        a = snap["auction"]
        seat = a.get("turn")
        if seat is None:
            return None
        score = next(p["score"] for p in snap["players"] if p["seat"] == seat)
        if seat == a["order"][0] and a["holder"] == seat and a["stake"] == a["nominal"] and not a["passed"]:
            if score >= a["stake"] + 10:
                return Step(1.5, "/sg/auction/bid", (seat, a["stake"] + 10), note="the chooser raises the stake")
            return Step(1.5, "/sg/auction/pass", (seat,))
        if not a.get("allin") and score > a["nominal"] and score > a["stake"] and "allin" not in self.shown:
            self.shown.add("allin")
            return Step(1.5, "/sg/auction/allin", (seat,), note="ВА-БАНК (AU4)")
        return Step(1.2, "/sg/auction/pass", (seat,))

    def _on_auction_answer(self, snap: dict) -> Step | None:
        if (snap.get("question") or {}).get("reading"):
            return Step(2.0, "/sg/reading/done")
        return Step(3.0, "/sg/judge/right", note="the auction player answers")

    def _on_final_stakes(self, snap: dict) -> Step | None:
        final = snap["final"]
        if not self.pack and not final.get("topic") and self.plan.get("final"):
            return Step(1.0, "/sg/final/topic", (self.plan["final"]["topic"],), note="the final topic")
        if self.final_plan is None:
            self.final_plan = self._plan_final(snap)
        for seat in final["eligible"]:
            if seat not in final["stakes_in"]:
                return Step(1.0, "/sg/final/stake", (seat, self.final_plan[seat][0]), note="a secret stake")
        return Step(2.0, "/sg/final/start", note="the final question: the clock runs")

    def _on_final_answer(self, snap: dict) -> Step | None:
        return None  # everybody writes until the 30 s / 20 s clock ends

    def _on_final_reveal(self, snap: dict) -> Step | None:
        final = snap["final"]
        for seat in final["eligible"]:
            if seat not in final["judged"]:
                return Step(0.8, "/sg/final/judge", (seat, self.final_plan[seat][1]))
        for seat in final["eligible"]:
            if seat not in [r["seat"] for r in final["revealed"]]:
                return Step(2.5, "/sg/final/reveal", (seat,), note="one player revealed")
        return None

    def _on_game_over(self, snap: dict) -> Step | None:
        if "chart" not in self.shown:
            self.shown.add("chart")
            return Step(4.0, "/sg/screen", ("chart",), note="the game's chart")
        return None

    # -- helpers -----------------------------------------------------------------------------------------
    def _story(self, snap: dict) -> dict:
        q = snap.get("question") or {}
        key = (snap["round"]["index"], q.get("topic"), q.get("index"))
        story = self.story.get(key)
        if story is None:
            self.opened += 1
            n = self.opened
            tiebreak = snap["round"].get("tiebreak")
            # The 6th of every 8: an extension where answers are timed (america), manual mode where nothing
            # else is staged then (samara: no lockout, no answer clock).
            sixth = ("extend" if self.reg.answer_limit > 0 else
                     "manual" if self.reg.false_start_lockout == 0 else "plain")
            kinds = {2: "interrupt", 3: "false_start", 5: "silence", 6: sixth, 7: "wrong"}
            kind = "plain" if tiebreak else kinds.get(n % 8, "plain")
            story = self.story[key] = {"kind": kind}
        return story

    def _playing(self, snap: dict) -> list[dict]:
        return [p for p in snap["players"] if p.get("in_play", True)]

    def _lowest(self, snap: dict) -> int:
        return min(self._playing(snap), key=lambda p: (p["score"], p["seat"]))["seat"]

    def _answerer(self, snap: dict) -> int | None:
        """Who presses now: a tie-break goes to the first tied seat; otherwise the trailing player who may."""
        at = snap.get("time") or 0.0
        free = [p for p in self._playing(snap) if not p.get("answered")
                and not (p.get("locked_until") is not None and p["locked_until"] > at)
                and not (self.reg.one_press_per_question and p.get("pressed"))]
        story = self._story(snap) if snap.get("question") else {}
        if story.get("false_starter") is not None and len(free) > 1:
            free = [p for p in free if p["seat"] != story["false_starter"]]
        if not free:
            return None
        if snap["round"].get("tiebreak"):
            # Mostly the first tied seat, sometimes the other: a real duel that still ends with one ahead.
            seats = sorted(p["seat"] for p in free)
            return seats[-1] if self.opened % 3 == 0 else seats[0]
        return min(free, key=lambda p: (p["score"], p["seat"]))["seat"]

    def _select(self, snap: dict, delay: float) -> Step | None:
        rnd = snap["round"]
        for t, topic in enumerate(rnd["topics"], start=1):
            for c, cell in enumerate(topic["cells"], start=1):
                if not cell["played"]:
                    return Step(delay, "/sg/select", (t, c, "auction") if self._auction_cell(rnd, t, c) else (t, c))
        return Step(delay, "/sg/next")

    def _auction_cell(self, rnd: dict, t: int, c: int) -> bool:
        """Without a pack the host marks the auction when it is chosen (AU1): the same cells as the pack's."""
        if self.pack or not self.reg.auctions or rnd.get("tiebreak") or rnd["index"] >= len(self.plan["rounds"]):
            return False
        topics = self.plan["rounds"][rnd["index"]]["topics"]
        return t <= len(topics) and topics[t - 1]["questions"][c - 1].get("auction", False)

    @staticmethod
    def _board_empty(snap: dict) -> bool:
        return all(c["played"] for t in snap["round"]["topics"] for c in t["cells"])

    def _plan_final(self, snap: dict) -> dict[int, tuple[int, str]]:
        """Stakes and verdicts that leave the two leaders tied, so the tie-break is shown (TB1, TB2)."""
        scores = {p["seat"]: p["score"] for p in snap["players"]}
        seats = sorted(snap["final"]["eligible"], key=lambda s: (-scores[s], s))
        low = self.reg.final_min_stake
        high = {s: max(low, scores[s]) for s in seats}
        plan = {s: (low, "wrong") for s in seats}
        if len(seats) < 2:
            return plan
        a, b = seats[0], seats[1]
        for sa in range(low, high[a] + 1):
            for va in ("right", "wrong"):
                target = scores[a] + (sa if va == "right" else -sa)
                for vb in ("right", "wrong"):
                    sb = (target - scores[b]) * (1 if vb == "right" else -1)
                    rest_ok = all(scores[s] - low < target for s in seats[2:])
                    if low <= sb <= high[b] and rest_ok and target > 0:
                        plan[a], plan[b] = (sa, va), (sb, vb)
                        return plan
        return plan


class DemoClock:
    """Engine seconds for the demo's `Board` and `Links`: wall time × `speed`, held at a limit.

    The board loop and the box reader both read it (it is their `clock`). The demo sets the limit to the moment
    of the next simulated move or the next deadline (plus the links' grace), so however fast it runs and however
    a slow machine stalls, a move is never overtaken by a clock it was staged before: the game tells the same
    story at 1× and at 1000×. It never goes backwards: a limit below the current time holds the current time."""

    def __init__(self, speed: float, wall=None):
        if not speed > 0:
            raise ValueError(f"speed must be above 0, got {speed}")
        self.speed = speed
        self._wall = wall or time.monotonic
        self._lock = threading.Lock()
        self._anchor = self._wall()
        self._value = 0.0
        self.limit: float | None = 0.0     # it starts held at 0: the demo lifts the limit for its first move

    def _catch_up(self) -> None:
        wall = self._wall()
        value = self._value + (wall - self._anchor) * self.speed
        if self.limit is not None:
            value = min(value, max(self.limit, self._value))
        self._value, self._anchor = value, wall

    def __call__(self) -> float:
        with self._lock:
            self._catch_up()
            return self._value

    def hold_at(self, limit: float | None) -> None:
        """Run freely up to `limit` (engine seconds) and stay there; None: no limit."""
        with self._lock:
            self._catch_up()
            self.limit = limit

    def frozen(self):
        """A `with` block during which the clock stands still (writing a PNG must not cost game time)."""

        @contextlib.contextmanager
        def block():
            before = self.limit
            self.hold_at(self())
            try:
                yield
            finally:
                self.hold_at(before)
        return block()
