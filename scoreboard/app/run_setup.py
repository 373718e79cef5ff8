"""`scoreboard run --regulation R --stage S --players "A;B;C" --pack FILE [--topics …] [--game ID]`: a scripted venue's
set-up, the same commands the remote's set-up screens send (docs/REMOTE.md).

Every command is tried first on a scratch session (no journal, no board), so a name too long, a pack that does not
load or a stage the pack cannot fill (G3) stops the start with the reason before any window opens.
"""
from __future__ import annotations

from scoreboard.engine import Refused
from scoreboard.engine.commands import BadCommand, make
from scoreboard.session import Session

MAX_NAME = 80   # PROTOCOL.md: /sg/player/name


def split_list(text: str | None, separators: str = ";") -> list[str]:
    if text is None:
        return []
    for sep in separators[1:]:
        text = text.replace(sep, separators[0])
    return [part.strip() for part in text.split(separators[0])]


def commands_from_args(regulation: str, stage: str, players: str | None, pack: str | None,
                       topics: str | None) -> tuple[list[tuple[str, tuple]], list[str]]:
    """(commands after none, problems): `/sg/game/new`, the names, the pack; each problem names the flag."""
    problems: list[str] = []
    names = split_list(players)
    for index, name in enumerate(names, start=1):
        if not name:
            problems.append(f"--players: name {index} is empty")
        elif len(name) > MAX_NAME:
            problems.append(f"--players: name {index} «{name[:20]}…» has {len(name)} characters (at most {MAX_NAME})")
    chosen = [t for t in split_list(topics, ";,") if t]
    if topics is not None and not pack:
        problems.append("--topics: needs --pack")
    if problems:
        return [], problems
    commands: list[tuple[str, tuple]] = [("/sg/game/new", (regulation, stage, len(names)) if names
                                          else (regulation, stage))]
    commands += [("/sg/player/name", (seat, name)) for seat, name in enumerate(names, start=1)]
    if pack:
        commands.append(("/sg/pack/load", (pack, *chosen)))
    scratch = Session(live_seed=True)
    flags = {"/sg/game/new": "--regulation/--stage/--players", "/sg/player/name": "--players",
             "/sg/pack/load": "--pack/--topics"}
    try:
        for address, args in commands:
            try:
                scratch.submit(make(0.0, address, *args))
            except (Refused, BadCommand) as error:
                problems.append(f"{flags[address]}: {error}")
                return [], problems
    finally:
        scratch.close()
    return commands, problems
