"""The constrained random draw: players into games, spread apart as the regulations ask.

A *spread* group (last season's finalists, one team) is spread over the most distant branches: at most
ceil(m / branches) of its m members in one branch of the bracket, then at most ceil(m / games) in one game.
A *pair apart* (close relatives, T-S2) may never share a game. These are hard constraints: the search is exhaustive
(within a step budget far above what a 27-seat bracket needs), so a constraint is broken only when no draw keeps
it; then the draw drops the least important constraint it must, keeps every other, and says which in plain words.

Randomness: the order of candidates and of the free players comes from the caller's `random.Random`, so a draw is a
pure function of (players, sizes, groups, seed) and can be re-run to verify it.
"""
from __future__ import annotations

import math
from itertools import combinations_with_replacement
from dataclasses import dataclass, field

STEP_BUDGET = 200_000


@dataclass(frozen=True)
class Group:
    label: str               # what an organiser reads: "seeded", "team Мозговорот", "relatives Анна/Борис"
    members: tuple[str, ...]
    apart: bool = False      # True: no two members in one game (relatives); False: spread evenly
    priority: int = 0        # lower is kept longer when something must give


@dataclass(frozen=True)
class Cap:
    label: str
    members: frozenset
    scope: str               # "branch" or "game"
    limit: int
    priority: float


@dataclass
class Outcome:
    games: list[list[str]]
    broken: list[str] = field(default_factory=list)   # constraints that could not be met, in plain words


class _OutOfSteps(Exception):
    pass


def caps_for(groups: list[Group], n_games: int, n_branches: int) -> list[Cap]:
    caps = []
    for g in groups:
        present = frozenset(g.members)
        if len(present) < 2:
            continue
        if g.apart:
            caps.append(Cap(g.label, present, "game", 1, g.priority))
            continue
        m = len(present)
        if n_branches > 1:
            caps.append(Cap(g.label, present, "branch", math.ceil(m / n_branches), g.priority))
        caps.append(Cap(g.label, present, "game", math.ceil(m / n_games), g.priority + 0.5))
    return caps


def describe(cap: Cap) -> str:
    where = "1/3 branch" if cap.scope == "branch" else "game"
    if cap.limit == 1:
        return f"{cap.label}: could not keep them all in different {where}s"
    return f"{cap.label}: could not keep at most {cap.limit} in one {where}"


def draw_games(players: list[str], sizes: list[int], groups: list[Group], rnd,
               branch_of: list[int] | None = None) -> Outcome:
    """Seat `players` into games of `sizes` (sum must match), honouring `groups` where possible."""
    if sum(sizes) != len(players):
        raise ValueError(f"{len(players)} players for {sum(sizes)} seats")
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice in the draw")
    branch_of = branch_of or list(range(len(sizes)))
    n_branches = len(set(branch_of)) if len(set(branch_of)) < len(sizes) else 1
    here = set(players)
    groups = [Group(g.label, tuple(m for m in g.members if m in here), g.apart, g.priority) for g in groups]
    caps = caps_for(groups, len(sizes), n_branches)
    order = list(players)
    rnd.shuffle(order)
    seed_state = rnd.getstate()
    kept, broken = list(caps), []
    while True:
        rnd.setstate(seed_state)
        try:
            placed = _search(order, sizes, branch_of, kept, rnd)
        except _OutOfSteps:
            placed = None
        if placed is not None:
            break
        # Give up the least important constraint, then try to take back the others (most important first).
        drop = max(kept, key=lambda c: (c.priority, c.scope == "game", c.label))
        kept.remove(drop)
        broken.append(drop)
    for cap in sorted(broken, key=lambda c: c.priority):
        trial = kept + [cap]
        rnd.setstate(seed_state)
        try:
            again = _search(order, sizes, branch_of, trial, rnd)
        except _OutOfSteps:
            again = None
        if again is not None:
            kept, placed = trial, again
            broken.remove(cap)
    games = [list(g) for g in placed]
    for g in games:
        rnd.shuffle(g)              # seat order within a game is a lot too
    return Outcome(games, [describe(c) for c in broken])


