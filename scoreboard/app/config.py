"""The board's settings (scoreboard.toml) — the game, the theme, the journal, the screens, the links.

The file is `--config FILE`, else `$SCOREBOARD_CONFIG`, else scoreboard.toml in the platform's config folder
(scoreboard/folders.py); the checkout's config/scoreboard.toml is a sample of what `config init` writes.
`load_config(path)` returns (config with defaults filled in, problems); every problem names the file, the key and
the reason, and nothing is started from a config with problems. `write_default(path)` is `scoreboard config init`.
"""
from __future__ import annotations

import copy
import secrets
import tomllib
from pathlib import Path
from typing import Any

import tomli_w

from scoreboard.display.compose import ROLES
from scoreboard.display.screens import missing_message, place
from scoreboard.display.theme.load import DEFAULT_THEME, Problem, known_themes, theme_folder
from scoreboard.folders import config_file
from scoreboard.journal import host_name_problem
from scoreboard.links.config import SECTIONS, validate
from scoreboard.links.osc.auth import new_key
from scoreboard.links.watch import config as watch_config
from scoreboard.packs.pictures import DEFAULT_MAX_PIXELS
from scoreboard.regulations import known_regulations
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.remote.keys import GONE, split_key

BOARD_DEFAULTS: dict[str, Any] = {
    "regulation": "novosibirsk-2007",
    "stage": "1/9",
    "theme": DEFAULT_THEME,
    "journal": "",                 # a journal file; empty: <journal_dir>/<date-time>.sqlite (a new game each start)
    "journal_dir": "",             # empty: games/ in the platform's data folder (folders.journals_folder)
    "resume": False,               # start by recovering the newest unfinished journal in journal_dir (kiosk restarts)
    "rehearsal": False,            # live theme reload; keys 1–9 press the buttons of seats 1–9
    "sounds": True,
    "fps": 60,
    "confirm_quit": True,
    "host_name": "",               # the game's host (ведущий), kept in the journal for the protocol's header
}
# optional: a screen whose display is missing is skipped with a warning instead of stopping the start.
SCREEN_DEFAULTS: dict[str, Any] = {"role": "audience", "display": 0, "size": [1920, 1080], "fullscreen": True,
                                   "optional": False}
HOST_SCREEN: dict[str, Any] = {"role": "host", "display": 0, "size": [1280, 720], "fullscreen": False,
                               "optional": False}
# file: the tournament this board shows (bracket, standings); game: the scheduled game it plays, set up from the
# file and recorded into it at game over (T-A6: two boards may share one file). server/passcode/board: a board in
# another room sets the game up from `scoreboard tournament serve` and sends its result there (issue 12 item 7),
# signed with its own key (issue 24 item 7; passcode: the shared one that went, kept to say so).
TOURNAMENT_DEFAULTS: dict[str, Any] = {"file": "", "game": "", "server": "", "key": "", "passcode": "", "board": ""}
# dirs: the folders the board lists packs from for the remote's set-up (scoreboard/app/setup_catalog.py); empty:
# packs/ in the platform's data folder (folders.packs_folder); max_picture_pixels: a pack's picture larger than this is
# refused before decoding (packs/pictures.py, issue 24)
PACKS_DEFAULTS: dict[str, Any] = {"dirs": [], "max_picture_pixels": DEFAULT_MAX_PIXELS}
LOOPBACK = ("127.0.0.1", "::1")


def _links_defaults() -> dict[str, dict]:
    return copy.deepcopy(SECTIONS)


def default_screens(displays: list | None = None) -> list[dict]:
    """Screens for the displays seen: one display — the audience alone (the host's screen would show the answers on
    it); two or more — the audience fullscreen on the second (a projector is the display added to a laptop) and the
    host's screen windowed on the first, the laptop's own."""
    if not displays or len(displays) < 2:
        size = list(displays[0].size) if displays else list(SCREEN_DEFAULTS["size"])
        return [dict(SCREEN_DEFAULTS, size=size)]
    return [dict(SCREEN_DEFAULTS, display=1, size=list(displays[1].size)),
            dict(HOST_SCREEN, display=0, size=[min(1280, displays[0].size[0]), min(720, displays[0].size[1])])]


