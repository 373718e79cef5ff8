"""The command vocabulary of PROTOCOL.md §1: one table shared by OSC, scripts and the journal.

A command is an address plus arguments, stamped with the engine time it happened at. Arguments arrive
as strings (scripts) or as OSC-typed values; `parse` turns either into the typed tuple the engine
expects, or raises `BadCommand` naming the argument and the reason. Nothing here touches game state.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any


class Refused(Exception):
    """A command that does not fit the game now; the game is unchanged."""


class BadCommand(Refused):
    """A command whose address or arguments are malformed."""


class NotNow(Refused):
    """A command the game's phase does not accept (phases.ACCEPTS); the reason says which phases do."""


class Ignored(Exception):
    """A well-formed command that has no effect by the rules (a press after "Время", BZ8): the game is unchanged,
    the board logs it, the journal does not replay it."""


class InternalError(Exception):
    """A bug in the engine, never a refusal: the command was rolled back and the error is raised on, so that the
    board reports it as a fault and tests fail on it (a `Refused` would pass for a rule saying no)."""


@dataclass(frozen=True)
class Command:
    at: float
    address: str
    args: tuple = ()
    # Resolved content the engine needs but a sender does not type (a loaded pack's plan, a seed).
    # It is journaled with the command so that replay never reads anything from outside.
    data: Any = field(default=None, compare=True)


# Argument kinds: seat (int >= 1), int, num (finite float >= 0), str, verdict (right|wrong), flag (0|1),
# scene (one of SCENES), source (one of SOURCES), ms (int >= 0). A trailing "?" marks an optional argument, "*" a rest of strings.
SCENES = ("board", "scores", "bracket", "standings", "logo", "winner", "chart")
# Where a press came from (the photo finish shows it, BZ11 weighs it): the button box, the board's keys, a player's
# phone, or a remote sending /sg/button (an OSC button, a script).
SOURCES = ("box", "key", "phone", "remote")

SPEC: dict[str, tuple[str, ...]] = {
    "/sg/game/new": ("str", "str", "int?", "int?"),   # regulation stage [players] [seed]
    "/sg/player/name": ("seat", "str"),
    "/sg/pack/load": ("str", "str*"),   # path [topic…]: which topics the game uses (name, number, R.N)
    "/sg/topics": ("str*",),
    "/sg/game/start": (),
    "/sg/chooser": ("seat",),
    "/sg/select": ("int", "int", "str?"),
    "/sg/next": (),
    "/sg/reading/done": (),
    "/sg/judge/right": (),
    "/sg/judge/wrong": (),
    "/sg/resume": (),
    "/sg/time": (),
    "/sg/answer/extend": ("num",),
    "/sg/answer/clarify": (),           # BZ10 «Уточните»: the answering seat; restarts the answer time
    "/sg/buttons/manual": ("flag",),
    "/sg/assign": ("seat",),
    "/sg/auction/bid": ("seat", "int"),
    "/sg/auction/allin": ("seat",),
    "/sg/auction/pass": ("seat",),
    "/sg/auction/waive": (),            # AU1 Decision: the host confirms this round goes without its auction
    "/sg/final/topic": ("str",),
    "/sg/final/stake": ("seat", "int"),
    "/sg/final/start": (),
    "/sg/final/judge": ("seat", "verdict"),
    "/sg/final/reveal": ("seat",),
    "/sg/score/adjust": ("seat", "int", "str?"),
    "/sg/rejudge": ("seat", "verdict"),
    "/sg/question/replace": (),
    "/sg/undo": (),
    "/sg/pause": (),
    "/sg/unpause": (),
    "/sg/screen": ("scene",),
    "/sg/media/pause": (),      # the open question's video or sound (docs/ENGINE_API.md media_state)
    "/sg/media/play": (),
    "/sg/media/replay": (),
    # seat [source [error bound, ms]]: the stamp `at` is the board's best estimate of the touch, within ± the bound
    # (BZ11); a press without them is a remote's, stamped on arrival.
    "/sg/button": ("seat", "source?", "ms?"),
    # BZ11: in a close call the host names the other player instead, before the verdict (photo finish)
    "/sg/answerer": ("seat",),
    # BZ11, issue 27 item 2: the host puts the photo finish of this (or the last) question on the hall's screens
    "/sg/photo/show": (),
    "/sg/photo/hide": (),
    # Internal: a deadline fired at this time. Journaled so replay needs no clock; never sent by a remote.
    "/sg/clock": (),
}

