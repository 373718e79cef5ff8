"""Parsing content.xml from an untrusted archive: strict UTF-8, no DTD at all, streamed.

A document type declaration is the door to entity expansion ("billion laughs") and external entities, and no
SIGame pack needs one, so the parser's own doctype handler refuses any: expat calls it as it meets `<!DOCTYPE`,
before a single entity is declared, whatever the encoding it decoded the bytes from (issue 24: a UTF-16 document
without a BOM passed a byte-level scan for `<!DOCTYPE`). An `<!ENTITY` can only stand inside a DTD; without one,
expat knows only the five predefined entities, so nothing can expand. Broken UTF-8 is reported with its line.
`growing` streams: the bytes arrive in chunks, are checked and fed to expat, and the caller reads the tree as it
grows and deletes what it has read, so a 30 MB content.xml never sits in memory whole, as text or as a tree.
"""
from __future__ import annotations

import codecs
import re
import xml.etree.ElementTree as ET
from typing import Iterable, Iterator

from .errors import PackError

_DECL_ENCODING = re.compile(rb"^\s*<\?xml[^>]*encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']")


class DoctypeRefused(Exception):
    """Raised from expat's doctype handler: the document declares a DTD."""


class _Target:
    """expat's target: the C TreeBuilder's own methods (no Python frame per element) under a holder element of
    ours, so the document's root (holder[0]) can be read while the tree is still growing."""

    def __init__(self):
        self.builder = ET.TreeBuilder()
        self.start, self.end, self.data = self.builder.start, self.builder.end, self.builder.data
        self.holder = self.builder.start("", {})

    def doctype(self, name, pubid, system):
        raise DoctypeRefused(name)

    def close(self):
        self.builder.end("")
        return self.builder.close()


def growing(chunks: Iterable[bytes], where: str) -> Iterator[tuple[ET.Element | None, bool]]:
    """(the document's root so far, done) after each chunk, then (root, True) once the document has ended.

    The tree grows in C, with no event per element: the caller reads what is complete (every child that has a
    next sibling; everything when done) and deletes it from its parent, so only about a chunk of the document is
    ever held. The bytes are checked first (strict UTF-8), the parser refuses a DTD; PackError for anything unsafe.
    """
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    target = _Target()
    parser = ET.XMLParser(target=target)
    lines = 0            # newlines in the bytes already checked, for the line of an error
    first = True
    try:
        for chunk in chunks:
            if first:
                if chunk.startswith(b"\xef\xbb\xbf"):
                    chunk = chunk[3:]
                elif chunk.startswith((b"\xff\xfe", b"\xfe\xff")):
                    raise PackError(f"{where}: UTF-16 XML is not supported; save content.xml as UTF-8")
                declared = _DECL_ENCODING.match(chunk)
                if declared and declared.group(1).decode().lower().replace("_", "-") not in ("utf-8", "utf8"):
                    raise PackError(f"{where}: declares encoding {declared.group(1).decode()!r}; only UTF-8 is read")
                first = False
            _decode(decoder, chunk, where, lines)
            lines += chunk.count(b"\n")
            parser.feed(chunk)
            yield (target.holder[0] if len(target.holder) else None), False
        _decode(decoder, b"", where, lines, final=True)
        parser.close()
    except DoctypeRefused as refused:
        raise PackError(f"{where}: refused: a DTD (<!DOCTYPE {refused}>); packs must not carry one: it can "
                        f"declare entities that expand or that name files") from None
    except ET.ParseError as error:
        raise parse_error(error, where) from None
    if not len(target.holder):
        raise PackError(f"{where}: line 1, column 0: XML does not parse (no element found)")
    yield target.holder[0], True


def _decode(decoder, chunk: bytes, where: str, lines: int, final: bool = False) -> None:
    try:
        decoder.decode(chunk, final)
    except UnicodeDecodeError as error:
        line = lines + error.object[:error.start].count(b"\n") + 1
        raise PackError(f"{where}: line {line}: broken UTF-8 ({error.reason})") from None


def parse_error(error: ET.ParseError, where: str) -> PackError:
    line, column = error.position
    reason = str(error).split(": line")[0]
    return PackError(f"{where}: line {line}, column {column}: XML does not parse ({reason})")


def parse(data: bytes, where: str) -> ET.Element:
    """The whole document as a tree (small documents; content.xml is read as it grows, with `growing`)."""
    for root, done in growing([data], where):
        if done:
            return root