def _search(order, sizes, branch_of, caps, rnd):
    """Fill the games one by one with *kinds* of player: players who belong to the same constraints are
    interchangeable, so the search chooses how many of each kind sit in a game (a few hundred options) instead of
    which players (millions). Dead states are remembered, so an impossible draw is proved quickly."""
    sig = {p: frozenset(i for i, c in enumerate(caps) if p in c.members) for p in order}
    pools: dict[frozenset, list[str]] = {}
    for p in order:
        pools.setdefault(sig[p], []).append(p)
    kinds = sorted(pools, key=lambda k: (-len(k), sorted(k)))
    remaining = [len(pools[k]) for k in kinds]
    n = len(sizes)
    branches = sorted(set(branch_of))
    bcount = {(i, b): 0 for i, c in enumerate(caps) if c.scope == "branch" for b in branches}
    dead: set = set()
    steps = [0]

    def room_ahead(g_next) -> bool:
        """Every constraint's unseated members still fit into the games not yet filled."""
        free_b: dict[int, int] = {}
        for g in range(g_next, n):
            free_b[branch_of[g]] = free_b.get(branch_of[g], 0) + sizes[g]
        for i, c in enumerate(caps):
            left = sum(remaining[j] for j, k in enumerate(kinds) if i in k)
            if not left:
                continue
            if c.scope == "game":
                room = sum(min(c.limit, sizes[g]) for g in range(g_next, n))
            else:
                room = sum(min(c.limit - bcount[(i, b)], f) for b, f in free_b.items())
            if room < left:
                return False
        return True

    def fill(g):
        steps[0] += 1
        if steps[0] > STEP_BUDGET:
            raise _OutOfSteps
        if g == n:
            return []
        key = (g, tuple(remaining), tuple(bcount.values()))
        if key in dead:
            return None
        options = [combo for combo in combinations_with_replacement(range(len(kinds)), sizes[g])
                   if all(combo.count(j) <= remaining[j] for j in set(combo))]
        rnd.shuffle(options)
        for combo in options:
            per_cap: dict[int, int] = {}
            for j in combo:
                for i in kinds[j]:
                    per_cap[i] = per_cap.get(i, 0) + 1
            if any(v > caps[i].limit if caps[i].scope == "game" else bcount[(i, branch_of[g])] + v > caps[i].limit
                   for i, v in per_cap.items()):
                continue
            for j in combo:
                remaining[j] -= 1
            for i, v in per_cap.items():
                if caps[i].scope == "branch":
                    bcount[(i, branch_of[g])] += v
            rest = fill(g + 1) if room_ahead(g + 1) else None
            for j in combo:
                remaining[j] += 1
            for i, v in per_cap.items():
                if caps[i].scope == "branch":
                    bcount[(i, branch_of[g])] -= v
            if rest is not None:
                return [combo] + rest
        dead.add(key)
        return None

    plan = fill(0) if room_ahead(0) else None
    if plan is None:
        return None
    queues = {k: list(pools[k]) for k in kinds}
    return [[queues[kinds[j]].pop() for j in combo] for combo in plan]


def check(games: list[list[str]], groups: list[Group], branch_of: list[int] | None = None) -> list[str]:
    """Every constraint a finished draw breaks, in plain words (empty: all kept). Used by tests and --verify."""
    branch_of = branch_of or list(range(len(games)))
    n_branches = len(set(branch_of)) if len(set(branch_of)) < len(games) else 1
    where = {p: g for g, ps in enumerate(games) for p in ps}
    out = []
    for c in caps_for(groups, len(games), n_branches):
        tally: dict[int, int] = {}
        for p in c.members:
            if p in where:
                u = branch_of[where[p]] if c.scope == "branch" else where[p]
                tally[u] = tally.get(u, 0) + 1
        if tally and max(tally.values()) > c.limit:
            out.append(describe(c))
    return out
