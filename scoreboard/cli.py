"""`scoreboard …` — the command line. Each package adds its own subcommands.

A package that offers commands has a module `scoreboard/<package>/cli.py` with
`register(subparsers)` (adds its subcommands; each sets `func=callable(args) -> int`); `scoreboard bench NAME` is
scoreboard/bench/cli.py's. `register` may return
{"command": add(name, func, help) -> parser}: another package's `extend(actions)` adds its own actions to that
command — the display adds `tournament render`, so the tournament package never imports the display. Keeping the wiring here and the
commands in their packages lets the board, links, packs and tournaments grow without touching each other.
"""
from __future__ import annotations

import argparse
import sys

from scoreboard import engine_cli, version
from scoreboard.app import cli as app_cli
from scoreboard.bench import cli as bench_cli
from scoreboard.demo import cli as demo_cli
from scoreboard.links import cli as links_cli
from scoreboard.packs import cli as packs_cli
from scoreboard.protocol import cli as protocol_cli
from scoreboard.tournament import cli as tournament_cli

# The order of `scoreboard --help`.
PACKAGE_CLIS = (engine_cli, app_cli, demo_cli, bench_cli, links_cli, packs_cli, tournament_cli, protocol_cli)


class ShowVersion(argparse.Action):
    """`--version`: the installed distribution's version, looked up only when asked (`--help` stays fast)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog} {version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scoreboard", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action=ShowVersion, help="the installed version, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    actions: dict = {}
    modules = PACKAGE_CLIS
    for module in modules:
        actions.update(module.register(sub) or {})
    for module in modules:                       # after every register: a command may come from a later package
        if hasattr(module, "extend"):
            module.extend(actions)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0
