"""Text fields capped at import (issue 24 item 8): a pack is outside input, and its words travel in every state the
board sends (topic and round names) or in the host's question. Four topic names of 9,000 characters made the state
exceed a datagram; no screen shows more than a few lines of a name anyway. A field over its cap is cut, and a
warning names the field, its place and its length, so `scoreboard pack check` shows what to shorten.

Caps, in characters: a name (pack, round, topic, final topic, author, team, cat-in-the-bag topic) 120; a short text
(an answer, an accepted or wrong answer, an option, a source, a reference work) 500; an explanation 1,000; a long
text (a question, a comment) 4,000.
"""
from __future__ import annotations

from .errors import WARNING, Issue, place
from .model import Pack, Question, Topic

NAME, SHORT, EXPLANATION, LONG = 120, 500, 1000, 4000

QUESTION_TEXTS = {"text": LONG, "answer": SHORT, "comment": LONG, "source": SHORT, "author": NAME,
                  "secret_topic": NAME, "secret_price": NAME}
QUESTION_LISTS = {"accepts": SHORT, "wrong": SHORT, "options": SHORT}


def cap_texts(pack: Pack) -> list[Issue]:
    """Cut every text field over its cap, in place; a warning for each, naming it."""
    issues: list[Issue] = []

    def cut(obj, name: str, cap: int, where: str, r=None, t=None, line=None) -> None:
        value = getattr(obj, name)
        if isinstance(value, str) and len(value) > cap:
            setattr(obj, name, value[:cap - 1] + "…")
            issues.append(Issue(WARNING, where, f"{name.replace('_', ' ')} cut to {cap} characters (it had "
                                                f"{len(value)})", r, t, line))

    def cut_list(obj, name: str, cap: int, where: str, r=None, t=None, line=None) -> None:
        for k, value in enumerate(getattr(obj, name)):
            if isinstance(value, str) and len(value) > cap:
                getattr(obj, name)[k] = value[:cap - 1] + "…"
                issues.append(Issue(WARNING, where, f"{name} {k + 1} cut to {cap} characters (it had "
                                                    f"{len(value)})", r, t, line))

    for name, cap in (("title", NAME), ("author", NAME), ("comment", LONG)):
        cut(pack, name, cap, "the pack")
    cut_list(pack, "reference_works", SHORT, "the pack")
    for r, round_ in enumerate(pack.rounds):      # names first: the places below quote them
        cut(round_, "name", NAME, place(r), r)
        cut(round_, "comment", LONG, place(r, round_.name), r)
        for t, topic in enumerate(round_.topics):
            _topic(topic, place(r, round_.name, t), r, t, cut, cut_list)
    for t, topic in enumerate(pack.extra):
        _topic(topic, f"extra topic {t + 1}", -1, t, cut, cut_list)
    for k, final in enumerate(pack.finals()):
        cut(final, "topic", NAME, f"final topic {k + 1}")
        cut(final, "explanation", EXPLANATION, f"final topic «{final.topic}»")
    for where, r, t, question in pack.located():
        _question(question, where, r, t, cut, cut_list)
    return issues


def _topic(topic: Topic, where: str, r, t, cut, cut_list) -> None:
    cut(topic, "name", NAME, where, r, t, topic.line)
    where = f"{where} «{topic.name}»"
    for name, cap in (("explanation", EXPLANATION), ("author", NAME), ("team", NAME)):
        cut(topic, name, cap, where, r, t, topic.line)
    cut_list(topic, "reference_works", SHORT, where, r, t, topic.line)


def _question(question: Question, where: str, r, t, cut, cut_list) -> None:
    for name, cap in QUESTION_TEXTS.items():
        cut(question, name, cap, where, r, t, question.line)
    for name, cap in QUESTION_LISTS.items():
        cut_list(question, name, cap, where, r, t, question.line)
