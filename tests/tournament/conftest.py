"""Tournament tests run pygame headless (screens) and keep every tournament file in a temporary folder."""
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402


@pytest.fixture
def path(tmp_path):
    return tmp_path / "tournament.sqlite"


@pytest.fixture(scope="session")
def season_file(tmp_path_factory):
    """A samara season (demo results) played through the summer cup's final, the Super Nine not drawn; copy it."""
    from scoreboard.demo import tournament as demo
    where = tmp_path_factory.mktemp("season") / "season.sqlite"
    t = demo.build(where, "samara-2003", "summer-4")
    assert t.last_stage()["id"] == "summer-4" and t.last_stage()["advancement"]["final"]
    t.close()
    return where
