"""`scoreboard bench TARGET`: the benchmarks of docs/PERFORMANCE.md. Each target imports its bench when it runs."""
from __future__ import annotations


def _display(args) -> int:
    from scoreboard.bench.display import run  # lazy: a bench loads only when it runs
    return run(args)


def _engine(args) -> int:
    from scoreboard.bench.engine import run  # lazy: a bench loads only when it runs
    return run(args)


def _media(args) -> int:
    from scoreboard.bench.media import run  # lazy: a bench loads only when it runs
    return run(quick=args.quick, as_json=args.json)


def _packs(args) -> int:
    from scoreboard.bench.packs import run  # lazy: a bench loads only when it runs
    return run(args)


BENCHES = {"display": _display, "engine": _engine, "media": _media, "packs": _packs}


def register(sub) -> None:
    """The benches are gathered by scoreboard/cli.py (`bench` takes every package's BENCHES)."""
