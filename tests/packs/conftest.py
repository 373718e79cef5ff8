"""Every pack test writes its media into a throw-away cache, never into ~/.cache; pygame runs headless."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def pack_cache(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("SVOYA_PACK_CACHE", str(cache))
    return cache


def files_under(folder) -> set:
    return {os.path.join(root, name) for root, _, names in os.walk(folder) for name in names}