def default_config(displays: list | None = None) -> dict:
    config = {"board": dict(BOARD_DEFAULTS), "screens": default_screens(displays),
              "tournament": dict(TOURNAMENT_DEFAULTS), "packs": copy.deepcopy(PACKS_DEFAULTS)}
    config.update(_links_defaults())
    config["watch"] = dict(watch_config.WATCH_DEFAULTS)     # the hall's phones and the overlay (docs/STREAMING.md)
    return config


def _typed(where: str, key: str, value: Any, default: Any, problems: list[Problem]) -> bool:
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, list):
        ok = isinstance(value, list)
    else:
        ok = isinstance(value, type(default))
    if not ok:
        problems.append(Problem(where, key, f"expected {type(default).__name__}, got {value!r}"))
    return ok


def tournament_problems(tournament: dict, where: str) -> list[Problem]:
    problems = []
    server = tournament["server"]
    if tournament["game"] and not (tournament["file"] or server):
        problems.append(Problem(where, "tournament.game", "needs tournament.file (the tournament the game is in) or "
                                                          "tournament.server (the organiser's `tournament serve`)"))
    if server:
        host, sep, port = server.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            problems.append(Problem(where, "tournament.server", f"expected \"host:port\", got {server!r}"))
        if not tournament["key"] and not tournament["passcode"]:
            problems.append(Problem(where, "tournament.key", "needed with tournament.server: this board's key "
                                                             "(`scoreboard tournament board add NAME`)"))
    if tournament["key"]:
        try:
            split_key(tournament["key"])
        except TournamentError as error:
            problems.append(Problem(where, "tournament.key", str(error)))
    if tournament["passcode"]:
        problems.append(Problem(where, "tournament.passcode", GONE))
    return problems


def check_config(raw: dict, where: str) -> tuple[dict, list[Problem]]:
    problems: list[Problem] = []
    config = default_config()
    for section, table in raw.items():
        if section == "screens":
            continue
        if section not in config:
            problems.append(Problem(where, section, f"unknown section (known: {', '.join(config)})"))
            continue
        if not isinstance(table, dict):
            problems.append(Problem(where, section, "expected a table"))
            continue
        if section in ("board", "tournament", "packs"):
            for key, value in table.items():
                if key not in config[section]:
                    problems.append(Problem(where, f"{section}.{key}", "unknown key"))
                elif _typed(where, f"{section}.{key}", value, config[section][key], problems):
                    config[section][key] = value
        else:
            config[section].update(table)   # the links check their own sections below
    board = config["board"]
    if not all(isinstance(d, str) and d for d in config["packs"]["dirs"]):
        problems.append(Problem(where, "packs.dirs", "expected a list of folder names"))
    if not 1 <= config["packs"]["max_picture_pixels"] <= 256 * 1024 * 1024:
        problems.append(Problem(where, "packs.max_picture_pixels", f"must be 1..268435456 (16777216 = 4096×4096), "
                                                                   f"got {config['packs']['max_picture_pixels']}"))
    if not theme_exists(board["theme"]):
        names = ", ".join(known_themes())
        problems.append(Problem(where, "board.theme", f"unknown theme {board['theme']!r} (a folder with theme.toml, "
                                                      f"or one of: {names})"))
    osc = config.get("osc") or {}
    if osc.get("enabled", True) and not osc.get("passcode") and str(osc.get("bind", "")) not in LOOPBACK:
        problems.append(Problem(where, "osc.passcode", f"empty while OSC listens beyond this machine (bind = "
                                                       f"{osc.get('bind')!r}): set one, or write a config with a new "
                                                       f"random passcode: `scoreboard config init --force`"))
    problems += tournament_problems(config["tournament"], where)
    if board["host_name"] and host_name_problem(board["host_name"]):
        problems.append(Problem(where, "board.host_name", host_name_problem(board["host_name"])))
    if not 10 <= board["fps"] <= 240:
        problems.append(Problem(where, "board.fps", f"must be 10..240, got {board['fps']}"))
    known = known_regulations()
    if known and board["regulation"] not in known:
        problems.append(Problem(where, "board.regulation", f"unknown regulation (known: {', '.join(known)})"))
    if "screens" in raw:
        screens = raw["screens"]
        if not isinstance(screens, list) or not screens:
            problems.append(Problem(where, "screens", "expected at least one [[screens]] table"))
        else:
            config["screens"] = [_screen(where, i, s, problems) for i, s in enumerate(screens)]
    problems += [Problem(where, msg.split(":", 1)[0], msg.split(":", 1)[-1].strip())
                 for msg in watch_config.check(config["watch"])]
    links = {k: config[k] for k in ("osc", "buttons", "remote_web") if k in config}
    if links:
        problems += [Problem(where, msg.split(":", 1)[0], msg.split(":", 1)[-1].strip()) for msg in validate(links)]
    return config, problems


