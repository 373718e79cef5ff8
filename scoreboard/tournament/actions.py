"""What each `scoreboard tournament …` action does (its options are in cli.py, which loads this module only when an
action runs): over one SQLite file, `--file PATH` or the TOURNAMENT environment variable. Every action prints what it
did; a refusal (TournamentError) is said on stderr by cli.py, exits 2 and changes nothing.
"""
from __future__ import annotations

import csv
import io
import json
import math
import sys
from pathlib import Path

from scoreboard.demo import tournament as demo
from scoreboard.protocol import render as protocol_render
from scoreboard.tournament import export_csv, export_html, formats, protocols
from scoreboard.tournament.command import open_tournament, show, tournament_path
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.remote.cli import (cmd_assign, cmd_board, cmd_boards, cmd_passcode,  # noqa: F401
                                              cmd_serve)
from scoreboard.tournament.service import Tournament, journal_snapshot, record_from_journal, record_snapshot
from scoreboard.tournament.terminal import standings_text
from scoreboard.tournament.views import game_setup


def _pairs(text: str, what: str) -> dict[str, float]:
    """'Анна=30,Борис=-10' or '1=30,2=-10' → {key: number}."""
    out = {}
    for item in filter(None, (x.strip() for x in (text or "").split(","))):
        key, sep, value = item.rpartition("=")
        if not sep or not key.strip():
            raise TournamentError(f"{what}: {item!r} is not SEAT=NUMBER or NAME=NUMBER")
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            raise TournamentError(f"{what}: {value!r} in {item!r} is not a number")
        out[key.strip()] = int(number) if number.is_integer() else number
    return out


def cmd_new(args):
    if args.topics_per_game is not None and "topics_per_game" not in formats.format_module(args.format).OPTIONS:
        raise TournamentError(f"--topics-per-game does not apply to a {args.format} tournament")
    t = Tournament.create(tournament_path(args), args.format, args.seed, args.topics_per_game or 4)
    print(f"{t.format} tournament in {t.store.path}, seed {t.seed}")


# Options that only some formats have (formats/: each format's OPTIONS): refused where they do not apply.
FORMAT_OPTIONS = {"seeded": "--seeded", "team": "--team", "cups": "--cups", "relative_of": "--relative-of",
                  "right": "--right", "topics_per_game": "--topics-per-game"}


def _refuse_inapplicable(t, args) -> None:
    for dest, flag in FORMAT_OPTIONS.items():
        if getattr(args, dest, None) not in (None, False, []) and dest not in t.flow.OPTIONS:
            raise TournamentError(f"{flag} does not apply to a {t.format} tournament")


def cmd_player(args):
    t = open_tournament(args)
    _refuse_inapplicable(t, args)
    if args.action != "list" and not args.name:
        raise TournamentError(f"player {args.action}: give a name")
    if args.action == "add":
        cups = args.cups.split(",") if args.cups else None
        p = t.add_player(args.name, args.team, args.seeded, args.relative_of or (), cups)
        print(f"{p['name']}: {p['status']}" + (f", team {p['team']}" if p["team"] else "")
              + (", seeded" if p["seeded"] else "") + (f", cups {', '.join(p['cups'])}" if p["cups"] else ""))
    elif args.action == "withdraw":
        promoted = t.withdraw(args.name)
        if isinstance(promoted, list):      # a season of cups: each cup left
            print("\n".join(_left(x) for x in promoted))
        else:
            print(f"{args.name} withdrawn" + (f"; {promoted} comes in from the waiting list" if promoted else ""))
    elif args.action == "leave":
        if not args.extra:
            raise TournamentError("usage: player leave NAME CUP")
        print(_left(t.leave_cup(args.name, args.extra)))
    elif args.action == "substitute":
        if not args.extra:
            raise TournamentError("usage: player substitute GAME ABSENT [--by NAME]")
        by = t.substitute(args.name, args.extra, args.by)
        print(f"{by} replaces {args.extra} in {args.name}")
    elif args.action == "enter":
        if not args.extra:
            raise TournamentError("usage: player enter NAME CUP")
        t.enter_cup(args.name, args.extra)
        print(f"{args.name} entered the {args.extra} cup")
    elif args.action == "list":
        rows = t.store.players()
        show(args, rows, "\n".join(f"{p['entered']:3} {p['name']:<24} {p['status']:<10} {p['team'] or '':<16}"
                                     f"{'seeded ' if p['seeded'] else ''}{','.join(p['cups'])}" for p in rows))


def _left(out: dict) -> str:
    if out["how"] == "entry":
        return f"{out['name']} left the {out['cup']} cup (before its draw)"
    rest = ", ".join(out["left"])
    return (f"{out['name']} leaves the {out['cup']} cup: out of {out['game']} by walkover; "
            + (f"{rest} wins it without playing" if len(out["left"]) == 1 else f"{rest} play it"))


def cmd_draw(args):
    t = open_tournament(args)
    _refuse_inapplicable(t, args)
    if args.verify:
        problems = t.verify()
        for p in problems:
            print(p)
        print("every draw input, draw, seat played and lot re-run from the seed matches the file" if not problems else
              f"{len(problems)} difference(s)")
        return 1 if problems else 0
    summary = t.draw(args.topics_per_game)
    lines = [f"{summary['stage']} drawn (seed {t.seed}):"]
    lines += [f"  {gid}: {', '.join(players)}" for gid, players in summary["games"].items()]
    lines += [f"  ! constraint not met: {b}" for b in summary["broken"]]
    lines += [f"  {summary['topics']}"] if summary.get("topics") else []
    lines += [f"  {summary['cut']}"] if summary.get("cut") else []
    show(args, summary, "\n".join(lines))


