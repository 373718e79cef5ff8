"""`scoreboard …` — the command line. Each package adds its own subcommands.

A package that offers commands has a module `scoreboard/<package>/cli.py` with
`register(subparsers)` (adds its subcommands; each sets `func=callable(args) -> int`) and optionally
`BENCHES = {"name": callable(args) -> int}` for `scoreboard bench NAME`. `register` may return
{"command": add(name, func, help) -> parser}: another package's `extend(actions)` adds its own actions to that
command — the display adds `tournament render`, so the tournament package never imports the display. Keeping the wiring here and the
commands in their packages lets the board, links, packs and tournaments grow without touching each other.
"""
from __future__ import annotations

import argparse
import importlib
import sys

PACKAGE_CLIS = (
    "scoreboard.engine_cli",
    "scoreboard.app.cli",
    "scoreboard.demo.cli",
    "scoreboard.bench.cli",
    "scoreboard.links.cli",
    "scoreboard.packs.cli",
    "scoreboard.tournament.cli",
)


def _modules():
    for name in PACKAGE_CLIS:
        try:
            yield importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:  # a real missing dependency, not an absent package CLI
                raise


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scoreboard", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    benches: dict = {}
    actions: dict = {}
    modules = list(_modules())
    for module in modules:
        actions.update(module.register(sub) or {})
        benches.update(getattr(module, "BENCHES", {}))
    for module in modules:                       # after every register: a command may come from a later package
        if hasattr(module, "extend"):
            module.extend(actions)
    bench = sub.add_parser("bench", help="run a benchmark and print its figures")
    bench.add_argument("target", choices=sorted(benches))
    bench.add_argument("--quick", action="store_true", help="fewer repetitions (smoke test)")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.add_argument("--board", action="store_true",
                       help="links: measure on the real board process under Xvfb (not a loop thread)")
    bench.set_defaults(func=lambda args: benches[args.target](args))
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
