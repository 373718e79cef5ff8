"""FN5: a stake never exceeds the limit the rules measure it against, at the moment it is played.

A correction (G8 adjustment, re-judging, a reserve question, G9) can lower a score below a stake already made.
Then the auction stake comes down to its new limit (AU2: the holder's score, at least the nominal), a final
stake not yet played is asked for again while stakes are still collected (FN2, FN3), or comes down to the new
score once the question is under way. Every change is kept in `stake_changes` (the snapshot shows it; a final
stake's amount stays hidden until its reveal, FN4).
"""
from __future__ import annotations

from .phases import FINAL, Phase
from .table import Table


def enforce(t: Table) -> None:
    """Bring every pending stake within its limit after the scores changed."""
    st = t.st
    a, q = st.auction, st.question
    if a is not None and st.phase is Phase.AUCTION:
        limit = max(a.nominal, st.player(a.holder).score)
        if a.stake > limit:
            _log(t, a.holder, "auction", "lowered", a.stake, limit)
            a.stake = limit
            a.allin = limit == st.player(a.holder).score and limit > a.nominal
    elif q is not None and q.kind == "auction" and st.phase is Phase.AUCTION_ANSWER and q.stake is not None:
        limit = max(q.value, st.player(st.answering).score)
        if q.stake > limit:
            _log(t, st.answering, "auction", "lowered", q.stake, limit)
            q.stake = limit
            if a is not None:
                a.stake = limit
    f = st.final
    if f is None or st.phase not in FINAL:
        return
    for seat, stake in sorted(f.stakes.items()):
        if seat in f.revealed:
            continue
        score = st.player(seat).score
        limit = max(score, 0)
        if stake <= limit:
            continue
        if st.phase is Phase.FINAL_STAKES and score > 0:
            del f.stakes[seat]              # FN2: asked for again, from 1 to the new score
            _log(t, seat, "final", "asked_again", stake, None)
        else:
            f.stakes[seat] = limit          # written already, or nothing left to stake (FN3: 0)
            _log(t, seat, "final", "lowered", stake, limit)


def _log(t: Table, seat: int, kind: str, action: str, old: int, new: int | None) -> None:
    t.st.stake_changes.append({"seat": seat, "kind": kind, "action": action, "from": old, "to": new,
                               "time": t.at})


def public(st) -> list[dict]:
    """`stake_changes` for the snapshot: a final stake's amounts are hidden until that seat's reveal (FN4)."""
    shown = []
    revealed = set(st.final.revealed) if st.final is not None else set()
    for change in st.stake_changes:
        change = dict(change)
        if change["kind"] == "final" and change["seat"] not in revealed:
            change["from"] = change["to"] = None
        shown.append(change)
    return shown
