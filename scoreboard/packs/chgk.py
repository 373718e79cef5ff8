"""ChGK-database text import ("Своя игра" packs of the question database, `Вид: Я`).

The file is a sequence of fields, each a label line (`Вопрос 3:`, `Ответ:`, `Зачет:`, `Источник:`, `Автор:`,
`Комментарий:`, header fields such as `Чемпионат:`, `Вид:`, `Тур:`) followed by its text. One `Вопрос N:` block
is one topic: its first line is the topic's name, further lines before item `1.` are the explanation, then the
items `1.`–`5.` are the questions (`6.` or `Р.`/`Резерв.` is the reserve). The answer-side fields that follow
number their items the same way; an unnumbered `Источник:` or `Автор:` applies to every question of the topic.
`Тур:` starts a new round. Items count up, so a question line that happens to begin with "1945." is text.
The encoding (UTF-8, CP1251 or KOI8-R) is detected; a UTF-8 file with a broken byte is reported, not guessed.
Each topic keeps the line of its `Вопрос N:` label and each question the line of its item, so every message
about them, from the import or from validation, says where to look (`pack.txt:17: round 1 «Тур 1», topic …`).
"""
from __future__ import annotations

import re

from .errors import ERROR, WARNING, Issue, PackError, place
from .model import Pack, Question, Round, Topic

MAX_BYTES = 16 * 1024 * 1024
_LABEL = re.compile(r"^\s*(Чемпионат|Турнир|Дата|Вид|Тур|Редакторы?|Инфо|Вопрос\s+\d+|Ответ|Зач[её]т|Незач[её]т|"
                    r"Источники?|Авторы?|Комментари[йи]|URL|Ссылка|Копирайт)\s*:\s*(.*)$", re.IGNORECASE)
_ITEM = re.compile(r"^\s*(\d{1,2})\s*[.)]\s+(.*)$|^\s*(\d{1,2})\s*[.)]\s*$")
_RESERVE = re.compile(r"^\s*(?:Р|Резерв|Запасной)\s*[.):]\s*(.*)$", re.IGNORECASE)
_FIELDS = {"ответ": "answer", "зачет": "accepts", "зачёт": "accepts", "источник": "source",
           "источники": "source", "автор": "author", "авторы": "author", "комментарий": "comment",
           "комментарии": "comment"}
_COMMON = "оеаинтсрвлкмдпуяыь"


