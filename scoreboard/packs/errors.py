"""What a pack reader reports: issues (error / warning / info) located by topic and question, and PackError.

Readers never stop at the first problem they can get past: they collect every issue so that an organiser
gets the whole list at once (`scoreboard pack check`). Only a problem that makes the rest unreadable (a
hostile archive, XML that does not parse, a TOML syntax error) raises PackError straight away.
"""
from __future__ import annotations

from dataclasses import dataclass

ERROR, WARNING, INFO = "error", "warning", "info"


@dataclass(frozen=True)
class Issue:
    level: str          # ERROR: the topic (or pack) cannot be played; WARNING: playable, organiser decides
    where: str          # "round 1 «Синий раунд», topic 2 «Реки», question 3", "line 14", "" (whole pack)
    message: str
    round: int | None = None   # 0-based round index of a topic-level issue (None: pack-level)
    topic: int | None = None   # 0-based topic index within that round
    line: int | None = None    # 1-based line of the pack's text where the thing starts (ChGK text packs)

    def text(self, path: str = "") -> str:
        """`path:line: where: message` (`line N: where: message` without a path), leaving out what is unknown."""
        head = (f"{path}:{self.line}" if self.line else path) if path else (f"line {self.line}" if self.line else "")
        return ": ".join(part for part in (head, self.where, self.message) if part)

    def report(self, path: str) -> str:
        """One line of `pack check`: `path:line: level: where: message`."""
        head = f"{path}:{self.line}" if self.line else path
        return ": ".join(part for part in (head, self.level, self.where, self.message) if part)

    def __str__(self) -> str:
        return f"{self.level}: {self.text()}"


class PackError(Exception):
    """A pack that cannot be loaded. `str(e)` names the file, the place and the reason; `issues` has them all."""

    def __init__(self, message: str, issues: list[Issue] | None = None):
        super().__init__(message)
        self.issues = list(issues or [])

    @classmethod
    def from_issues(cls, path: str, issues: list[Issue], limit: int = 5) -> "PackError":
        errors = [i for i in issues if i.level == ERROR]
        lines = [i.text(path) for i in errors[:limit]]
        if len(errors) > limit:
            lines.append(f"… and {len(errors) - limit} more errors (run `scoreboard pack check {path}`)")
        return cls("\n".join(lines), issues)


def place(round_index: int | None = None, round_name: str = "", topic_index: int | None = None,
          topic_name: str = "", question: int | str | None = None) -> str:
    """The human location of a thing in a pack, 1-based as an organiser counts."""
    parts = []
    if round_index is not None:
        parts.append(f"round {round_index + 1} «{round_name}»" if round_name else f"round {round_index + 1}")
    if topic_index is not None:
        parts.append(f"topic {topic_index + 1} «{topic_name}»" if topic_name else f"topic {topic_index + 1}")
    elif topic_name:
        parts.append(f"topic «{topic_name}»")
    if question is not None:
        parts.append(f"question {question}" if isinstance(question, int) else question)
    return ", ".join(parts)
