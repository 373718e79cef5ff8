"""Visual themes: the shipped default theme first, a chosen theme laid over it, every problem reported at once.

A theme is a folder with `theme.toml` plus the files it names (fonts, images, sounds). Paths resolve relative to the
theme's folder; a path starting with `assets:` names a file in the project's own `assets/` folder, so a starter theme
made anywhere can still use the shipped font and logo. A key that is wrong (unknown, bad type, missing file, font
without Cyrillic…) is reported as a `Problem(file, key, reason)` and the default's value is kept, so a broken theme
never stops a game: the board starts with what is valid and says what was not.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from scoreboard.folders import own_themes, shipped
from scoreboard.display.theme.builtin import BUILTIN_STRINGS, BUILTIN_STRINGS_EN, BUILTIN_VALUES
from scoreboard.display.theme.fontcover import NotAFont, missing

THEMES_DIR = shipped("themes")
ASSETS_DIR = shipped("assets")
DEFAULT_DIR = THEMES_DIR / "default"
# The theme `run`, `demo`, `screenshot` and `follow` use when none is named (the base every theme lays over is
# `default`; this is the look a club sees first).
DEFAULT_THEME = "classic"

# Every letter of the Russian alphabet plus the punctuation the board prints: a font must draw all of them.
CYRILLIC = "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя«»—…"
# No text size a theme sets may be below 3% of the screen height (a typo such as 0.003 is refused at load).
MIN_TEXT_FRACTION = 0.03
# The hall's screen keeps every text's capital letters at least 3% of the screen height tall, measured on the real
# font's "H" (issue 9 item 6). By the 1/200 rule (letters at least 1/200 of the viewing distance) that reads up to 6
# screen heights away; docs/THEMES.md says what a deeper hall needs.
MIN_CAP_FRACTION = 0.03

# Section -> key -> kind. Kinds: color, colors (list), fraction, seconds, font, image, sound, str, number, volume.
SCHEMA: dict[str, dict[str, str]] = {
    "meta": {"name": "str", "description": "str", "language": "language", "min_contrast": "number"},
    "colors": {
        "background": "color", "panel": "color", "cell": "color", "cell_played": "color", "cell_text": "color",
        "text": "color", "muted": "color", "accent": "color", "accent_text": "color", "right": "color",
        "wrong": "color", "locked": "color", "timer": "color", "timer_low": "color", "overlay": "color",
        "wild_card": "color", "players": "colors",
    },
    "fonts": {"main": "font", "text": "font"},
    "sizes": {
        "title": "fraction", "topic": "fraction", "cell_value": "fraction", "name": "fraction", "score": "fraction",
        "timer": "fraction", "body": "fraction", "small": "fraction", "margin": "fraction", "score_bar": "fraction",
        "header": "fraction",
    },
    "images": {"background": "image", "logo": "image"},
    "sounds": {"buzz": "sound", "right": "sound", "wrong": "sound", "time": "sound", "tick": "sound", "volume": "volume"},
    "animation": {"reveal": "seconds", "timer_low": "seconds"},
}
LANGUAGES = ("ru", "en")
LAYOUT_SIZES = ("margin", "score_bar", "header")  # sizes of boxes, not of text: no 3% floor
_HEX = re.compile(r"^#([0-9a-fA-F]{6})$")


@dataclass(frozen=True)
class Problem:
    file: str
    key: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}: {self.key}: {self.reason}"


@dataclass
class Theme:
    """The merged theme the scenes read. `problems` says what was rejected and fell back to the default."""
    name: str
    folder: Path
    values: dict[str, dict[str, Any]]
    strings: dict[str, dict[str, str]]
    problems: list[Problem] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)  # every file the theme depends on (for live reload)
    origin: dict[str, str] = field(default_factory=dict)  # "section.key" -> the theme.toml that set it

    def where(self, key: str) -> str:
        """The theme file a report names for `key` ("colors.muted"): the file that set it, else the built-in table."""
        return self.origin.get(key, "scoreboard/display/theme/builtin.py")

    def color(self, key: str) -> tuple[int, int, int]:
        return self.values["colors"][key]

    def player_color(self, seat: int) -> tuple[int, int, int]:
        colors = self.values["colors"]["players"]
        return colors[(seat - 1) % len(colors)]

    def color_any(self, key: str) -> tuple[int, int, int]:
        """A colour key, or `players.N` for seat N's colour."""
        if key.startswith("players."):
            return self.player_color(int(key.split(".")[1]))
        return self.color(key)

    def size(self, key: str) -> float:
        return self.values["sizes"][key]

    def font(self, key: str) -> str | None:
        return self.values["fonts"].get(key)

    def seconds(self, key: str) -> float:
        return self.values["animation"][key]

    @property
    def language(self) -> str:
        return self.values["meta"].get("language", "ru")

    def text(self, key: str, **fields: Any) -> str:
        table = self.strings.get(self.language) or self.strings["ru"]
        template = table.get(key) or self.strings["ru"].get(key) or key
        try:
            return template.format(**fields)
        except (KeyError, IndexError, ValueError):
            return template


