"""Headless pygame and the shared drawing fixtures (tests/headless.py)."""
from tests.headless import *  # noqa: F401,F403
