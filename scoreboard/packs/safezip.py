"""Opening a .siq archive downloaded from anywhere without letting it harm the board.

Every entry is checked before anything is read: names with `..`, absolute or drive paths, backslashes or NUL,
symlinks, encrypted or duplicate entries, too many entries, and sizes or compression ratios of a zip bomb make
the whole archive refused (a pack that carries such an entry is not an honest pack). Reading is capped at the
declared size, which zipfile enforces together with the CRC, so a lying header cannot inflate past a limit.

Zip bombs are judged on the whole archive first, then entry by entry. A real SIGame pack is mostly media that
is already compressed (JPEG, PNG, MP3, MP4): it unpacks to about its own size, so the archive as a whole may
unpack to at most `max_total_ratio` times the bytes of the file on disk once it passes `total_ratio_floor`
(the floor lets a text-only pack, whose content.xml compresses well, through). Measuring against the file's
real size, not the sizes the headers declare, also catches entries that overlap and share compressed bytes.
Each entry above `ratio_floor` may compress at most `max_ratio`:1, so many small bombs cannot hide under it.
Nothing here writes to disk: the cache (cache.py) chooses every file name it writes itself.
"""
from __future__ import annotations

import os
import stat
import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import unquote

from .errors import PackError


@dataclass(frozen=True)
class Limits:
    max_entries: int = 5000
    max_entry_bytes: int = 256 * 1024 * 1024      # a long video
    max_total_bytes: int = 512 * 1024 * 1024      # everything unpacked together (real packs: 100–300 MB)
    max_total_ratio: float = 10.0                 # everything unpacked / the archive's size on disk…
    total_ratio_floor: int = 64 * 1024 * 1024     # …once it unpacks to more than this
    max_ratio: float = 200.0                      # uncompressed / compressed, for each entry over ratio_floor
    ratio_floor: int = 64 * 1024
    max_content_bytes: int = 32 * 1024 * 1024     # content.xml


DEFAULT_LIMITS = Limits()


def _bad_name(name: str) -> str | None:
    if not name or "\x00" in name or "\\" in name:
        return "empty name, NUL or backslash"
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return "absolute path"
    if ".." in PurePosixPath(name).parts:
        return "path leaves the archive (`..`)"
    for part in name.split("/"):   # SIGame URL-escapes names: %2e%2e or %2f must not sneak a `..` or `/` past us
        decoded = unquote(part)
        if decoded == ".." or "/" in decoded or "\\" in decoded or "\x00" in decoded:
            return "an escaped `..` or path separator"
    return None


def _mb(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB ({size} bytes)"


class SafeZip:
    """A checked archive: `names` are its regular files; `read(name)` returns bytes within the limits."""

    def __init__(self, path: str, limits: Limits = DEFAULT_LIMITS):
        self.path = path
        self.limits = limits
        try:
            self._zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError, ValueError) as error:
            raise PackError(f"{path}: not a readable zip archive ({error})") from None
        try:
            self._check()
        except PackError:
            self._zip.close()
            raise
        self.total_read = 0

    def _refuse(self, reason: str) -> PackError:
        return PackError(f"{self.path}: refused: {reason}")

    def _check(self) -> None:
        infos = self._zip.infolist()
        lim = self.limits
        if len(infos) > lim.max_entries:
            raise self._refuse(f"{len(infos)} entries, more than the limit of {lim.max_entries}")
        self._check_whole(infos)
        seen: set[str] = set()
        total = 0
        self.infos: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            name = info.filename
            why = _bad_name(name)
            if why:
                raise self._refuse(f"entry {name!r}: {why}")
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise self._refuse(f"entry {name!r} is a symbolic link")
            if info.flag_bits & 0x1:
                raise self._refuse(f"entry {name!r} is encrypted")
            if name in seen:
                raise self._refuse(f"entry {name!r} appears twice")
            seen.add(name)
            if info.is_dir():
                continue
            if info.file_size > lim.max_entry_bytes:
                raise self._refuse(f"entry {name!r} unpacks to {info.file_size} bytes, over the limit of "
                                   f"{lim.max_entry_bytes} (zip bomb?)")
            if info.file_size > lim.ratio_floor and info.file_size > lim.max_ratio * max(info.compress_size, 1):
                raise self._refuse(f"entry {name!r} compresses {info.file_size // max(info.compress_size, 1)}:1 "
                                   f"({info.file_size} bytes from {info.compress_size}), over the limit of "
                                   f"{lim.max_ratio:.0f}:1 for an entry over {lim.ratio_floor} bytes (zip bomb?)")
            total += info.file_size
            self.infos[name] = info
        self.total_bytes = total

    def _check_whole(self, infos: list[zipfile.ZipInfo]) -> None:
        """The archive as a whole, from the sizes the headers declare (reading never goes past them)."""
        lim = self.limits
        total = sum(info.file_size for info in infos if not info.is_dir())
        if total > lim.max_total_bytes:
            raise self._refuse(f"the archive unpacks to {_mb(total)}, over the limit of "
                               f"{_mb(lim.max_total_bytes)} (zip bomb?)")
        try:
            on_disk = max(os.path.getsize(self.path), 1)
        except OSError as error:
            raise PackError(f"{self.path}: cannot read ({error.strerror})") from None
        if total > lim.total_ratio_floor and total > lim.max_total_ratio * on_disk:
            raise self._refuse(f"the archive unpacks to {_mb(total)} from {_mb(on_disk)}, "
                               f"{total // on_disk}:1, over the limit of {lim.max_total_ratio:.0f}:1 for an "
                               f"archive unpacking to more than {_mb(lim.total_ratio_floor)} (zip bomb?)")

    @property
    def names(self) -> list[str]:
        return list(self.infos)

    def read(self, name: str, cap: int | None = None) -> bytes:
        info = self.infos[name]
        cap = self.limits.max_entry_bytes if cap is None else cap
        if info.file_size > cap:
            raise self._refuse(f"entry {name!r} is {info.file_size} bytes, over the limit of {cap}")
        try:
            with self._zip.open(info) as stream:
                data = stream.read(cap + 1)   # zipfile stops at the declared size and checks the CRC
        except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError) as error:
            raise PackError(f"{self.path}: entry {name!r} cannot be read ({error})") from None
        if len(data) > cap:
            raise self._refuse(f"entry {name!r} unpacks past its limit of {cap} bytes")
        self.total_read += len(data)
        if self.total_read > self.limits.max_total_bytes:
            raise self._refuse(f"the archive unpacks to more than {self.limits.max_total_bytes} bytes")
        return data

    def chunks(self, name: str, cap: int | None = None, size: int = 1 << 20):
        """The entry's bytes in chunks of `size`, within the same limits as `read` (for streaming content.xml)."""
        info = self.infos[name]
        cap = self.limits.max_entry_bytes if cap is None else cap
        if info.file_size > cap:
            raise self._refuse(f"entry {name!r} is {info.file_size} bytes, over the limit of {cap}")
        done = 0
        try:
            with self._zip.open(info) as stream:
                while True:
                    chunk = stream.read(size)    # zipfile stops at the declared size and checks the CRC
                    if not chunk:
                        return
                    done += len(chunk)
                    if done > cap:
                        raise self._refuse(f"entry {name!r} unpacks past its limit of {cap} bytes")
                    self.total_read += len(chunk)
                    if self.total_read > self.limits.max_total_bytes:
                        raise self._refuse(f"the archive unpacks to more than {self.limits.max_total_bytes} bytes")
                    yield chunk
        except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError) as error:
            raise PackError(f"{self.path}: entry {name!r} cannot be read ({error})") from None

    def close(self) -> None:
        self._zip.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
