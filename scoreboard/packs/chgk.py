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

import os
import re

from .errors import ERROR, WARNING, Issue, PackError, place
from .model import Final, Media, Pack, Question, Round, Topic

MAX_BYTES = 16 * 1024 * 1024
# Every label spelling the database's own parsers accept (db.chgk.info DbParser, chgkdb-parser's fields), with
# `:` or `.` after it. The one-letter answer labels `О`/`А` count only with `:` or alone on their line, so a
# line such as «А. С. Пушкин» stays text.
_LABEL = re.compile(r"^\s*(Чемпионат|Пакет|Турнир|Дата|Вид|Тур|Редакторы?|Инфо|Вопрос\s+\d+|Ответ|Зач[её]т|"
                    r"Незач[её]т|Источник\(и\)|Источники?|Автор\(ы\)|Авторы?|Комментари[йи]|URL|Ссылка|Копирайт|"
                    r"Обработан|Рейтинг)\s*[:.]\s*(.*)$|^\s*([ОА])\s*(?::\s*(.*)|\.\s*)$", re.IGNORECASE)
_ITEM = re.compile(r"^\s*(\d{1,2})\s*[.)]\s+(.*)$|^\s*(\d{1,2})\s*[.)]\s*$")
_RESERVE = re.compile(r"^\s*(?:Р|Резерв|Запасной)\s*[.):]\s*(.*)$", re.IGNORECASE)
_FIELDS = {"ответ": "answer", "о": "answer", "а": "answer", "зачет": "accepts", "зачёт": "accepts",
           "источник": "source", "источники": "source", "источник(и)": "source", "автор": "author",
           "авторы": "author", "автор(ы)": "author", "комментарий": "comment", "комментарии": "comment"}
_TOPIC_PREFIX = re.compile(r"^(?:Тема\s*\d*\s*[.:]\s*|\d{1,2}\s*[.)]\s+)", re.IGNORECASE)
_PIC = re.compile(r"\(pic:\s*([^)]+?)\s*\)", re.IGNORECASE)
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
            label = match.group(1) or match.group(3)
            fields.append(_Field(re.sub(r"\s+", " ", label).strip(), number, match.group(2) or match.group(4) or ""))
        elif fields:
            fields[-1].lines.append((number, line))
    return fields


def _paragraphs(lines: list[str]) -> str:
    """The database wraps its text at 72 columns: lines join with a space; a blank line starts a new paragraph."""
    out, current = [], []
    for line in lines:
        if line.strip():
            current.append(line.strip())
        elif current:
            out.append(" ".join(current))
            current = []
    if current:
        out.append(" ".join(current))
    return "\n".join(out)


def topic_name(line: str) -> str:
    """«Тема 1. Реки.» and «1. Реки» → «Реки»: the database's own ways of writing a topic's line."""
    name = _TOPIC_PREFIX.sub("", line.strip()).strip()
    return name[:-1].rstrip() if name.endswith(".") and not name.endswith("..") else name


def _items(field: _Field, named: bool = False) -> tuple[list[str], dict[int, tuple[int, str]]]:
    """Lines before the first item, and items {1..6: (line, text)} (6 is the reserve); items count up.
    `named`: the field's first line is a topic's name even when it reads «1. Цвета» (a topic block's first line,
    not indented, as the database writes it; its items are indented)."""
    head: list[str] = []
    items: dict[int, list] = {}
    current = None
    for k, (number, line) in enumerate(field.lines):
        if named and k == 0 and line.strip() and not line[:1].isspace():
            head.append(line)
            continue
        match = _ITEM.match(line)
        reserve = _RESERVE.match(line)
        n = int(match.group(1) or match.group(3)) if match else None
        if n is not None and n > (current or 0) and n <= 6:
            current = n
            items[n] = [number, [(match.group(2) or "").strip()]]
        elif reserve and (current or 0) < 6:
            current = 6
            items[6] = [number, [reserve.group(1).strip()]]
        elif current is None:
            head.append(line)
        else:
            items[current][1].append(line)
    return _head(head), {n: (v[0], _paragraphs(v[1])) for n, v in items.items()}


