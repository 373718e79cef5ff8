"""Writing the native TOML format fast: `convert` of a 30 MB SIGame pack writes some 20 MB of TOML.

A small emitter for exactly the shape native.py reads (tables, arrays of tables, strings, integers, booleans,
lists of strings, media as inline tables), instead of a general TOML library: a pure-Python general writer plus
the check that its output reads back took most of a large conversion. Texts with line breaks are written as
multi-line basic strings, every quote, backslash and control character escaped (a carriage return too, so a
"\r\n" inside a text survives), which makes the output read back exactly (tests/packs/test_packs_native.py).
"""
from __future__ import annotations

import re

INLINE = {"media", "answer_media"}          # lists of small tables written inline: [{ kind = …, path = … }]
_ESCAPE = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_SPECIAL = re.compile(r'[\\"\x00-\x1f\x7f]')
_SPECIAL_ML = re.compile(r'[\\"\x00-\x08\x0b-\x1f\x7f]')      # a multi-line string keeps \n and \t as they are


def _char(match: re.Match) -> str:
    c = match.group(0)
    return _ESCAPE.get(c) or f"\\u{ord(c):04x}"


def string(value: str) -> str:
    if "\n" in value:
        return '"""\n' + _SPECIAL_ML.sub(_char, value) + '"""'
    return '"' + _SPECIAL.sub(_char, value) + '"'


def _value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) if not isinstance(v, dict) else _inline(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__}")


def _inline(table: dict) -> str:
    return "{ " + ", ".join(f"{key} = {_value(v)}" for key, v in table.items()) + " }"


def _table(out: list[str], path: str, table: dict) -> None:
    nested = []
    for key, value in table.items():
        kind = type(value)
        if kind is str:                       # most values: the hot path first
            out.append(f"{key} = {string(value)}")
        elif kind is dict:
            nested.append((key, value, False))
        elif kind is list and value and type(value[0]) is dict and key not in INLINE:
            nested.append((key, value, True))
        else:
            out.append(f"{key} = {_value(value)}")
    for key, value, array in nested:
        inner = f"{path}.{key}" if path else key
        for item in (value if array else [value]):
            out.append("")
            out.append(f"[[{inner}]]" if array else f"[{inner}]")
            _table(out, inner, item)


def dumps(doc: dict) -> str:
    out: list[str] = []
    _table(out, "", doc)
    return "\n".join(out).lstrip("\n") + "\n"