def decode(path: str, data: bytes) -> str:
    """UTF-8, else whichever of CP1251 / KOI8-R reads as Russian (mostly lowercase, finds the labels)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        first = error
    loose = data.decode("utf-8", errors="replace")
    broken = loose.count("\ufffd")
    cyrillic = sum(1 for c in loose if "\u0400" <= c <= "\u04ff")
    if cyrillic > 8 * broken:   # a UTF-8 file with a damaged byte or two: say where, do not guess
        line = data[:first.start].count(b"\n") + 1
        raise PackError(f"{path}: line {line}: broken UTF-8 (byte offset {first.start}: {first.reason})")
    best, best_score = None, -1.0
    for encoding in ("cp1251", "koi8_r"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        letters = [c for c in text if "\u0410" <= c <= "\u044f" or c in "Ёё"]
        lower = sum(1 for c in letters if c.islower() and c in _COMMON)
        score = lower / max(len(letters), 1) + (1.0 if re.search(r"Вопрос\s+\d+\s*:", text) else 0.0)
        if score > best_score:
            best, best_score = text, score
    if best is None:
        raise PackError(f"{path}: not UTF-8, CP1251 or KOI8-R text")
    return best


class _Field:
    def __init__(self, label: str, line: int, first: str):
        self.label, self.line = label, line
        self.lines: list[tuple[int, str]] = [(line, first)] if first.strip() else []


def _fields(text: str) -> list[_Field]:
    fields: list[_Field] = []
    for number, line in enumerate(text.splitlines(), 1):
        match = _LABEL.match(line)
        if match:
            fields.append(_Field(re.sub(r"\s+", " ", match.group(1)).strip(), number, match.group(2)))
        elif fields:
            fields[-1].lines.append((number, line))
    return fields


def _items(field: _Field) -> tuple[list[str], dict[int, tuple[int, str]]]:
    """Lines before the first item, and items {1..6: (line, text)} (6 is the reserve); items count up."""
    head: list[str] = []
    items: dict[int, list] = {}
    current = None
    for number, line in field.lines:
        match = _ITEM.match(line)
        reserve = _RESERVE.match(line)
        n = int(match.group(1) or match.group(3)) if match else None
        if n is not None and n > (current or 0) and n <= 6:
            current = n
            items[n] = [number, (match.group(2) or "").strip()]
        elif reserve and (current or 0) < 6:
            current = 6
            items[6] = [number, reserve.group(1).strip()]
        elif current is None:
            if line.strip():
                head.append(line.strip())
        elif line.strip():
            items[current][1] = (items[current][1] + "\n" + line.strip()).strip()
    return head, {n: (v[0], v[1]) for n, v in items.items()}


def read(path: str, data: bytes) -> Pack:
    if len(data) > MAX_BYTES:
        raise PackError(f"{path}: {len(data)} bytes, more than the {MAX_BYTES} a text pack may have")
    text = decode(path, data)
    fields = _fields(text)
    if not any(f.label.lower().startswith("вопрос") for f in fields):
        raise PackError(f"{path}: no `Вопрос N:` block; not a ChGK-database text pack")
    pack = Pack()
    issues: list[Issue] = []
    kind_seen = False
    topic: Topic | None = None
    questions: dict[int, Question] = {}
    for field in fields:
        label = field.label.lower()
        body = "\n".join(line.strip() for _, line in field.lines).strip()
        if label in ("чемпионат", "турнир"):
            pack.title = pack.title or body
        elif label.startswith("редактор"):
            pack.author = pack.author or body
        elif label == "вид":
            kind_seen = True
            if body.upper() != "Я":
                issues.append(Issue(WARNING, "", f"`Вид: {body}` is not `Я` (Своя игра); read as Своя игра anyway",
                                    line=field.line))
        elif label == "тур":
            pack.rounds.append(Round(f"Тур {body}" if body.isdigit() else body or f"Тур {len(pack.rounds) + 1}"))
        elif label.startswith("вопрос"):
            if not pack.rounds:
                pack.rounds.append(Round("Тур 1"))
            r = len(pack.rounds) - 1
            head, items = _items(field)
            topic = Topic(name=head[0] if head else "", explanation="\n".join(head[1:]), line=field.line)
            t = len(pack.rounds[-1].topics)
            here = place(r, pack.rounds[-1].name, t, topic.name)
            pack.rounds[-1].topics.append(topic)
            questions = {n: Question(text=text, line=line) for n, (line, text) in items.items()}
            if not topic.name:
                issues.append(Issue(ERROR, here, f"the topic has no name (the line after `{field.label}:`)", r, t,
                                    field.line))
            topic.questions = [questions[n] for n in sorted(questions) if n <= 5]
            topic.reserve = questions.get(6)
            missing = [n for n in range(1, 6) if n not in questions]
            if missing:
                issues.append(Issue(ERROR, here, f"no item{'s' if len(missing) > 1 else ''} "
                                                 f"{', '.join(map(str, missing))}. (a topic has items 1.–5.)", r, t,
                                    field.line))
        elif label in _FIELDS:
            if topic is None:
                issues.append(Issue(WARNING, "", f"`{field.label}:` before any `Вопрос N:`; ignored",
                                    line=field.line))
                continue
            r, t = len(pack.rounds) - 1, len(pack.rounds[-1].topics) - 1
            _apply(_FIELDS[label], field, topic, questions, issues, r, pack.rounds[-1].name, t)
    if not kind_seen:
        issues.append(Issue(WARNING, "", "no `Вид:` field; read as Своя игра (`Вид: Я`)"))
    pack.rounds = [r for r in pack.rounds if r.topics]
    pack.issues = issues
    return pack


def _apply(key: str, field: _Field, topic: Topic, questions: dict[int, Question], issues: list[Issue],
           r: int, rname: str, t: int) -> None:
    head, items = _items(field)
    here = place(r, rname, t, topic.name)
    if not items:
        value = "\n".join(head)
        if key in ("source", "author", "comment"):
            if key == "author":
                topic.author = value
            for q in questions.values():
                setattr(q, key, value)
        else:
            issues.append(Issue(ERROR, here, f"`{field.label}:` must number its items 1.–5. like the questions",
                                r, t, field.line))
        return
    if head:
        issues.append(Issue(WARNING, here, f"text before item 1. of `{field.label}:` ignored: {head[0][:40]!r}",
                            r, t, field.line))
    for n, (line, value) in items.items():
        q = questions.get(n)
        if q is None:
            issues.append(Issue(WARNING, place(r, rname, t, topic.name, n),
                                f"`{field.label}:` item {n}. has no question (topic at line {topic.line})", r, t,
                                line))
        elif key == "accepts":
            q.accepts = [a.strip() for a in re.split(r"[;]|\n", value) if a.strip()]
        else:
            setattr(q, key, value)
