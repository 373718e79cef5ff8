"""`scoreboard run | screenshot | follow | screens | theme check/new | config init/check` and `tournament render`.

Every command imports what it runs inside its function (`# lazy:`): `scoreboard --help` builds every package's
parser, and `scoreboard tournament standings` must not load pygame. Measured: `scoreboard --help` 0.19 s; importing
`scoreboard.app.start` alone (pygame, the links, the tournament) 0.39 s.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"expected WIDTHxHEIGHT, e.g. 1920x1080, got {text!r}") from None
    if not (160 <= w <= 8192 and 120 <= h <= 8192):
        raise ValueError(f"size out of range (160x120 .. 8192x8192): {text}")
    return w, h


def size_arg(text: str) -> tuple[int, int]:
    """argparse's type for WIDTHxHEIGHT."""
    try:
        return _size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def register(sub) -> None:
    p = sub.add_parser("run", help="run the board: every screen in the config, the game from the links")
    p.add_argument("--config", metavar="FILE", help="config file (default: $SCOREBOARD_CONFIG, else scoreboard.toml in the platform's config "
                                                        "folder)")
    p.add_argument("--rehearsal", action="store_true", help="live theme reload, keys 1–9 press seats 1–9")
    p.add_argument("--windowed", action="store_true", help="no fullscreen (testing on a laptop)")
    # A scripted venue's set-up (scoreboard/app/run_setup.py); the remote's set-up screens do the same between games.
    p.add_argument("--regulation", help="regulation (default: the config's board.regulation)")
    p.add_argument("--stage", help="stage (default: the config's board.stage)")
    p.add_argument("--players", metavar='"A;B;C"', help="players' names, seat 1 first; their count is the seats")
    p.add_argument("--pack", metavar="FILE", help="the pack to play (.toml, .siq, ChGK .txt)")
    p.add_argument("--topics", metavar='"T1;T2…"', help="the pack's topics to play: names, numbers or R.N")
    p.add_argument("--game", metavar="ID", help="the tournament's game ID (needs [tournament] file)")
    p.add_argument("--host", metavar="NAME", help="the game's host (ведущий), kept in the journal for the protocol "
                                                  "(default: the config's board.host_name)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("seats", help="each seat's link for the players' phones (its key after #: keep it to the seat)")
    p.add_argument("--config", metavar="FILE", help="config file (as `scoreboard run`)")
    p.add_argument("--count", type=int, default=3, help="seats 1..COUNT (default 3)")
    p.set_defaults(func=cmd_seats)

    p = sub.add_parser("screenshot", help="render the snapshot at the end of a simulation script to a PNG")
    p.add_argument("script")
    p.add_argument("--out", required=True, metavar="PNG")
    p.add_argument("--role", default="audience", choices=("audience", "host", "players"))
    p.add_argument("--theme")
    p.add_argument("--size", type=size_arg, default=(1920, 1080), help="WIDTHxHEIGHT (default 1920x1080)")
    p.add_argument("--at", type=float, help="engine time to draw at (default: the script's last time)")
    p.set_defaults(func=cmd_screenshot)

    p = sub.add_parser("follow", help="draw another board's state (OSC) on this machine's screen")
    p.add_argument("target", metavar="BOARD:PORT")
    p.add_argument("--role", default="audience", choices=("audience", "host", "players"))
    p.add_argument("--passcode", default="", help="the board's OSC passcode (view or host)")
    p.add_argument("--theme")
    p.add_argument("--size", type=size_arg, default=(1920, 1080))
    p.add_argument("--windowed", action="store_true")
    p.set_defaults(func=cmd_follow)

    p = sub.add_parser("watch-relay", help="serve the hall's phones (/watch) and the stream's overlay (/overlay) "
                                           "beside a board (docs/STREAMING.md)")
    p.add_argument("--config", metavar="FILE", help="the board's config file (default: the one `scoreboard run` reads)")
    p.add_argument("--board", metavar="HOST:PORT", help="the board's OSC address (default: from the config's [osc])")
    p.add_argument("--spawned", action="store_true", help=argparse.SUPPRESS)   # started by `scoreboard run`
    p.set_defaults(func=cmd_watch_relay)

    p = sub.add_parser("theme", help="visual themes")
    tsub = p.add_subparsers(dest="theme_command", required=True)
    c = tsub.add_parser("check", help="list every problem of a theme (file, key, reason)")
    c.add_argument("dir", help="theme folder, or the name of a shipped theme or of one in the config folder's themes/")
    c.set_defaults(func=cmd_theme_check)
    c = tsub.add_parser("new", help="write a starter theme to ./NAME (or DIR/NAME with --dir)")
    c.add_argument("name")
    c.add_argument("--dir", help="parent folder (default: the current directory)")
    c.set_defaults(func=cmd_theme_new)

    p = sub.add_parser("screens", help="the displays this machine has and where each configured screen goes")
    p.add_argument("--config", metavar="FILE", help="config file (default: $SCOREBOARD_CONFIG, else scoreboard.toml in the platform's config "
                                                        "folder)")
    p.set_defaults(func=cmd_screens)

    p = sub.add_parser("doctor", help="before doors open: displays, fonts, sound, the box, ports, passcode, journal, "
                                      "the pack — each ok / warn / FAIL with the fix (exit 1 on a FAIL)")
    p.add_argument("--config", metavar="FILE", help="config file (default: the one `scoreboard run` reads)")
    p.add_argument("--pack", metavar="FILE", help="tonight's pack: every media file read")
    p.add_argument("--box-seconds", type=float, default=3.0, metavar="S",
                   help="how long the button box has to say HELLO (default 3)")
    p.add_argument("--presses", type=float, default=0.0, metavar="S",
                   help="wait up to S seconds for every button to be pressed once (default: no wait)")
    p.set_defaults(func=cmd_doctor)

    p = sub.add_parser("config", help="the board's config file")
    csub = p.add_subparsers(dest="config_command", required=True)
    c = csub.add_parser("init", help="write the config for the displays seen, with a new passcode")
    c.add_argument("--out", metavar="FILE", help="where (default: $SCOREBOARD_CONFIG, else scoreboard.toml in the "
                                                 "platform's config folder)")
    c.add_argument("--force", action="store_true", help="overwrite an existing file")
    c.set_defaults(func=cmd_config_init)
    c = csub.add_parser("check", help="list every problem of a config file")
    c.add_argument("file", nargs="?", help="config file (default: the one `scoreboard run` reads)")
    c.set_defaults(func=cmd_config_check)


def extend(actions) -> None:
    """`scoreboard tournament render KIND`: the display's action on the tournament's command (scoreboard/cli.py)."""
    if "tournament" not in actions:
        return
    p = actions["tournament"]("render", cmd_tournament_render, "draw a tournament screen into a PNG (headless)")
    p.add_argument("kind", choices=["bracket", "standings", "round", "cross"])
    p.add_argument("--out", required=True)
    p.add_argument("--width", type=int, default=1280)
    p.add_argument("--height", type=int, default=720)
    p.add_argument("--stage", help="round: which round (default: the latest)")


def cmd_tournament_render(args) -> None:
    # lazy: a command loads only what it runs; the view is built (or refused: a samara file has no knockout
    # bracket) before pygame loads
    from scoreboard.tournament.command import open_tournament
    from scoreboard.tournament.views import build
    view = build(open_tournament(args), args.kind, args.stage)
    from scoreboard.display.scenes.tournament import render_png  # lazy: pygame, once there is a view to draw
    render_png(args.kind, view, args.out, (args.width, args.height))
    print(f"{args.kind} → {args.out}")


def _setup_flags(args, config) -> bool:
    """Apply `run`'s set-up flags to the config; True (after saying why) when they cannot set up a game."""
    board = config["board"]
    if args.game:
        if not (config["tournament"]["file"] or config["tournament"]["server"]):
            print("run: --game needs [tournament] file (or server) in the config", file=sys.stderr)
            return True
        if any(v is not None for v in (args.regulation, args.stage, args.players, args.pack)):
            print("run: --game takes regulation, stage and names from the tournament's draw; leave out "
                  "--regulation/--stage/--players/--pack", file=sys.stderr)
            return True
        config["tournament"]["game"] = args.game
        return False
    if all(v is None for v in (args.regulation, args.stage, args.players, args.pack, args.topics)):
        return False
    # lazy: this command's modules only
    from scoreboard.app.run_setup import commands_from_args
    board["regulation"] = args.regulation or board["regulation"]
    board["stage"] = args.stage or board["stage"]
    commands, problems = commands_from_args(board["regulation"], board["stage"], args.players, args.pack,
                                            args.topics)
    for problem in problems:
        print(f"run: {problem}", file=sys.stderr)
    board["setup_commands"] = commands
    return bool(problems)


def cmd_run(args) -> int:
    # lazy: this command's modules only
    from scoreboard.app.config import load_config
    from scoreboard.folders import config_file
    if args.config is None and not config_file().exists():
        print(f"run: no config yet: `scoreboard config init` writes {config_file()} (screens for the displays here, "
              f"a new passcode)", file=sys.stderr)
        return 2
    config, problems = load_config(args.config)
    if problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        return 2
    if args.rehearsal:
        config["board"]["rehearsal"] = True
    if args.host is not None:
        # lazy: this command's modules only
        from scoreboard.journal import host_name_problem
        if host_name_problem(args.host):
            print(f"run: --host: the host's name {host_name_problem(args.host)}", file=sys.stderr)
            return 2
        config["board"]["host_name"] = args.host
    if args.windowed:
        for screen in config["screens"]:
            screen["fullscreen"] = False
    if _setup_flags(args, config):
        return 2
    # lazy: this command's modules only
    from scoreboard.display.screens import headless
    if headless():
        print("run: no display (set DISPLAY, or SDL_VIDEODRIVER=kmsdrm on a console)", file=sys.stderr)
        return 2
    # lazy: this command's modules only
    from scoreboard.app import start
    return start.run(config)


def cmd_screenshot(args) -> int:
    # lazy: this command's modules only
    from scoreboard.display.screens import use_dummy_drivers
    use_dummy_drivers()   # before pygame loads: headless
    # lazy: this command's modules only
    import pygame
    from scoreboard.display import compose
    from scoreboard.display.theme.load import DEFAULT_THEME, load_theme
    from scoreboard.script import ScriptError, load_script, run_script
    from scoreboard.session import Session
    session = Session()
    try:
        lines = load_script(args.script)
        run_script(lines, session, name=args.script)
    except ScriptError as error:
        print("\n".join(error.problems), file=sys.stderr)
        return 1
    pygame.init()
    theme = load_theme(args.theme or DEFAULT_THEME)
    for problem in theme.problems:
        print(f"theme: {problem}", file=sys.stderr)
    snapshot = session.snapshot()
    # The script's last time, which may be a clock-only line after the last command (a countdown mid-way).
    last = max((line.at for line in lines), default=0.0)
    now = args.at if args.at is not None else max(last, float(snapshot.get("time") or 0.0))
    surface = pygame.Surface(args.size)
    compose.draw(surface, snapshot, theme, now, args.role, host_question=session.host_question(), animate=False)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(out))
    print(f"{out}: {snapshot['phase']} ({compose.scene_name(snapshot, args.role)}), {args.role}, "
          f"{args.size[0]}x{args.size[1]}")
    return 0


def cmd_follow(args) -> int:
    # lazy: this command's modules only
    from scoreboard.app import follow
    try:
        return follow.run(args.target, args.role, args.passcode, args.theme, args.size, not args.windowed)
    except ValueError as error:
        print(f"follow: {error}", file=sys.stderr)
        return 2


def cmd_theme_check(args) -> int:
    # lazy: this command's modules only
    from scoreboard.display.screens import use_dummy_drivers
    use_dummy_drivers()
    # lazy: this command's modules only
    from scoreboard.demo.frames import sample_frames
    from scoreboard.display.theme.legibility import check_theme
    from scoreboard.display.theme.load import theme_folder
    folder = theme_folder(args.dir)
    problems = check_theme(folder, sample_frames())
    for problem in problems:
        print(problem)
    print(f"{folder}: {len(problems)} problem(s)" if problems else f"{folder}: ok")
    return 1 if problems else 0


def cmd_theme_new(args) -> int:
    # lazy: this command's modules only
    from scoreboard.display.theme.starter import write_starter
    try:
        path = write_starter(args.name, Path(args.dir) if args.dir else None)
    except (FileExistsError, ValueError) as error:
        print(f"theme new: {error}", file=sys.stderr)
        return 1
    print(f"{path.resolve()}: written; edit it, check it with `scoreboard theme check {path.parent}`, use it with "
          f"`--theme {path.parent}` or board.theme = \"{path.parent.resolve()}\" in the config")
    return 0


def seen_displays():
    """The displays SDL sees, or None when there is no display to ask (headless: nothing is opened)."""
    # lazy: this command's modules only
    from scoreboard.display.screens import displays, headless
    if headless():
        return None
    # lazy: this command's modules only
    import pygame
    try:
        pygame.display.init()
        found = displays()
    except pygame.error:
        return None
    return found if pygame.display.get_driver() not in ("dummy", "offscreen") else None


def cmd_screens(args) -> int:
    # lazy: this command's modules only
    from scoreboard.app.config import load_config
    from scoreboard.display.screens import missing_message, place
    config, problems = load_config(args.config)
    for problem in problems:
        print(problem, file=sys.stderr)
    found = seen_displays()
    if found is None:
        print("screens: no display here (set DISPLAY, or SDL_VIDEODRIVER=kmsdrm on a console)", file=sys.stderr)
        return 2
    print("displays:")
    for d in found:
        print(f"  {d}")
    print("screens:")
    refused = False
    for p in place(config["screens"], found):
        if p.missing:
            refused |= not p.optional
            verdict = "SKIPPED (optional)" if p.optional else "REFUSED: the board will not start"
            print(f"  {p.number}: {p.role} -> {verdict}: {missing_message(p, found)}")
        else:
            print(f"  {p.number}: {p.role} -> display {p.found}")
    return 1 if refused or problems else 0


def cmd_doctor(args) -> int:
    found = seen_displays()
    # lazy: this command's modules only (pygame, the links, the packs)
    from scoreboard.app import doctor
    return doctor.run(args, found)


def cmd_config_init(args) -> int:
    # lazy: this command's modules only
    from scoreboard.app.config import write_default
    from scoreboard import folders
    found = seen_displays()
    try:
        path = write_default(args.out, args.force, found)
    except (FileExistsError, OSError) as error:
        print(f"config init: {error}", file=sys.stderr)
        return 1
    # Where the club puts its own packs, themes and regulations (the defaults of [packs] dirs and the lookups)
    for folder in (folders.packs_folder(), folders.own_themes(), folders.own_regulations()):
        folder.mkdir(parents=True, exist_ok=True)
    seen = f"{len(found)} display(s)" if found is not None else "no display here (written for one)"
    print(f"{path}: written for {seen}, with a new OSC passcode (the host's screen shows it)")
    print(f"  your packs: {folders.packs_folder()}; themes: {folders.own_themes()}; regulations: "
          f"{folders.own_regulations()}; journals: {folders.journals_folder()}")
    return 0


def cmd_config_check(args) -> int:
    # lazy: this command's modules only
    from scoreboard.app.config import load_config, surroundings
    from scoreboard.folders import config_file
    file = args.file or str(config_file())
    config, problems = load_config(file)
    more, warnings = surroundings(config, seen_displays(), file)
    problems = problems + more
    for problem in problems:
        print(problem)
    for warning in warnings:
        print(f"{file}: note: {warning}")
    print(f"{file}: {len(problems)} problem(s)" if problems else f"{file}: ok")
    return 1 if problems else 0


def cmd_watch_relay(args) -> int:
    from scoreboard.app import watch_relay  # lazy: a command loads only what it runs
    if args.spawned:
        try:
            spawned = watch_relay.read_spawned()
        except ValueError as error:
            print(error, file=sys.stderr)
            return 2
        return watch_relay.run(spawned["config"], spawned=spawned)
    from scoreboard.app.config import load_config  # lazy: a command loads only what it runs
    config, problems = load_config(args.config)
    for problem in problems:
        print(f"config: {problem}", file=sys.stderr)
    if problems:
        return 2
    return watch_relay.run(config, board=args.board)


def cmd_seats(args) -> int:
    """`scoreboard seats`: `SEAT LINK` a line (docs/PHONE_BUTTONS.md). The links need the board's key from the config:
    a board without `[osc] key` draws one each run, and only its host's screen shows the codes then."""
    # lazy: this command's modules only
    from scoreboard.app.config import load_config
    from scoreboard.app.status import reachable_address
    from scoreboard.links.osc.auth import parse_key
    from scoreboard.links.phones.seats import seat_link
    config, problems = load_config(args.config)
    if problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1
    key, web = (config.get("osc") or {}).get("key", ""), config.get("remote_web") or {}
    if not key:
        print("seats: the config has no [osc] key (the board draws one each run: the host's screen shows the seats' "
              "codes); `scoreboard config init` writes one", file=sys.stderr)
        return 1
    if not web.get("enabled", True):
        print("seats: [remote_web] enabled = false: the board serves no page for the phones", file=sys.stderr)
        return 1
    if not 1 <= args.count <= 99:
        print(f"seats: --count {args.count}: expected 1..99", file=sys.stderr)
        return 1
    base = f"http://{reachable_address(str(web.get('bind', '0.0.0.0')))}:{int(web.get('port', 8080))}/"
    for seat in range(1, args.count + 1):
        print(seat, seat_link(base, parse_key(key), seat))
    return 0
