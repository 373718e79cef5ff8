"""Question packs: the model, the native TOML format, SIGame .siq and ChGK-database import, validation, plans.

`load_plan(path, topics=None)` is what the session calls for `/sg/pack/load PATH`: it reads a pack in any
supported format, checks it, copies its media into the board's pack cache and returns the pack plan of
docs/ENGINE_API.md. Anything wrong raises PackError with the file, the place and the reason.
"""
from __future__ import annotations

import os

from .errors import ERROR, INFO, WARNING, Issue, PackError
from .load import Loaded, load
from .model import Final, Media, Pack, Question, Round, Topic

__all__ = ["load_plan", "load", "Loaded", "PackError", "Issue", "ERROR", "WARNING", "INFO",
           "Pack", "Round", "Topic", "Question", "Media", "Final"]


def load_plan(path: str, topics: list[str] | None = None, *, cache_dir: str | os.PathLike | None = None) -> dict:
    """The engine's pack plan for the pack at `path`, using `topics` (names, numbers or `R.N`; default: all)."""
    from .plan import build   # lazy: 8 ms at import; `pack convert` and `pack check` build no plan
    loaded = load(path, cache_dir=cache_dir)
    source = f"{os.path.abspath(path)} sha256:{loaded.digest}"
    plan = build(loaded.pack, loaded.issues, loaded.media, path, source, topics)
    plan["format"] = loaded.format
    return plan
