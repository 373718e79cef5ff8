"""Screens: one `pygame.Window` per configured role (audience, host, players), or an off-screen surface headless.

A screen redraws only when what it would show changes — a new snapshot rev, a clock digit, a lockout, a fade step, a
status badge — so an idle board costs almost nothing.
"""
from __future__ import annotations

import ctypes
import glob
import os
import pathlib
import sys
from dataclasses import dataclass

import pygame

from scoreboard.display import compose
from scoreboard.display.render.canvas import Canvas
from scoreboard.display.render.fade import FadeCache
from scoreboard.display.render.tiles import TileCache


@dataclass(frozen=True)
class Display:
    index: int
    name: str
    size: tuple[int, int]

    def __str__(self) -> str:
        return f"{self.index}: {self.name} {self.size[0]}x{self.size[1]}"


_SDL: list = []


def _sdl():
    """The SDL library pygame-ce loaded, for the two calls pygame-ce 2.5 does not wrap (display names, a window's
    display); None when it cannot be found (then names are "display N" and placement is not verified)."""
    if not _SDL:
        libs = pathlib.Path(pygame.__file__).resolve().parent.parent / "pygame_ce.libs"
        found = None
        for path in sorted(glob.glob(str(libs / "libSDL2-*.so*"))) + ["libSDL2-2.0.so.0"]:
            try:
                found = ctypes.CDLL(path)
                found.SDL_GetDisplayName.restype = ctypes.c_char_p
                found.SDL_GetDisplayName.argtypes = [ctypes.c_int]
                found.SDL_GetWindowFromID.restype = ctypes.c_void_p
                found.SDL_GetWindowFromID.argtypes = [ctypes.c_uint32]
                found.SDL_GetWindowDisplayIndex.restype = ctypes.c_int
                found.SDL_GetWindowDisplayIndex.argtypes = [ctypes.c_void_p]
                break
            except (OSError, AttributeError):
                found = None
        _SDL.append(found)
    return _SDL[0]


def _sdl_display_name(index: int) -> str | None:
    sdl = _sdl()
    name = sdl.SDL_GetDisplayName(index) if sdl is not None else None
    return name.decode("utf-8", "replace") if name else None


def window_display(window) -> int | None:
    """The display SDL says `window` is on (None: unknown). X11 with one X screen per display ("Zaphod", what Xvfb
    offers) lists every screen as a display yet opens every window on the first: the board checks where each window
    really landed."""
    sdl = _sdl()
    if sdl is None or window is None:
        return None
    pointer = sdl.SDL_GetWindowFromID(window.id)
    index = sdl.SDL_GetWindowDisplayIndex(pointer) if pointer else -1
    return index if index >= 0 else None


def displays() -> list[Display]:
    """The displays SDL sees now (index, name, desktop size); pygame's display module must be initialised."""
    if not pygame.display.get_init():
        pygame.display.init()
    out = []
    for index, size in enumerate(pygame.display.get_desktop_sizes()):
        name = _sdl_display_name(index)
        out.append(Display(index, name or f"display {index}", tuple(size)))
    return out


@dataclass(frozen=True)
class Placement:
    """Where one configured screen goes: its display, or why it is not opened (`missing`)."""
    number: int          # its place in [[screens]], from 0
    role: str
    display: int
    optional: bool
    found: Display | None

    @property
    def missing(self) -> bool:
        return self.found is None


def place(screens: list[dict], found: list[Display]) -> list[Placement]:
    by_index = {d.index: d for d in found}
    return [Placement(i, s["role"], s["display"], bool(s.get("optional")), by_index.get(s["display"]))
            for i, s in enumerate(screens)]


def missing_message(p: Placement, found: list[Display]) -> str:
    """A screen that is never opened elsewhere: a host screen moved onto the projector would show the answers."""
    there = "; ".join(map(str, found)) or "none"
    return (f"screens[{p.number}] (role {p.role}) is for display {p.display}, which does not exist "
            f"(displays: {there})")


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
    if sys.platform == "darwin":
        return False
    # On Linux without X or Wayland a kiosk may still use KMSDRM: only if asked for explicitly.
    return os.environ.get("SDL_VIDEODRIVER") not in ("kmsdrm", "KMSDRM")


