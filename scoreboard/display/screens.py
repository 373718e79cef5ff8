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
    """Draw nowhere: SDL's dummy video driver (and no sound device). Must run before pygame initialises video."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


# Tags of what changes with time alone (scenes.frame_key lists the same things): their boxes are redrawn on a tick.
LIVE_TAGS = ("timer:", "final:timer:", "auction:timer:", "players:timer:", "status:", "lockout:", "players:locked",
             "host:clock", "host:elapsed", "host:status:", "answering:extended")


def live_boxes(log) -> list[pygame.Rect]:
    boxes = [d.box for d in log or [] if d.tag.startswith(LIVE_TAGS)]
    merged: list[pygame.Rect] = []
    for box in sorted(boxes, key=lambda b: (b.top, b.left)):
        for i, other in enumerate(merged):
            if other.colliderect(box):
                merged[i] = other.union(box)
                break
        else:
            merged.append(pygame.Rect(box))
    return merged


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
            # SDL_WINDOWPOS_CENTERED_DISPLAY(i): centred on display i (pygame-ce has no name for it); a fullscreen
            # window then covers that display.
            centred = pygame.WINDOWPOS_CENTERED | index
            self.window = pygame.Window(title, spec.size, position=(centred, centred), **kwargs)
            self.surface = self.window.get_surface()
        else:
            self.surface = pygame.Surface(spec.size)
        self._last_key: tuple | None = None
        self._live: list[pygame.Rect] = []
        self.last_log: list = []
        self.error: str | None = None
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
        """Draw and show a frame if it would differ from the last one. Returns True if it drew.

        When only the time moved (same rev, same badges), only the boxes of what moves with time — clocks, lockout
        lines — are redrawn, each clipped to its box: a 4K clock tick then costs a fraction of a full frame."""
        key = self.wants(snapshot, now, status) + ((overlay,) if overlay else ())
        if not force and key == self._last_key:
            return False
        same_frame = (self._last_key is not None and key[0] == self._last_key[0] and key[2:] == self._last_key[2:]
                      and not key[1][-1] and not self._last_key[1][-1]    # [-1]: the fade step, full when fading
                      and overlay is None)                                  # an overlay veils the whole frame
        self._last_key = key
        args = dict(status=status, host_question=host_question if self.spec.role == "host" else None,
                    tournament=tournament, record=True)
        try:
            drawn = False
            if same_frame and not force and self._live:
                for box in self._live:
                    self.surface.set_clip(box)
                    canvas = scenes.draw(self.surface, snapshot, self.theme, now, self.spec.role, **args)
                self.surface.set_clip(None)
                drawn = live_boxes(canvas.log) == self._live   # the layout moved (a lockout ended): draw it all
            if not drawn:
                canvas = scenes.draw(self.surface, snapshot, self.theme, now, self.spec.role, **args)
                self._live = live_boxes(canvas.log)
            self.last_log = canvas.log   # what the last frame drew (for tests and diagnostics)
            self.error = None
        except Exception as error:  # a drawing bug must not stop a game: say so on screen, keep the loop alive
            self.surface.set_clip(None)
            self._live, self.error = [], f"{type(error).__name__}: {error}"
            self._draw_error()
        if overlay:
            overlay(self.surface)
        if self.window is not None:
            self.window.flip()
        self.frames += 1
        return True

    def _draw_error(self) -> None:
        from scoreboard.display.canvas import Canvas
        canvas = Canvas(self.surface, self.theme)
        canvas.fill(self.theme.color("background"))
        canvas.text(pygame.Rect(0, canvas.h // 3, canvas.w, canvas.h // 6), self.theme.text("title"), "title",
                    self.theme.color("text"))
        canvas.text(pygame.Rect(canvas.w // 20, canvas.h * 3 // 4, canvas.w * 9 // 10, canvas.h // 5),
                    f"display error: {self.error}", "small", self.theme.color("wrong"))

    def save(self, path) -> None:
        pygame.image.save(self.surface, str(path))

    def close(self) -> None:
        if self.window is not None:
            self.window.destroy()
            self.window = None
