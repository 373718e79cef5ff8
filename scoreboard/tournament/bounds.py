"""Which results can happen (issue 12 item 2): the bounds of a score, its step, tie-break points, right answers.

Computed from the regulation's data (config/regulations/*.toml: rounds, values, auctions, final stakes, tie-break)
for one stage, with the number of topics the stage's draw fixed (samara 3.2.4, 3.3.3). The bounds are *safe*: no
result the rules allow falls outside them. Derivation (docs/TOURNAMENTS.md, «Scores that can happen»):

- A regular question of value v moves a player's score by +v (right), −v (wrong) or 0, a player answers it at most
  once (BZ4) and at most one player answers it right (G6). So without stakes a score lies in ±V (V: the sum of
  the stage's cells), is a sum of values (a multiple of their gcd), and the positive scores of a game add up to at
  most V.
- An auction (AU2–AU5) is played at a stake from its nominal up to the holder's score: right, it adds at most
  max(score, nominal). The best case plays it after every other cell of its round, answered right, with the
  cheapest cell as the auction: a round ends at most at S + (V_round − a) doubled (S: the score before the round).
  Wrong, it costs the nominal at or below it and at most the score above it, so it never goes below −V.
- A final stake (FN2 final round, FN3 super-question) is at most the player's score and only a positive score
  stakes: it at most doubles the score and never takes it below 0.
- Auction and final stakes are any whole number, so a stage with either has a step of 1 point.
- Tie-break points (TB1–TB3) come from the tie-break's cells, `repeats` times at most (0: until decided, no bound),
  and only players level with another on score play it. Questions answered right (T-A4) are at most the cells.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from scoreboard.engine.regulation import RegulationError
from scoreboard.regulations import load_regulation
from scoreboard.tournament.errors import TournamentError


@dataclass(frozen=True)
class Bounds:
    stage: str
    low: int
    high: int
    step: int
    cells: int                   # regular questions of a game: the most right answers (T-A4)
    regular: int                 # V: the sum of the regular cells' values
    stakes: bool                 # an auction or a final stake: the joint bound on positive scores does not hold
    how: str                     # how `high` is made, said in a refusal
    tiebreak: bool
    tb_low: int | None           # None: no bound (repeated until decided)
    tb_high: int | None
    tb_step: int


def _plus(values) -> str:
    return "+".join(str(v) for v in values)


def stage_bounds(reg, stage_name: str, topics: int | None = None) -> Bounds:
    """The bounds of one game of `stage_name` under `reg` (an engine Regulation); `topics` sets the size of a round
    whose topic count the regulation leaves open (samara: the cup's or the Super Nine's count)."""
    spec = reg.stage(stage_name)
    high, regular, cells, stakes, values_seen, how = 0, 0, 0, False, [], []
    for r in spec.rounds:
        values = reg.values[r.kind]
        n = max(topics or r.topics, r.min_topics) if r.open_size else r.topics
        total = n * sum(values)
        regular, cells, values_seen = regular + total, cells + n * len(values), values_seen + list(values)
        part = f"{r.kind} {n} × ({_plus(values)}) = {total}"
        auctions = r.auctions if reg.auctions else 0
        if auctions:
            stakes = True
            cheapest = sorted(v for v in values for _ in range(n))[:auctions]
            high += total - sum(cheapest)
            for a in cheapest:
                high += max(high, a)
            part += f" with {auctions} auction(s): at most {high}"
        else:
            high += total
        how.append(part)
    low = -regular
    if spec.final and reg.final_kind != "none":
        stakes = True
        high *= 2
        if reg.final_eligibility == "all" and reg.final_min_stake > 0:
            low -= reg.final_min_stake
        how.append(f"{reg.final_kind.replace('_', '-')} stake: at most × 2 = {high}")
    step = 1 if stakes else math.gcd(*values_seen)
    tb_values = reg.tiebreak_values or (1,)
    per = tb_values[0] if reg.tiebreak_kind == "extra_questions" else spec.tiebreak_topics * sum(tb_values)
    repeats = reg.tiebreak_repeats
    tb = None if repeats == 0 else repeats * per
    return Bounds(stage_name, low, high, step, cells, regular, stakes, "; ".join(how), spec.tiebreak,
                  None if tb is None else -tb, tb, math.gcd(*tb_values))


def regulation(t):
    """The engine regulation a tournament's games are played under (its format's preset)."""
    try:
        return load_regulation(t.format)
    except RegulationError as error:
        raise TournamentError(f"cannot read the {t.format} regulation: {error}") from None


def for_game(t, game: dict) -> Bounds:
    """The bounds of a tournament game: the format's regulation, the game's engine stage, the stage's topics."""
    stage = t.store.stage(game["stage"])
    return stage_bounds(regulation(t), stage["engine_stage"], stage["draw"].get("topics_per_game"))