def _screen(where: str, index: int, table: Any, problems: list[Problem]) -> dict:
    key = f"screens[{index}]"
    screen = dict(SCREEN_DEFAULTS)
    if not isinstance(table, dict):
        problems.append(Problem(where, key, "expected a table"))
        return screen
    for name, value in table.items():
        if name not in SCREEN_DEFAULTS:
            problems.append(Problem(where, f"{key}.{name}", "unknown key"))
        elif _typed(where, f"{key}.{name}", value, SCREEN_DEFAULTS[name], problems):
            screen[name] = value
    if screen["role"] not in ROLES:
        problems.append(Problem(where, f"{key}.role", f"expected one of {', '.join(ROLES)}, got {screen['role']!r}"))
    size = screen["size"]
    if not (isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) and 320 <= v <= 8192 for v in size)):
        problems.append(Problem(where, f"{key}.size", f"expected [width, height] in pixels (320..8192), got {size!r}"))
        screen["size"] = SCREEN_DEFAULTS["size"]
    if screen["display"] < 0:
        problems.append(Problem(where, f"{key}.display", "a display index is 0 or more"))
    return screen


def theme_exists(name: str) -> bool:
    if name in ("", "default"):
        return True
    return (theme_folder(name) / "theme.toml").is_file()


def surroundings(config: dict, displays: list | None, where: str) -> tuple[list[Problem], list[str]]:
    """What `config check` adds to the file's own problems: pack folders that are missing, screens for displays
    that are not there (`displays` None: no display to ask, not checked). (problems, warnings)."""
    problems: list[Problem] = []
    warnings: list[str] = []
    for folder in config["packs"]["dirs"]:
        if isinstance(folder, str) and folder and not Path(folder).expanduser().is_dir():
            problems.append(Problem(where, "packs.dirs", f"pack folder not found: {folder}"))
    if displays is None:
        warnings.append("displays not checked: no display here (run `scoreboard screens` on the board's machine)")
        return problems, warnings
    for p in place(config["screens"], displays):
        if p.missing and p.optional:
            warnings.append(f"{missing_message(p, displays)}: optional, it would be skipped")
        elif p.missing:
            problems.append(Problem(where, f"screens[{p.number}].display", missing_message(p, displays)))
    return problems, warnings


def load_config(path: str | Path | None) -> tuple[dict, list[Problem]]:
    """The config at `path` (None: `folders.config_file()`) over the defaults; a missing default file is simply the
    defaults (`scoreboard run` refuses to start on those: cli.cmd_run)."""
    if path is None:
        path = config_file()
        if not path.exists():
            return default_config(), []
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return default_config(), [Problem(str(path), "-", "file not found (write one with `scoreboard config init`)")]
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as error:
        return default_config(), [Problem(str(path), "-", f"not valid TOML: {error}")]
    return check_config(raw, str(path))


HEADER = ("# The board's settings (docs/BOARD.md lists every key). Written by `scoreboard config init`.\n"
          "# [[screens]]: one window per screen; role = audience | host | players. A screen whose display is not\n"
          "# there stops the start (never opened elsewhere) unless it says optional = true (then it is skipped).\n"
          "# `scoreboard screens` lists the displays and where each screen goes.\n"
          "# journal_dir and [packs] dirs left empty: the platform's data folder (`scoreboard doctor` shows where);\n"
          "# a relative path is read from the folder the board is started in.\n")
