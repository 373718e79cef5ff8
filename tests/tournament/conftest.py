"""Tournament tests run pygame headless (screens) and keep every tournament file in a temporary folder."""
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402


@pytest.fixture
def path(tmp_path):
    return tmp_path / "tournament.sqlite"
