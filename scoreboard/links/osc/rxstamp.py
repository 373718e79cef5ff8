"""When a datagram reached the machine, not when the OSC thread got to it (issue 26: false starts judged on time).

A host's command is stamped with its arrival. The OSC server's thread reads the socket between other work (pushing
states, a board redrawing its window holds the interpreter), so "now" on that thread can be tens of milliseconds after
the datagram arrived; a `/sg/resume` stamped that late moves the false-start window (BZ7) by as much. On Linux the
kernel stamps every datagram as it is received (SO_TIMESTAMPNS, read back with `recvmsg`); that stamp, on the wall
clock, is mapped onto the board's monotonic clock at the moment it is read. Where the option or `recvmsg` is missing
(Windows, macOS), or the stamp makes no sense (a wall clock stepped between the two readings), the stamp is the
time of reading, as before. Linux turns stamping on lazily when the first socket asks, so the first datagrams after
the board starts may be stamped when read: the same fallback.

Stamps never go backwards, across the board's two UDP sockets (`Floor`): the order datagrams were read in is the
order a client sent them (a host taps «select» then «time» without waiting), and a stamp taken from the kernel for one
and from the reading for the next must not swap them.
"""
from __future__ import annotations

import platform
import socket
import struct
import sys
import time
from typing import Callable, Optional

MAX_LAG = 0.25            # seconds: an older kernel stamp is a stepped wall clock, not a busy thread: read time then
# Linux's SO_TIMESTAMPNS (= SCM_TIMESTAMPNS) is 35 on the asm-generic architectures (x86, ARM, RISC-V); Python's
# socket module names it only on some builds. Other architectures and systems fall back to the reading's time.
_GENERIC = ("x86_64", "amd64", "i386", "i686", "aarch64", "arm64", "armv7l", "armv6l", "riscv64")
_OPTION = getattr(socket, "SO_TIMESTAMPNS", 35 if sys.platform.startswith("linux")
                  and platform.machine().lower() in _GENERIC else None)
_TIMESPEC = struct.Struct("@ll")        # the kernel's old timespec: two C longs, seconds and nanoseconds
_ANCILLARY = socket.CMSG_SPACE(_TIMESPEC.size) if hasattr(socket, "CMSG_SPACE") else 0


class Floor:
    """The latest stamp given, shared by the sockets whose datagrams must keep the order they were read in."""

    def __init__(self) -> None:
        self.at = float("-inf")

    def keep(self, at: float) -> float:
        self.at = max(self.at, at)
        return self.at


class ReceiveStamps:
    """Reads datagrams from one socket with the time each arrived, on `clock` (the board's engine seconds, a shifted
    `time.monotonic`): `data, addr, at = stamps.recvfrom(size)`; never before a stamp given under the same `floor`."""

    def __init__(self, sock: socket.socket, clock: Callable[[], float],
                 wall: Callable[[], float] = time.time, floor: Floor | None = None):
        self.sock, self.clock, self.wall = sock, clock, wall
        self.floor = floor if floor is not None else Floor()
        self.kernel = False                 # the kernel stamps this socket's datagrams
        if _OPTION is not None and _ANCILLARY and hasattr(sock, "recvmsg"):
            try:
                sock.setsockopt(socket.SOL_SOCKET, _OPTION, 1)
                self.kernel = True
            except OSError:
                pass

    def recvfrom(self, size: int) -> tuple[bytes, tuple, float]:
        """One datagram, its sender and when it arrived (BlockingIOError/OSError as `socket.recvfrom`)."""
        if not self.kernel:
            data, addr = self.sock.recvfrom(size)
            return data, addr, self.floor.keep(self.clock())
        data, ancillary, _, addr = self.sock.recvmsg(size, _ANCILLARY)
        now, wall = self.clock(), self.wall()
        arrived = kernel_time(ancillary)
        lag = None if arrived is None else wall - arrived
        if lag is None or not 0.0 <= lag <= MAX_LAG:     # no stamp; a stepped wall clock, one from the future
            return data, addr, self.floor.keep(now)
        return data, addr, self.floor.keep(now - lag)


def kernel_time(ancillary: list) -> Optional[float]:
    """The SCM_TIMESTAMPNS stamp among `recvmsg`'s ancillary data, wall-clock seconds; None when absent."""
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == _OPTION:
            if len(payload) < _TIMESPEC.size:
                return None
            seconds, nanoseconds = _TIMESPEC.unpack_from(payload)
            return seconds + nanoseconds / 1e9
    return None
