"""Draws: the novosibirsk quasi-blind draw (T-N1, T-N2), samara round-1 spreading (T-S2), fairness (re-runnable)."""
from __future__ import annotations

from itertools import combinations

from hypothesis import HealthCheck, given, settings, strategies as st

from scoreboard.tournament import draw, novosibirsk, samara
from scoreboard.tournament.lots import rng

BRANCHES = [novosibirsk.branch_of(g) for g in range(9)]


@st.composite
def brackets(draw_):
    n = draw_(st.integers(18, 27))
    players = [f"p{i}" for i in range(n)]
    seeded = draw_(st.lists(st.sampled_from(players), max_size=9, unique=True))
    pool = draw_(st.permutations(players))
    teams, i = {}, 0
    for k, size in enumerate(draw_(st.lists(st.integers(2, 7), max_size=4))):
        if i + size > n:
            break
        teams[f"team{k}"] = sorted(pool[i:i + size])
        i += size
    return players, sorted(seeded), teams, draw_(st.integers(0, 10**6))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(brackets())
def test_tn2_quasi_blind_draw_never_breaks_a_spread(case):
    """GIVEN any 18–27 players, up to 9 last-season 1/3-finalists and teams of 2–7
    WHEN the 1/9 final is drawn THEN every group is spread: at most ceil(m/3) in a 1/3 branch and ceil(m/9) in a
    game, nothing reported broken, every player seated once in 9 games of 2–3."""
    players, seeded, teams, seed = case
    out = novosibirsk.draw_first_stage(players, seeded, teams, rng(seed, "1/9"))
    assert out.broken == []
    assert draw.check(out.games, novosibirsk.draw_groups(seeded, teams), BRANCHES) == []
    assert sorted(p for g in out.games for p in g) == sorted(players)
    assert len(out.games) == 9 and all(2 <= len(g) <= 3 for g in out.games)


def test_tn1_bracket_tree_feeds():
    """GIVEN the novosibirsk bracket WHEN each game's feeders are asked THEN 1/9 games 1–3 feed 1/3 game 1, 4–6 game 2,
    7–9 game 3, and 1/3 games 1–3 feed the final (T-N1)."""
    assert [novosibirsk.feeders("1/3", k) for k in (1, 2, 3)] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert novosibirsk.feeders("final", 1) == [1, 2, 3]


def test_tn2_seeded_nine_one_per_game_and_three_per_branch():
    """GIVEN 27 players, 9 of them last season's 1/3-finalists WHEN the 1/9 final is drawn THEN every game holds exactly
    one of them, hence three per 1/3 branch (T-N2)."""
    players = [f"p{i}" for i in range(27)]
    seeded = players[:9]
    out = novosibirsk.draw_first_stage(players, seeded, {}, rng(5, "1/9"))
    assert all(sum(p in seeded for p in g) == 1 for g in out.games)


def test_tn2_team_mates_go_to_different_branches_first():
    """GIVEN a team of 3 and a team of 2 among 27 THEN the three sit in three different 1/3 branches and the two in
    two different branches, whatever the seed."""
    players = [f"p{i}" for i in range(27)]
    teams = {"A": ["p1", "p2", "p3"], "B": ["p4", "p5"]}
    for seed in range(30):
        out = novosibirsk.draw_first_stage(players, [], teams, rng(seed, "1/9"))
        branch = {p: BRANCHES[g] for g, game in enumerate(out.games) for p in game}
        assert len({branch[p] for p in teams["A"]}) == 3 and branch["p4"] != branch["p5"]


def test_draw_is_a_function_of_the_seed():
    """GIVEN the same players, seeded nine and team WHEN the 1/9 final is drawn twice with seed 1 and once with seed 2
    THEN the seed-1 draws are identical and the seed-2 draw differs (fairness: anyone can re-run it; T-N2)."""
    players = [f"p{i}" for i in range(27)]
    a = novosibirsk.draw_first_stage(players, players[:9], {"x": players[9:13]}, rng(1, "1/9")).games
    b = novosibirsk.draw_first_stage(players, players[:9], {"x": players[9:13]}, rng(1, "1/9")).games
    c = novosibirsk.draw_first_stage(players, players[:9], {"x": players[9:13]}, rng(2, "1/9")).games
    assert a == b and a != c


def _partitions(players, sizes):
    if not sizes:
        yield []
        return
    first, rest = sizes[0], sizes[1:]
    for group in combinations(players, first):
        left = [p for p in players if p not in group]
        for tail in _partitions(left, rest):
            yield [list(group)] + tail


@st.composite
def small_rounds(draw_):
    n = draw_(st.integers(4, 9))
    players = [f"p{i}" for i in range(n)]
    pairs = draw_(st.lists(st.tuples(st.sampled_from(players), st.sampled_from(players)).filter(lambda p: p[0] < p[1]),
                           max_size=5, unique=True))
    spread = draw_(st.lists(st.sampled_from(players), max_size=n, unique=True))
    groups = [draw.Group(f"relatives {a}/{b}", (a, b), apart=True, priority=-1) for a, b in pairs]
    groups.append(draw.Group("spread", tuple(spread)))
    return players, groups, draw_(st.integers(0, 10**6))


@settings(max_examples=60, deadline=None)
@given(small_rounds())
def test_ts2_round_one_keeps_every_constraint_that_can_be_met(case):
    """GIVEN a samara round 1 of 4–9 players with relatives and a group to spread
    WHEN it is drawn THEN if any seating keeps every constraint (checked by trying them all) the draw breaks none;
    otherwise the draw names what it could not keep, and what it reports matches what it did."""
    players, groups, seed = case
    sizes = samara.first_round_sizes(len(players))
    out = draw.draw_games(players, sizes, groups, rng(seed, "r1"))
    feasible = any(not draw.check(p, groups) for p in _partitions(players, sizes))
    if feasible:
        assert out.broken == [] and draw.check(out.games, groups) == []
    else:
        assert out.broken and set(draw.check(out.games, groups)) <= set(out.broken)
    assert sorted(map(len, out.games)) == sorted(sizes)


def test_ts2_relatives_that_cannot_be_parted_are_named():
    """GIVEN three siblings in a cup of 5 (two games) THEN the draw says which relatives it could not keep apart."""
    players = ["a", "b", "c", "d", "e"]
    groups = [draw.Group(f"relatives {x}/{y}", (x, y), apart=True) for x, y in combinations("abc", 2)]
    out = draw.draw_games(players, samara.first_round_sizes(5), groups, rng(1, "r1"))
    assert len(out.broken) == 1 and out.broken[0].startswith("relatives")
    assert "could not keep them all in different games" in out.broken[0]
