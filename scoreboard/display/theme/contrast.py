"""WCAG 2.x contrast of every text colour on every colour the scenes draw it on (issue 9 item 6).

`TEXT_PAIRS` is the declared table (text colour key, ground) of what the scenes draw; a test renders every scene of
whole games with a theme whose colours are all different and checks that each text it sees is in this table, so the
table cannot drift from the code. A ground is a colour key, `players` (every seat's colour) or `veil` (the pause
veil: `overlay` at PAUSE_ALPHA over whatever is under it). Where the ground is `background` and the theme has a
backdrop picture, `legibility.py` measures the picture's pixels under each text instead.
"""
from __future__ import annotations

RGB = tuple[int, int, int]

PAUSE_ALPHA = 170          # Canvas.dim's veil over the whole screen while paused
WCAG_AA = 4.5

TEXT_PAIRS: tuple[tuple[str, str], ...] = (
    # audience: headers, questions, results, clocks on the plain background
    ("text", "background"), ("muted", "background"), ("accent", "background"), ("cell_text", "background"),
    ("right", "background"), ("wrong", "background"), ("locked", "background"), ("timer", "background"),
    ("timer_low", "background"), ("wild_card", "background"),
    # panels: score bar, topic names, answering band, auction rows, finalists, scores table, chart legend, host rows
    ("text", "panel"), ("muted", "panel"), ("accent", "panel"), ("right", "panel"), ("wrong", "panel"),
    ("locked", "panel"),
    # board cells, badges and banners
    ("cell_text", "cell"), ("accent_text", "accent"), ("wrong", "overlay"), ("accent", "overlay"),
    # the pause word over the dimmed screen
    ("text", "veil"),
)
# The pause veil lies over the whole frame: any colour of the theme can be under the pause word (the pictures too,
# measured in legibility.py).
UNDER_VEIL = ("background", "panel", "cell", "cell_played", "cell_text", "text", "muted", "accent", "accent_text",
              "right", "wrong", "locked", "timer", "timer_low", "overlay", "wild_card", "players")


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(rgb: RGB) -> float:
    """WCAG 2.x relative luminance of an sRGB colour."""
    r, g, b = (_channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(fg: RGB, bg: RGB) -> float:
    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def composite(top: RGB, alpha: int, under: RGB) -> RGB:
    """`top` drawn at `alpha` (0–255) over `under`, exactly as pygame blends a surface with surface alpha."""
    return tuple(u + (((t - u) * alpha) >> 8) for t, u in zip(top, under))


def ground_colors(theme, ground: str) -> list[tuple[str, RGB]]:
    """The concrete colours a ground stands for, each with the words a report uses for it."""
    if ground == "players":
        return [(f"players[{i + 1}]", c) for i, c in enumerate(theme.values["colors"]["players"])]
    if ground == "veil":
        overlay = theme.color("overlay")
        return [(f"overlay at {PAUSE_ALPHA}/255 over {name}", composite(overlay, PAUSE_ALPHA, c))
                for under in UNDER_VEIL for name, c in ground_colors(theme, under)]
    return [(ground, theme.color(ground))]


def hex_of(rgb: RGB) -> str:
    return "#%02x%02x%02x" % tuple(rgb)


def failing_pairs(theme, floor: float) -> list[tuple[str, str, float, RGB, RGB]]:
    """(text key, ground words, ratio, text colour, ground colour) of every declared pair below `floor`."""
    out = []
    for fg_key, ground in TEXT_PAIRS:
        fg = theme.color(fg_key)
        for words, bg in ground_colors(theme, ground):
            ratio = contrast_ratio(fg, bg)
            if ratio < floor:
                out.append((fg_key, words, ratio, fg, bg))
    return out
