"""Writing the native TOML format fast: `convert` of a 30 MB SIGame pack writes some 27 MB of TOML.

The text is written straight from the pack model, field by field in the order native.py documents, instead of
building a table per question and dispatching on each value's type (that generic path was most of the writing
time). Only what differs from the default is written, so a written pack reads back equal. Strings: a text with
a line break is a multi-line basic string, every other one a basic string; every quote, backslash and control
character is escaped (a carriage return too, so a "\r\n" inside a text survives), which makes the output read back
exactly (tests/packs/test_packs_native.py).
"""
from __future__ import annotations

import re

_ESCAPE = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_SPECIAL = re.compile(r'[\\"\x00-\x1f\x7f]')
_SPECIAL_ML = re.compile(r'[\\"\x00-\x08\x0b-\x1f\x7f]')      # a multi-line string keeps \n and \t as they are
FORMAT = "svoya-pack"
VERSION = 1


def _char(match: re.Match) -> str:
    c = match.group(0)
    return _ESCAPE.get(c) or f"\\u{ord(c):04x}"


def string(value: str) -> str:
    if "\n" in value:
        return '"""\n' + _SPECIAL_ML.sub(_char, value) + '"""'
    return '"' + _SPECIAL.sub(_char, value) + '"'


def strings(values: list[str]) -> str:
    return "[" + ", ".join([string(v) for v in values]) + "]"


def _media(items) -> str:
    return "[" + ", ".join([f"{{ kind = {string(m.kind)}, path = {string(m.ref)} }}" for m in items]) + "]"


def _plain(value: str) -> str:
    return '"' + value + '"'


def _plains(values: list[str]) -> str:
    return '["' + '", "'.join(values) + '"]'


def optional(out: list[str], item, texts: tuple = (), lists: tuple = (), one=string, many=strings) -> None:
    """The fields of `item` named in `lists` (arrays of text) and then `texts`, in that order, those that are set."""
    for key in lists:
        if values := getattr(item, key):
            out.append(f"{key} = " + many(values))
    for key in texts:
        if value := getattr(item, key):
            out.append(f"{key} = " + one(value))


def question(out: list[str], header: str, q) -> None:
    """`header` ("[[rounds.topics.questions]]", "[final.question]"…) and the question's fields."""
    # one search over all of its texts: most questions have nothing to escape, and then none is searched again
    texts = [q.text, q.answer, q.comment, q.source, q.author, q.kind, q.secret_topic, q.secret_price,
             *q.accepts, *q.wrong, *q.options]
    one, many = (string, strings) if _SPECIAL.search("".join(texts)) else (_plain, _plains)
    out += ("", header, "text = " + one(q.text), "answer = " + one(q.answer))   # always: a reader sees at once
    optional(out, q, ("comment", "source", "author", "kind", "secret_topic", "secret_price"),
             ("accepts", "wrong", "options"), one, many)                    # what a question is
    if q.auction:
        out.append("auction = true")
    if q.empty:
        out.append("empty = true")
    if q.price is not None:
        out.append(f"price = {int(q.price)}")
    if q.media:
        out.append("media = " + _media(q.media))
    if q.answer_media:
        out.append("answer_media = " + _media(q.answer_media))


def topic(out: list[str], path: str, t) -> None:
    """The topic's table at `path` ("rounds.topics", "extra"), then its questions and reserve."""
    out += ("", f"[[{path}]]", "name = " + string(t.name))
    optional(out, t, ("explanation", "author", "team"))
    optional(out, t, lists=("reference_works",))
    if not t.questions:
        out.append("questions = []")
    header = f"[[{path}.questions]]"
    for q in t.questions:
        question(out, header, q)
    if t.reserve is not None:
        question(out, f"[{path}.reserve]", t.reserve)


def _final(out: list[str], path: str, array: bool, f) -> None:
    out += ("", f"[[{path}]]" if array else f"[{path}]", "topic = " + string(f.topic))
    optional(out, f, ("explanation",))
    question(out, f"[{path}.question]", f.question)


def _text(out: list[str]) -> str:
    return "\n".join(out) + "\n"


def parts(pack):
    """The TOML text piece by piece (the header, then one round, final or extra topic at a time), so a large pack
    is written without holding its whole text: `convert` writes each piece as it comes."""
    out = ["[pack]", f'format = "{FORMAT}"', f"version = {VERSION}", "title = " + string(pack.title)]
    optional(out, pack, ("author",))
    optional(out, pack, lists=("reference_works",))
    optional(out, pack, ("comment",))
    if pack.logo is not None:
        out.append("logo = " + string(pack.logo.ref))
    yield _text(out)
    for r in pack.rounds:
        out = ["", "[[rounds]]", "name = " + string(r.name)]
        optional(out, r, ("comment",))
        if not r.topics:
            out.append("topics = []")
        for t in r.topics:
            topic(out, "rounds.topics", t)
        yield _text(out)
    if pack.final is not None:
        out = []
        _final(out, "final", False, pack.final)
        yield _text(out)
    for f in pack.other_finals:
        out = []
        _final(out, "other_finals", True, f)
        yield _text(out)
    for t in pack.extra:
        out = []
        topic(out, "extra", t)
        yield _text(out)
