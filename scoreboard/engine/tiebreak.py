"""Who wins (TB5), tie-breaks (TB1–TB4) and the pack's pool of topics they are played on.

Theory of operation. The *pool* is every topic of the loaded pack the game does not play: the pack's own extra
topics first, then the topics of each round beyond what the stage takes, then whole rounds the stage does not
play. A tie-break takes what it needs from the pool's unused, playable part (a topic whose questions all have
text; extra questions take one question at a time), in the pool's order or by a lot (`tiebreak.draw`, TB3, with
the game's seed, TB4). Only when the pool is exhausted does a tie-break fall back to named placeholders
(«Доп. тема N») the host reads from paper — and the host is warned of that when the pack is loaded.
"""
from __future__ import annotations

from .phases import Phase, move
from .rounds import finish, lowest_score, round_size
from .state import Cell, Round, Topic
from .table import Table


def pool(t: Table) -> list[dict]:
    """The pack's topics the game's rounds do not play, extras first (empty without a pack)."""
    if t.plan is None:
        return []
    topics = [tp for tp in (t.plan.get("extra") or []) if isinstance(tp, dict)]
    for i, planned in enumerate(t.plan.get("rounds") or []):
        taken = round_size(t, i) if i < len(t.stage.rounds) else 0
        topics += [tp for tp in (planned.get("topics") or [])[taken:] if isinstance(tp, dict)]
    return topics


def _has_text(question) -> bool:
    return isinstance(question, dict) and isinstance(question.get("text"), str) and bool(question["text"].strip())


def free_units(t: Table) -> list[tuple[int, int]]:
    """(pool topic, first question) a tie-break may still take: whole playable topics, or single questions."""
    used = set(t.st.pool_used)
    taken_topics = {p for p, _ in used}
    cells = len(t.reg.tiebreak_values)
    units = []
    for p, topic in enumerate(pool(t)):
        questions = topic.get("questions") or []
        if t.reg.tiebreak_kind == "extra_questions":
            units += [(p, j) for j, q in enumerate(questions) if _has_text(q) and (p, j) not in used]
        elif p not in taken_topics and len(questions) >= cells and all(_has_text(q) for q in questions[:cells]):
            units.append((p, 0))
    return units


def _take(t: Table, units: list[tuple[int, int]], topics: list[dict]) -> tuple[int, int]:
    if t.reg.tiebreak_draw == "lot" and len(units) > 1:
        names = [topics[p]["name"] for p, _ in units]
        number = t.lot(f"extra topic of tie-break {t.st.tiebreaks}", list(range(1, len(units) + 1)), names=names)
        return units.pop(number - 1)
    return units.pop(0)


def open_tiebreak(t: Table, tied: list[int]) -> None:
    """TB1–TB3: an extra round / extra topic / extra question among the tied players only."""
    st = t.st
    st.tiebreaks += 1
    kind = t.reg.tiebreak_kind
    questions = kind == "extra_questions"
    count = 1 if questions else t.stage.tiebreak_topics
    cell_values = t.reg.tiebreak_values[:1] if questions else t.reg.tiebreak_values
    topics, units, named = [], free_units(t), pool(t)
    for k in range(count):
        if units:
            p, j = _take(t, units, named)
            st.pool_used += [(p, j)] if questions else [(p, q) for q in range(len(cell_values))]
            planned = list((named[p].get("questions") or [])[j:j + len(cell_values)])   # free units have text
            topics.append(Topic(named[p]["name"], [Cell(v) for v in cell_values], pool=p, offset=j,
                                planned=planned))
        else:
            name = f"Доп. вопрос {st.tiebreaks}" if questions else f"Доп. тема {(st.tiebreaks - 1) * count + k + 1}"
            topics.append(Topic(name, [Cell(v) for v in cell_values]))
    for p in st.players:
        p.in_play = p.seat in tied
    st.round = Round(len(t.stage.rounds) + st.tiebreaks - 1, "tiebreak", topics, 0, tiebreak=True)
    move(st, Phase.ROUND_INTRO)
    st.question = None
    st.last = None
    if t.reg.order == "choice":
        rule = t.reg.next_chooser
        st.chooser = (t.lot(f"chooser of tie-break {st.tiebreaks}", tied) if rule == "lot"
                      else lowest_score(t) if rule == "lowest_score" else None)


def decide(t: Table, candidates: list[int]) -> None:
    """TB5: the top score wins (samara: only if positive); a tie for first goes to the tie-break."""
    st = t.st
    top = max(st.player(s).score for s in candidates)
    if t.reg.winner == "top_positive" and top <= 0:
        finish(t, None, "no player has a positive score (TB5)", "no_positive")
        return
    tied = [s for s in candidates if st.player(s).score == top]
    if len(tied) == 1:
        finish(t, tied[0])
        return
    if not t.stage.tiebreak:
        st.shared = sorted(tied)
        finish(t, None, "shared first place (T-S7): " + ", ".join(map(str, sorted(tied))), "shared_first")
        return
    open_tiebreak(t, tied)


def settle_tiebreak(t: Table) -> None:
    st = t.st
    tied = st.in_play()
    top = max(st.player(s).tiebreak_score for s in tied)
    ahead = [s for s in tied if st.player(s).tiebreak_score == top]
    if len(ahead) == 1:
        finish(t, ahead[0])
        return
    repeats = t.reg.tiebreak_repeats
    if repeats == 0 or st.tiebreaks < repeats:
        open_tiebreak(t, ahead)
        return
    if t.reg.tiebreak_lot:
        finish(t, t.lot("winner (tie after the tie-break)", ahead))
        return
    finish(t, None, "still tied after the tie-break", "still_tied")


def plan_warnings(t: Table) -> list[str]:
    """What the host must know before the game starts about a loaded pack (AU1 Decision, TB)."""
    out = []
    if t.reg.auctions:
        for i, spec in enumerate(t.stage.rounds):
            if not spec.auctions:
                continue
            planned_round = (t.plan.get("rounds") or [])[i]
            cells = len(t.reg.values[spec.kind])
            marked = sum(bool(q.get("auction")) for tp in (planned_round.get("topics") or [])[:round_size(t, i)]
                         for q in (tp.get("questions") or [])[:cells] if isinstance(q, dict))
            if marked < spec.auctions:
                out.append(f"round {i + 1} «{planned_round.get('name') or i + 1}»: the pack marks {marked} of "
                           f"{spec.auctions} auction question(s) (AU1): the host marks one when it is chosen, "
                           "or waives the round's auction")
    if t.stage.tiebreak:
        need = 1 if t.reg.tiebreak_kind == "extra_questions" else t.stage.tiebreak_topics
        have = len(free_units(t))
        if have < need:
            what = "question" if t.reg.tiebreak_kind == "extra_questions" else "topic"
            out.append(f"the pack has {have} unplayed {what}(s) with text for a tie-break, {need} needed (TB): "
                       "a tie-break would be played on «Доп. тема» cells the host reads from paper")
    return out
