"""`scoreboard demo`: a whole simulated game with the built-in pack, on the board's real path (show.py)."""
from __future__ import annotations

import sys
from pathlib import Path

from scoreboard.app.cli import size_arg
from scoreboard.demo.simulated import DEFAULT_STAGE


def register(sub) -> None:
    p = sub.add_parser("demo", help="a whole simulated game with the built-in pack (no hardware)")
    p.add_argument("--regulation", default="novosibirsk-2007", choices=sorted(DEFAULT_STAGE))
    p.add_argument("--stage", help="stage (default: 1/9, final or cup by regulation)")
    p.add_argument("--speed", type=float, default=None,
                   help="engine seconds per wall second (default: 1 in a window, 400 headless)")
    p.add_argument("--windowed", action="store_true", help="a window instead of fullscreen")
    p.add_argument("--theme", help="visual theme name or folder")
    p.add_argument("--out", default="out/demo", help="where the headless run writes its PNG frames")
    p.add_argument("--size", type=size_arg, default=(1280, 720), help="WIDTHxHEIGHT")
    p.set_defaults(func=cmd_demo)


def cmd_demo(args) -> int:
    from scoreboard.demo import show  # lazy: pygame and the board load for this command only
    if args.speed is not None and not 0 < args.speed <= 10000:
        print("demo: --speed must be above 0 and at most 10000", file=sys.stderr)
        return 2
    return show.run(args.regulation, args.stage, args.speed, args.windowed, Path(args.out), args.theme, args.size)
