"""Which characters a TrueType/OpenType font really has, read from its `cmap` table.

pygame reports metrics even for characters a font lacks (it measures the "missing glyph" box), so coverage has to
come from the font file itself. Only the Unicode subtables that matter are read: format 4 (the basic plane) and
format 12 (every plane).
"""
from __future__ import annotations

import struct
from pathlib import Path


class NotAFont(ValueError):
    pass


def _subtables(data: bytes) -> list[int]:
    if len(data) < 12 or data[:4] not in (b"\x00\x01\x00\x00", b"OTTO", b"true"):
        raise NotAFont("not a TrueType/OpenType font")
    (count,) = struct.unpack_from(">H", data, 4)
    for i in range(count):
        tag, _, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            if offset + length > len(data):
                raise NotAFont("cmap table runs past the end of the file")
            (n,) = struct.unpack_from(">H", data, offset + 2)
            found = []
            for k in range(n):
                platform, encoding, sub = struct.unpack_from(">HHI", data, offset + 4 + 8 * k)
                if (platform, encoding) in ((3, 1), (3, 10), (0, 3), (0, 4), (0, 6)):
                    found.append(offset + sub)
            return found
    raise NotAFont("the font has no character map (cmap)")


def _format4(data: bytes, at: int, out: set[int]) -> None:
    (segs2,) = struct.unpack_from(">H", data, at + 6)
    segs = segs2 // 2
    ends = struct.unpack_from(f">{segs}H", data, at + 14)
    starts = struct.unpack_from(f">{segs}H", data, at + 16 + segs2)
    deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 2 * segs2)
    range_at = at + 16 + 3 * segs2
    offsets = struct.unpack_from(f">{segs}H", data, range_at)
    for i in range(segs):
        for code in range(starts[i], ends[i] + 1):
            if code == 0xFFFF:
                continue
            if offsets[i] == 0:
                glyph = (code + deltas[i]) & 0xFFFF
            else:
                where = range_at + 2 * i + offsets[i] + 2 * (code - starts[i])
                (glyph,) = struct.unpack_from(">H", data, where)
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                out.add(code)


def _format12(data: bytes, at: int, out: set[int]) -> None:
    (groups,) = struct.unpack_from(">I", data, at + 12)
    for g in range(groups):
        start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
        out.update(range(start, end + 1) if glyph else range(start + 1, end + 1))


def covered(path: str | Path) -> set[int]:
    """Every code point the font maps to a real glyph. Raises NotAFont for a file that is not a usable font."""
    data = Path(path).read_bytes()
    out: set[int] = set()
    try:
        for at in _subtables(data):
            (fmt,) = struct.unpack_from(">H", data, at)
            if fmt == 4:
                _format4(data, at, out)
            elif fmt == 12:
                _format12(data, at, out)
    except struct.error:
        raise NotAFont("the font's character map is truncated") from None
    return out


def missing(path: str | Path, text: str) -> str:
    have = covered(path)
    return "".join(ch for ch in dict.fromkeys(text) if ord(ch) not in have)
