"""The constrained random draw: players into games, spread apart as the regulations ask — exactly.

A *spread* group (last season's finalists, one team, samara's round-1 group) is spread as evenly as the bracket
allows: its counts per 1/3 branch differ by at most one, then its counts per game within each branch differ by at
most one (without branches: per game over the whole round). A *pair apart* (close relatives, T-S2) never shares a
game. Every group at once: a team member who is also seeded counts in both.

The search is exact: games are filled one by one with *kinds* of player (players who belong to the same groups are
interchangeable), with bounds that never cut off a draw that exists and a memory of dead states; so it finds a draw
that keeps every constraint whenever one exists, or proves there is none. Among the draws it can find, which one is a
lot: the order of candidates comes from the caller's `random.Random` (seeded, stored, re-run by `draw --verify`).
When no draw keeps everything, the least important constraint is loosened one step at a time (a spread allowed to
differ by two, …; relatives last), the others are tightened back where they can be, and each loosened constraint is
reported with how close the draw came: the counts it has and the most even ones that were wanted.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from math import gcd

STEP_BUDGET = 400_000


@dataclass(frozen=True)
class Group:
    label: str               # what an organiser reads: "seeded", "team Мозговорот", "relatives Анна/Борис"
    members: tuple[str, ...]
    apart: bool = False      # True: no two members in one game (relatives); False: spread evenly
    priority: int = 0        # lower is kept longer when something must give


@dataclass(frozen=True)
class Rule:
    """One constraint the search keeps. `scope`: "apart" (at most `slack` members a game), "branch" (counts per 1/3
    branch at most `slack` apart), "game" (counts per game within each branch at most `slack` apart)."""
    label: str
    members: frozenset
    scope: str
    slack: int
    priority: float


@dataclass
class Outcome:
    games: list[list[str]]
    broken: list[str] = field(default_factory=list)   # constraints that could not be met, and how close the draw came


class _OutOfSteps(Exception):
    pass


def rules_for(groups: list[Group], n_branches: int) -> list[Rule]:
    rules = []
    for g in groups:
        present = frozenset(g.members)
        if len(present) < 2:
            continue
        if g.apart:
            rules.append(Rule(g.label, present, "apart", 1, g.priority))
            continue
        if n_branches > 1:
            rules.append(Rule(g.label, present, "branch", 1, g.priority))
        rules.append(Rule(g.label, present, "game", 1, g.priority + 0.5))
    return rules


def _branches(branch_of: list[int] | None, n: int) -> list[int]:
    branch_of = list(branch_of or [0] * n)
    if len(set(branch_of)) == n and n > 1:      # one game a branch: no branch level, every game one unit
        branch_of = [0] * n
    starts = [i for i in range(n) if i == 0 or branch_of[i] != branch_of[i - 1]]
    if len(starts) != len(set(branch_of)):
        raise ValueError("the games of a branch must be consecutive")
    return branch_of


def counts(games: list[list[str]], rule: Rule, branch_of: list[int]) -> list[list[int]]:
    """The rule's members per game, grouped by branch: [[game counts of branch 0], [branch 1], …]."""
    out: dict[int, list[int]] = {}
    for g, players in enumerate(games):
        out.setdefault(branch_of[g], []).append(sum(p in rule.members for p in players))
    return [out[b] for b in sorted(out)]


def spread_of(games, rule: Rule, branch_of) -> int:
    """How far apart the rule's counts are (apart: the most members in one game)."""
    per = counts(games, rule, branch_of)
    if rule.scope == "apart":
        return max(max(b) for b in per)
    if rule.scope == "branch":
        totals = [sum(b) for b in per]
        return max(totals) - min(totals)
    return max(max(b) - min(b) for b in per)


def describe(rule: Rule, games, branch_of, base: int = 1) -> str:
    per = counts(games, rule, branch_of)
    m = len(rule.members)
    if rule.scope == "apart":
        return f"{rule.label}: could not keep them all in different games"
    if rule.scope == "branch":
        have = [sum(b) for b in per]
        even = _even(m, len(have))
        return (f"{rule.label} ({m}): per 1/3 branch {'/'.join(map(str, sorted(have, reverse=True)))}, wanted "
                f"{'/'.join(map(str, even))} (at most {base} apart); the other constraints leave no such draw — "
                f"this one is {max(have) - min(have)} apart")
    worst = max(per, key=lambda b: max(b) - min(b))
    where = f" in 1/3 branch {per.index(worst) + 1}" if len(per) > 1 else ""
    return (f"{rule.label} ({m}): per game{where} {'/'.join(map(str, sorted(worst, reverse=True)))}, wanted "
            f"{'/'.join(map(str, _even(sum(worst), len(worst))))} (at most {base} apart); the other constraints "
            f"leave no such draw — this one is {max(worst) - min(worst)} apart")


