"""`scoreboard tournament …`: run a tournament from the command line over one SQLite file — the actions and their
options. What each action does is in actions.py (remote/cli.py for `serve`, `board`, `assign`, `boards`), loaded
only when one runs: every `scoreboard …` start builds this parser.

The file is `--file PATH` or the TOURNAMENT environment variable. Every command prints what it did; a refusal prints
the reason on stderr, exits 2 and changes nothing.
"""
from __future__ import annotations

import argparse
import sys

from scoreboard.tournament import formats
from scoreboard.tournament.errors import TournamentError


def _action(name: str):
    """actions.`name`, loaded when the action runs."""
    def run(args):
        # lazy: the service, exports and demo they load would cost every `scoreboard` start ~6 ms (measured)
        from scoreboard.tournament import actions
        return getattr(actions, name)(args)
    return run


def _guard(func):
    def run(args):
        try:
            return func(args) or 0
        except TournamentError as error:
            print(f"tournament: {error}", file=sys.stderr)
            return 2
    return run


class _AnyOrder(argparse.ArgumentParser):
    """An action's parser that takes its options anywhere, between its positional arguments too
    (`player leave Вера --file t.sqlite winter`): argparse's intermixed parsing, for a parser without sub-commands."""
    _inside = False

    def parse_known_args(self, args=None, namespace=None):
        if self._inside or self._subparsers is not None:
            return super().parse_known_args(args, namespace)
        self._inside = True         # parse_known_intermixed_args calls parse_known_args itself
        try:
            return super().parse_known_intermixed_args(args, namespace)
        finally:
            self._inside = False


