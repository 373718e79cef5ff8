"""`scoreboard run | demo | screenshot | follow | theme check/new | config init/check`, `tournament render` and
`bench display` / `bench media`."""
from __future__ import annotations

import sys
from pathlib import Path

from scoreboard.display.simulated import DEFAULT_STAGE


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"expected WIDTHxHEIGHT, e.g. 1920x1080, got {text!r}") from None
    if not (160 <= w <= 8192 and 120 <= h <= 8192):
        raise ValueError(f"size out of range (160x120 .. 8192x8192): {text}")
    return w, h


def _size_arg(text: str) -> tuple[int, int]:
    import argparse
    try:
        return _size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def register(sub) -> None:
    p = sub.add_parser("run", help="run the board: every screen in the config, the game from the links")
    p.add_argument("--config", metavar="FILE", help="config file (default: config/scoreboard.toml)")
    p.add_argument("--rehearsal", action="store_true", help="live theme reload, keys 1–9 press seats 1–9")
    p.add_argument("--windowed", action="store_true", help="no fullscreen (testing on a laptop)")
    # A scripted venue's set-up (scoreboard/run_setup.py); the remote's set-up screens do the same between games.
    p.add_argument("--regulation", help="regulation (default: the config's board.regulation)")
    p.add_argument("--stage", help="stage (default: the config's board.stage)")
    p.add_argument("--players", metavar='"A;B;C"', help="players' names, seat 1 first; their count is the seats")
    p.add_argument("--pack", metavar="FILE", help="the pack to play (.toml, .siq, ChGK .txt)")
    p.add_argument("--topics", metavar='"T1;T2…"', help="the pack's topics to play: names, numbers or R.N")
    p.add_argument("--game", metavar="ID", help="the tournament's game ID (needs [tournament] file)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("demo", help="a whole simulated game with the built-in pack (no hardware)")
    p.add_argument("--regulation", default="novosibirsk-2007", choices=sorted(DEFAULT_STAGE))
    p.add_argument("--stage", help="stage (default: 1/9, final or cup by regulation)")
    p.add_argument("--speed", type=float, default=None,
                   help="engine seconds per wall second (default: 1 in a window, 400 headless)")
    p.add_argument("--windowed", action="store_true", help="a window instead of fullscreen")
    p.add_argument("--theme", help="visual theme name or folder")
    p.add_argument("--out", default="out/demo", help="where the headless run writes its PNG frames")
    p.add_argument("--size", type=_size_arg, default=(1280, 720), help="WIDTHxHEIGHT")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("screenshot", help="render the snapshot at the end of a simulation script to a PNG")
    p.add_argument("script")
    p.add_argument("--out", required=True, metavar="PNG")
    p.add_argument("--role", default="audience", choices=("audience", "host", "players"))
    p.add_argument("--theme")
    p.add_argument("--size", type=_size_arg, default=(1920, 1080), help="WIDTHxHEIGHT (default 1920x1080)")
    p.add_argument("--at", type=float, help="engine time to draw at (default: the script's last time)")
    p.set_defaults(func=cmd_screenshot)

    p = sub.add_parser("follow", help="draw another board's state (OSC) on this machine's screen")
    p.add_argument("target", metavar="BOARD:PORT")
    p.add_argument("--role", default="audience", choices=("audience", "host", "players"))
    p.add_argument("--passcode", default="", help="the board's OSC passcode (view or host)")
    p.add_argument("--theme")
    p.add_argument("--size", type=_size_arg, default=(1920, 1080))
    p.add_argument("--windowed", action="store_true")
    p.set_defaults(func=cmd_follow)

    p = sub.add_parser("theme", help="visual themes")
    tsub = p.add_subparsers(dest="theme_command", required=True)
    c = tsub.add_parser("check", help="list every problem of a theme (file, key, reason)")
    c.add_argument("dir", help="theme folder or name under themes/")
    c.set_defaults(func=cmd_theme_check)
    c = tsub.add_parser("new", help="write a starter theme to ./NAME (or DIR/NAME with --dir)")
    c.add_argument("name")
    c.add_argument("--dir", help="parent folder (default: the current directory)")
    c.set_defaults(func=cmd_theme_new)

    p = sub.add_parser("screens", help="the displays this machine has and where each configured screen goes")
    p.add_argument("--config", metavar="FILE", help="config file (default: config/scoreboard.toml)")
    p.set_defaults(func=cmd_screens)

    p = sub.add_parser("config", help="the board's config file")
    csub = p.add_subparsers(dest="config_command", required=True)
    c = csub.add_parser("init", help="write config/scoreboard.toml for the displays seen, with a new passcode")
    c.add_argument("--out", default="config/scoreboard.toml")
    c.add_argument("--force", action="store_true", help="overwrite an existing file")
    c.set_defaults(func=cmd_config_init)
    c = csub.add_parser("check", help="list every problem of a config file")
    c.add_argument("file", nargs="?", default="config/scoreboard.toml")
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
    from scoreboard.tournament.command import open_tournament
    from scoreboard.tournament.views import build
    t = open_tournament(args)
    build(t, args.kind, args.stage)   # refuses before pygame loads: a samara file has no knockout bracket
    from scoreboard.display.scenes.tournament import render_png
    render_png(t, args.kind, args.out, (args.width, args.height), stage=args.stage)
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
    from scoreboard.run_setup import commands_from_args
    board["regulation"] = args.regulation or board["regulation"]
    board["stage"] = args.stage or board["stage"]
    commands, problems = commands_from_args(board["regulation"], board["stage"], args.players, args.pack,
                                            args.topics)
    for problem in problems:
        print(f"run: {problem}", file=sys.stderr)
    board["setup_commands"] = commands
    return bool(problems)


def cmd_run(args) -> int:
    from scoreboard.display.config import load_config
    config, problems = load_config(args.config)
    if problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        return 2
    if args.rehearsal:
        config["board"]["rehearsal"] = True
    if args.windowed:
        for screen in config["screens"]:
            screen["fullscreen"] = False
    if _setup_flags(args, config):
        return 2
    from scoreboard.display.screens import headless
    if headless():
        print("run: no display (set DISPLAY, or SDL_VIDEODRIVER=kmsdrm on a console)", file=sys.stderr)
        return 2
    from scoreboard.display import board
    return board.run(config)


def cmd_demo(args) -> int:
    from scoreboard.display import demo
    if args.speed is not None and not 0 < args.speed <= 10000:
        print("demo: --speed must be above 0 and at most 10000", file=sys.stderr)
        return 2
    return demo.run(args.regulation, args.stage, args.speed, args.windowed, Path(args.out), args.theme, args.size)


def cmd_screenshot(args) -> int:
    from scoreboard.display.screens import use_dummy_drivers
    use_dummy_drivers()
    import pygame
    from scoreboard.display import scenes
    from scoreboard.display.theme import DEFAULT_THEME, load_theme
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
    scenes.draw(surface, snapshot, theme, now, args.role, host_question=session.host_question(), animate=False)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(out))
    print(f"{out}: {snapshot['phase']} ({scenes.scene_name(snapshot, args.role)}), {args.role}, "
          f"{args.size[0]}x{args.size[1]}")
    return 0


