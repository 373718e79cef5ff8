"""Simulation scripts (PROTOCOL.md §4): one timed command a line, run headless against a session.

`parse_script` checks every line first (time, address, arguments) and reports them all; `run_script`
then plays the lines, letting each deadline fire at its own time between two lines.
"""
from __future__ import annotations

import math
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from scoreboard.engine import BadCommand, Command, Refused, make
from scoreboard.engine.commands import INTERNAL
from scoreboard.session import Session


class ScriptError(Exception):
    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class Line:
    number: int
    at: float
    command: Command | None     # None: the line only moves the clock


def parse_script(text: str, name: str = "<script>") -> list[Line]:
    lines: list[Line] = []
    problems: list[str] = []
    last = 0.0
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        where = f"{name}:{number}"
        try:
            tokens = shlex.split(stripped, comments=True)
        except ValueError as error:
            problems.append(f"{where}: cannot split the line ({error})")
            continue
        if not tokens:
            continue
        try:
            at = float(tokens[0])
        except ValueError:
            problems.append(f"{where}: the line must start with a time in seconds, got {tokens[0]!r}")
            continue
        if not math.isfinite(at) or at < 0:
            problems.append(f"{where}: time must be a finite number >= 0, got {tokens[0]!r}")
            continue
        if at < last:
            problems.append(f"{where}: time goes backwards ({at:g} after {last:g})")
            continue
        last = at
        if len(tokens) == 1:
            lines.append(Line(number, at, None))
            continue
        address = tokens[1]
        if address in INTERNAL:
            problems.append(f"{where}: {address} is internal to the board and cannot be scripted")
            continue
        try:
            lines.append(Line(number, at, make(at, address, *tokens[2:])))
        except BadCommand as error:
            problems.append(f"{where}: {error}")
    if problems:
        raise ScriptError(problems)
    return lines


def load_script(path: str | Path) -> list[Line]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ScriptError([f"{path}: not UTF-8 text ({error})"]) from None
    except OSError as error:
        raise ScriptError([f"{path}: cannot read ({error.strerror or error})"]) from None
    return parse_script(text, str(path))


def run_script(lines: list[Line], session: Session, *, keep_going: bool = False, name: str = "<script>",
               on_refused: Callable[[str], None] | None = None,
               on_applied: Callable[[Line, dict], None] | None = None) -> list[str]:
    """Play the lines; return the refusals (with keep_going) or raise ScriptError on the first one."""
    refusals: list[str] = []
    for line in lines:
        try:
            if line.command is None:
                session.advance(line.at)
                continue
            snapshot = session.submit(line.command)
        except Refused as error:
            message = f"{name}:{line.number}: {line.command.address if line.command else ''}: refused: {error}"
            if not keep_going:
                raise ScriptError([message]) from None
            refusals.append(message)
            if on_refused:
                on_refused(message)
            continue
        if on_applied:
            on_applied(line, snapshot)
    return refusals


def simulate(path: str | Path, journal: str | Path | None = None, keep_going: bool = False) -> Session:
    """Run a script file to its end and return the session (raises ScriptError)."""
    lines = load_script(path)
    session = Session(journal)
    run_script(lines, session, keep_going=keep_going, name=str(path))
    return session
