"""T-S8 topic assignment as a constraint search: each game gets k topics such that no player plays a topic written
by themselves or a team-mate, no two topics of one game share a name, and no topic is used twice in the tournament.

This is exactly a flow problem: source → game (capacity k) → (game, topic name) (capacity 1: names differ within a
game) → topic (capacity 1: used once) → sink. A maximum flow of k × games is an assignment; a smaller one proves none
exists, and the minimum cut names the games that cannot all be served and the constraint that starves them.
The lot: edges are tried in an order shuffled by the tournament seed, so the assignment is random yet re-runnable.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from scoreboard.tournament.errors import TournamentError


@dataclass(frozen=True)
class Topic:
    id: str
    name: str
    author: str | None          # the player who wrote it (None: the organisers' or another club's)


def playable(topic: Topic, players: list[str], team_of: dict[str, str | None]) -> bool:
    if topic.author is None:
        return True
    if topic.author in players:
        return False
    team = team_of.get(topic.author)
    return not (team and any(team_of.get(p) == team for p in players))


class _Flow:
    def __init__(self):
        self.adj: dict = {}
        self.cap: dict = {}

    def edge(self, a, b, c):
        self.adj.setdefault(a, []).append(b)
        self.adj.setdefault(b, []).append(a)
        self.cap[(a, b)] = self.cap.get((a, b), 0) + c
        self.cap.setdefault((b, a), 0)

    def augment(self, s, t) -> bool:
        prev = {s: None}
        queue = deque([s])
        while queue:
            u = queue.popleft()
            for v in self.adj.get(u, ()):
                if v not in prev and self.cap[(u, v)] > 0:
                    prev[v] = u
                    if v == t:
                        while prev[v] is not None:
                            u = prev[v]
                            self.cap[(u, v)] -= 1
                            self.cap[(v, u)] += 1
                            v = u
                        return True
                    queue.append(v)
        return False

    def reachable(self, s) -> set:
        seen, queue = {s}, deque([s])
        while queue:
            u = queue.popleft()
            for v in self.adj.get(u, ()):
                if v not in seen and self.cap[(u, v)] > 0:
                    seen.add(v)
                    queue.append(v)
        return seen


def assign(games: dict[str, list[str]], per_game: int, pool: list[Topic], team_of: dict[str, str | None],
           rnd) -> dict[str, list[Topic]]:
    """games: game id → its players. Returns game id → its topics, or raises naming the game and the constraint."""
    ids = [t.id for t in pool]
    if len(set(ids)) != len(ids):
        raise TournamentError("two topics in the pool share an id")
    order = list(pool)
    rnd.shuffle(order)
    flow = _Flow()
    game_ids = list(games)
    rnd.shuffle(game_ids)
    for g in game_ids:
        flow.edge("S", ("g", g), per_game)
        names = set()
        for t in order:
            if playable(t, games[g], team_of):
                if t.name not in names:
                    names.add(t.name)
                    flow.edge(("g", g), ("n", g, t.name), 1)
                flow.edge(("n", g, t.name), ("t", t.id), 1)
    for t in order:
        flow.edge(("t", t.id), "T", 1)
    total = 0
    while flow.augment("S", "T"):
        total += 1
    if total < per_game * len(games):
        raise TournamentError(_explain(games, per_game, pool, team_of, flow))
    out = {g: [] for g in games}
    for g in games:
        for t in order:   # a unit of flow on (game, name) → topic is that topic played in that game
            if flow.cap.get((("t", t.id), ("n", g, t.name))) == 1:
                out[g].append(t)
        rnd.shuffle(out[g])
    return out


def _explain(games, per_game, pool, team_of, flow) -> str:
    """The minimum cut: games still reachable from the source could not all get their topics."""
    side = flow.reachable("S")
    starved = sorted(g for g in games if ("g", g) in side)
    for g in starved:
        mine = [t for t in pool if playable(t, games[g], team_of)]
        names = {t.name for t in mine}
        if len(names) < per_game:
            banned = len(pool) - len(mine)
            return (f"game {g}: only {len(names)} topic names can be played by {', '.join(games[g])} "
                    f"({per_game} needed): {banned} of {len(pool)} topics were written by these players or their "
                    f"team-mates, and topics sharing a name count once in one game")
    wanted = per_game * len(starved)
    usable = {t.id for t in pool for g in starved if playable(t, games[g], team_of)}
    return (f"games {', '.join(starved)} need {wanted} topics between them but only {len(usable)} unused "
            f"topics are playable by their players: a topic is used at most once in the tournament (a decision of "
            f"this program, not in samara 3.2.5: see docs/TOURNAMENTS.md)")
