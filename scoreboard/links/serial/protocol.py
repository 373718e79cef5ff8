"""The button box's line protocol (PROTOCOL.md §5), parsed and formatted. Pure: no port, no clock.

Box → board: `HELLO name proto=1 players=N`, `EV seq t_us PRESS p`, `PONG nonce t_us`.
Board → box: `HELLO?`, `ARM`, `DISARM`, `LED p on|off|blink`, `PING nonce`.
ASCII, fields separated by single spaces, at most 80 bytes including the `\n` (a `\r` before it is
tolerated: Arduino's println sends one). Anything else raises BadLine with the reason.
"""
from __future__ import annotations

from dataclasses import dataclass

MAX_LINE = 80
U32 = 2**32
PROTO = 1


class BadLine(ValueError):
    """A line from the box that does not parse; str(e) is the reason."""


@dataclass(frozen=True)
class Hello:
    name: str
    players: int


@dataclass(frozen=True)
class Press:
    seq: int
    t_us: int
    seat: int


@dataclass(frozen=True)
class Pong:
    nonce: int
    t_us: int


def _u32(text: str, what: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 10:
        raise BadLine(f"{what}: expected a decimal u32, got {text!r}")
    value = int(text)
    if value >= U32:
        raise BadLine(f"{what}: {value} does not fit 32 bits")
    return value


def parse_line(raw: bytes, max_seat: int = 99) -> Hello | Press | Pong:
    """One line (without its `\n`) from the box."""
    if len(raw) + 1 > MAX_LINE:
        raise BadLine(f"line longer than {MAX_LINE} bytes")
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise BadLine("not ASCII") from None
    fields = text.split(" ")
    if not text or any(not field for field in fields):
        raise BadLine("empty line or field (fields are separated by single spaces)")
    kind = fields[0]
    if kind == "EV":
        if len(fields) != 5 or fields[3] != "PRESS":
            raise BadLine("expected EV seq t_us PRESS p")
        seat = _u32(fields[4], "seat")
        if not 1 <= seat <= max_seat:
            raise BadLine(f"seat {seat} outside 1..{max_seat}")
        return Press(_u32(fields[1], "seq"), _u32(fields[2], "t_us"), seat)
    if kind == "PONG":
        if len(fields) != 3:
            raise BadLine("expected PONG nonce t_us")
        return Pong(_u32(fields[1], "nonce"), _u32(fields[2], "t_us"))
    if kind == "HELLO":
        if len(fields) != 4 or not fields[2].startswith("proto=") or not fields[3].startswith("players="):
            raise BadLine("expected HELLO name proto=1 players=N")
        proto = _u32(fields[2][6:], "proto")
        if proto != PROTO:
            raise BadLine(f"box speaks protocol {proto}, the board speaks {PROTO}")
        players = _u32(fields[3][8:], "players")
        if not 1 <= players <= 99:
            raise BadLine(f"players={players} outside 1..99")
        if not fields[1].isprintable():
            raise BadLine("box name is not printable")
        return Hello(fields[1], players)
    raise BadLine(f"unknown line type {kind[:12]!r}")


def parse_digit(byte: int) -> int | None:
    """One-digit mode: the seat of an ASCII digit 1–9; None for line breaks and spaces; BadLine otherwise."""
    if 0x31 <= byte <= 0x39:
        return byte - 0x30
    if byte in (0x0A, 0x0D, 0x20):
        return None
    raise BadLine(f"byte 0x{byte:02x} is not a digit 1-9")


# --- board → box -------------------------------------------------------------------------------------
def hello_query() -> bytes:
    return b"HELLO?\n"


def arm(live: bool) -> bytes:
    return b"ARM\n" if live else b"DISARM\n"


def led(seat: int, mode: str) -> bytes:
    if mode not in ("on", "off", "blink"):
        raise ValueError(mode)
    return f"LED {seat} {mode}\n".encode("ascii")


def ping(nonce: int) -> bytes:
    return f"PING {nonce % U32}\n".encode("ascii")
