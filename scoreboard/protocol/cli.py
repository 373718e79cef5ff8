"""`scoreboard protocol JOURNAL [--format html|csv|json] [--out F]`: the protocol of a game (протокол боя)."""
from __future__ import annotations

import sys
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser("protocol", help="the protocol of a game (протокол боя) from its journal: HTML for print, "
                                        "CSV or JSON for tools")
    p.add_argument("journal", help="the game's journal (.sqlite)")
    p.add_argument("--format", choices=("html", "csv", "json"), default="html")
    p.add_argument("--out", help="write here (default: standard output)")
    p.add_argument("--host", help="the host's name for the header (default: the one the journal keeps, "
                                         "from the board's board.host_name or `run --host`)")
    p.set_defaults(func=cmd_protocol)


def cmd_protocol(args) -> int:
    from scoreboard.protocol import ProtocolError, build, render   # lazy: `scoreboard --help` replays nothing
    try:
        text = render(build(args.journal, host=args.host), args.format)
    except ProtocolError as error:
        print(f"protocol: {error}", file=sys.stderr)
        return 1
    if not args.out:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as error:
        print(f"protocol: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
        return 1
    print(f"protocol: {args.out} ({args.format}, from {args.journal})")
    return 0
