"""novosibirsk-2007 final part: the 1/9 → 1/3 → final bracket and its quasi-blind draw (T-N1, T-N2).

1/9 games 1–3 feed 1/3 game 1, 4–6 game 2, 7–9 game 3; the three 1/3 winners play the final.
"""
from __future__ import annotations

from scoreboard.tournament.draw import Group, Outcome, draw_games
from scoreboard.tournament.errors import TournamentError

GAMES = 9
BRANCHES = 3
MAX_PLAYERS = 27
MIN_PLAYERS = 18        # Decision: every 1/9 game has at least 2 players (≤ 3 by T-N1)

# Extra seats (fewer than 27 players) go round the branches so that the branches stay as even as the games.
_FILL_ORDER = [0, 3, 6, 1, 4, 7, 2, 5, 8]


def branch_of(game_index: int) -> int:
    """0-based 1/9 game → 0-based 1/3 game it feeds."""
    return game_index // BRANCHES


def game_sizes(n: int) -> list[int]:
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise TournamentError(f"the 1/9 final seats {MIN_PLAYERS}–{MAX_PLAYERS} players (≤ 3 a game, 9 games); "
                              f"{n} registered")
    sizes = [2] * GAMES
    for g in _FILL_ORDER[: n - 2 * GAMES]:
        sizes[g] += 1
    return sizes


def draw_groups(seeded: list[str], teams: dict[str, list[str]]) -> list[Group]:
    """T-N2: last championship's 1/3-finalists, then each team, spread over the most distant branches."""
    groups = [Group("last championship's 1/3-finalists", tuple(seeded), priority=0)]
    for team, members in sorted(teams.items()):
        groups.append(Group(f"team {team}", tuple(members), priority=1))
    return groups


def branches() -> list[int]:
    """The 1/3 branch of each 1/9 game, in game order."""
    return [branch_of(g) for g in range(GAMES)]


def draw_first_stage(players: list[str], seeded: list[str], teams: dict[str, list[str]], rnd) -> Outcome:
    sizes = game_sizes(len(players))
    return draw_games(sorted(players), sizes, draw_groups(seeded, teams), rnd, branches())


def feeders(stage: str, number: int) -> list[int]:
    """The games (1-based numbers of the previous stage) whose winners play game `number` of `stage`."""
    if stage == "1/3":
        return [3 * (number - 1) + k for k in (1, 2, 3)]
    if stage == "final":
        return [1, 2, 3]
    raise ValueError(stage)
