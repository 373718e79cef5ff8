"""Checking a pack: structure (errors: the topic cannot be played) and rule P2 (warnings the organiser may override).

Structure: a round has topics, a topic has a name and exactly 5 questions, every question has an answer and
something to read or show. P1: samara requires a reserve (a warning when one is missing). AU1: at most one
auction cell per round. P2 (samara 4.4): every question has a source; at most two questions of one topic share a
source unless that source is listed as a reference work (the topic's or the pack's `reference_works`).
Every issue names the round, topic and question, so `scoreboard pack check` output can be acted on directly;
for a text pack (ChGK) it also carries the line the topic or question starts on.
"""
from __future__ import annotations

from collections import Counter

from .errors import ERROR, WARNING, Issue, place
from .model import QUESTIONS_PER_TOPIC, Pack, Question, Topic


def _norm(text: str) -> str:
    return " ".join(text.casefold().split()).rstrip(".")


def _question(q: Question, where: str, r, t, issues: list[Issue]) -> None:
    if q.empty:
        issues.append(Issue(WARNING, where, "an empty cell in the pack (SIGame price −1): there is no question to "
                                            "play; the host skips it", r, t, q.line))
        return
    if q.kind == "secretNoQuestion":       # SIGame gives its price away: no text or answer to check
        return
    if not q.answer.strip():
        issues.append(Issue(ERROR, where, "the question has no answer", r, t, q.line))
    if not q.text.strip() and not q.media:
        issues.append(Issue(ERROR, where, "the question has no text and no media", r, t, q.line))
    if not q.source.strip():
        issues.append(Issue(WARNING, where, "P2: the question has no source", r, t, q.line))


def topic_issues(topic: Topic, r: int | None, rname: str, t: int, reference: set[str], kind: str = "round"
                 ) -> list[Issue]:
    issues: list[Issue] = []
    here = place(r, rname, t, topic.name) if kind == "round" else f"extra topic {t + 1} «{topic.name}»"
    line = topic.line
    if not topic.name.strip():
        issues.append(Issue(ERROR, here, "the topic has no name", r, t, line))
    if len(topic.questions) != QUESTIONS_PER_TOPIC:
        issues.append(Issue(ERROR, here, f"the topic has {len(topic.questions)} questions; it needs "
                                         f"{QUESTIONS_PER_TOPIC}", r, t, line))
    for n, q in enumerate(topic.questions, 1):
        _question(q, f"{here}, question {n}", r, t, issues)
    if topic.reserve is not None:
        _question(topic.reserve, f"{here}, reserve", r, t, issues)
    else:
        issues.append(Issue(WARNING, here, "P1: no reserve question (samara requires one)", r, t, line))
    exempt = reference | {_norm(w) for w in topic.reference_works}
    counted = Counter(_norm(q.source) for q in topic.questions if q.source.strip())
    for source, count in counted.items():
        if count > 2 and source not in exempt:
            numbers = [str(n) for n, q in enumerate(topic.questions, 1) if _norm(q.source) == source]
            issues.append(Issue(WARNING, f"{here}, questions {', '.join(numbers)}",
                                f"P2: {count} questions share the source «{source}» (at most two may, unless it is "
                                "listed in reference_works)", r, t, line))
    return issues


def check(pack: Pack) -> list[Issue]:
    issues: list[Issue] = []
    reference = {_norm(w) for w in pack.reference_works}
    if not pack.rounds or not any(r.topics for r in pack.rounds):
        issues.append(Issue(ERROR, "", "the pack has no round with topics"))
    for r, round_ in enumerate(pack.rounds):
        if not round_.topics:
            issues.append(Issue(ERROR, place(r, round_.name), "the round has no topics"))
        names = Counter(_norm(t.name) for t in round_.topics)
        for name, count in names.items():
            if count > 1 and name:
                again = [topic for topic in round_.topics if _norm(topic.name) == name][1]
                issues.append(Issue(WARNING, place(r, round_.name), f"{count} topics are named «{name}»", r,
                                    line=again.line))
        auctions = [f"topic {t + 1} question {n}" for t, topic in enumerate(round_.topics)
                    for n, q in enumerate(topic.questions, 1) if q.auction]
        if len(auctions) > 1:
            issues.append(Issue(WARNING, place(r, round_.name), f"AU1: {len(auctions)} auction cells "
                                                                f"({'; '.join(auctions)}); a round has one", r))
        for t, topic in enumerate(round_.topics):
            issues.extend(topic_issues(topic, r, round_.name, t, reference))
    for t, topic in enumerate(pack.extra):
        issues.extend(i for i in topic_issues(topic, -1, "", t, reference, kind="extra")
                      if "reserve" not in i.message or i.level == ERROR)
    for k, final in enumerate(pack.finals()):
        # the first final topic must play; another the host could choose only warns as long as it is broken
        where = f"final topic «{final.topic}»"
        found: list[Issue] = []
        if not final.topic.strip():
            found.append(Issue(ERROR, where, "the final topic has no name"))
        _question(final.question, where, None, None, found)
        if k:
            found = [Issue(i.level, i.where, i.message, FINAL_CHOICE, k, i.line) for i in found]
        issues.extend(found)
    return issues


FINAL_CHOICE = -2      # Issue.round of another final topic (Issue.topic: its index in pack.finals())
