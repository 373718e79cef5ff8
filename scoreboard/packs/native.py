"""The native pack format: one TOML file, media beside it (docs/PACKS.md has a complete example).

Reading is strict: an unknown key, a wrong type or a media path that leaves the pack's folder is an error that
names its place (`rounds[1].topics[2].questions[3].anser: unknown key`). Writing leaves out every field that
holds its default, so a written pack reads back equal (tests/packs/test_packs_native.py checks it with hypothesis).
"""
from __future__ import annotations

from pathlib import PurePosixPath

from . import nativewrite
from .errors import PackError
from .model import MEDIA_KINDS, Final, Media, Pack, Question, Round, Topic
from .nativewrite import FORMAT, VERSION

MAX_BYTES = 48 * 1024 * 1024      # a converted 30 MB SIGame content.xml is ~27 MB of TOML


class _Bad(Exception):
    """A schema violation at a key path; turned into PackError naming the file."""


def _take(table: dict, where: str, spec: dict) -> dict:
    """Checks `table` against spec {key: (type, default)}; returns the values with defaults filled in."""
    if not isinstance(table, dict):
        raise _Bad(f"{where}: expected a table")
    unknown = sorted(set(table) - set(spec))
    if unknown:
        raise _Bad(f"{where}.{unknown[0]}: unknown key (known: {', '.join(spec)})")
    out = {}
    for key, (kind, default) in spec.items():
        if key not in table:
            if default is _REQUIRED:
                raise _Bad(f"{where}: missing required key '{key}'")
            out[key] = default() if callable(default) else default
            continue
        value = table[key]
        if kind is list:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise _Bad(f"{where}.{key}: expected a list of strings")
        elif kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise _Bad(f"{where}.{key}: expected an integer")
        elif kind is not None and not isinstance(value, kind):
            raise _Bad(f"{where}.{key}: expected {kind.__name__ if kind is not str else 'a string'}")
        out[key] = value
    return out


_REQUIRED = object()
_PACK = {"format": (str, FORMAT), "version": (int, VERSION), "title": (str, ""), "author": (str, ""),
         "reference_works": (list, list), "comment": (str, ""), "logo": (str, "")}
_QUESTION = {"text": (str, ""), "answer": (str, ""), "accepts": (list, list), "comment": (str, ""),
             "source": (str, ""), "author": (str, ""), "media": (None, list), "answer_media": (None, list),
             "auction": (bool, False), "price": (int, None), "wrong": (list, list), "options": (list, list),
             "kind": (str, ""), "secret_topic": (str, ""), "secret_price": (str, ""), "empty": (bool, False)}
_TOPIC = {"name": (str, _REQUIRED), "explanation": (str, ""), "author": (str, ""), "team": (str, ""),
          "reference_works": (list, list), "questions": (None, list), "reserve": (None, None)}
_MEDIA = {"kind": (str, _REQUIRED), "path": (str, _REQUIRED)}


def check_media_path(path: str) -> str:
    """A pack-relative POSIX path that stays inside the pack's folder, or _Bad."""
    if not path or "\\" in path or "\x00" in path:
        raise _Bad(f"media path {path!r}: empty or has a backslash / NUL")
    pure = PurePosixPath(path)
    if pure.is_absolute() or ".." in pure.parts or (len(path) > 1 and path[1] == ":"):
        raise _Bad(f"media path {path!r}: must be relative and stay inside the pack's folder")
    return str(pure)


def _media(items, where: str) -> list[Media]:
    if not isinstance(items, list):
        raise _Bad(f"{where}: expected an array of tables")
    found = []
    for n, item in enumerate(items, 1):
        m = _take(item, f"{where}[{n}]", _MEDIA)
        if m["kind"] not in MEDIA_KINDS:
            raise _Bad(f"{where}[{n}].kind: {m['kind']!r} is not one of {', '.join(MEDIA_KINDS)}")
        try:
            found.append(Media(m["kind"], check_media_path(m["path"])))
        except _Bad as bad:
            raise _Bad(f"{where}[{n}].path: {bad}") from None
    return found


