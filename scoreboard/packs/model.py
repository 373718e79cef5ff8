"""The pack model every format reads into: pack → rounds → topics → 5 questions + reserve, a final topic, extras.

RULES.md P1: a topic has a name, an optional explanation the host reads before it, an author and team (samara
T-S8 keeps a player off topics of their own team), 5 questions and optionally a reserve (required by samara).
A question has text, answer, accepted alternatives, a source, an author, a comment and optional media.

Media are referenced by `ref`, a path relative to the pack (the TOML file's folder, or the name inside a .siq
archive); the loader copies them into the board's pack cache and the plan carries absolute cache paths.
`price` keeps the value printed in the pack (SIGame packs have their own); in play the regulation's values apply.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import Issue, place

MEDIA_KINDS = ("image", "audio", "video")
QUESTIONS_PER_TOPIC = 5


@dataclass(slots=True)
class Media:
    kind: str           # one of MEDIA_KINDS
    ref: str            # pack-relative path ("media/volga.png", "Images/volga.png")


@dataclass(slots=True)
class Question:
    text: str = ""
    answer: str = ""
    accepts: list[str] = field(default_factory=list)
    comment: str = ""
    source: str = ""
    author: str = ""
    media: list[Media] = field(default_factory=list)          # shown / played with the question
    answer_media: list[Media] = field(default_factory=list)   # shown with the answer (SIGame packs have them)
    auction: bool = False
    price: int | None = None
    wrong: list[str] = field(default_factory=list)            # answers the pack marks wrong (SIGame `<wrong>`)
    options: list[str] = field(default_factory=list)          # a select question's options, "A. text", in order
    kind: str = ""              # the SIGame question type when special ("secret", "noRisk", "forAll"…), else ""
    secret_topic: str = ""      # cat in the bag: its own topic…
    secret_price: str = ""      # …and price in SIGame's notation: "2000", "[100;500]", "[100;500]/400"
    empty: bool = False         # an empty cell (SIGame price −1): nothing to play there
    line: int | None = field(default=None, compare=False)     # where it starts in a text pack (ChGK), for messages


@dataclass(slots=True)
class Topic:
    name: str
    explanation: str = ""
    author: str = ""
    team: str = ""
    questions: list[Question] = field(default_factory=list)
    reserve: Question | None = None
    reference_works: list[str] = field(default_factory=list)  # sources exempt from P2's "two per topic"
    line: int | None = field(default=None, compare=False)     # its `Вопрос N:` line in a ChGK text pack


@dataclass(slots=True)
class Round:
    name: str
    topics: list[Topic] = field(default_factory=list)
    comment: str = ""


@dataclass(slots=True)
class Final:
    topic: str
    question: Question
    explanation: str = ""


@dataclass(slots=True)
class Pack:
    title: str = ""
    author: str = ""
    rounds: list[Round] = field(default_factory=list)
    final: Final | None = None
    extra: list[Topic] = field(default_factory=list)          # tie-break topics (TB1, TB3)
    reference_works: list[str] = field(default_factory=list)
    comment: str = ""
    logo: "Media | None" = None
    other_finals: list[Final] = field(default_factory=list)   # the pack's other final topics, the host may choose
    # What the reader noticed while importing (special SIGame types, pack prices, missing media…).
    # Not part of the pack's content, so two equal packs compare equal whatever their import history.
    issues: list[Issue] = field(default_factory=list, compare=False)

    def all_media(self) -> list[Media]:
        found: list[Media] = []
        for question in self.questions():
            found.extend(question.media)
            found.extend(question.answer_media)
        if self.logo is not None:
            found.append(self.logo)
        return found

    def questions(self):
        """Every question of the pack, reserves, final and extras included."""
        for topic in self.topics():
            yield from topic.questions
            if topic.reserve is not None:
                yield topic.reserve
        for final in self.finals():
            yield final.question

    def finals(self) -> list[Final]:
        """Every final topic: the one played unless the host chooses another, then the others."""
        return ([self.final] if self.final is not None else []) + list(self.other_finals)

    def located(self):
        """(where, round index, topic index, question) for every question; extras have round -1, the final None."""
        for r, round_ in enumerate(self.rounds):
            for t, topic in enumerate(round_.topics):
                for n, q in enumerate(topic.questions, 1):
                    yield place(r, round_.name, t, topic.name, n), r, t, q
                if topic.reserve is not None:
                    yield place(r, round_.name, t, topic.name, "reserve"), r, t, topic.reserve
        for t, topic in enumerate(self.extra):
            for n, q in enumerate(topic.questions + ([topic.reserve] if topic.reserve else []), 1):
                yield f"extra topic {t + 1} «{topic.name}», question {n}", -1, t, q
        for final in self.finals():
            yield f"final topic «{final.topic}»", None, None, final.question

    def topics(self):
        for round_ in self.rounds:
            yield from round_.topics
        yield from self.extra