def register(subparsers) -> dict:
    """Adds `tournament ACTION …`; returns {"tournament": add} so that the display adds its `render` action
    (scoreboard/cli.py: the domain never imports the display)."""
    # --file and --json go anywhere: before the action or after it (SUPPRESS keeps one place from erasing the other)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--file", default=argparse.SUPPRESS, help="the tournament file (default: $TOURNAMENT)")
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")
    top = subparsers.add_parser("tournament", help="run a tournament: draws, results, advancement, standings",
                                parents=[common])
    sub = top.add_subparsers(dest="tournament_command", metavar="ACTION", parser_class=_AnyOrder)
    sub.required = True

    def add(name, func, help_):
        p = sub.add_parser(name, help=help_, parents=[common])
        p.set_defaults(func=_guard(func))
        return p

    p = add("new", _action("cmd_new"), "create a tournament file")
    p.add_argument("--format", required=True, choices=formats.names())
    p.add_argument("--seed", type=int, help="the seed of every draw and lot (default: random, stored)")
    p.add_argument("--topics-per-game", type=int, help="samara: topics in each game (≥ 4)")
    p = add("player", _action("cmd_player"), "add, withdraw, substitute, enter or leave a cup, list")
    p.add_argument("action", choices=["add", "withdraw", "substitute", "enter", "leave", "list"])
    p.add_argument("name", nargs="?", help="the player (substitute: GAME NAME)")
    p.add_argument("extra", nargs="?", help="substitute: the absent player; enter, leave: the cup")
    p.add_argument("--team")
    p.add_argument("--seeded", action="store_true", help="last championship's 1/3-finalist / Super Nine")
    p.add_argument("--relative-of", action="append", metavar="NAME", help="a close relative (samara T-S2)")
    p.add_argument("--cups", help="samara: winter,spring,summer (default: every cup not started)")
    p.add_argument("--by", help="substitute: who comes in")
    p = add("draw", _action("cmd_draw"), "draw the next stage or round (--verify: re-run every draw from the seed)")
    p.add_argument("--verify", action="store_true")
    p.add_argument("--topics-per-game", type=int, help="samara: for this cup (≥ 4)")
    p = add("games", _action("cmd_games"), "list the games and their results")
    p.add_argument("--stage")
    p = add("game", _action("cmd_game"), "a game's setup for the board (regulation, stage, players by seat, topics)")
    p.add_argument("game")
    p = add("result", _action("cmd_result"), "record a finished game")
    p.add_argument("game")
    p.add_argument("--scores", help="SEAT=SCORE,… or NAME=SCORE,…")
    p.add_argument("--winner", help="who won a tie (after extra questions / topic)")
    p.add_argument("--tiebreak", help="points of the tie-break (extra round TB1 / extra questions TB2 / extra topic TB3) "
                                       "SEAT=POINTS,… (never added to sums)")
    p.add_argument("--right", help="questions answered right SEAT=N,… (america wild-card tie-break)")
    p.add_argument("--journal", help="the board's journal: read the result from it")
    p.add_argument("--snapshot", help="a final snapshot as JSON (a file, or - for stdin)")
    p.add_argument("--replace", action="store_true", help="correct an already recorded result (after its stage "
                                                           "advanced: recomputes what follows; needs --reason)")
    p.add_argument("--reason", help="why: a correction after the fact, a forced result, a reopen (logged)")
    p.add_argument("--force", action="store_true", help="record a host's ruling beyond the rules' bounds (G8)")
    p.add_argument("--lot", action="store_true", help="the tie-break ended level and a lot chose --winner (TB4)")
    p = add("reopen", _action("cmd_reopen"), "take results of an advanced stage again: discards the stages after it")
    p.add_argument("stage")
    p.add_argument("--reason", help="why (required, logged)")
    add("advance", _action("cmd_advance"), "close the current stage: who goes on and why")
    add("standings", _action("cmd_standings"), "the current standings")
    p = add("export", _action("cmd_export"), "publish: json (everything), csv (standings, a row per player), html "
                                             "(a printable page per view), games-csv (a row per seat of every game)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--format", choices=["json", "csv", "html", "games-csv"], default="json")
    g.add_argument("--csv", action="store_true", help="= --format csv")
    p.add_argument("--lang", choices=["ru", "en"], default="ru", help="html, csv: the words (default ru)")
    p.add_argument("--out")
    p = add("protocol", _action("cmd_protocol"), "a game's protocol (протокол боя) kept with its result")
    p.add_argument("game")
    p.add_argument("--format", choices=["html", "csv", "json"], default="html")
    p.add_argument("--out")
    p = add("topic", _action("cmd_topic"), "samara topics: add NAME [--author P], or draw (T-S8)")
    p.add_argument("action", choices=["add", "draw"])
    p.add_argument("name", nargs="?")
    p.add_argument("--author")
    p.add_argument("--id")
    p = add("demo", _action("cmd_demo"), "make a demo tournament with made-up results (rehearsing the screens)")
    p.add_argument("--format", required=True, choices=formats.names())
    p.add_argument("--stage", help="stop after drawing and playing this stage (default: play it all)")
    p.add_argument("--seed", type=int, default=2024)
    p = sub.add_parser("snapshot", help="print a journal's final snapshot as JSON (read-only; for --snapshot -)")
    p.add_argument("journal")
    p.set_defaults(func=_guard(_action("cmd_snapshot")))
    # boards in other rooms (remote/): results over the network
    p = add("serve", _action("cmd_serve"),
            "take results from boards in other rooms over the network (each board signs with its key)")
    p.add_argument("--bind", default="0.0.0.0")
    p.add_argument("--port", type=int, default=9010)
    p = add("board", _action("cmd_board"), "boards in other rooms: add NAME (prints its key), key NAME (a new key; "
                                           "the old one stops working), remove NAME")
    p.add_argument("action", choices=["add", "key", "remove"])
    p.add_argument("name")
    p = add("passcode", _action("cmd_passcode"), "gone: each board has its own key (`board add NAME`)")
    p.add_argument("--new", action="store_true")
    p = add("assign", _action("cmd_assign"),
            "only this board may set up and send GAME (default: the first board to ask)")
    p.add_argument("game")
    p.add_argument("board")
    p = add("boards", _action("cmd_boards"), "which board holds which game, and the network log")
    p.add_argument("--last", type=int, default=30, help="log lines (default 30)")
    return {"tournament": add}
