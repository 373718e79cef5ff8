"""`scoreboard simulate`, `scoreboard resume`, `scoreboard regulation check`, `scoreboard phases`,
`scoreboard bench engine`."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from scoreboard.engine import RegulationError, phases
from scoreboard.regulations import load_regulation_file
from scoreboard.journal import Journal, JournalError
from scoreboard.script import ScriptError, load_script, run_script
from scoreboard.session import Session


def register(sub) -> None:
    p = sub.add_parser("simulate", help="run a simulation script headless and print the final snapshot")
    p.add_argument("script")
    p.add_argument("--json", action="store_true", help="print only the final snapshot as JSON")
    p.add_argument("--journal", metavar="FILE", help="journal the game to this new SQLite file")
    p.add_argument("--keep-going", action="store_true", help="report refused commands and go on")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("resume", help="rebuild a game from its journal (it comes back paused)")
    p.add_argument("journal")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_resume)

    p = sub.add_parser("regulation", help="regulation presets")
    rsub = p.add_subparsers(dest="regulation_command", required=True)
    c = rsub.add_parser("check", help="validate a regulation file, listing every problem")
    c.add_argument("file")
    c.set_defaults(func=cmd_regulation_check)

    p = sub.add_parser("phases", help="the engine's phases, the commands each accepts and the phases it moves on to")
    p.add_argument("--markdown", action="store_true", help="print the section of docs/ENGINE.md it generates")
    p.set_defaults(func=cmd_phases)


def cmd_phases(args) -> int:
    sys.stdout.write(phases.markdown() if args.markdown else phases.text())
    return 0


def describe(snapshot: dict) -> str:
    """One line of the game's protocol: phase and every score."""
    scores = " · ".join(f"{p['name']} {p['score']}" for p in snapshot["players"])
    extra = ""
    if snapshot.get("game_over"):
        winner = snapshot.get("winner")
        extra = (f" — winner: seat {winner}" if winner else
                 f" — no winner ({snapshot.get('no_winner_reason') or ''})")
    return f"{snapshot['phase']:<13} {scores}{extra}"


def cmd_simulate(args) -> int:
    try:
        lines = load_script(args.script)
    except ScriptError as error:
        print("\n".join(error.problems), file=sys.stderr)
        return 1
    if args.journal and Path(args.journal).exists():
        print(f"{args.journal}: exists already; give a new file for the journal", file=sys.stderr)
        return 1
    try:
        session = Session(args.journal)
    except JournalError as error:
        print(error, file=sys.stderr)
        return 1

    def applied(line, snapshot):
        if not args.json:
            print(f"{line.at:8.2f}  {line.command.address:<22} {describe(snapshot)}")

    status = 0
    try:
        refusals = run_script(lines, session, keep_going=args.keep_going, name=args.script, on_applied=applied,
                              on_refused=lambda m: print(m, file=sys.stderr))
        status = 1 if refusals else 0
    except ScriptError as error:
        print("\n".join(error.problems), file=sys.stderr)
        status = 1
    snapshot = session.snapshot()
    if args.json:
        print(json.dumps(snapshot, ensure_ascii=False, sort_keys=True))
    else:
        print("final:", describe(snapshot))
    session.close()
    return status


def cmd_resume(args) -> int:
    try:
        session = Session.recover(args.journal)
    except JournalError as error:
        print(error, file=sys.stderr)
        return 1
    snapshot = session.snapshot()
    session.close()
    if args.json:
        print(json.dumps(snapshot, ensure_ascii=False, sort_keys=True))
    else:
        print(f"recovered {args.journal}: rev {snapshot['rev']}, paused")
        print(describe(snapshot))
    return 0


def cmd_regulation_check(args) -> int:
    try:
        reg = load_regulation_file(args.file)
    except RegulationError as error:
        print("\n".join(error.problems), file=sys.stderr)
        return 1
    print(f"{args.file}: ok — {reg.name}, stages {', '.join(reg.stages)}")
    return 0


__all__ = ["register", "Journal"]
