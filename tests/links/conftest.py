"""Fixtures for the links tests: a fake box on a real pty and links reading it (SDL headless)."""
from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from linkhelp import start_links, wait_until  # noqa: E402
from scoreboard.links.serial.fake_box import FakeBox  # noqa: E402


@pytest.fixture
def box(tmp_path):
    box = FakeBox(players=4, link=str(tmp_path / "box")).start()
    yield box
    box.stop()


@pytest.fixture
def board(box):
    """Links reading the fake box, online."""
    links, inbox = start_links(box.url)
    assert wait_until(lambda: links.status()["buttons_online"]), links.status()
    yield links, inbox
    links.stop()
