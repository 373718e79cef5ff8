"""A random but plausible host and players: commands that fit the phase, with some that do not.

Property tests fold these into games for every regulation; `scoreboard bench engine` uses them to make
long journals. Roughly four commands in five fit; the rest exercise refusals.
"""
from __future__ import annotations

import random
from typing import Iterator

from scoreboard.engine import Command, Refused, make
from scoreboard.engine.phases import Phase
from scoreboard.session import Session

Step = tuple[float, str, tuple]


def progress(snap: dict, rng: random.Random) -> tuple[str, tuple] | None:
    """The command that moves the game on in this phase (so random games reach finals and tie-breaks)."""
    phase = snap["phase"]
    players = snap["players"]
    playing = [p["seat"] for p in players if p["in_play"] and not p["answered"]] or [1]
    rnd = snap.get("round") or {}
    open_cells = [(k, q) for k, t in enumerate(rnd.get("topics", []), 1)
                  for q, c in enumerate(t["cells"], 1) if not c["played"]]
    if phase in (Phase.ROUND_INTRO, Phase.CHOOSING) and snap["order"] == "choice":
        if snap["chooser"] is None:
            return "/sg/chooser", (rng.choice([p["seat"] for p in players if p["in_play"]]),)
        if open_cells and rnd.get("auctions_missing"):   # AU1: open the auction, or the host waives it
            return ("/sg/select", (*rng.choice(open_cells), "auction")) if rng.random() < 0.7 else (
                "/sg/auction/waive", ())
        return ("/sg/select", rng.choice(open_cells)) if open_cells else ("/sg/next", ())
    if phase in (Phase.READING, Phase.BUZZ_WINDOW):
        return "/sg/button", (rng.choice(playing),)
    if phase in (Phase.ANSWERING, Phase.AUCTION_ANSWER):
        return ("/sg/judge/right" if rng.random() < 0.6 else "/sg/judge/wrong"), ()
    if phase == Phase.REVEAL and rnd.get("auctions_missing") and snap["order"] == "choice" and snap["chooser"]:
        return ("/sg/select", (*rng.choice(open_cells), "auction")) if open_cells and rng.random() < 0.7 else (
            "/sg/auction/waive", ())
    if phase == Phase.REVEAL and not open_cells and rng.random() < 0.3:
        # make a tie for first now and then, so tie-breaks get played too
        top = max(p["score"] for p in players)
        behind = [p for p in players if p["score"] < top and p["in_play"]]
        if behind:
            p = rng.choice(behind)
            return "/sg/score/adjust", (p["seat"], top - p["score"], "ничья")
    if phase == Phase.AUCTION:
        a = snap["auction"]
        return ("/sg/auction/pass", (a["turn"],)) if a["turn"] else None
    if phase == Phase.FINAL_STAKES:
        f = snap["final"]
        finalists = [players[s - 1] for s in f["eligible"]]
        top = max(p["score"] for p in finalists)
        behind = [p for p in finalists if 0 < p["score"] < top]
        if behind and rng.random() < 0.3:   # level two finalists: same stake, same verdict → a tie (TB)
            return "/sg/score/adjust", (behind[0]["seat"], top - behind[0]["score"], "ничья")
        missing = [s for s in f["eligible"] if s not in f["stakes_in"]]
        if missing:
            score = players[missing[0] - 1]["score"]
            return "/sg/final/stake", (missing[0], 1 if rng.random() < 0.8 else rng.randint(1, max(score, 1)))
        return "/sg/final/start", ()
    if phase == Phase.FINAL_REVEAL:
        f = snap["final"]
        pending = [s for s in f["eligible"] if s not in [r["seat"] for r in f["revealed"]]]
        if pending:
            seat = pending[0]
            if seat in f["judged"]:
                return "/sg/final/reveal", (seat,)
            return "/sg/final/judge", (seat, "right" if rng.random() < 0.8 else "wrong")
    return "/sg/next", ()


