"""Reading any supported pack file: detect the format, import, validate, copy media into the pack cache.

Formats: native TOML (`.toml`), SIGame `.siq` (a zip, recognised by its magic bytes whatever the extension),
ChGK-database text (anything else). The cache folder is named by the SHA-256 of the pack (for TOML: of the file
and every media file it names), so the same pack always lands in the same place and two packs never collide.
"""
from __future__ import annotations

import contextlib
import gc
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import unquote

from . import native, siq, validate
from .cache import PackCache
from .caps import cap_texts
from .errors import WARNING, Issue, PackError
from .model import Pack
from .pictures import refusal
from .safezip import DEFAULT_LIMITS, Limits

Progress = Callable[[int, int], None]     # (bytes done, bytes total)
ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


@dataclass
class Loaded:
    path: str
    format: str                                   # "toml", "siq4", "siq5", "chgk"
    pack: Pack
    digest: str
    issues: list[Issue] = field(default_factory=list)      # import issues, then validation issues
    media: dict[str, str] = field(default_factory=dict)     # media ref → absolute path in the cache
    media_bytes: int = 0


def detect(path: str) -> str:
    with open(path, "rb") as handle:
        head = handle.read(4)
    if head in ZIP_MAGIC:
        return "siq"
    if path.lower().endswith(".siq"):
        raise PackError(f"{path}: refused: a .siq pack is a zip archive and this file is not one")
    return "toml" if path.lower().endswith(".toml") else "chgk"


def _sha256_file(path: str) -> str:
    """The file's SHA-256 in hex, read a megabyte at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _native_media(path: str, pack: Pack, issues: list[Issue], limits: Limits) -> dict[str, bytes]:
    """The bytes of every media file a TOML pack names; each must be a regular file inside the pack's folder."""
    folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    found: dict[str, bytes] = {}
    total = 0
    named = [(where, r, t, media) for where, r, t, question in pack.located()
             for media in question.media + question.answer_media]
    if pack.logo is not None:
        named.append(("the pack's logo", None, None, pack.logo))
    for where, r, t, media in named:
        target = os.path.realpath(os.path.join(folder, media.ref))
        if os.path.commonpath([folder, target]) != folder:
            raise PackError(f"{path}: {where}: refused: media {media.ref!r} resolves outside the pack's folder "
                            "(symlink?)")
        if not os.path.isfile(target):
            issues.append(Issue(WARNING, where, f"{media.kind} {media.ref!r} is missing; the question plays "
                                                "without it", r, t))
            continue
        if media.ref in found:
            continue
        size = os.path.getsize(target)
        total += size
        if size > limits.max_entry_bytes or total > limits.max_total_bytes:
            raise PackError(f"{path}: refused: media {media.ref!r} takes the pack over its size limit")
        with open(target, "rb") as handle:
            found[media.ref] = handle.read(limits.max_entry_bytes + 1)
    return found


@contextlib.contextmanager
def quiet_gc():
    """No cyclic garbage collection while a pack is read: the reader makes hundreds of thousands of objects and
    no cycles, and the collector's passes over them took a third of a large import."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def load(path: str, *, cache_dir: str | os.PathLike | None = None, limits: Limits = DEFAULT_LIMITS,
         progress: Progress | None = None) -> Loaded:
    with quiet_gc():
        return _load(str(path), cache_dir, limits, progress)


def _load(path: str, cache_dir, limits: Limits, progress: Progress | None) -> Loaded:
    if os.path.isdir(path):
        raise PackError(f"{path}: is a folder, not a pack file (give the .siq, .toml or .txt inside it)")
    if not os.path.isfile(path):
        raise PackError(f"{path}: no such pack file")
    try:
        kind = detect(path)
        if kind == "siq":
            return _load_siq(path, cache_dir, limits, progress)
        from . import chgk   # lazy: 24 ms at import (its patterns); a .siq never needs it
        with open(path, "rb") as handle:
            data = handle.read(max(native.MAX_BYTES, chgk.MAX_BYTES) + 1)
    except OSError as error:
        raise PackError(f"{path}: cannot read ({error.strerror})") from None
    pack = native.read(path, data) if kind == "toml" else chgk.read(path, data)
    issues = list(pack.issues) + cap_texts(pack)
    digest = hashlib.sha256(data)
    blobs = _native_media(path, pack, issues, limits)      # TOML media, ChGK `(pic: FILE)` pictures
    for ref in sorted(blobs):
        digest.update(ref.encode() + b"\0" + hashlib.sha256(blobs[ref]).digest())
    loaded = Loaded(path, kind, pack, digest.hexdigest(), issues)
    cache = PackCache(loaded.digest, cache_dir) if blobs else None
    total = sum(len(b) for b in blobs.values())
    for ref in sorted(blobs):
        loaded.media[ref] = cache.put(ref, blobs[ref])
        loaded.media_bytes += len(blobs[ref])
        if progress:
            progress(loaded.media_bytes, total)
    loaded.issues += picture_issues(pack, loaded.media) + validate.check(pack)
    return loaded


def picture_issues(pack: Pack, cached: dict[str, str]) -> list[Issue]:
    """A warning for each picture the board would refuse to decode (over the pixel limit, or of no size its header
    tells), naming the file and where it is used; the question plays without it."""
    named = [(where, r, t, m) for where, r, t, q in pack.located() for m in q.media + q.answer_media]
    if pack.logo is not None:
        named.append(("the pack's logo", None, None, pack.logo))
    issues, seen = [], set()
    for where, r, t, media in named:
        if media.kind != "image" or media.ref not in cached or media.ref in seen:
            continue
        seen.add(media.ref)
        reason = refusal(cached[media.ref])
        if reason:
            issues.append(Issue(WARNING, where, f"picture {media.ref!r}: {reason}: the board will not show it", r, t))
    return issues


def _load_siq(path: str, cache_dir, limits: Limits, progress: Progress | None) -> Loaded:
    digest = _sha256_file(path)
    pack, archive, version = siq.read(path, limits)
    with archive:
        loaded = Loaded(path, f"siq{version}", pack, digest, list(pack.issues) + cap_texts(pack))
        refs = sorted({m.ref for m in pack.all_media()})
        total = sum(archive.infos[ref].file_size for ref in refs)
        cache = PackCache(digest, cache_dir) if refs else None
        for ref in refs:
            loaded.media[ref] = cache.put(unquote(Path(ref).name), archive.read(ref))
            loaded.media_bytes += archive.infos[ref].file_size
            if progress:
                progress(loaded.media_bytes, total)
    loaded.issues += picture_issues(pack, loaded.media) + validate.check(pack)
    return loaded