def _question(table, where: str) -> Question:
    q = _take(table, where, _QUESTION)
    q["media"] = _media(q["media"], f"{where}.media")
    q["answer_media"] = _media(q["answer_media"], f"{where}.answer_media")
    return Question(**q)


def _topic(table, where: str) -> Topic:
    t = _take(table, where, _TOPIC)
    if not isinstance(t["questions"], list):
        raise _Bad(f"{where}.questions: expected an array of tables")
    t["questions"] = [_question(q, f"{where}.questions[{n}]") for n, q in enumerate(t["questions"], 1)]
    if t["reserve"] is not None:
        t["reserve"] = _question(t["reserve"], f"{where}.reserve")
    return Topic(**t)


def parse(data: dict) -> Pack:
    """A Pack from decoded TOML; raises _Bad naming the key path."""
    unknown = sorted(set(data) - {"pack", "rounds", "final", "other_finals", "extra"})
    if unknown:
        raise _Bad(f"{unknown[0]}: unknown top-level key (known: pack, rounds, final, other_finals, extra)")
    head = _take(data.get("pack", {}), "pack", _PACK)
    if head["format"] != FORMAT:
        raise _Bad(f"pack.format: {head['format']!r} is not {FORMAT!r}")
    if head["version"] > VERSION:
        raise _Bad(f"pack.version: {head['version']} is newer than this board reads ({VERSION})")
    rounds = []
    raw_rounds = data.get("rounds", [])
    if not isinstance(raw_rounds, list):
        raise _Bad("rounds: expected an array of tables ([[rounds]])")
    for r, raw in enumerate(raw_rounds, 1):
        spec = _take(raw, f"rounds[{r}]", {"name": (str, ""), "comment": (str, ""), "topics": (None, list)})
        if not isinstance(spec["topics"], list):
            raise _Bad(f"rounds[{r}].topics: expected an array of tables")
        topics = [_topic(t, f"rounds[{r}].topics[{n}]") for n, t in enumerate(spec["topics"], 1)]
        rounds.append(Round(spec["name"], topics, spec["comment"]))
    final = _final(data["final"], "final") if "final" in data else None
    raw_finals = data.get("other_finals", [])
    if not isinstance(raw_finals, list):
        raise _Bad("other_finals: expected an array of tables ([[other_finals]])")
    others = [_final(f, f"other_finals[{n}]") for n, f in enumerate(raw_finals, 1)]
    raw_extra = data.get("extra", [])
    if not isinstance(raw_extra, list):
        raise _Bad("extra: expected an array of tables ([[extra]])")
    extra = [_topic(t, f"extra[{n}]") for n, t in enumerate(raw_extra, 1)]
    logo = None
    if head["logo"]:
        try:
            logo = Media("image", check_media_path(head["logo"]))
        except _Bad as bad:
            raise _Bad(f"pack.logo: {bad}") from None
    return Pack(head["title"], head["author"], rounds, final, extra, head["reference_works"], head["comment"], logo,
                others)


def _final(table, where: str) -> Final:
    f = _take(table, where, {"topic": (str, _REQUIRED), "explanation": (str, ""), "question": (dict, _REQUIRED)})
    return Final(f["topic"], _question(f["question"], f"{where}.question"), f["explanation"])


def read(path: str, data: bytes) -> Pack:
    if len(data) > MAX_BYTES:
        raise PackError(f"{path}: {len(data)} bytes, more than the {MAX_BYTES} a TOML pack may have")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise PackError(f"{path}: line {line}: not valid UTF-8 (byte {error.start}: {error.reason})") from None
    import tomllib   # lazy: 6 ms at import; `convert` of a .siq never reads TOML
    try:
        decoded = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PackError(f"{path}: TOML syntax: {error}") from None
    try:
        return parse(decoded)
    except _Bad as bad:
        raise PackError(f"{path}: {bad}") from None


# --- writing (nativewrite.py) ----------------------------------------------------------------------------

def dumps(pack: Pack) -> str:
    return "".join(nativewrite.parts(pack))


def parts(pack: Pack):
    """The TOML text piece by piece (the header, then one round, final or extra topic at a time)."""
    return nativewrite.parts(pack)
