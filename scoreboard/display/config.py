"""config/scoreboard.toml: the board's settings — the game, the theme, the journal, the screens, the links.

`load_config(path)` returns (config with defaults filled in, problems); every problem names the file, the key and
the reason, and nothing is started from a config with problems. `write_default(path)` is `scoreboard config init`.
"""
from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

from scoreboard.display.scenes import ROLES
from scoreboard.display.theme import Problem

DEFAULT_PATH = Path("config") / "scoreboard.toml"

BOARD_DEFAULTS: dict[str, Any] = {
    "regulation": "novosibirsk-2007",
    "stage": "1/9",
    "theme": "classic",
    "journal": "",                 # a journal file; empty: games/<date-time>.sqlite (a new game each start)
    "journal_dir": "games",
    "resume": False,               # start by recovering the newest unfinished journal in journal_dir (kiosk restarts)
    "rehearsal": False,            # live theme reload; keys 1–9 press the buttons of seats 1–9
    "sounds": True,
    "fps": 60,
    "confirm_quit": True,
}
SCREEN_DEFAULTS: dict[str, Any] = {"role": "audience", "display": 0, "size": [1920, 1080], "fullscreen": True}
# file: the tournament this board shows (bracket, standings); game: the scheduled game it plays, set up from the
# file and recorded into it at game over (T-A6: two boards may share one file).
TOURNAMENT_DEFAULTS: dict[str, Any] = {"file": "", "game": ""}
# dirs: the folders the board lists packs from for the remote's set-up (scoreboard/setup_catalog.py)
PACKS_DEFAULTS: dict[str, Any] = {"dirs": ["packs"]}


def _links_defaults() -> dict[str, dict]:
    try:
        from scoreboard.links.config import SECTIONS
        return copy.deepcopy(SECTIONS)
    except ImportError:
        return {}


def default_config() -> dict:
    config = {"board": dict(BOARD_DEFAULTS),
              "screens": [dict(SCREEN_DEFAULTS),
                          {"role": "host", "display": 1, "size": [1280, 720], "fullscreen": False}],
              "tournament": dict(TOURNAMENT_DEFAULTS), "packs": copy.deepcopy(PACKS_DEFAULTS)}
    config.update(_links_defaults())
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
    if config["tournament"]["game"] and not config["tournament"]["file"]:
        problems.append(Problem(where, "tournament.game", "needs tournament.file (the tournament the game is in)"))
    if not 10 <= board["fps"] <= 240:
        problems.append(Problem(where, "board.fps", f"must be 10..240, got {board['fps']}"))
    try:
        from scoreboard.regulations import known_regulations
        known = known_regulations()
        if known and board["regulation"] not in known:
            problems.append(Problem(where, "board.regulation", f"unknown regulation (known: {', '.join(known)})"))
    except ImportError:
        pass
    if "screens" in raw:
        screens = raw["screens"]
        if not isinstance(screens, list) or not screens:
            problems.append(Problem(where, "screens", "expected at least one [[screens]] table"))
        else:
            config["screens"] = [_screen(where, i, s, problems) for i, s in enumerate(screens)]
    links = {k: config[k] for k in ("osc", "buttons", "remote_web") if k in config}
    if links:
        try:
            from scoreboard.links.config import validate
            problems += [Problem(where, msg.split(":", 1)[0], msg.split(":", 1)[-1].strip())
                         for msg in validate(links)]
        except ImportError:
            pass
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


def load_config(path: str | Path | None) -> tuple[dict, list[Problem]]:
    """The config at `path` over the defaults; a missing default file is simply the defaults."""
    if path is None:
        path = DEFAULT_PATH
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


def write_default(path: str | Path, force: bool = False) -> Path:
    import tomli_w
    path = Path(path)
    if path.exists() and not force:
        raise FileExistsError(f"{path} exists; use --force to overwrite it")
    path.parent.mkdir(parents=True, exist_ok=True)
    header = ("# The board's settings (docs/BOARD.md lists every key). Written by `scoreboard config init`.\n"
              "# [[screens]]: one window per screen; role = audience | host | players.\n\n")
    path.write_text(header + tomli_w.dumps(default_config()), encoding="utf-8")
    return path
