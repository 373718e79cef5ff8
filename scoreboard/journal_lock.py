"""The journal's lock: one board per journal. The writer holds an exclusive OS lock on `<journal>.lock` (naming its
pid and host) for as long as the journal is open — `flock` on Unix, `msvcrt.locking` on Windows — so a second board
on the same file refuses to start instead of interleaving rows.
"""
from __future__ import annotations

import os
import socket
from pathlib import Path


class JournalError(Exception):
    pass


class JournalInUse(JournalError):
    """Another process (another board) holds this journal."""


def lock_exclusive(handle) -> bool:
    """Take the OS's exclusive lock on the open file without waiting: True when this process now holds it. The lock
    goes with the handle (closed, or the process dead: released)."""
    try:
        import fcntl  # lazy: Unix-only (Windows has msvcrt instead)
    except ImportError:
        import msvcrt  # lazy: Windows-only
        handle.seek(0)
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)   # the first byte stands for the whole file
        except OSError:
            return False
        return True
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def take_lock(path: Path):
    """An exclusive lock for the life of the returned file (closed: released, also when the process dies)."""
    lock_path = path.with_name(path.name + ".lock")
    try:
        handle = open(lock_path, "a+", encoding="utf-8")
    except OSError as error:
        raise JournalError(f"{path}: cannot lock the journal ({error.strerror or error})") from None
    if not lock_exclusive(handle):
        handle.seek(0)
        try:
            holder = handle.read(200).strip() or "another process"
        except OSError:                 # Windows: a locked byte cannot be read by another process
            holder = "another process"
        handle.close()
        raise JournalInUse(f"{path}: the journal is in use by {holder} — one board per journal "
                           f"(stop that board, or give this one another journal)") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"pid {os.getpid()} on {socket.gethostname()}\n")
    handle.flush()
    return handle
