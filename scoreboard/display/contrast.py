"""WCAG contrast of the colour pairs the scenes really draw text with (foreground key, background key)."""
from __future__ import annotations

# Every (text colour, colour under it) combination the scenes use; a theme promising `min_contrast` is held to it.
TEXT_PAIRS = (
    ("text", "background"), ("text", "panel"), ("muted", "background"), ("muted", "panel"),
    ("cell_text", "cell"), ("text", "cell"), ("accent", "background"), ("accent", "panel"),
    ("accent_text", "accent"), ("right", "background"), ("wrong", "background"), ("right", "panel"),
    ("wrong", "panel"), ("locked", "panel"), ("locked", "background"), ("timer", "background"), ("timer_low", "background"),
)


def text_pairs(theme) -> tuple[tuple[str, str], ...]:
    return TEXT_PAIRS


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(rgb: tuple[int, int, int]) -> float:
    r, g, b = (_channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(fg: tuple[int, int, int], bg: tuple[int, int, int]) -> float:
    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)