def cmd_games(args):
    t = open_tournament(args)
    rows = t.store.games(args.stage)
    text = []
    for g in rows:
        r = g["result"]
        score = ", ".join(f"{s['name']} {s['score']:g}" for s in r["seats"]) if r else ", ".join(g["players"])
        text.append(f"{g['id']:<12} {'done' if r else 'to play':<8} {score}"
                    + (f"  → {r['winner'] or 'no winner'}" if r else ""))
    show(args, rows, "\n".join(text) or "no games drawn yet")


def cmd_game(args):
    print(json.dumps(game_setup(open_tournament(args), args.game), ensure_ascii=False, indent=1))


def cmd_result(args):
    if args.journal:
        out = record_from_journal(tournament_path(args), args.game, args.journal, args.replace, args.force,
                                  args.reason)
    elif args.snapshot:
        try:
            text = sys.stdin.read() if args.snapshot == "-" else open(args.snapshot, encoding="utf-8").read()
            snapshot = json.loads(text)
        except (OSError, ValueError) as error:
            raise TournamentError(f"{args.snapshot}: cannot read a JSON snapshot ({error})") from None
        out = record_snapshot(tournament_path(args), args.game, snapshot, args.replace, args.snapshot, args.force,
                              args.reason)
    else:
        _refuse_inapplicable(open_tournament(args), args)
        if not args.scores:
            raise TournamentError("give --scores SEAT=SCORE,… (or NAME=SCORE), --journal FILE or --snapshot FILE")
        out = open_tournament(args).record_typed(args.game, _pairs(args.scores, "--scores"), args.winner,
                                       _pairs(args.tiebreak, "--tiebreak"), _pairs(args.right, "--right"), args.replace,
                                       args.lot, args.force, args.reason)
    print(f"{out['game']}: " + ("recorded" if out["recorded"] else "already recorded, nothing changed")
          + f"; winner {out['winner'] or 'none'}")
    for line in out.get("changes") or []:
        print(f"  {line}")


def cmd_reopen(args):
    out = open_tournament(args).reopen(args.stage, args.reason)
    print(f"{out['stage']} reopened: its results take --replace until `advance`"
          + (f"; discarded {', '.join(out['removed'])} ({out['results_discarded']} result(s), kept in the audit log)"
             if out["removed"] else ""))


def cmd_advance(args):
    adv = open_tournament(args).advance()
    reasons = adv.get("reasons", {})
    lines = [f"  {n}: {reasons.get(n, '')}" for n in adv.get("qualified", [])]
    if adv.get("cut"):
        lines.append(f"  at the line: {adv['cut']}")
    for key in ("champion", "cup_winner"):
        if key in adv:
            lines.append(f"  {key.replace('_', ' ')}: {adv[key] or 'not awarded'}")
    show(args, adv, "advanced:\n" + "\n".join(lines))


def cmd_standings(args):
    t = open_tournament(args)
    show(args, t.standings(), standings_text(t))


def cmd_export(args):
    t = open_tournament(args)
    kind = "csv" if args.csv else args.format
    if kind == "html":
        # each game's kept protocol as its own page beside the export, linked from the game (issue 27 item 1)
        links = protocols.write_beside(t.store, Path(args.out)) if args.out else {}
        text = export_html.document(t, args.lang, links=links)
    elif kind == "csv":
        text = export_csv.document(t, args.lang)
    elif kind == "games-csv":
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(["game", "stage", "seat", "player", "score", "tiebreak", "right", "winner"])
        for g in t.store.games():
            for s in (g["result"] or {}).get("seats", []):
                w.writerow([g["id"], g["stage"], s["seat"], s["name"], s["score"], s["tiebreak"],
                            "" if s.get("right") is None else s["right"], g["result"]["winner"] or ""])
        text = buf.getvalue()
    else:
        text = json.dumps(t.export(), ensure_ascii=False, indent=1)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"{kind} → {args.out}")
    else:
        sys.stdout.write(text)


def cmd_protocol(args):
    """The protocol kept with a game's result (recorded from its journal), in any of its formats."""
    t = open_tournament(args)
    model = protocols.get(t.store, t.game(args.game)["id"])
    if model is None:
        raise TournamentError(f"game {args.game} has no protocol (its result was not recorded from a journal)")
    text = protocol_render(model, args.format)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"protocol of {args.game} → {args.out}")
    else:
        sys.stdout.write(text)


def cmd_topic(args):
    t = open_tournament(args)
    if "topics_per_game" not in t.flow.OPTIONS:
        raise TournamentError(f"a {t.format} tournament draws no topics (T-S8 is a samara rule)")
    if args.action == "add":
        print(f"{t.flow.add_topic(t, args.name, args.author, args.id)}: {args.name}")
    else:
        print(t.flow.draw_topics(t))


def cmd_demo(args):
    t = demo.build(tournament_path(args), args.format, args.stage, args.seed)
    print(f"demo {t.format} tournament in {t.store.path}, played to {t.last_stage()['id']}")


def cmd_snapshot(args):
    """Print the final snapshot of a journal (read-only) — to send a result from a board on another machine."""
    print(json.dumps(journal_snapshot(args.journal), ensure_ascii=False))