def prefer_native_framebuffer() -> None:
    """Under X11, SDL 2 makes a window's surface a texture shown by its OpenGL renderer; with no GPU driver (Mesa's
    software rasteriser: a VM, a mini PC without its driver, Xvfb) every flip of a 1080p window then costs 20–30 ms
    of CPU, more than a 60 fps frame, and a full core while the board draws. X11's own shared-memory image shows the
    same pixels in 3–5 ms of the X server's time (docs/PERFORMANCE.md). SDL reads the hint when it makes the first
    window surface, so this runs before; a crew's own SDL_FRAMEBUFFER_ACCELERATION (1: SDL's choice) wins."""
    if pygame.display.get_init() and pygame.display.get_driver() == "x11":
        os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")


def use_dummy_drivers() -> None:
    """Draw nowhere: SDL's dummy video driver (and no sound device). Must run before pygame initialises video."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


# Tags of what changes with time alone: on a screen without kept tiles (the host's) a tick redraws only their boxes.
# compose.frame_key says when; tests/display/test_live_tags.py proves the two name the same things (whatever moves
# with time is under one of these tags, the key moves whenever their text does, and each of them does move).
LIVE_TAGS = ("timer:", "final:timer:", "players:timer:", "status:", "lockout:", "players:locked", "host:clock",
             "host:elapsed", "host:status:")


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
            # The board checked the display exists (place()): a screen is never moved to another display.
            index = spec.display
            # SDL_WINDOWPOS_CENTERED_DISPLAY(i): centred on display i (pygame-ce has no name for it); a fullscreen
            # window then covers that display.
            centred = pygame.WINDOWPOS_CENTERED | index
            prefer_native_framebuffer()
            self.window = pygame.Window(title, spec.size, position=(centred, centred), **kwargs)
            self.surface = self.window.get_surface()
        else:
            self.surface = pygame.Surface(spec.size)
        self._last_key: tuple | None = None
        self._live: list[pygame.Rect] = []
        self._fade = FadeCache()
        if spec.role == "audience":
            self._fade.reserve(self.surface)
        # Kept tiles of earlier frames (tiles.py); none for the host, whose screen shows the answers.
        self._tiles = TileCache() if spec.role != "host" else None
        self.last_log: list = []
        self.error: str | None = None
        self.frames = 0

    @property
    def tiles(self) -> TileCache | None:
        """The kept tiles (their hit and miss counts: `scoreboard bench display`); None on the host's screen."""
        return self._tiles

    @property
    def id(self) -> int | None:
        return self.window.id if self.window else None

    def resized(self) -> None:
        if self.window is not None:
            self.surface = self.window.get_surface()
        self._last_key = None
        self._forget_shown()
        if self.spec.role == "audience":
            self._fade.reserve(self.surface)

    def exposed(self) -> None:
        """The window was uncovered or shown again: the next frame is drawn whole."""
        self._last_key = None
        self._forget_shown()

    def _forget_shown(self) -> None:
        """The surface may no longer show the tiles (a new surface, lost pixels): the next frame copies every one."""
        if self._tiles is not None:
            self._tiles.settle(self.surface)
            self._tiles.forget_shown()

    def set_theme(self, theme) -> None:
        self.theme = theme
        self._last_key = None
        if self._tiles is not None:
            self._tiles.clear()

    def wants(self, snapshot: dict, now: float, status: dict | None) -> tuple:
        badges = (status or {}).get("buttons_online")
        return (snapshot.get("rev"), compose.frame_key(snapshot, now, self.theme, self.spec.role), badges,
                self.surface.get_size())

    def render(self, snapshot: dict, now: float, status: dict | None = None, host_question: dict | None = None,
               tournament=None, overlay=None, force: bool = False) -> bool:
        """Draw and show a frame if it would differ from the last one. Returns True if it drew.

        When only the time moved (same rev, same badges), only the boxes of what moves with time — clocks, lockout
        lines — are redrawn, each clipped to its box: a 4K clock tick then costs a fraction of a full frame."""
        key = self.wants(snapshot, now, status) + ((overlay,) if overlay else ())
        if self.spec.role == "host":    # a press the rules ignored changes the photo finish, not the rev (BZ11)
            key += (((host_question or {}).get("presses") or {}).get("seen"),)
        if not force and key == self._last_key:
            return False
        same_frame = (self._last_key is not None and key[0] == self._last_key[0] and key[2:] == self._last_key[2:]
                      and not key[1][-1] and not self._last_key[1][-1]    # [-1]: the fade step, full when fading
                      and overlay is None)                                  # an overlay veils the whole frame
        # only the fade step moved: the picture kept at the fade's start, under this step's veil (fade.py)
        fade_tick = (self._fade.rect is not None and not force and overlay is None and self._last_key is not None
                     and key[0] == self._last_key[0] and key[2:] == self._last_key[2:]
                     and key[1][:-1] == self._last_key[1][:-1] and not snapshot.get("paused"))
        self._last_key = key
        if fade_tick:
            return self._fade_tick(snapshot, now, status, key[1][-1])
        self._fade.forget()
        args = dict(status=status, host_question=host_question if self.spec.role == "host" else None,
                    tournament=tournament, record=True)
        try:
            drawn = False
            if same_frame and not force and self._tiles is not None:
                # the surface shows the last frame: only the tiles whose drawing changed are drawn (tiles.py)
                canvas = compose.draw(self.surface, snapshot, self.theme, now, self.spec.role, tiles=self._tiles,
                                     changed_only=True, **args)
                self._live, drawn = live_boxes(canvas.log), True
            elif same_frame and not force and self._live:
                for box in self._live:
                    self.surface.set_clip(box)
                    canvas = compose.draw(self.surface, snapshot, self.theme, now, self.spec.role, **args)
                self.surface.set_clip(None)
                drawn = live_boxes(canvas.log) == self._live   # the layout moved (a lockout ended): draw it all
            if not drawn:   # a new snapshot: the tiles the surface already shows stay (a forced frame: all drawn)
                canvas = compose.draw(self.surface, snapshot, self.theme, now, self.spec.role, fade_cache=self._fade,
                                     tiles=self._tiles, changed_only=not force, **args)
                self._live = live_boxes(canvas.log)
            self.last_log = canvas.log   # what the last frame drew (for tests and diagnostics)
            self.error = None
        except Exception as error:  # a drawing bug must not stop a game: say so on screen, keep the loop alive
            self.surface.set_clip(None)
            self._live, self.error = [], f"{type(error).__name__}: {error}"
            self._draw_error()
        if overlay:
            if self._tiles is not None:
                self._tiles.settle(self.surface)   # the frame's new tiles, before the overlay veils them
            overlay(self.surface)
        if (overlay or self.error) and self._tiles is not None:
            self._tiles.forget_shown()
        if self.window is not None:
            self.window.flip()
        self.frames += 1
        return True

    def _fade_tick(self, snapshot: dict, now: float, status: dict | None, step: int) -> bool:
        if self._tiles is not None:
            self._tiles.settle(self.surface)
            self._tiles.forget_shown()   # the kept picture, blended: not what the tiles show
        try:
            compose.fade_tick(self.surface, snapshot, self.theme, now, status, self._fade)
        except Exception as error:   # as for any frame: say so on screen, keep the loop alive
            self._live, self.error = [], f"{type(error).__name__}: {error}"
            self._draw_error()
        if not step:                 # the fade is over: the kept picture is the frame now
            self._fade.forget()
        if self.window is not None:
            self.window.flip()
        self.frames += 1
        return True

    def settle(self) -> None:
        """After the flip: keep the tiles the frame drew anew (tiles.py), off the frame's own time."""
        if self._tiles is not None:
            self._tiles.settle(self.surface)

    def _draw_error(self) -> None:
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