def cmd_follow(args) -> int:
    from scoreboard.display import follow
    try:
        return follow.run(args.target, args.role, args.passcode, args.theme, args.size, not args.windowed)
    except ValueError as error:
        print(f"follow: {error}", file=sys.stderr)
        return 2


def cmd_theme_check(args) -> int:
    from scoreboard.display.screens import use_dummy_drivers
    use_dummy_drivers()
    from scoreboard.display.theme import THEMES_DIR, check_theme
    folder = Path(args.dir)
    if not folder.is_dir() and (THEMES_DIR / args.dir).is_dir():
        folder = THEMES_DIR / args.dir
    problems = check_theme(folder)
    for problem in problems:
        print(problem)
    print(f"{folder}: {len(problems)} problem(s)" if problems else f"{folder}: ok")
    return 1 if problems else 0


def cmd_theme_new(args) -> int:
    from scoreboard.display.starter import write_starter
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
    from scoreboard.display.screens import displays, headless
    if headless():
        return None
    import pygame
    try:
        pygame.display.init()
        found = displays()
    except pygame.error:
        return None
    return found if pygame.display.get_driver() not in ("dummy", "offscreen") else None


def cmd_screens(args) -> int:
    from scoreboard.display.config import load_config
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


def cmd_config_init(args) -> int:
    from scoreboard.display.config import write_default
    found = seen_displays()
    try:
        path = write_default(args.out, args.force, found)
    except FileExistsError as error:
        print(f"config init: {error}", file=sys.stderr)
        return 1
    Path("packs").mkdir(exist_ok=True)   # [packs] dirs' default: where the club puts its packs
    seen = f"{len(found)} display(s)" if found is not None else "no display here (written for one)"
    print(f"{path}: written for {seen}, with a new OSC passcode (the host's screen shows it)")
    return 0


def cmd_config_check(args) -> int:
    from scoreboard.display.config import load_config, surroundings
    config, problems = load_config(args.file)
    more, warnings = surroundings(config, seen_displays(), args.file)
    problems = problems + more
    for problem in problems:
        print(problem)
    for warning in warnings:
        print(f"{args.file}: note: {warning}")
    print(f"{args.file}: {len(problems)} problem(s)" if problems else f"{args.file}: ok")
    return 1 if problems else 0


def _bench(args) -> int:
    from scoreboard.display.bench import run
    return run(args)


def _bench_media(args) -> int:
    from scoreboard.display.media_bench import run
    return run(quick=args.quick, as_json=args.json)


BENCHES = {"display": _bench, "media": _bench_media}
