"""Builds SIGame .siq archives for the tests, following ygpackage3.1.xsd (v4) and siq_5.xsd (v5).

A topic is given as (name, [question, …]) where a question is a dict: text, answers (list), price, type,
media [(kind, name)], answer_media, source, author, comment. The XML is written with ElementTree, so names
and texts are escaped as a real editor would; `escape_names` URL-escapes media names inside the zip as
older SIGame versions did.
"""
from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile
from urllib.parse import quote

NS4 = "http://vladimirkhil.com/ygpackage3.0.xsd"
NS5 = "https://github.com/VladimirKhil/SI/blob/master/assets/siq_5.xsd"   # what SIQuester writes today
NS5_OLD = "http://vladimirkhil.com/siq_5.xsd"                              # the schema's earlier address
FOLDER = {"image": "Images", "audio": "Audio", "voice": "Audio", "video": "Video"}


def _info(parent, ns, authors=(), sources=(), comment=""):
    info = ET.SubElement(parent, f"{{{ns}}}info")
    a = ET.SubElement(info, f"{{{ns}}}authors")
    for name in authors:
        ET.SubElement(a, f"{{{ns}}}author").text = name
    s = ET.SubElement(info, f"{{{ns}}}sources")
    for name in sources:
        ET.SubElement(s, f"{{{ns}}}source").text = name
    ET.SubElement(info, f"{{{ns}}}comments").text = comment


def _question_v4(parent, q):
    ns = NS4
    el = ET.SubElement(parent, f"{{{ns}}}question", price=str(q.get("price", 100)))
    _info(el, ns, [q["author"]] if q.get("author") else (), [q["source"]] if q.get("source") else (),
          q.get("comment", ""))
    kind = {"stake": "auction", "secret": "cat", "noRisk": "sponsored"}.get(q.get("type", ""), q.get("type", ""))
    ET.SubElement(el, f"{{{ns}}}type", name=kind or "simple")
    scenario = ET.SubElement(el, f"{{{ns}}}scenario")
    if q.get("text"):
        ET.SubElement(scenario, f"{{{ns}}}atom").text = q["text"]
    for kind, name in q.get("media", ()):
        ET.SubElement(scenario, f"{{{ns}}}atom", type="voice" if kind == "audio" else kind).text = "@" + name
    if q.get("answer_media"):
        ET.SubElement(scenario, f"{{{ns}}}atom", type="marker")
        for kind, name in q["answer_media"]:
            ET.SubElement(scenario, f"{{{ns}}}atom", type="voice" if kind == "audio" else kind).text = "@" + name
    right = ET.SubElement(el, f"{{{ns}}}right")
    for answer in q.get("answers", ()):
        ET.SubElement(right, f"{{{ns}}}answer").text = answer
    ET.SubElement(el, f"{{{ns}}}wrong")


def _question_v5(parent, q):
    ns = NS5
    attrs = {"price": str(q.get("price", 100))}
    if q.get("type"):
        attrs["type"] = q["type"]
    el = ET.SubElement(parent, f"{{{ns}}}question", **attrs)
    _info(el, ns, [q["author"]] if q.get("author") else (), [q["source"]] if q.get("source") else (),
          q.get("comment", ""))
    params = ET.SubElement(el, f"{{{ns}}}params")
    param = ET.SubElement(params, f"{{{ns}}}param", name="question", type="content")
    if q.get("text"):
        ET.SubElement(param, f"{{{ns}}}item", type="text").text = q["text"]
    for kind, name in q.get("media", ()):
        ET.SubElement(param, f"{{{ns}}}item", type=kind, isRef="True").text = name
    if q.get("answer_media"):
        answer = ET.SubElement(params, f"{{{ns}}}param", name="answer", type="content")
        for kind, name in q["answer_media"]:
            ET.SubElement(answer, f"{{{ns}}}item", type=kind, isRef="True").text = name
    right = ET.SubElement(el, f"{{{ns}}}right")
    for answer in q.get("answers", ()):
        ET.SubElement(right, f"{{{ns}}}answer").text = answer
    ET.SubElement(el, f"{{{ns}}}wrong")


def content_xml(version: int, name: str, rounds, final=None, author="Автор пакета") -> bytes:
    """rounds: [(round name, [(topic name, [question…])…])]; final: (topic name, question) or None."""
    ns = NS4 if version == 4 else NS5
    ET.register_namespace("", ns)
    root = ET.Element(f"{{{ns}}}package", name=name, version=str(version), id="test-pack", date="29.11.2026")
    _info(root, ns, [author])
    rounds_el = ET.SubElement(root, f"{{{ns}}}rounds")
    write_q = _question_v4 if version == 4 else _question_v5
    everything = [(rname, topics, "standart") for rname, topics in rounds]
    if final:
        everything.append(("Финал", [(final[0], [final[1]])], "final"))
    for rname, topics, rtype in everything:
        round_el = ET.SubElement(rounds_el, f"{{{ns}}}round", name=rname, type=rtype)
        _info(round_el, ns)
        themes = ET.SubElement(round_el, f"{{{ns}}}themes")
        for tname, questions in topics:
            theme = ET.SubElement(themes, f"{{{ns}}}theme", name=tname)
            _info(theme, ns, comment=f"Пояснение к теме {tname}")
            qs = ET.SubElement(theme, f"{{{ns}}}questions")
            for q in questions:
                write_q(qs, q)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="utf-8")


