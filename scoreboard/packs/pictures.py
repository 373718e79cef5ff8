"""A picture's size from its header, before anything decodes it (issue 24 item 8): a 420 KB PNG of 12000×12000
pixels cost the board 1 GB and 1.3 s on its frame loop, because only the file's bytes were checked. Decoding
allocates width × height × 4 bytes whatever the file's size, so the pixels are what is limited.

`picture_size(path)` reads the dimensions the decoder will allocate — PNG's IHDR, JPEG's first SOF frame header,
GIF's logical screen and first image descriptor (SDL decodes that image at its own size), BMP's info header,
WebP's VP8 / VP8L / VP8X header — from a few bytes (a JPEG's segments and a GIF's blocks before the picture are
skipped, never read whole). `refusal(path)` says why a picture must not be decoded: over the pixel limit, or not a
picture whose size these headers tell (the board then draws no picture; fail closed). The limit is the board's
`[packs] max_picture_pixels` (16 MP by default: 4096 × 4096), set once at start by `set_max_pixels`.
"""
from __future__ import annotations

import struct

DEFAULT_MAX_PIXELS = 4096 * 4096
FORMATS = "PNG, JPEG, GIF, BMP, WebP"
_SEARCH = 1 << 20        # bytes of a JPEG's segments or a GIF's blocks walked to find the picture's header
_limit = [DEFAULT_MAX_PIXELS]


def set_max_pixels(pixels: int) -> None:
    """The board's limit (`[packs] max_picture_pixels`), for every picture checked from now on."""
    _limit[0] = int(pixels)


def max_pixels() -> int:
    return _limit[0]


def picture_size(path) -> tuple[str, int, int] | None:
    """(format, width, height) from the file's header, or None when it is not a picture these headers tell."""
    try:
        with open(path, "rb") as f:
            head = f.read(32)
            if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR":
                width, height = struct.unpack(">II", head[16:24])
                return "PNG", width, height
            if head.startswith(b"\xff\xd8"):
                return _jpeg(f)
            if head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 13:
                return _gif(f, head)
            if head.startswith(b"BM") and len(head) >= 26:
                return _bmp(head)
            if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
                return _webp(head)
    except (OSError, ValueError, struct.error):      # ValueError: a NUL in a path from the network
        return None
    return None


def refusal(path) -> str | None:
    """Why the picture at `path` must not be decoded, or None."""
    found = picture_size(path)
    if found is None:
        return f"not a picture whose size can be read before decoding it ({FORMATS})"
    kind, width, height = found
    if width * height > max_pixels():
        return (f"{kind} of {width}×{height} pixels ({width * height / 1e6:.1f} MP), over the limit of "
                f"{max_pixels() / 1e6:.1f} MP ([packs] max_picture_pixels)")
    if width <= 0 or height <= 0:
        return f"{kind} of {width}×{height} pixels: no picture"
    return None


def _jpeg(f) -> tuple[str, int, int] | None:
    """The first SOFn frame header: the size the decoder allocates. Segments before it are skipped by length."""
    f.seek(2)
    walked = stray = 0
    while walked < _SEARCH:
        byte = f.read(1)
        if not byte:
            return None
        if byte != b"\xff":                 # a few stray bytes between segments, as libjpeg tolerates
            stray += 1
            if stray > 64:
                return None
            continue
        marker = f.read(1)
        while marker == b"\xff":            # fill bytes
            marker = f.read(1)
        if not marker:
            return None
        m = marker[0]
        if m == 0x01 or 0xD0 <= m <= 0xD8:   # markers without a length
            continue
        if m in (0xD9, 0xDA):                # the end, or the scan's data: no frame header before it
            return None
        length = struct.unpack(">H", f.read(2))[0]
        if 0xC0 <= m <= 0xCF and m not in (0xC4, 0xC8, 0xCC):
            _, height, width = struct.unpack(">BHH", f.read(5))
            return "JPEG", width, height
        if length < 2:
            return None
        f.seek(length - 2, 1)
        walked += length + 2
    return None


def _gif(f, head: bytes) -> tuple[str, int, int] | None:
    """The larger of the logical screen and the first image descriptor (the first picture SDL decodes)."""
    screen_w, screen_h, flags = struct.unpack("<HHB", head[6:11])
    f.seek(13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 13))
    while f.tell() < _SEARCH:
        block = f.read(1)
        if block == b"\x2c":                 # image descriptor: left, top, width, height
            _, _, width, height = struct.unpack("<HHHH", f.read(8))
            return "GIF", max(screen_w, width), max(screen_h, height)
        if block != b"\x21":                 # an extension is the only other block before the first picture
            return None
        f.read(1)                            # the extension's label
        while (size := f.read(1)) and size[0]:
            f.seek(size[0], 1)
        if not size:
            return None
    return None


def _bmp(head: bytes) -> tuple[str, int, int]:
    (header,) = struct.unpack("<I", head[14:18])
    if header == 12:                         # BITMAPCOREHEADER: 16-bit sizes
        width, height = struct.unpack("<HH", head[18:22])
    else:                                    # BITMAPINFOHEADER and later: signed, negative height = top-down
        width, height = struct.unpack("<ii", head[18:26])
    return "BMP", abs(width), abs(height)


def _webp(head: bytes) -> tuple[str, int, int] | None:
    chunk = head[12:16]
    if chunk == b"VP8 " and head[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", head[26:30])
        return "WebP", width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and head[20] == 0x2F:
        (bits,) = struct.unpack("<I", head[21:25])
        return "WebP", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        width = int.from_bytes(head[24:27], "little") + 1
        height = int.from_bytes(head[27:30], "little") + 1
        return "WebP", width, height
    return None
