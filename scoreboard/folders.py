"""Where the program's files are: what it ships, read-only, and the club's own, in the folders the platform keeps.

Shipped (`shipped(...)`): the checkout's `config/`, `themes/`, `assets/`, `examples/`, `firmware/` and `deploy/` are
what the wheel is built from — pyproject.toml maps them into the package data folder `scoreboard/shipped/`, read
here through importlib.resources; a checkout (and its editable install) reads them where they are. Nothing is ever
written there.

The club's own, through platformdirs (Linux: XDG; Windows: %LOCALAPPDATA%; macOS: ~/Library/Application Support):
- the config file: `--config FILE`, else `$SCOREBOARD_CONFIG`, else `scoreboard.toml` in the platform's config
  folder (`~/.config/svoya-scoreboard/` on Linux). The folder of that file (the config folder) also holds the club's
  own `themes/NAME/` and `regulations/NAME.toml`, found beside the shipped ones;
- the data folder: journals (`games/`) and the club's packs (`packs/`);
- the cache folder: the media taken out of packs.
"""
from __future__ import annotations

import functools
import os
from importlib import resources
from pathlib import Path

import platformdirs

APP = "svoya-scoreboard"
CONFIG_ENV = "SCOREBOARD_CONFIG"
CONFIG_NAME = "scoreboard.toml"
_CHECKOUT = Path(__file__).resolve().parent.parent


@functools.cache
def shipped_root() -> Path:
    """The folder holding the shipped data: `scoreboard/shipped/` of an installed wheel, else the checkout."""
    packaged = resources.files("scoreboard").joinpath("shipped")
    if packaged.is_dir():
        return Path(str(packaged))
    return _CHECKOUT


def shipped(*parts: str) -> Path:
    """A shipped file or folder, e.g. `shipped("config", "regulations")`."""
    return shipped_root().joinpath(*parts)


def _dirs() -> platformdirs.PlatformDirs:
    return platformdirs.PlatformDirs(APP, appauthor=False)


def config_file() -> Path:
    """The config file `scoreboard run` reads and `config init` writes when no `--config` is given."""
    named = os.environ.get(CONFIG_ENV)
    return Path(named).expanduser() if named else _dirs().user_config_path / CONFIG_NAME


def config_folder() -> Path:
    """The club's folder: its config file, its own themes/ and regulations/."""
    return config_file().parent


def own_themes() -> Path:
    return config_folder() / "themes"


def own_regulations() -> Path:
    return config_folder() / "regulations"


def data_folder() -> Path:
    return _dirs().user_data_path


def journals_folder() -> Path:
    """Where a game's journal goes when the config names no `board.journal_dir`."""
    return data_folder() / "games"


def packs_folder() -> Path:
    """Where the club keeps its packs (the set-up lists them) when the config names no `packs.dirs`."""
    return data_folder() / "packs"


def cache_folder() -> Path:
    return _dirs().user_cache_path
