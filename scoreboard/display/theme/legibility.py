"""Can the back row read this theme? (issue 9 item 6) — what `scoreboard theme check` always checks.

- Contrast: every declared text/ground pair (contrast.TEXT_PAIRS) at least WCAG AA 4.5:1, or the theme's own
  `min_contrast` when it promises more (high-contrast: 7:1). Over a backdrop picture the scenes are really drawn
  (the frames given: one of each scene of two demo games) and each text is measured against the picture's pixels
  under it.
- Seat colours: every two players' colours at least colorvision.MIN_PLAYER_DELTA_E apart (CIEDE2000) for normal
  vision and for protanopia, deuteranopia and tritanopia simulated with Machado et al. (2009).
- Cap height: every text size the theme sets gives capital letters at least MIN_CAP_FRACTION of the screen height on
  the theme's real font, at 1920×1080 and 3840×2160 (the board never draws smaller: Canvas raises such text).

Every problem names the theme file and key that set the value, with the numbers.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pygame

from scoreboard.display import compose
from scoreboard.display.render.canvas import text_cache
from scoreboard.display.theme.colorvision import MIN_PLAYER_DELTA_E, too_close
from scoreboard.display.theme.contrast import WCAG_AA, contrast_ratio, failing_pairs, hex_of
from scoreboard.display.theme.load import LAYOUT_SIZES, MIN_CAP_FRACTION, Problem, Theme, load_theme

# (label, snapshot, engine time, role): the frames a theme is tried on — scoreboard/demo/frames.py gives the first
# frame of every scene of two demo games (the display plays no game itself).
Frames = Iterable[tuple[str, dict, float, str]]

TARGETS = ((1920, 1080), (3840, 2160))
PICTURE_SHARE = 0.99     # a text over a picture: this share of the pixels under it must reach the contrast floor


def contrast_floor(theme: Theme) -> float:
    promised = theme.values["meta"].get("min_contrast") or 0
    return max(WCAG_AA, float(promised))


def _blame(theme: Theme, *keys: str) -> tuple[str, str]:
    """(file, key) a report names: the first of `keys` the checked theme itself set, else the first."""
    own = str(theme.folder / "theme.toml")
    for key in keys:
        if theme.where(key) == own:
            return own, key
    return theme.where(keys[0]), keys[0]


def contrast_problems(theme: Theme) -> list[Problem]:
    floor = contrast_floor(theme)
    out = []
    for fg_key, words, ratio, fg, bg in failing_pairs(theme, floor):
        ground_key = "colors." + re.split(r"[\[ ]", words)[0] if not words.startswith("overlay at") else "colors.overlay"
        file, key = _blame(theme, f"colors.{fg_key}", ground_key)
        out.append(Problem(file, key, f"text colors.{fg_key} {hex_of(fg)} on {words} {hex_of(bg)}: contrast "
                                      f"{ratio:.2f}:1 is below {floor:g}:1"))
    return out


def player_problems(theme: Theme) -> list[Problem]:
    colors = theme.values["colors"]["players"]
    out = []
    for i, j, vision, d in too_close(colors):
        seen = "normal vision" if vision == "normal" else f"{vision} (Machado 2009)"
        out.append(Problem(theme.where("colors.players"), "colors.players",
                           f"seats {i} {hex_of(colors[i - 1])} and {j} {hex_of(colors[j - 1])} differ by ΔE00 {d:.1f} "
                           f"for {seen}; seat colours must stay ≥ {MIN_PLAYER_DELTA_E:g} apart"))
    return out


def cap_problems(theme: Theme) -> list[Problem]:
    cache = text_cache()
    font = theme.font("main")
    out = []
    for key, fraction in theme.values["sizes"].items():
        if key in LAYOUT_SIZES:
            continue
        for w, h in TARGETS:
            px = max(1, round(fraction * h))
            cap = cache.cap_height(font, px)
            if cap < MIN_CAP_FRACTION * h:
                floor_px = cache.px_for_cap(font, MIN_CAP_FRACTION * h)
                out.append(Problem(theme.where(f"sizes.{key}"), f"sizes.{key}",
                                   f"{fraction:g} of the height gives capital letters {cap} px = {cap / h:.2%} of "
                                   f"{w}×{h}, below {MIN_CAP_FRACTION:.0%} ({MIN_CAP_FRACTION * h:g} px); the board "
                                   f"draws such text at {floor_px} px instead"))
                break
    return out


def picture_problems(theme: Theme, frames: Frames) -> list[Problem]:
    """Texts drawn straight on a picture (the backdrop; the logo under the pause word), measured against its pixels
    under each text's lines in `frames`."""
    images = theme.values["images"]
    if not images.get("background") and not images.get("logo"):
        return []
    floor = contrast_floor(theme)
    names = _color_names(theme)
    worst: dict[tuple[str, tuple], tuple[float, tuple, str]] = {}
    for scene, probe in render_probes(theme, (1920, 1080), frames):
        for tag, color, ground, _px, _font in probe:
            if not ground or _solid(ground):
                continue   # a text on a plain panel or fill: the declared pairs cover it
            ratios = sorted((contrast_ratio(color, g), g) for g in ground)
            ratio, pixel = ratios[int(len(ratios) * (1 - PICTURE_SHARE))]
            where = re.sub(r":\d+", "", tag) or "text"
            if ratio < floor and ratio < worst.get((where, color), (99.0,))[0]:
                worst[(where, color)] = (ratio, pixel, scene)
    key = "images.background" if images.get("background") else "images.logo"   # the logo: under the pause word
    file = theme.where(key)
    return [Problem(file, key, f"text '{where}' in colors.{names.get(color, hex_of(color))} {hex_of(color)} "
                               f"({scene}): {ratio:.2f}:1 against the picture under it (the darkest/lightest "
                               f"{1 - PICTURE_SHARE:.0%} near {hex_of(pixel)}), below {floor:g}:1")
            for (where, color), (ratio, pixel, scene) in sorted(worst.items())]


def _solid(ground: list) -> bool:
    top = max(set(ground), key=ground.count)
    return ground.count(top) >= 0.9 * len(ground)


def _color_names(theme: Theme) -> dict[tuple, str]:
    names: dict[tuple, str] = {}
    for key, value in theme.values["colors"].items():
        if key != "players":
            names[tuple(value)] = f"{names[tuple(value)]}/{key}" if tuple(value) in names else key
    return names


def render_probes(theme: Theme, size: tuple[int, int], frames: Frames):
    """(scene, probe) for each of `frames` drawn with `theme`: what each text was drawn on (see Canvas.probe)."""
    if not pygame.font.get_init():
        pygame.font.init()
    surface = pygame.Surface(size)
    for label, snapshot, now, role in frames:
        canvas_probe: list = []
        compose.draw(surface, snapshot, theme, now, role, animate=False, probe=canvas_probe)
        yield label, canvas_probe


def legibility_problems(theme: Theme, frames: Frames) -> list[Problem]:
    return contrast_problems(theme) + player_problems(theme) + cap_problems(theme) + picture_problems(theme, frames)


def check_theme(folder: str | Path, frames: Frames) -> list[Problem]:
    """Every problem of the theme in `folder` (laid over the default), for `scoreboard theme check`: what loading
    refused, then whether the hall can read it, its pictures measured under `frames` (scoreboard/demo/frames.py)."""
    theme = load_theme(folder)
    return theme.problems + legibility_problems(theme, frames)
