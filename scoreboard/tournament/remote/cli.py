"""What `scoreboard tournament serve | board | assign | boards` do (their options are in ../cli.py): results from
boards in other rooms over the network (server.py; docs/TOURNAMENTS.md "Board B over the network")."""
from __future__ import annotations

import signal

from scoreboard.tournament.command import open_tournament, show, tournament_path
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.remote import keys


def cmd_serve(args):
    """Take results from boards in other rooms over the network (server.py) until Ctrl-C / SIGTERM."""
    from scoreboard.tournament.remote.server import Server   # lazy: its http.server costs every start ~20 ms
    try:
        server = Server(tournament_path(args), args.bind, args.port, out=lambda line: print(line, flush=True))
    except OSError as error:
        raise TournamentError(f"cannot listen on {args.bind}:{args.port}: {error}") from None
    host, port = server.address
    print(f"serve: {server.http.RequestHandlerClass.service.path} on http://{host}:{port}/v1/ "
          f"(boards: [tournament] server = \"THIS-MACHINE:{port}\", key from `scoreboard tournament board add NAME`)",
          flush=True)
    signal.signal(signal.SIGTERM, _interrupt)      # systemctl stop ends it as Ctrl-C does
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.http.server_close()
    print("serve: stopped", flush=True)


def _interrupt(*_):
    raise KeyboardInterrupt


def cmd_board(args):
    """`board add NAME`: a new board and its key; `board key NAME`: a new key (the old one stops working);
    `board remove NAME`: its key stops working."""
    t = open_tournament(args)
    try:
        tid = keys.tournament_id(t.store)
        if args.action == "remove":
            keys.remove_board(t.store, args.name)
            show(args, {"tournament": tid, "board": args.name, "removed": True},
                 f"board {args.name!r} removed: its key no longer works")
            return
        key = keys.add_board(t.store, args.name, rekey=args.action == "key")
    finally:
        t.close()
    show(args, {"tournament": tid, "board": args.name, "key": key},
         f"board {args.name!r}'s key (tournament {tid}); put it into that board's config/scoreboard.toml:\n"
         f"  [tournament]\n  server = \"THIS-MACHINE:9010\"\n  key = \"{key}\"\n  game = \"GAME\"\n"
         f"Whoever has this key is board {args.name!r}: hand it over as you would a password.")


def cmd_passcode(args):
    raise TournamentError(keys.GONE.replace("this board's [tournament] key", "each board's [tournament] key")
                          .replace(" (and remove passcode)", ""))


def cmd_assign(args):
    from scoreboard.tournament.remote.server import assign   # lazy: its http.server costs every start ~20 ms
    assign(tournament_path(args), args.game, args.board)
    print(f"{args.game}: only board {args.board!r} sets it up and sends its result")


def cmd_boards(args):
    from scoreboard.tournament.remote.server import boards   # lazy: its http.server costs every start ~20 ms
    data = boards(tournament_path(args))
    lines = [f"board {k['board']!r:<16} key {k['key_id']}… since {k['at']}" for k in data["keys"]]
    lines += [f"{b['game']:<12} board {b['board']!r:<16} {b['how']:<18} "
             f"{'result recorded' if b['recorded'] else 'result pending'}" for b in data["boards"]]
    lines += [f"{e['at']} {e['peer'] or '?':<21} {e['kind'] or '?':<6} {e['board'] or '?':<12} {e['game'] or '?':<12} "
              f"{e['outcome']}" + (f": {e['reason']}" if e["reason"] else "") for e in data["log"][-args.last:]]
    show(args, data, "\n".join(lines) or "no board has asked yet")
