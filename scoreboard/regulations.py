"""Reading regulation presets (the engine itself only parses tables): the shipped ones (`config/regulations/*.toml`)
and the club's own in the config folder's `regulations/` (scoreboard/folders.py). A shipped name comes first: a
club's file of the same name is not read (`scoreboard doctor` says so)."""
from __future__ import annotations

import tomllib
from pathlib import Path

from scoreboard.engine.regulation import Regulation, RegulationError, parse_regulation
from scoreboard.folders import own_regulations, shipped

REGULATIONS_DIR = shipped("config", "regulations")


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


_cache: dict[Path, Regulation] = {}


def _folders(directory: Path | None) -> list[Path]:
    return [Path(directory)] if directory is not None else [REGULATIONS_DIR, own_regulations()]


def regulation_path(name: str, directory: Path | None = None) -> Path:
    """The preset's file: in `directory`, else the shipped ones, then the club's own. RegulationError if none."""
    if not name.replace("-", "").replace("_", "").replace(".", "").isalnum() or name.startswith("."):
        raise RegulationError([f"{name!r}: not a regulation name"])
    searched = _folders(directory)
    for folder in searched:
        path = folder / f"{name}.toml"
        if path.is_file():
            return path
    own = "" if directory is not None else f"; a club's own go in {searched[-1]}"
    raise RegulationError([f"{searched[0] / (name + '.toml')}: no such regulation (known: "
                           f"{', '.join(known_regulations(directory))}{own})"])


def read_regulation_table(name: str, directory: Path | None = None) -> dict:
    """The validated TOML table of a preset, as journaled with a new game."""
    load_regulation(name, directory)
    return tomllib.loads(regulation_path(name, directory).read_text(encoding="utf-8"))


def load_regulation(name: str, directory: Path | None = None) -> Regulation:
    """A regulation by name (see `regulation_path`), cached."""
    path = regulation_path(name, directory)
    if path not in _cache:
        _cache[path] = load_regulation_file(path)
    return _cache[path]


def known_regulations(directory: Path | None = None) -> list[str]:
    return sorted({p.stem for folder in _folders(directory) for p in folder.glob("*.toml")})