def _head(lines: list[str]) -> list[str]:
    """The lines before item 1: the first is the name, the rest one explanation, its wraps joined."""
    lines = [line for line in lines]
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        return []
    rest = _paragraphs(lines[1:])
    return [lines[0].strip()] + ([rest] if rest else [])


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
            head, items = _items(field, named=True)
            if not items and head:          # no numbered items: the database's final question
                topic, questions = _final(pack, head, field)
                continue
            topic = Topic(name=topic_name(head[0]) if head else "", explanation="\n".join(head[1:]),
                          line=field.line)
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
            if topic.line is None:          # the final's fields: numbered or not, they are its question's
                _apply_final(_FIELDS[label], field, questions[1])
                continue
            r, t = len(pack.rounds) - 1, len(pack.rounds[-1].topics) - 1
            _apply(_FIELDS[label], field, topic, questions, issues, r, pack.rounds[-1].name, t)
    if not kind_seen:
        issues.append(Issue(WARNING, "", "no `Вид:` field; read as Своя игра (`Вид: Я`)"))
    pack.rounds = [r for r in pack.rounds if r.topics]
    _pictures(pack, path, issues)
    pack.issues = issues
    return pack


def _final(pack: Pack, head: list[str], field: _Field) -> tuple[Topic, dict[int, Question]]:
    """A `Вопрос N:` block with no items is the final: its first line the topic, the rest the question (a block of
    one paragraph is the question itself, under the topic «Финал»). The first such block is the final topic, any
    later ones other final topics the host may choose."""
    name, text = (topic_name(head[0]), head[1]) if len(head) > 1 else ("Финал", head[0])
    question = Question(text=text, line=field.line)
    final = Final(name, question)
    if pack.final is None:
        pack.final = final
    else:
        pack.other_finals.append(final)
    return Topic(name=name), {1: question}       # line None: the fields after it belong to the final


def _apply_final(key: str, field: _Field, question: Question) -> None:
    head, items = _items(field)
    value = "\n".join(head + [text for _, (_, text) in sorted(items.items())])
    if key == "accepts":
        question.accepts = [a.strip() for a in re.split(r"[;]|\n", value) if a.strip()]
    else:
        setattr(question, key, value)


def _pictures(pack: Pack, path: str, issues: list[Issue]) -> None:
    """`(pic: FILE)` in a text is the database's picture: an image item, looked for beside the pack file (in its
    folder, a folder named like the file, or `pic/`), refs relative to the pack's folder; else a warning."""
    folder = os.path.dirname(os.path.abspath(path))
    stem = os.path.splitext(os.path.basename(path))[0]
    for where, r, t, q in pack.located():
        for attribute, media in (("text", q.media), ("answer", q.answer_media), ("comment", q.answer_media)):
            value = getattr(q, attribute)
            for name in _PIC.findall(value):
                ref = next((candidate for candidate in (name, f"{stem}/{name}", f"pic/{name}")
                            if _inside(folder, candidate)), None)
                if ref is None:
                    issues.append(Issue(WARNING, where, f"picture (pic: {name}) is not beside the pack (looked in "
                                                        f"its folder, {stem}/ and pic/); the question plays without "
                                                        "it", r, t, q.line))
                else:
                    media.append(Media("image", ref))
            if _PIC.search(value):
                setattr(q, attribute, _PIC.sub("", value).replace("  ", " ").strip())


def _inside(folder: str, ref: str) -> bool:
    """The file `ref` exists, is a regular file and resolves inside `folder` (no `..`, no absolute path)."""
    if ref.startswith(("/", "\\")) or ".." in ref.replace("\\", "/").split("/"):
        return False
    real = os.path.realpath(folder)
    target = os.path.realpath(os.path.join(real, ref))
    return os.path.commonpath([real, target]) == real and os.path.isfile(target)


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
