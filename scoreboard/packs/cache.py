"""The board's pack cache: the only place a pack's media are ever written.

Layout: `<root>/<sha256 of the pack>/<n>-<safe name>`. The cache chooses every file name itself (a counter
plus the media's base name stripped to safe characters), so no name inside a pack can point a write anywhere
else; the final path is still checked to resolve inside the pack's folder, and a symlink planted in the cache
is refused. Files are written to a temporary name and renamed, so a crash never leaves half a file behind.
The root is `$SVOYA_PACK_CACHE`, else packs/ in the platform's cache folder (scoreboard/folders.py: on Linux
`$XDG_CACHE_HOME/svoya-scoreboard/packs`, else `~/.cache/…`).
"""
from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

from scoreboard.folders import cache_folder

from .errors import PackError

_UNSAFE = re.compile(r"[^\w.\- ]+", re.UNICODE)
NAME_LIMIT = 80     # characters in a file name the cache or a converted pack writes


def default_root() -> Path:
    explicit = os.environ.get("SVOYA_PACK_CACHE")
    if explicit:
        return Path(explicit)
    return cache_folder() / "packs"


def safe_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A file name with no separators, no leading dots and only word characters, dots, dashes and spaces.
    Idempotent (a safe name stays as it is), so a converted pack converted again keeps its file names."""
    base = unicodedata.normalize("NFC", name.replace("\\", "/").rsplit("/", 1)[-1])
    base = _UNSAFE.sub("_", base)
    while True:        # a cut can expose a new extension or a trailing dot: cut again until nothing changes
        cut = _cut(base, limit)
        if cut == base:
            return base
        base = cut


def _cut(base: str, limit: int) -> str:
    """One pass: no dot or space at either end, at most `limit` characters, a short extension kept whole."""
    base = base.strip(" .") or "media"
    stem, dot, ext = base.rpartition(".")
    if dot and stem and len(ext) <= 8:
        return stem[: limit - len(ext) - 1].rstrip(" .") + "." + ext
    return base[:limit].rstrip(" .")


class PackCache:
    """One pack's folder in the cache; `put(name, data)` writes a media file and returns its absolute path."""

    def __init__(self, digest: str, root: str | os.PathLike | None = None):
        if not re.fullmatch(r"[0-9a-f]{64}", digest):
            raise ValueError("cache key must be a sha256 hex digest")
        self.root = Path(root) if root is not None else default_root()
        self.folder = self.root / digest
        self._count = 0
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise PackError(f"pack cache {self.folder}: cannot create ({error})") from None
        self._real = Path(os.path.realpath(self.folder))
        real_root = Path(os.path.realpath(self.root))
        if self.folder.is_symlink() or self._real.parent != real_root:
            raise PackError(f"pack cache {self.folder}: refused: it is (or goes through) a symbolic link")

    def put(self, name: str, data: bytes) -> str:
        self._count += 1
        target = self.folder / f"{self._count:04d}-{safe_name(name)}"
        if os.path.realpath(target.parent) != str(self._real) or target.is_symlink():
            raise PackError(f"pack cache {target}: refused: outside the pack's cache folder or a symlink")
        if target.exists() and target.stat().st_size == len(data) and target.read_bytes() == data:
            return str(target)      # the same pack loaded again: its media are already there
        temporary = target.with_name(target.name + ".part")
        try:
            if temporary.is_symlink():
                temporary.unlink()
            flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
            with os.fdopen(os.open(temporary, flags, 0o644), "wb") as out:
                out.write(data)
            os.replace(temporary, target)
        except OSError as error:
            raise PackError(f"pack cache {target}: cannot write ({error})") from None
        return str(target)
