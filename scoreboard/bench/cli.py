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


def _links(args) -> int:
    from scoreboard.bench.links import bench_links  # lazy: a bench loads only when it runs
    return bench_links(args)


def _remote_web(args) -> int:
    from scoreboard.bench.web import bench  # lazy: a bench loads only when it runs
    return bench(args)


def _hall(args) -> int:
    from scoreboard.bench.hall import bench  # lazy: a bench loads only when it runs
    return bench(args)


def _phones(args) -> int:
    from scoreboard.bench.phones import bench  # lazy: a bench loads only when it runs
    return bench(args)


def _tournament(args) -> int:
    from scoreboard.bench.tournament import run  # lazy: a bench loads only when it runs
    return run(args)


def _watch(args) -> int:
    from scoreboard.bench.watch import bench  # lazy: a bench loads only when it runs
    return bench(args)


BENCHES = {"display": _display, "engine": _engine, "hall": _hall, "links": _links, "media": _media, "packs": _packs,
           "phones": _phones, "remote-web": _remote_web, "tournament": _tournament, "watch": _watch}


def register(sub) -> None:
    bench = sub.add_parser("bench", help="run a benchmark and print its figures")
    bench.add_argument("target", choices=sorted(BENCHES))
    bench.add_argument("--quick", action="store_true", help="fewer repetitions (smoke test)")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.add_argument("--board", action="store_true",
                       help="links: measure on the real board process under Xvfb (not a loop thread)")
    bench.set_defaults(func=lambda args: BENCHES[args.target](args))