def _n(v) -> str:
    return str(int(v)) if _whole(v) else repr(v)


def _whole(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and float(v).is_integer()


def problems(result, b: Bounds, game_id: str, regulation: str) -> list[str]:
    """Every way `result` (a GameResult) cannot have happened in a game with bounds `b`; empty when it can."""
    out = []
    where = f"{game_id} ({regulation} {b.stage})"
    for s in result.seats:
        if not _whole(s.score):
            out.append(f"{s.name}: {s.score!r} is not a whole number of points (scores are integers)")
        elif s.score % b.step:
            out.append(f"{s.name}: {_n(s.score)} is not a multiple of {b.step}: every question of {where} is worth a "
                       f"multiple of {b.step} and it has no auction or stake")
        elif s.score > b.high:
            out.append(f"{s.name}: {_n(s.score)} is above {b.high}, the most a player can score in {where}: {b.how}")
        elif s.score < b.low:
            out.append(f"{s.name}: {_n(s.score)} is below {b.low}, the least a player can score in {where} "
                       f"(every question answered wrong)")
    if not b.stakes and not out:
        positive = sum(max(0, s.score) for s in result.seats)
        if positive > b.regular:
            out.append(f"the positive scores add up to {_n(positive)}, above {b.regular}: every question of {where} "
                       f"is answered right at most once ({b.how})")
    scores = [s.score for s in result.seats]
    for s in result.seats:
        if not s.tiebreak:
            continue
        if not _whole(s.tiebreak) or s.tiebreak % b.tb_step:
            out.append(f"{s.name}: tie-break points {s.tiebreak!r} are not a whole multiple of {b.tb_step}")
        elif not b.tiebreak:
            out.append(f"{s.name}: {where} has no tie-break (tied players share the places), yet has tie-break "
                       f"points {_n(s.tiebreak)}")
        elif scores.count(s.score) < 2:
            out.append(f"{s.name}: tie-break points {_n(s.tiebreak)}, but nobody else has {_n(s.score)}: only tied "
                       f"players play the tie-break")
        elif b.tb_high is not None and not b.tb_low <= s.tiebreak <= b.tb_high:
            out.append(f"{s.name}: tie-break points {_n(s.tiebreak)} are outside {b.tb_low}…{b.tb_high}, what the "
                       f"tie-break of {where} can give")
    rights = [s.right for s in result.seats if s.right is not None]
    for s in result.seats:
        if s.right is not None and (not _whole(s.right) or not 0 <= s.right <= b.cells):
            out.append(f"{s.name}: {s.right!r} questions answered right; {where} has {b.cells} questions")
    if sum(r for r in rights if _whole(r)) > b.cells:
        out.append(f"questions answered right add up to {_n(sum(rights))}; {where} has {b.cells} questions")
    return out


def refusal(found: list[str]) -> str:
    return ("a result that cannot happen: " + "; ".join(found)
            + ". A host's ruling beyond the rules (G8) is recorded with --force --reason TEXT")
