"""What the OSC client (osc/client.py) sends and hands to its user: OSC encoding (the board's `build` too), the exactly-once and signed
addresses, acks and events."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pythonosc.osc_message_builder import BuildError, OscMessageBuilder


@dataclass(frozen=True)
class Ack:
    """The board's answer to one command."""
    id: int
    address: str
    ok: bool
    reason: str = ""
    sent_at: float = 0.0
    acked_at: float = 0.0
    attempts: int = 1

    def describe(self) -> str:
        verdict = "ok" if self.ok else f"refused: {self.reason}"
        return f"#{self.id} {self.address} {verdict}"


@dataclass(frozen=True)
class Event:
    """What the UI drains: kind is state | question | ack | connection | unknown | error | catalog | protocol."""
    kind: str
    value: Any = None
    extra: Any = field(default=None)


def build(address: str, *args: Any) -> bytes:
    """The board's encoder: one OSC message as bytes, python-osc choosing the type tags (int32 when it fits)."""
    builder = OscMessageBuilder(address=address)
    for arg in args:
        builder.add_arg(arg)
    return builder.build().dgram


def build_doubles(address: str, n: int, *seconds: float) -> bytes:
    """`address n seconds…`, the seconds as OSC doubles ('d'): a board time to the microsecond after days."""
    builder = OscMessageBuilder(address=address)
    builder.add_arg(n, "i")
    for value in seconds:
        builder.add_arg(float(value), "d")
    return builder.build().dgram


def build_message(address: str, args: tuple | list) -> bytes:
    """Encode one OSC message: ints, floats and strings (what the vocabulary uses), bytes as a blob (a MAC)."""
    builder = OscMessageBuilder(address=address)
    for arg in args:
        if isinstance(arg, bool):
            builder.add_arg(int(arg), "i")
        elif isinstance(arg, int):
            builder.add_arg(arg, "i")
        elif isinstance(arg, float):
            builder.add_arg(arg, "f")
        elif isinstance(arg, str):
            builder.add_arg(arg, "s")
        elif isinstance(arg, bytes):
            builder.add_arg(arg, "b")
        else:
            raise ValueError(f"{address}: argument {arg!r} is not an int, float or string")
    try:
        return builder.build().dgram
    except BuildError as error:
        raise ValueError(f"{address}: {error}") from None


def cmd_address(address: str) -> str:
    """`/sg/judge/right` -> `/sg/cmd/judge/right` (PROTOCOL.md §2, exactly-once form)."""
    if not address.startswith("/sg/") or address.startswith("/sg/cmd/"):
        raise ValueError(f"not a plain /sg/ command address: {address!r}")
    return "/sg/cmd/" + address[len("/sg/"):]


def sig_address(address: str) -> str:
    """`/sg/judge/right` -> `/sg/sig/judge/right` (the authenticated mode's signed form, osc/auth.py)."""
    return "/sg/sig/" + cmd_address(address)[len("/sg/cmd/"):]