def candidates(snap: dict, rng: random.Random) -> list[tuple[str, tuple]]:
    """Commands that a host or player could send in this snapshot's phase."""
    phase = snap["phase"]
    seats = [p["seat"] for p in snap["players"]]
    seat = rng.choice(seats) if seats else 1
    cands: list[tuple[str, tuple]] = []
    rnd = snap.get("round") or {}
    open_cells = [(k, q) for k, t in enumerate(rnd.get("topics", []), 1)
                  for q, c in enumerate(t["cells"], 1) if not c["played"]]
    if phase == Phase.SETUP:
        cands += [("/sg/game/start", ()), ("/sg/player/name", (seat, rng.choice(["Анна", "Борис", "Вера"])))]
    elif phase in (Phase.ROUND_INTRO, Phase.CHOOSING):
        if snap["order"] == "choice":
            if snap["chooser"] is None:
                cands.append(("/sg/chooser", (seat,)))
            elif open_cells:
                k, q = rng.choice(open_cells)
                marking = 0.4 if rnd.get("auctions_missing") else 0.15
                if rnd.get("auctions_missing") and rng.random() < 0.3:   # points to bid with (AU3)
                    cands.append(("/sg/score/adjust", (seat, 60, "поправка")))
                cands.append(("/sg/select", (k, q, "auction") if rng.random() < marking else (k, q)))
        cands.append(("/sg/next", ()))
        if rnd.get("auctions_missing") and len(open_cells) <= 2:
            cands.append(("/sg/auction/waive", ()))
    elif phase == Phase.TOPIC_INTRO:
        cands.append(("/sg/next", ()))
    elif phase in (Phase.READING, Phase.BUZZ_WINDOW):
        cands += [("/sg/button", (seat,)), ("/sg/button", (seat,)), ("/sg/reading/done", ()), ("/sg/time", ()),
                  ("wait", (rng.choice([1.0, 6.0]),))]
        if snap["buttons_manual"]:
            cands.append(("/sg/assign", (seat,)))
    elif phase == Phase.ANSWERING:
        cands += [("/sg/judge/right", ()), ("/sg/judge/right", ()), ("/sg/judge/wrong", ()),
                  ("/sg/answer/extend", (2,)), ("/sg/answer/clarify", ()), ("wait", (4.0,))]
    elif phase == Phase.AFTER_WRONG:
        cands += [("/sg/resume", ()), ("/sg/button", (seat,)), ("/sg/time", ())]
    elif phase == Phase.REVEAL:
        cands += [("/sg/next", ()), ("/sg/next", ())]
        if snap["order"] == "choice" and open_cells and snap["chooser"] is not None:
            cands.append(("/sg/select", rng.choice(open_cells)))
            if rnd.get("auctions_missing"):
                cands.append(("/sg/select", (*rng.choice(open_cells), "auction")))
                if len(open_cells) <= 2:
                    cands.append(("/sg/auction/waive", ()))
        if snap.get("last") and snap["last"]["answers"]:
            a = rng.choice(snap["last"]["answers"])
            cands.append(("/sg/rejudge", (a["seat"], "wrong" if a["verdict"] == "right" else "right")))
        if rng.random() < 0.1:
            cands.append(("/sg/question/replace", ()))
    elif phase == Phase.AUCTION:
        a = snap["auction"]
        turn = a["turn"] or seat
        score = snap["players"][turn - 1]["score"]
        cands += [("/sg/auction/pass", (turn,)), ("/sg/auction/allin", (turn,)),
                  ("/sg/auction/bid", (turn, rng.randint(a["stake"], max(a["stake"], score) + 10)))]
    elif phase == Phase.AUCTION_ANSWER:
        cands += [("/sg/reading/done", ()), ("/sg/judge/right", ()), ("/sg/judge/wrong", ()), ("wait", (16.0,))]
    elif phase == Phase.FINAL_STAKES:
        f = snap["final"]
        for s in f["eligible"]:
            if s not in f["stakes_in"]:
                score = snap["players"][s - 1]["score"]
                cands.append(("/sg/final/stake", (s, rng.randint(0, max(score, 1)))))
        cands.append(("/sg/final/start", ()))
    elif phase == Phase.FINAL_ANSWER:
        cands += [("/sg/time", ()), ("wait", (31.0,))]
    elif phase == Phase.FINAL_REVEAL:
        f = snap["final"]
        for s in f["eligible"]:
            if s not in [r["seat"] for r in f["revealed"]]:
                cands += [("/sg/final/judge", (s, rng.choice(["right", "wrong"]))), ("/sg/final/reveal", (s,))]
    # the host's occasional extras, valid in most phases
    roll = rng.random()
    if roll < 0.04:
        cands.append(("/sg/undo", ()))
    elif roll < 0.06:
        cands.append(("/sg/pause", () if not snap["paused"] else ()))
    elif roll < 0.08 and snap["paused"]:
        cands.append(("/sg/unpause", ()))
    elif roll < 0.10:
        cands.append(("/sg/score/adjust", (seat, rng.choice([-20, -10, 10, 30]), "поправка")))
    elif roll < 0.11:
        cands.append(("/sg/buttons/manual", (0 if snap["buttons_manual"] else 1,)))
    elif roll < 0.12:
        cands.append(("/sg/screen", (rng.choice(["board", "scores", "chart"]),)))
    if snap["paused"] and rng.random() < 0.5:
        cands.append(("/sg/unpause", ()))
    return cands or [("/sg/next", ())]


def new_game_args(regulation: str, rng: random.Random) -> tuple:
    stages = {"novosibirsk-2007": ["1/9", "1/3", "final"], "america-2005": ["selection", "1/3", "final"],
              "samara-2003": ["cup", "super9"]}[regulation]
    players = {"novosibirsk-2007": [3, 2], "america-2005": [3, 4], "samara-2003": [3, 2]}[regulation]
    return regulation, rng.choice(stages), rng.choice(players), rng.randrange(1000)


def steps(session: Session, regulation: str, rng: random.Random, count: int, start: float = 0.0,
          new_games: bool = False, pace: float = 0.0,
          exclude: frozenset = frozenset()) -> Iterator[tuple[Command | None, float]]:
    """Yield `count` plausible commands (None for a pure wait), stamped with rising times.
    The caller submits them; `session` is read for the current phase. With probability `pace` the command
    is the one that moves the game on; addresses in `exclude` are never sent."""
    t = start
    made = 0
    while made < count:
        snap = session.snapshot()
        if snap["regulation"] is None or (snap["game_over"] and new_games):
            if snap["regulation"] is not None and not new_games:
                return
            yield make(t, "/sg/game/new", *new_game_args(regulation, rng)), t
            made += 1
            continue
        if snap["game_over"]:
            return
        choice = progress(snap, rng) if rng.random() < pace else None
        address, args = choice or rng.choice(candidates(snap, rng))
        if address in exclude:
            continue
        t += rng.choice([0.0, 0.1, 0.5, 1.0, 2.0])
        made += 1
        if address == "wait":
            t += args[0]
            yield None, t
            continue
        yield Command(t, address, args), t


def play(session: Session, regulation: str, seed: int, count: int, new_games: bool = False) -> list[str]:
    """Fold `count` random commands into the session; returns the refusals' reasons."""
    rng = random.Random(seed)
    refusals = []
    for cmd, t in steps(session, regulation, rng, count, start=session.time, new_games=new_games):
        try:
            if cmd is None:
                session.advance(t)
            else:
                session.submit(cmd)
        except Refused as error:
            refusals.append(str(error))
    return refusals
