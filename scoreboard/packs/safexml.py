"""Parsing content.xml from an untrusted archive: strict UTF-8 and no DTD at all.

A document type declaration is the door to entity expansion ("billion laughs") and external entities, and no
SIGame pack needs one, so any `<!DOCTYPE` or `<!ENTITY` is refused before the parser sees the text. Without a
DTD, expat knows only the five predefined entities, so nothing can expand. Broken UTF-8 is reported with its line.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from .errors import PackError

_DTD = re.compile(r"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
_DECL_ENCODING = re.compile(r"^\s*<\?xml[^>]*encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']")


def parse(data: bytes, where: str) -> ET.Element:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise PackError(f"{where}: UTF-16 XML is not supported; save content.xml as UTF-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise PackError(f"{where}: line {line}: broken UTF-8 (byte offset {error.start}: {error.reason})") from None
    declared = _DECL_ENCODING.match(text)
    if declared and declared.group(1).lower().replace("_", "-") not in ("utf-8", "utf8"):
        raise PackError(f"{where}: declares encoding {declared.group(1)!r}; only UTF-8 is read")
    found = _DTD.search(text)
    if found:
        line = text.count("\n", 0, found.start()) + 1
        raise PackError(f"{where}: line {line}: refused: a DTD or entity declaration "
                        f"({found.group(0)!r}); packs must not carry one")
    try:
        return ET.fromstring(text)
    except ET.ParseError as error:
        line, column = error.position
        reason = str(error).split(": line")[0]
        raise PackError(f"{where}: line {line}, column {column}: XML does not parse ({reason})") from None
