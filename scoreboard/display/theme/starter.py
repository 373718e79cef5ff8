"""`scoreboard theme new NAME`: a starter theme that names every key, commented out, so a crew edits what it needs."""
from __future__ import annotations

import re
from pathlib import Path

from scoreboard.display.theme.builtin import BUILTIN_STRINGS
from scoreboard.display.theme.load import ASSETS_DIR, load_theme

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,40}$")


def _toml_value(value) -> str:
    """`value` as TOML, so that uncommenting a line of the starter gives a valid theme (None: an empty path, off)."""
    if value is None:
        return '""'
    if isinstance(value, tuple):
        return '"#%02x%02x%02x"' % value
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def _as_asset(value: str) -> str:
    """A shipped file as `assets:…` (where the wheel or the checkout keeps it, any platform); any other as it is."""
    path = Path(value).resolve()
    return "assets:" + path.relative_to(ASSETS_DIR.resolve()).as_posix() if path.is_relative_to(ASSETS_DIR.resolve()) \
        else value


def starter_text(name: str) -> str:
    base = load_theme(None)
    lines = [f"# Theme {name!r}: laid over the default theme; uncomment and change only what you need.",
             "# Sizes are fractions of the screen height (text: capital letters at least 3% of it, about 0.042 with",
             "# the shipped font; `theme check` measures yours). Paths are relative to this folder,",
             "# or `assets:` for the project's assets/. Check it with: scoreboard theme check " + name,
             "# Use it with: scoreboard demo --theme PATH-TO-THIS-FOLDER, or board.theme = that path in the config", "",
             "[meta]", f'name = "{name}"', 'description = "My club\'s look"', '# language = "ru"   # ru | en',
             '# min_contrast = 7.0   # every text is held to WCAG AA 4.5:1; promise more (AAA 7) and `theme check` '
             'holds you to it', ""]
    for section in ("colors", "fonts", "sizes", "images", "sounds", "animation"):
        lines.append(f"[{section}]")
        for key, value in base.values[section].items():
            if section in ("fonts", "images", "sounds") and isinstance(value, str) and value:
                value = _as_asset(value)
            lines.append(f"# {key} = {_toml_value(value)}")
        if section == "images":
            lines.append('#   (a picture next to this file: logo = "logo.png"; "" switches one off)')
        lines.append("")
    lines.append("[strings.ru]")
    lines += [f"# {key} = {_toml_value(text)}" for key, text in BUILTIN_STRINGS.items()]
    lines.append("")
    return "\n".join(lines)


def write_starter(name: str, parent: Path | None = None) -> Path:
    """Write `parent/NAME/theme.toml` (default parent: the current directory — a crew's theme lives with their
    files, not inside the installed checkout) and return its path."""
    if not _NAME.match(name):
        raise ValueError(f"a theme name is lowercase letters, digits, - and _ (got {name!r})")
    folder = (Path(parent) if parent is not None else Path.cwd()) / name
    path = folder / "theme.toml"
    if path.exists():
        raise FileExistsError(f"{path} exists already")
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(starter_text(name), encoding="utf-8")
    return path