def parse_color(value: Any) -> tuple[int, int, int] | None:
    if isinstance(value, str):
        match = _HEX.match(value.strip())
        if match:
            raw = match.group(1)
            return (int(raw[0:2], 16), int(raw[2:4], 16), int(raw[4:6], 16))
        return None
    if isinstance(value, list) and len(value) == 3 and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in value):
        return (value[0], value[1], value[2])
    return None


def resolve(folder: Path, value: str) -> Path:
    if value.startswith("assets:"):
        return ASSETS_DIR / value[len("assets:"):]
    path = Path(value).expanduser()
    return path if path.is_absolute() else folder / path


def font_problem(path: Path) -> str | None:
    """Why this font cannot be used on the board, or None. Loads it and checks every Cyrillic letter."""
    if not path.is_file():
        return f"file not found: {path}"
    try:
        lacking = missing(path, CYRILLIC + "0123456789")
    except (NotAFont, OSError) as error:
        return f"not a usable font ({error}): {path}"
    if lacking:
        return f"font lacks Cyrillic glyphs {lacking!r}: {path}"
    if not pygame.font.get_init():
        pygame.font.init()
    try:
        pygame.font.Font(str(path), 24)
    except (OSError, pygame.error) as error:
        return f"not a usable font ({error}): {path}"
    return None


def image_problem(path: Path) -> str | None:
    if not path.is_file():
        return f"file not found: {path}"
    try:
        pygame.image.load(str(path))
    except (OSError, pygame.error) as error:
        return f"not a readable image ({error}): {path}"
    return None


def sound_problem(path: Path) -> str | None:
    if not path.is_file():
        return f"file not found: {path}"
    with open(path, "rb") as handle:
        head = handle.read(12)
    # Checked by signature, so `theme check` needs no audio device: WAV (RIFF…WAVE) or Ogg.
    if not ((head[:4] == b"RIFF" and head[8:12] == b"WAVE") or head[:4] == b"OggS"):
        return f"not a WAV or Ogg sound: {path}"
    return None


