"""Ranking by an ordered list of criteria, ending in a lot, that remembers what decided each place.

Used for wild cards (T-A4), filling a samara round by the cup sum (T-S3), the Super Nine selection (T-S5). The
reason strings are what the round table shows: who advanced and why.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Criterion:
    name: str                      # "cup sum", "players in the selection game", …
    key: Callable[[str], float]    # bigger is better


@dataclass
class Ranked:
    name: str
    values: dict                   # criterion name -> value
    decided_by: str | None = None  # what put this player above the next one ("lot" if only the lot did)


def rank(names: list[str], criteria: list[Criterion], rnd) -> list[Ranked]:
    """Best first. Ties on every criterion are broken by a lot drawn from `rnd` (stored seed)."""
    lot_order = list(sorted(names))
    rnd.shuffle(lot_order)
    lot = {n: i for i, n in enumerate(lot_order)}

    def sort_key(n):
        return tuple(-c.key(n) for c in criteria) + (lot[n],)

    order = sorted(names, key=sort_key)
    out = [Ranked(n, {c.name: c.key(n) for c in criteria}) for n in order]
    for upper, lower in zip(out, out[1:]):
        upper.decided_by = "lot"
        for c in criteria:
            if upper.values[c.name] != lower.values[c.name]:
                upper.decided_by = c.name
                break
    return out


def cut_reason(ranked: list[Ranked], cut: int) -> str | None:
    """Why the player just above the line got in ahead of the one just below (None if nobody was below)."""
    if cut <= 0 or cut >= len(ranked):
        return None
    a, b = ranked[cut - 1], ranked[cut]
    if a.decided_by == "lot":
        return f"{a.name} ahead of {b.name} by lot (equal on every criterion)"
    return f"{a.name} ahead of {b.name} on {a.decided_by}: {_fmt(a.values[a.decided_by])} vs {_fmt(b.values[a.decided_by])}"


def _fmt(v):
    return f"{v:g}" if isinstance(v, float) else str(v)
