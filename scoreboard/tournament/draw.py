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
    constrained = [p for p in order if any(p in c.members for c in caps)]
    free_players = [p for p in order if p not in set(constrained)]
    n = len(sizes)
    free = list(sizes)
    where: dict[str, int] = {}
    count = {(i, u): 0 for i, c in enumerate(caps) for u in range(n)}
    mine = {p: [i for i, c in enumerate(caps) if p in c.members] for p in constrained}
    steps = [0]

    def unit(i, g):
        return branch_of[g] if caps[i].scope == "branch" else g

    def options(p):
        return [g for g in range(n) if free[g] > 0
                and all(count[(i, unit(i, g))] < caps[i].limit for i in mine[p])]

    def hopeless():
        # Each constraint: its unplaced members must still fit somewhere.
        for i, c in enumerate(caps):
            left = sum(1 for p in c.members if p not in where)
            if not left:
                continue
            room = {}
            for g in range(n):
                u = unit(i, g)
                room[u] = room.get(u, 0) + free[g]
            if sum(min(c.limit - count[(i, u)], r) for u, r in room.items()) < left:
                return True
        return False

    def place(todo):
        steps[0] += 1
        if steps[0] > STEP_BUDGET:
            raise _OutOfSteps
        if not todo:
            return True
        best, best_opts = None, None
        for p in todo:            # the most constrained player first
            opts = options(p)
            if best_opts is None or len(opts) < len(best_opts):
                best, best_opts = p, opts
                if not opts:
                    return False
        rnd.shuffle(best_opts)
        rest = [p for p in todo if p != best]
        for g in best_opts:
            where[best] = g
            free[g] -= 1
            for i in mine[best]:
                count[(i, unit(i, g))] += 1
            if not hopeless() and place(rest):
                return True
            for i in mine[best]:
                count[(i, unit(i, g))] -= 1
            free[g] += 1
            del where[best]
        return False

    if not place(constrained):
        return None
    games = [[] for _ in range(n)]
    for p in constrained:
        games[where[p]].append(p)
    slots = [g for g in range(n) for _ in range(free[g])]
    for p, g in zip(free_players, slots):
        games[g].append(p)
    return games


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
