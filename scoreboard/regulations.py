"""Reading regulation presets from `config/regulations/*.toml` (the engine itself only parses tables)."""
from __future__ import annotations

import tomllib
from pathlib import Path

from scoreboard import ROOT
from scoreboard.engine.regulation import Regulation, RegulationError, parse_regulation

REGULATIONS_DIR = ROOT / "config" / "regulations"


def load_regulation_file(path: str | Path) -> Regulation:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RegulationError([f"{path}: cannot read: {error}"]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RegulationError([f"{path}: not valid TOML: {error}"]) from None
    return parse_regulation(data, str(path))


_cache: dict[str, Regulation] = {}


def read_regulation_table(name: str, directory: Path | None = None) -> dict:
    """The validated TOML table of a preset, as journaled with a new game."""
    load_regulation(name, directory)
    path = (directory or REGULATIONS_DIR) / f"{name}.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


def load_regulation(name: str, directory: Path | None = None) -> Regulation:
    """A regulation by name from config/regulations/ (or `directory`), cached."""
    directory = directory or REGULATIONS_DIR
    key = f"{directory}/{name}"
    if key not in _cache:
        if not name.replace("-", "").replace("_", "").replace(".", "").isalnum() or name.startswith("."):
            raise RegulationError([f"{name!r}: not a regulation name"])
        path = directory / f"{name}.toml"
        if not path.is_file():
            known = ", ".join(sorted(p.stem for p in directory.glob("*.toml")))
            raise RegulationError([f"{path}: no such regulation (known: {known})"])
        _cache[key] = load_regulation_file(path)
    return _cache[key]


def known_regulations(directory: Path | None = None) -> list[str]:
    return sorted(p.stem for p in (directory or REGULATIONS_DIR).glob("*.toml"))
