"""Places for the whole field of a knockout tournament (novosibirsk, america), not only the final's three.

*Decision* (the regulations prize places 1–3 only, novosibirsk 2007 §4, america §… «2-е и 3-е места»): a player's
place follows the stage they reached — the final's players first, in the final's order; then those who went out in the
stage before it, and so on. Among players who went out in one stage: their place in their own game (2nd before 3rd),
then their score in it; players equal on both share the place («4–5»). In the final, equal scores are told apart by the
tie-break's points (TB1/TB2) and a typed lot (TB4); still equal, they share. Players of a stage still in play share
the places at the top of the table until it is decided.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Place:
    name: str
    place: str                     # "1", "4–6"
    stage: str                     # the stage reached
    game: str | None               # the game they went out in (or play)
    score: float | None
    decided_by: str | None = None  # what put them above the next player on equal footing: "extra round", "lot", …
    stages: dict = field(default_factory=dict)   # stage id -> score there


def _span(start: int, count: int) -> str:
    return str(start) if count == 1 else f"{start}–{start + count - 1}"


def knockout_places(stages: list[dict], tie_name: str) -> list[Place]:
    """`stages` in play order: {"id", "advanced": bool, "qualified": set, "games": [{"id", "players", "result"}]}
    (result as stored). `tie_name` says what separates equal scores in the final ("extra round", "extra questions")."""
    scores: dict[str, dict] = {}
    for s in stages:
        for g in s["games"]:
            for seat in (g["result"] or {}).get("seats", []):
                scores.setdefault(seat["name"], {})[s["id"]] = seat["score"]
    out: list[Place] = []
    later: set[str] = set()
    for depth, s in enumerate(reversed(stages)):
        last = depth == 0
        groups = []                 # [(key, [Place…])] best first, equal key = shared
        for g in s["games"]:
            r = g["result"]
            if not r:               # still to play: everybody in it shares
                for n in g["players"]:
                    if n not in later:
                        groups.append(((0,), Place(n, "", s["id"], g["id"], None, stages=scores.get(n, {}))))
                continue
            order = _game_order(r)
            for pos, seat in enumerate(order):
                n = seat["name"]
                if n in later or (not last and n in s["qualified"]):
                    continue
                if last and s["advanced"] and n in s["qualified"] and not _is_final(s):
                    key = (0,)      # went on, next stage not drawn yet
                elif last and _is_final(s):
                    key = (1, -_final_rank(order, pos))
                else:
                    key = (1, -(pos + 1), seat["score"])
                groups.append((key, Place(n, "", s["id"], g["id"], seat["score"], stages=scores.get(n, {}))))
                if last and _is_final(s):
                    groups[-1][1].decided_by = _final_decider(order, pos, tie_name)
        groups.sort(key=lambda kp: kp[0], reverse=True)
        i = 0
        while i < len(groups):
            j = i
            while j < len(groups) and groups[j][0] == groups[i][0]:
                j += 1
            start = len(out) + 1
            for _, p in groups[i:j]:
                p.place = _span(start, j - i)
                out.append(p)
            i = j
        later |= {n for g in s["games"] for n in g["players"]}
    return out


def _is_final(stage: dict) -> bool:
    return stage["id"] == "final"


def _game_order(result: dict) -> list[dict]:
    winner = result.get("winner")
    rest = sorted((x for x in result["seats"] if x["name"] != winner), key=lambda x: (-x["score"], -x["tiebreak"]))
    return [x for x in result["seats"] if x["name"] == winner] + rest


def _final_rank(order: list[dict], pos: int) -> int:
    """The final's place of seat `pos`: equal score and tie-break points (and no winner between them) share."""
    rank = pos
    while rank > 0 and _equal(order[rank - 1], order[pos]) and rank - 1 != 0:
        rank -= 1
    return rank + 1


def _equal(a: dict, b: dict) -> bool:
    return a["score"] == b["score"] and a["tiebreak"] == b["tiebreak"]


def _final_decider(order: list[dict], pos: int, tie_name: str) -> str | None:
    if pos + 1 >= len(order):
        return None
    a, b = order[pos], order[pos + 1]
    if a["score"] != b["score"]:
        return None
    if a["tiebreak"] != b["tiebreak"]:
        return tie_name
    return "lot" if pos == 0 else None
