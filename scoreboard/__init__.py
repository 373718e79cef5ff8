"""Scoreboard for live "Своя игра" (sport variant) tournaments."""
import os
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # the board's console and logs speak for themselves

__version__ = "0.1.0"

# The project's data folders (regulations, themes, assets) sit beside the package in a checkout and an
# editable install; the README's set-up installs it that way.
ROOT = Path(__file__).resolve().parent.parent