# Commands a remote may not send (the board makes them itself).
INTERNAL = frozenset({"/sg/clock"})
# Commands that are not the host's game commands: undo takes back the last host command and everything after it,
# never a press, a clock, an undo, nor a pause or unpause (the host's or a recovery's, issue 11 item 5).
NOT_HOST = frozenset({"/sg/button", "/sg/clock", "/sg/undo", "/sg/pause", "/sg/unpause"})


def _convert(kind: str, value: Any, position: int) -> Any:
    where = f"argument {position}"
    if kind in ("seat", "int", "ms"):
        if isinstance(value, bool):
            raise BadCommand(f"{where}: expected an integer, got {value!r}")
        if isinstance(value, int):
            number = value
        elif isinstance(value, float) and value.is_integer():
            number = int(value)
        elif isinstance(value, str):
            try:
                number = int(value.strip(), 10)
            except ValueError:
                raise BadCommand(f"{where}: expected an integer, got {value!r}") from None
        else:
            raise BadCommand(f"{where}: expected an integer, got {value!r}")
        if kind == "seat" and number < 1:
            raise BadCommand(f"{where}: a seat is 1 or more, got {number}")
        if kind == "ms" and number < 0:
            raise BadCommand(f"{where}: milliseconds are 0 or more, got {number}")
        return number
    if kind == "num":
        try:
            number = float(value) if not isinstance(value, bool) else math.nan
        except (TypeError, ValueError):
            raise BadCommand(f"{where}: expected a number, got {value!r}") from None
        if not math.isfinite(number) or number < 0:
            raise BadCommand(f"{where}: expected a finite number >= 0, got {value!r}")
        return number
    if kind == "str":
        if not isinstance(value, str):
            raise BadCommand(f"{where}: expected a string, got {value!r}")
        if not value.strip():
            raise BadCommand(f"{where}: must not be empty")
        return value
    if kind == "verdict":
        if value not in ("right", "wrong"):
            raise BadCommand(f"{where}: expected right or wrong, got {value!r}")
        return value
    if kind == "flag":
        if value in (0, 1, "0", "1", True, False):
            return int(value) == 1 if not isinstance(value, str) else value == "1"
        raise BadCommand(f"{where}: expected 0 or 1, got {value!r}")
    if kind == "scene":
        if value not in SCENES:
            raise BadCommand(f"{where}: expected one of {', '.join(SCENES)}, got {value!r}")
        return value
    if kind == "source":
        if value not in SOURCES:
            raise BadCommand(f"{where}: expected one of {', '.join(SOURCES)}, got {value!r}")
        return value
    raise AssertionError(kind)


def parse(address: str, raw_args: list | tuple) -> tuple:
    """Validate and type the arguments of `address`; raise BadCommand with the reason."""
    spec = SPEC.get(address)
    if spec is None:
        raise BadCommand(f"unknown address {address!r}")
    args: list[Any] = []
    raw = list(raw_args)
    for position, kind in enumerate(spec, start=1):
        if kind.endswith("*"):
            rest = raw[position - 1:]
            args.extend(_convert(kind[:-1], value, i) for i, value in enumerate(rest, start=position))
            return tuple(args)
        optional = kind.endswith("?")
        kind = kind.rstrip("?")
        if position > len(raw):
            if optional:
                break
            raise BadCommand(f"{address} needs {_arity(spec)}, got {len(raw)}")
        args.append(_convert(kind, raw[position - 1], position))
    if len(raw) > len(spec):
        raise BadCommand(f"{address} takes {_arity(spec)}, got {len(raw)}")
    return tuple(args)


def _arity(spec: tuple[str, ...]) -> str:
    required = sum(1 for kind in spec if not kind.endswith(("?", "*")))
    if required == len(spec):
        return f"{required} argument(s)"
    return f"{required} to {len(spec)} argument(s)"


def make(at: float, address: str, *raw_args: Any, data: Any = None) -> Command:
    """Build a checked command (convenience for tests, links and scripts)."""
    if isinstance(at, bool) or not isinstance(at, (int, float)) or not math.isfinite(at) or at < 0:
        raise BadCommand(f"time must be a finite number >= 0, got {at!r}")
    return Command(float(at), address, parse(address, raw_args), data)
