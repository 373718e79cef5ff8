"""Regulations as data: a TOML preset holds every number and switch the engine reads.

Code branches on these fields, never on a regulation's name, so a club's own preset needs no code.
`parse_regulation` validates the whole table and reports every problem at once (file, key, reason); reading
the files is `scoreboard/regulations.py`'s job, outside the pure engine.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ORDERS = ("choice", "sequential")
CHOOSERS = ("host", "lot", "lowest_score", "none")
WINNERS = ("top", "top_positive")
FINAL_KINDS = ("none", "final_round", "super_question")
ELIGIBILITY = ("positive", "all")
TIEBREAKS = ("extra_round", "extra_questions", "extra_topic")
RESTARTS = ("resume_reading", "new_window")    # BZ6: what the host's restart after a wrong answer does
DRAWS = ("order", "lot")                        # TB1/TB3: how tie-break topics are taken from the pack


class RegulationError(Exception):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class RoundSpec:
    kind: str               # a key of values: "blue", "red"
    topics: int
    min_topics: int         # < topics never; == topics unless the regulation leaves the count open
    open_size: bool         # samara: the number of topic names sets the round's size
    auctions: int


@dataclass(frozen=True)
class StageSpec:
    name: str
    rounds: tuple[RoundSpec, ...]
    final: bool
    tiebreak_topics: int
    tiebreak: bool              # False: a tie for first is a shared place (samara Super Nine, T-S7)


@dataclass(frozen=True)
class Regulation:
    name: str
    title: str
    players_min: int
    players_max: int
    players_default: int
    order: str
    first_chooser: str
    next_chooser: str
    winner: str
    values: dict[str, tuple[int, ...]]
    buzz_window: float
    answer_limit: float
    auction_answer: float
    false_start_lockout: float
    one_press_per_question: bool
    restart: str                # BZ6: resume_reading (reading goes on if it had not ended) | new_window
    clarify: bool               # BZ10: the host may ask «Уточните», restarting the answer time
    auctions: bool
    final_kind: str
    final_answer_time: float
    final_min_stake: int
    final_eligibility: str
    dominance_ratio: float
    tiebreak_kind: str
    tiebreak_values: tuple[int, ...]
    tiebreak_repeats: int
    tiebreak_lot: bool
    tiebreak_draw: str          # TB3: tie-break topics in the pack's order, or drawn by lot
    stages: dict[str, StageSpec]

    def stage(self, name: str) -> StageSpec:
        return self.stages[name]


class _Reader:
    """Collects every problem instead of stopping at the first."""

    def __init__(self, source: str, data: dict):
        self.source, self.data, self.problems = source, data, []

    def problem(self, key: str, reason: str) -> None:
        self.problems.append(f"{self.source}: {key}: {reason}")

    def get(self, table: dict, path: str, key: str, kind: type | tuple, default: Any = ..., choices=None,
            minimum=None) -> Any:
        full = f"{path}.{key}" if path else key
        if key not in table:
            if default is ...:
                self.problem(full, "missing")
                return None
            return default
        value = table[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            self.problem(full, f"expected {'/'.join(k.__name__ for k in kinds)}, got {value!r}")
            return None
        if float in kinds and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kinds):
            self.problem(full, f"expected {'/'.join(k.__name__ for k in kinds)}, got {value!r}")
            return None
        if choices is not None and value not in choices:
            self.problem(full, f"must be one of {', '.join(choices)}, got {value!r}")
            return None
        if minimum is not None and value < minimum:
            self.problem(full, f"must be at least {minimum}, got {value!r}")
            return None
        return value

    def table(self, table: dict, path: str, key: str) -> dict:
        value = table.get(key)
        if not isinstance(value, dict):
            self.problem(f"{path}.{key}" if path else key, "missing table" if value is None else "must be a table")
            return {}
        return value


def _values(reader: _Reader, raw: Any, key: str) -> tuple[int, ...] | None:
    if not isinstance(raw, list) or not raw or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                                                      for v in raw):
        reader.problem(key, f"must be a non-empty list of positive integers, got {raw!r}")
        return None
    if list(raw) != sorted(raw):
        reader.problem(key, "values must rise within a topic")
        return None
    return tuple(raw)


def parse_regulation(data: dict, source: str = "<regulation>") -> Regulation:
    r = _Reader(source, data)
    name = r.get(data, "", "name", str)
    title = r.get(data, "", "title", str, default=name or "")
    players = r.table(data, "", "players")
    pmin = r.get(players, "players", "min", int, minimum=1)
    pmax = r.get(players, "players", "max", int, minimum=1)
    pdef = r.get(players, "players", "default", int, minimum=1)
    if None not in (pmin, pmax, pdef) and not pmin <= pdef <= pmax:
        r.problem("players", f"need min <= default <= max, got {pmin}, {pdef}, {pmax}")
    if pmax is not None and pmax > 9:
        r.problem("players.max", "at most 9 seats (one-digit buttons)")
    play = r.table(data, "", "play")
    order = r.get(play, "play", "order", str, choices=ORDERS)
    first = r.get(play, "play", "first_chooser", str, choices=CHOOSERS)
    nxt = r.get(play, "play", "next_chooser", str, choices=CHOOSERS)
    winner = r.get(play, "play", "winner", str, choices=WINNERS)
    if order == "choice" and "none" in (first, nxt):
        r.problem("play", "choice order needs a chooser rule other than none")
    values_table = r.table(data, "", "values")
    values = {}
    for kind, raw in values_table.items():
        parsed = _values(r, raw, f"values.{kind}")
        if parsed:
            values[kind] = parsed
    timers = r.table(data, "", "timers")
    window = r.get(timers, "timers", "buzz_window", float, minimum=0.5)
    limit = r.get(timers, "timers", "answer_limit", float, minimum=0.0)
    auction_answer = r.get(timers, "timers", "auction_answer", float, minimum=1.0)
    lockout = r.get(timers, "timers", "false_start_lockout", float, minimum=0.0)
    one_press = r.get(timers, "timers", "one_press_per_question", bool)
    restart = r.get(timers, "timers", "restart", str, default="resume_reading", choices=RESTARTS)
    clarify = r.get(timers, "timers", "clarify", bool, default=False)
    auction = r.table(data, "", "auction")
    auctions = r.get(auction, "auction", "enabled", bool)
    final = r.table(data, "", "final")
    final_kind = r.get(final, "final", "kind", str, choices=FINAL_KINDS)
    final_time = r.get(final, "final", "answer_time", float, minimum=1.0)
    min_stake = r.get(final, "final", "min_stake", int, minimum=0)
    eligibility = r.get(final, "final", "eligibility", str, choices=ELIGIBILITY)
    ratio = r.get(final, "final", "dominance_ratio", float, minimum=0.0)
    tb = r.table(data, "", "tiebreak")
    tb_kind = r.get(tb, "tiebreak", "kind", str, choices=TIEBREAKS)
    tb_raw = tb.get("values")
    tb_values: tuple[int, ...] | None = None
    if isinstance(tb_raw, str):
        tb_values = values.get(tb_raw)
        if tb_values is None:
            r.problem("tiebreak.values", f"names no [values] row: {tb_raw!r}")
    else:
        tb_values = _values(r, tb_raw, "tiebreak.values")
    repeats = r.get(tb, "tiebreak", "repeats", int, minimum=0)
    lot = r.get(tb, "tiebreak", "lot", bool)
    draw = r.get(tb, "tiebreak", "draw", str, default="order", choices=DRAWS)
    if repeats == 0 and lot:
        r.problem("tiebreak", "repeats = 0 (until decided) leaves no place for a lot; set lot = false")
    stages: dict[str, StageSpec] = {}
    raw_stages = r.table(data, "", "stages")
    if not raw_stages and "stages" in data:
        r.problem("stages", "at least one stage")
    for stage_name, stage in raw_stages.items():
        path = f"stages.{stage_name}"
        if not isinstance(stage, dict):
            r.problem(path, "must be a table")
            continue
        rounds_raw = stage.get("rounds")
        rounds = []
        if not isinstance(rounds_raw, list) or not rounds_raw:
            r.problem(f"{path}.rounds", "must be a non-empty list of round tables")
            rounds_raw = []
        for i, spec in enumerate(rounds_raw):
            rpath = f"{path}.rounds[{i}]"
            if not isinstance(spec, dict):
                r.problem(rpath, "must be a table")
                continue
            kind = r.get(spec, rpath, "kind", str)
            if kind is not None and kind not in values:
                r.problem(f"{rpath}.kind", f"no [values] row named {kind!r}")
            topics = r.get(spec, rpath, "topics", int, minimum=1)
            min_topics = r.get(spec, rpath, "min_topics", int, default=None, minimum=1)
            n_auctions = r.get(spec, rpath, "auctions", int, default=0, minimum=0)
            if n_auctions and auctions is False:
                r.problem(f"{rpath}.auctions", "auctions are disabled in [auction]")
            if topics is not None and min_topics is not None and min_topics > topics:
                r.problem(f"{rpath}.min_topics", "must not exceed topics")
            if None not in (kind, topics, n_auctions):
                rounds.append(RoundSpec(kind, topics, min_topics or topics, min_topics is not None, n_auctions))
        has_final = r.get(stage, path, "final", bool, default=False)
        if has_final and final_kind == "none":
            r.problem(f"{path}.final", "the stage has a final but [final] kind is none")
        tb_topics = r.get(stage, path, "tiebreak_topics", int, default=1, minimum=1)
        tb_on = r.get(stage, path, "tiebreak", bool, default=True)
        stages[stage_name] = StageSpec(stage_name, tuple(rounds), bool(has_final), tb_topics or 1,
                                       True if tb_on is None else tb_on)
    if r.problems:
        raise RegulationError(r.problems)
    return Regulation(
        name=name, title=title, players_min=pmin, players_max=pmax, players_default=pdef,
        order=order, first_chooser=first, next_chooser=nxt, winner=winner, values=values,
        buzz_window=window, answer_limit=limit, auction_answer=auction_answer, false_start_lockout=lockout,
        one_press_per_question=one_press, restart=restart, clarify=clarify, auctions=auctions, final_kind=final_kind, final_answer_time=final_time,
        final_min_stake=min_stake, final_eligibility=eligibility, dominance_ratio=ratio, tiebreak_kind=tb_kind,
        tiebreak_values=tb_values, tiebreak_repeats=repeats, tiebreak_lot=lot, tiebreak_draw=draw, stages=stages)