def _even(m: int, parts: int) -> list[int]:
    q, r = divmod(m, parts)
    return [q + 1] * r + [q] * (parts - r)


def check(games: list[list[str]], groups: list[Group], branch_of: list[int] | None = None) -> list[str]:
    """Every constraint a finished draw breaks, in plain words (empty: all kept). Used by tests and --verify."""
    branch_of = _branches(branch_of, len(games))
    return [describe(r, games, branch_of) for r in rules_for(groups, len(set(branch_of)))
            if spread_of(games, r, branch_of) > r.slack]


def draw_games(players: list[str], sizes: list[int], groups: list[Group], rnd,
               branch_of: list[int] | None = None) -> Outcome:
    """Seat `players` into games of `sizes` (sum must match), keeping every group's spread where any draw can."""
    if sum(sizes) != len(players):
        raise ValueError(f"{len(players)} players for {sum(sizes)} seats")
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice in the draw")
    branch_of = _branches(branch_of, len(sizes))
    here = set(players)
    groups = [Group(g.label, tuple(m for m in g.members if m in here), g.apart, g.priority) for g in groups]
    base = rules_for(groups, len(set(branch_of)))
    order = list(players)
    rnd.shuffle(order)
    start = rnd.getstate()

    def attempt(rules):
        rnd.setstate(start)
        try:
            return _search(order, sizes, branch_of, rules, rnd)
        except _OutOfSteps:
            return None

    rules = list(base)
    placed = attempt(rules)
    while placed is None:     # loosen the least important rule one step (relatives last), try again
        i = max(range(len(rules)), key=lambda k: (rules[k].priority, rules[k].scope == "game", k))
        r = rules[i]
        if r.slack >= len(r.members):
            rules.pop(i)
        else:
            rules[i] = Rule(r.label, r.members, r.scope, r.slack + 1, r.priority)
        placed = attempt(rules)
    for i in sorted(range(len(rules)), key=lambda k: rules[k].priority):   # then tighten back what can be
        while rules[i].slack > next(b.slack for b in base if (b.label, b.scope) == (rules[i].label, rules[i].scope)):
            r = rules[i]
            trial = rules[:i] + [Rule(r.label, r.members, r.scope, r.slack - 1, r.priority)] + rules[i + 1:]
            again = attempt(trial)
            if again is None:
                break
            rules, placed = trial, again
    games = [list(g) for g in placed]
    for g in games:
        rnd.shuffle(g)              # seat order within a game is a lot too
    return Outcome(games, [describe(b, games, branch_of) for b in base if spread_of(games, b, branch_of) > b.slack])


