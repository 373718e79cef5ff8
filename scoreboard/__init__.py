"""Scoreboard for live "Своя игра" (sport variant) tournaments."""
import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # the board's console and logs speak for themselves

DISTRIBUTION = "svoya-scoreboard"


def version() -> str:
    """The one version: the installed distribution's metadata (pyproject.toml's, set when it was installed)."""
    # lazy: importlib.metadata costs `scoreboard --help` milliseconds that only --version, the logs and the page need
    from importlib.metadata import PackageNotFoundError, version as installed
    try:
        return installed(DISTRIBUTION)
    except PackageNotFoundError:     # sources run without an install (PYTHONPATH): say so rather than guess
        return "0+unknown"
