"""Screens: one `pygame.Window` per configured role (audience, host, players), or an off-screen surface headless.

A screen redraws only when what it would show changes — a new snapshot rev, a clock digit, a lockout, a fade step, a
status badge — so an idle board costs almost nothing.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import pygame

from scoreboard.display import scenes


@dataclass
class ScreenSpec:
    role: str = "audience"
    display: int = 0
    size: tuple[int, int] = (1280, 720)
    fullscreen: bool = False
    title: str = ""


def headless() -> bool:
    """True when there is no display to open a window on (CI, ssh): then SDL's dummy driver is used."""
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return True
    if os.name == "nt" or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return False
    import sys
    if sys.platform == "darwin":
        return False
    # On Linux without X or Wayland a kiosk may still use KMSDRM: only if asked for explicitly.
    return os.environ.get("SDL_VIDEODRIVER") not in ("kmsdrm", "KMSDRM")


def use_dummy_drivers() -> None:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


class Screen:
    def __init__(self, spec: ScreenSpec, theme, window: bool = True):
        self.spec = spec
        self.theme = theme
        self.window: pygame.Window | None = None
        if window:
            title = spec.title or f"Своя игра — {spec.role}"
            kwargs = {}
            if spec.fullscreen:
                kwargs["fullscreen_desktop"] = True
            displays = pygame.display.get_desktop_sizes() if pygame.display.get_init() else []
            index = spec.display if 0 <= spec.display < len(displays) else 0
            position = pygame.WINDOWPOS_CENTERED_DISPLAY(index) if hasattr(pygame, "WINDOWPOS_CENTERED_DISPLAY") \
                else pygame.WINDOWPOS_CENTERED
            self.window = pygame.Window(title, spec.size, position=position, **kwargs)
            self.surface = self.window.get_surface()
        else:
            self.surface = pygame.Surface(spec.size)
        self._last_key: tuple | None = None
        self.frames = 0

    @property
    def id(self) -> int | None:
        return self.window.id if self.window else None

    def resized(self) -> None:
        if self.window is not None:
            self.surface = self.window.get_surface()
        self._last_key = None

    def set_theme(self, theme) -> None:
        self.theme = theme
        self._last_key = None

    def wants(self, snapshot: dict, now: float, status: dict | None) -> tuple:
        badges = (status or {}).get("buttons_online")
        return (snapshot.get("rev"), scenes.frame_key(snapshot, now, self.theme, self.spec.role), badges,
                self.surface.get_size())

    def render(self, snapshot: dict, now: float, status: dict | None = None, host_question: dict | None = None,
               tournament=None, overlay=None, force: bool = False) -> bool:
        """Draw and show a frame if it would differ from the last one. Returns True if it drew."""
        key = self.wants(snapshot, now, status) + ((overlay,) if overlay else ())
        if not force and key == self._last_key:
            return False
        self._last_key = key
        scenes.draw(self.surface, snapshot, self.theme, now, self.spec.role, status=status,
                    host_question=host_question if self.spec.role == "host" else None, tournament=tournament)
        if overlay:
            overlay(self.surface)
        if self.window is not None:
            self.window.flip()
        self.frames += 1
        return True

    def save(self, path) -> None:
        pygame.image.save(self.surface, str(path))

    def close(self) -> None:
        if self.window is not None:
            self.window.destroy()
            self.window = None