ONE_DISPLAY = ("# One display was seen: the audience alone. To show the host's screen (question AND answer) on a\n"
               "# second display — the laptop, with the projector as the audience's — add:\n"
               "#   [[screens]]\n#   role = \"host\"\n#   display = 0   # and the audience's display = 1\n"
               "#   size = [1280, 720]\n#   fullscreen = false\n")


# Written under each section's header by `config init` (the checkout's sample config/scoreboard.toml is that output).
SECTION_NOTES = {
    "tournament": ("# file: the tournament file this board shows (/sg/screen bracket, standings) and plays games of.\n"
                   "# game: the scheduled game it plays (e.g. \"1/9-4\"; `scoreboard run --game ID` sets it for one "
                   "run): seats and names\n# come from the draw, the result is recorded into the file at game over. "
                   "Needs file or server.\n"
                   "# server: \"host:port\" of the organiser's `scoreboard tournament serve`: a board in another "
                   "room sets the game up\n# from it and sends the result there (retried until acknowledged). "
                   "key: this board's (`scoreboard tournament\n# board add NAME` on the organiser's machine). "
                   "board: optional, checked against the key's name.\n"),
    "packs": ("# dirs: the folders the remote's set-up lists packs from (.toml, .siq, ChGK .txt); empty: packs/ in "
              "the data folder\n# (`scoreboard doctor` shows where). max_picture_pixels: a pack's picture over this "
              "many pixels is refused\n# before it is decoded (a warning names it).\n"),
    "osc": ("# passcode: what the host types on the remote to connect (the host's screen shows it with the board's\n"
            "# address). Empty is refused while bind is beyond 127.0.0.1. `config init` writes a new random one.\n"
            "# key: the board's key, which the QR code's link carries (the phone needs no passcode; docs/SECURITY.md);\n"
            "# empty: a new one each run.\n"),
    "watch": ("# The hall's phones (http://BOARD:8090/watch, its QR on the hall's screen between games) and the\n"
              "# stream's overlay (/overlay): enabled = true starts the relay beside the board (docs/STREAMING.md).\n"
              "# key: the view key the QR and the overlay's link carry (`config init` writes one; keep it: OBS's link\n"
              "# holds it); empty: a new one each run.\n"),
    "remote_web": ("# The host's remote in a phone's browser: open http://BOARD:8080/ (the host's screen shows the "
                   "address and a QR code).\n# It uses the [osc] passcode and sessions.\n"),
}


def new_passcode() -> str:
    """A passcode for the remote: 8 characters a host can type on a tablet (no 0/O, 1/l look-alikes)."""
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))


def default_text(displays: list | None = None, passcode: str | None = None) -> str:
    """What `config init` writes: every default, screens for the displays seen, a new random OSC passcode."""
    config = default_config(displays)
    del config["tournament"]["passcode"]        # read only to say it is gone
    if "osc" in config:
        config["osc"]["passcode"] = new_passcode() if passcode is None else passcode
        config["osc"]["key"] = new_key() if passcode is None else ""      # the QR code's: 128 random bits
    # the overlay's link in OBS must outlive a restart: a view key of its own (issue 27)
    config["watch"]["key"] = watch_config.new_view_key() if passcode is None else ""
    screens = config.pop("screens")
    text = tomli_w.dumps(config)
    # [[screens]] right after [board]: what a club edits first, with the note on adding the host's screen.
    board, _, rest = text.partition("\n\n")
    screens_text = tomli_w.dumps({"screens": screens})
    note = ONE_DISPLAY if len(screens) == 1 else ""
    for section, lines in SECTION_NOTES.items():
        rest = rest.replace(f"[{section}]\n", f"[{section}]\n{lines}", 1)
    return f"{HEADER}\n{board}\n\n{screens_text}{note}\n{rest}"


def write_default(path: str | Path | None = None, force: bool = False, displays: list | None = None,
                  passcode: str | None = None) -> Path:
    path = Path(path) if path is not None else config_file()
    if path.exists() and not force:
        raise FileExistsError(f"{path} exists; use --force to overwrite it")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(default_text(displays, passcode), encoding="utf-8")
    return path