def topic(name: str, count: int = 5, media=(), extra: dict | None = None):
    """A topic with `count` questions priced 100…; `media` puts (kind, name) on question 1."""
    questions = []
    for n in range(1, count + 1):
        q = {"text": f"{name}: вопрос {n}", "answers": [f"ответ {n}", f"вариант {n}"], "price": 100 * n,
             "source": f"Источник {n}", "author": "Иван Петров", "comment": f"Комментарий {n}"}
        if n == 1 and media:
            q["media"] = list(media)
        q.update((extra or {}).get(n, {}))
        questions.append(q)
    return name, questions


def write_siq(path, version: int = 5, rounds=None, final=None, files: dict | None = None,
              escape_names: bool = False, content: bytes | None = None, name: str = "Тестовый пакет"):
    """Writes a .siq; `files` maps 'Images/x.png' → bytes; `content` overrides the generated content.xml."""
    if rounds is None:
        rounds = [("Первый раунд", [topic(f"Тема {i}") for i in range(1, 5)])]
    data = content if content is not None else content_xml(version, name, rounds, final)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("content.xml", data)
        for entry, blob in (files or {}).items():
            folder, _, base = entry.partition("/")
            archive.writestr(f"{folder}/{quote(base)}" if escape_names else entry, blob,
                             compress_type=zipfile.ZIP_STORED)
    return path


def png_bytes(width: int = 4, height: int = 3) -> bytes:
    """A real, tiny PNG (pygame can load it) written without any image library."""
    import struct
    import zlib
    raw = b"".join(b"\x00" + bytes([200, 30, 30]) * width for _ in range(height))

    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def big_png(width: int, height: int) -> bytes:
    """A real PNG of width × height black pixels, 1 bit each: a few KB on disk, gigabytes once decoded to RGBA."""
    import struct
    import zlib
    row = b"\x00" * (1 + (width + 7) // 8)
    packer = zlib.compressobj(9)
    data = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()

    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def zip_bytes(entries: dict) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, blob in entries.items():
            archive.writestr(name, blob)
    return buffer.getvalue()


def deflated_zip(path, entries) -> int:
    """Writes a zip of (name, bytes) entries by hand, deflating each distinct blob once, so a zip bomb of a gigabyte
    builds in milliseconds; returns the archive's size. The format is the plain one zipfile reads (no zip64)."""
    import struct
    import zlib
    packed: dict[bytes, tuple[bytes, int]] = {}
    local, central = io.BytesIO(), io.BytesIO()
    for name, blob in entries:
        if blob not in packed:
            squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
            packed[blob] = (squeeze.compress(blob) + squeeze.flush(), zlib.crc32(blob) & 0xFFFFFFFF)
        data, crc = packed[blob]
        raw = name.encode()
        offset = local.tell()
        local.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x800, 8, 0, 0x21, crc, len(data), len(blob),
                                len(raw), 0) + raw + data)
        central.write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x314, 20, 0x800, 8, 0, 0x21, crc, len(data),
                                  len(blob), len(raw), 0, 0, 0, 0, 0o100644 << 16, offset) + raw)
    count = len(entries)
    tail = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, central.tell(), local.tell(), 0)
    archive = local.getvalue() + central.getvalue() + tail
    with open(path, "wb") as out:
        out.write(archive)
    return len(archive)


def overlapping_zip(path, names, blob: bytes) -> int:
    """A zip whose directory lists every name in `names` at the same local entry (stored `blob`), the trick of
    overlapping zip bombs: the directory promises len(names) × len(blob) bytes from one copy. Returns its size."""
    import struct
    import zlib
    crc = zlib.crc32(blob) & 0xFFFFFFFF
    first = names[0].encode()
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x800, 0, 0, 0x21, crc, len(blob), len(blob), len(first),
                        0) + first + blob
    central = b"".join(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x314, 20, 0x800, 0, 0, 0x21, crc, len(blob),
                                   len(blob), len(name.encode()), 0, 0, 0, 0, 0o100644 << 16, 0) + name.encode()
                       for name in names)
    tail = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(names), len(names), len(central), len(local), 0)
    with open(path, "wb") as out:
        out.write(local + central + tail)
    return len(local) + len(central) + len(tail)
