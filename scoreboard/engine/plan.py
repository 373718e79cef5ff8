"""The loaded pack plan as the rules read it: the pack's question behind a cell of the board (docs/ENGINE_API.md
«Pack plan»). The host's view and the snapshot show what it may; the media clock asks whether it has a video or a
sound. Reads only: the plan and the state are never changed here."""
from __future__ import annotations

from .state import Question, State


def planned_question(st: State, plan: dict | None, q: Question | None = None) -> dict | None:
    """The pack plan's entry for the open question (or for `q`, a question of the current round)."""
    q = q or st.question
    if plan is None or q is None or st.round is None:
        return None
    if st.round.tiebreak:
        return _tiebreak_question(st, q.topic, q.index) if not q.replaced else None
    elif st.round.pack_round is not None:
        topics = plan["rounds"][st.round.pack_round].get("topics") or []
        topic = topics[q.topic - 1] if q.topic - 1 < len(topics) else None
    else:
        topic = None
    if topic is None:
        return None
    if q.replaced:
        return topic.get("reserve")
    questions = topic.get("questions") or []
    return questions[q.index - 1] if q.index - 1 < len(questions) else None


def _tiebreak_question(st: State, topic: int, index: int) -> dict | None:
    """The pack's question behind a tie-break cell (None for a placeholder topic): tiebreak.py keeps the pool's
    questions on the topic when it opens the tie-break."""
    questions = st.round.topics[topic - 1].planned or []
    return questions[index - 1] if index - 1 < len(questions) else None


def planned_final(plan: dict | None, topic: str | None) -> dict | None:
    """The plan's final topic the game plays: the one named by /sg/final/topic among the pack's final topics
    (`finals`), else the plan's `final`."""
    plan = plan or {}
    wanted = " ".join((topic or "").casefold().split())
    for final in plan.get("finals") or []:
        if " ".join((final.get("topic") or "").casefold().split()) == wanted:
            return final
    return plan.get("final")