def _check_value(kind: str, value: Any, folder: Path) -> tuple[Any, str | None]:
    """(converted value, reason it is rejected or None)."""
    if kind == "color":
        color = parse_color(value)
        return (color, None) if color else (None, f"expected a colour '#rrggbb' or [r, g, b], got {value!r}")
    if kind == "colors":
        if not isinstance(value, list) or len(value) < 2:
            return None, "expected a list of at least 2 colours (one per seat)"
        colors = [parse_color(v) for v in value]
        bad = [v for v, c in zip(value, colors) if c is None]
        return (colors, None) if not bad else (None, f"not colours: {bad!r}")
    if kind == "fraction":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None, f"expected a fraction of the screen height, got {value!r}"
        if not 0 < value <= 0.5:
            return None, f"must be in (0, 0.5] of the screen height, got {value}"
        return float(value), None
    if kind in ("seconds", "number", "volume"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            return None, f"expected a number >= 0, got {value!r}"
        if kind == "volume" and value > 1:
            return None, f"volume is 0..1, got {value}"
        if kind == "seconds" and value > 10:
            return None, f"an animation longer than 10 s is a mistake, got {value}"
        return float(value), None
    if kind == "str":
        return (value, None) if isinstance(value, str) else (None, f"expected a string, got {value!r}")
    if kind == "language":
        return (value, None) if value in LANGUAGES else (None, f"expected one of {', '.join(LANGUAGES)}, got {value!r}")
    if kind in ("font", "image", "sound"):
        if not isinstance(value, str):
            return None, f"expected a file path, got {value!r}"
        if kind != "font" and value == "":
            return None, None  # an empty image/sound path switches it off
        path = resolve(folder, value)
        checker = {"font": font_problem, "image": image_problem, "sound": sound_problem}[kind]
        reason = checker(path)
        return (str(path), None) if reason is None else (None, reason)
    raise AssertionError(kind)


def _read(folder: Path, problems: list[Problem]) -> dict | None:
    path = folder / "theme.toml"
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        problems.append(Problem(str(path), "-", "no theme.toml in this folder"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        problems.append(Problem(str(path), "-", f"not valid TOML: {error}"))
    except OSError as error:
        problems.append(Problem(str(path), "-", f"cannot read: {error}"))
    return None


def _overlay(raw: dict, folder: Path, values: dict, strings: dict, problems: list[Problem], files: list[Path],
             origin: dict[str, str]) -> None:
    """Lay a parsed theme.toml over `values`/`strings`; each bad key is reported and leaves the value below it."""
    where = str(folder / "theme.toml")
    for section, table in raw.items():
        if section == "strings":
            if not isinstance(table, dict):
                problems.append(Problem(where, "strings", "expected a table [strings.ru] / [strings.en]"))
                continue
            for language, entries in table.items():
                if language not in LANGUAGES or not isinstance(entries, dict):
                    problems.append(Problem(where, f"strings.{language}", f"expected a table for one of {LANGUAGES}"))
                    continue
                for key, text in entries.items():
                    if not isinstance(text, str) or not text.strip():
                        problems.append(Problem(where, f"strings.{language}.{key}", "expected a non-empty string"))
                    elif key not in BUILTIN_STRINGS:
                        problems.append(Problem(where, f"strings.{language}.{key}", "unknown string key"))
                    else:
                        strings.setdefault(language, {})[key] = text
            continue
        schema = SCHEMA.get(section)
        if schema is None:
            problems.append(Problem(where, section, f"unknown section (known: {', '.join([*SCHEMA, 'strings'])})"))
            continue
        if not isinstance(table, dict):
            problems.append(Problem(where, section, "expected a table"))
            continue
        for key, value in table.items():
            kind = schema.get(key)
            if kind is None:
                problems.append(Problem(where, f"{section}.{key}", f"unknown key (known: {', '.join(schema)})"))
                continue
            converted, reason = _check_value(kind, value, folder)
            if reason is None and section == "sizes" and key not in LAYOUT_SIZES and converted < MIN_TEXT_FRACTION:
                reason = f"text smaller than {MIN_TEXT_FRACTION:.0%} of the screen height cannot be read from the back"
            if reason is not None:
                problems.append(Problem(where, f"{section}.{key}", reason))
                continue
            values[section][key] = converted
            origin[f"{section}.{key}"] = where
            if kind in ("font", "image", "sound") and converted:
                files.append(Path(converted))


def theme_folder(name_or_dir: str | Path) -> Path:
    """A theme's folder: a folder named as it is, else a shipped theme of that name, else the club's own (the config
    folder's themes/). A name found nowhere gives the folder as named (its problems then say it is missing)."""
    folder = Path(name_or_dir).expanduser()
    if folder.is_dir():
        return folder
    for place in (THEMES_DIR, own_themes()):
        if (place / str(name_or_dir) / "theme.toml").is_file():
            return place / str(name_or_dir)
    return folder


def known_themes() -> list[str]:
    """The theme names `--theme NAME` and board.theme find: the shipped ones and the club's own."""
    return sorted({p.name for place in (THEMES_DIR, own_themes()) if place.is_dir() for p in place.iterdir()
                   if (p / "theme.toml").is_file()})


def load_theme(name_or_dir: str | Path | None = None) -> Theme:
    """The default theme with `name_or_dir` (a folder, or a name: `theme_folder`) laid over it. Never raises."""
    problems: list[Problem] = []
    values: dict[str, dict[str, Any]] = {section: {} for section in SCHEMA}
    strings: dict[str, dict[str, str]] = {"ru": {}, "en": {}}
    files: list[Path] = [DEFAULT_DIR / "theme.toml"]
    origin: dict[str, str] = {}
    raw = _read(DEFAULT_DIR, problems)
    if raw is not None:
        _overlay(raw, DEFAULT_DIR, values, strings, problems, files, origin)
    _fill_builtin(values, strings)
    folder = DEFAULT_DIR
    if name_or_dir not in (None, "", "default"):
        folder = theme_folder(name_or_dir)
        files.append(folder / "theme.toml")
        raw = _read(folder, problems)
        if raw is not None:
            _overlay(raw, folder, values, strings, problems, files, origin)
    name = (raw or {}).get("meta", {}).get("name") if folder != DEFAULT_DIR and isinstance(raw, dict) else None
    theme = Theme(name=str(name if isinstance(name, str) and name else folder.name), folder=folder, values=values,
                  strings=strings, problems=problems, files=files, origin=origin)
    return theme


def _fill_builtin(values: dict, strings: dict) -> None:
    """Last-resort values when even the shipped default theme is damaged: the board must still draw."""
    for section, table in BUILTIN_VALUES.items():
        for key, value in table.items():
            values[section].setdefault(key, value)
    for key, text in BUILTIN_STRINGS.items():
        strings["ru"].setdefault(key, text)
    for key, text in BUILTIN_STRINGS_EN.items():
        strings["en"].setdefault(key, text)