def _search(order, sizes, branch_of, rules, rnd):
    """Fill the games in order with kinds of player, keeping every rule; None when no draw keeps them all."""
    sig = {p: frozenset(i for i, r in enumerate(rules) if p in r.members) for p in order}
    pools: dict[frozenset, list[str]] = {}
    for p in order:
        pools.setdefault(sig[p], []).append(p)
    kinds = sorted(pools, key=lambda k: (-len(k), sorted(k)))
    remaining = [len(pools[k]) for k in kinds]
    n = len(sizes)
    member_kinds = [[j for j, k in enumerate(kinds) if i in k] for i in range(len(rules))]
    apart = [i for i, r in enumerate(rules) if r.scope == "apart"]
    by_branch = [i for i, r in enumerate(rules) if r.scope == "branch"]
    by_game = [i for i, r in enumerate(rules) if r.scope == "game"]
    last_of = {g: g + 1 == n or branch_of[g + 1] != branch_of[g] for g in range(n)}
    done_b = {i: [] for i in by_branch}         # counts of finished branches
    part_b = {i: 0 for i in by_branch}          # count in the branch being filled
    in_b = {i: [] for i in by_game}             # counts of the games of this branch so far
    dead: set = set()
    steps = [0]
    # What does not change during the search, computed once: each game size's kind combinations with their
    # per-rule counts, how many branches start at or after each game, the games left in each game's branch.
    combos: dict[int, list] = {}
    for size in set(sizes):
        for combo in combinations_with_replacement(range(len(kinds)), size):
            per = [0] * len(rules)
            for j in combo:
                for i in kinds[j]:
                    per[i] += 1
            if all(per[i] <= rules[i].slack for i in apart):
                need = {}
                for j in combo:
                    need[j] = need.get(j, 0) + 1
                combos.setdefault(size, []).append((combo, per, tuple(need.items())))
    branches_from = [len(set(branch_of[g:])) for g in range(n + 1)]
    games_left_of = [[h for h in range(g, n) if branch_of[h] == branch_of[g]] if g < n else [] for g in range(n + 1)]
    left_of = [sum(remaining[j] for j in member_kinds[i]) for i in range(len(rules))]

    def left(i):
        return left_of[i]

    def feasible(g) -> bool:
        """Bounds no draw can beat: each rule's unseated members fit the games still to fill."""
        if g == n:
            return True
        for i in apart:
            if left(i) > rules[i].slack * (n - g):
                return False
        branch_starts = g == 0 or branch_of[g] != branch_of[g - 1]
        rest_branches = branches_from[g] - (0 if branch_starts else 1)
        for i in by_branch:
            slack, done = rules[i].slack, done_b[i]
            lo = max(done) - slack if done else 0
            hi = min(done) + slack if done else len(rules[i].members)
            if branch_starts:           # this branch and the ones after it each need lo to hi members
                need, room = max(lo, 0) * rest_branches, hi * rest_branches
            else:
                if part_b[i] > hi:
                    return False
                need = max(lo - part_b[i], 0) + max(lo, 0) * rest_branches
                room = (hi - part_b[i]) + hi * rest_branches
            if not need <= left(i) <= room:
                return False
        if not branch_starts:
            games_left = games_left_of[g]
            for i in by_game:
                if in_b[i]:
                    lo = max(in_b[i]) - rules[i].slack
                    if left(i) < max(lo, 0) * len(games_left):
                        return False
                    if rest_branches == 0:      # the last branch: what is left must fit its games
                        hi = min(in_b[i]) + rules[i].slack
                        if left(i) > sum(min(hi, sizes[h]) for h in games_left):
                            return False
        return True

    def key(g):
        return (g, tuple(remaining), tuple((tuple(sorted(done_b[i])), part_b[i]) for i in by_branch),
                tuple((min(in_b[i]), max(in_b[i])) if in_b[i] else () for i in by_game))

    def fill(g):
        steps[0] += 1
        if steps[0] > STEP_BUDGET:
            raise _OutOfSteps
        if g == n:
            return []
        k = key(g)
        if k in dead:
            return None
        first = g == 0 or branch_of[g] != branch_of[g - 1]
        for combo, per, need in _random_order(combos.get(sizes[g], []), rnd):
            if not all(remaining[j] >= k for j, k in need):
                continue
            if any(in_b[i] and not first and max(in_b[i] + [per[i]]) - min(in_b[i] + [per[i]]) > rules[i].slack
                   for i in by_game):
                continue
            saved = ({i: list(in_b[i]) for i in by_game}, dict(part_b), {i: list(done_b[i]) for i in by_branch})
            for j in combo:
                remaining[j] -= 1
            for i, v in enumerate(per):
                left_of[i] -= v
            for i in by_game:
                in_b[i] = [per[i]] if first else in_b[i] + [per[i]]
            for i in by_branch:
                part_b[i] = per[i] if first else part_b[i] + per[i]
            ok = True
            if last_of[g]:
                for i in by_branch:
                    done = done_b[i] + [part_b[i]]
                    if max(done) - min(done) > rules[i].slack:
                        ok = False
                    done_b[i] = done
            rest = fill(g + 1) if ok and feasible(g + 1) else None
            for j in combo:
                remaining[j] += 1
            for i, v in enumerate(per):
                left_of[i] += v
            in_b.update(saved[0])
            part_b.update(saved[1])
            done_b.update(saved[2])
            if rest is not None:
                return [combo] + rest
        dead.add(k)
        return None

    plan = fill(0) if feasible(0) else None
    if plan is None:
        return None
    queues = {k: list(pools[k]) for k in kinds}
    return [[queues[kinds[j]].pop() for j in combo] for combo in plan]


def _random_order(items: list, rnd):
    """The items in an order drawn from `rnd`, lazily: a random start and a random step prime to the length (the
    first fitting candidate is usually found after a few, so shuffling thousands at every game would dominate)."""
    size = len(items)
    if not size:
        return
    start = rnd.randrange(size)
    step = rnd.randrange(1, size) if size > 1 else 1
    while gcd(step, size) != 1:
        step = rnd.randrange(1, size)
    for k in range(size):
        yield items[(start + k * step) % size]
