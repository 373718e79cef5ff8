"""Player colours as a colour-blind viewer sees them (issue 9 item 6).

Simulation: Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for Simulation of Color Vision
Deficiency", IEEE TVCG 15(6):1291–1298, doi:10.1109/TVCG.2009.113 — the published 3×3 matrices at severity 1.0
(protanopia, deuteranopia, tritanopia), applied to linear RGB (sRGB decoded first, the result clipped to [0, 1] and
encoded again), as the paper's model is linear in the display's primaries.

Difference: CIEDE2000 (Sharma, Wu & Dalal 2005) between the simulated colours in CIELAB (D65). CIEDE2000 rather than
CIE76 because CIE76 overstates differences among saturated colours — exactly the vivid seat colours — and understates
them among blues; docs/THEMES.md gives the threshold and why.
"""
from __future__ import annotations

import math

# Machado et al. 2009, Table 1 (severity 1.0): rows give linear R', G', B' from linear R, G, B.
MACHADO_2009 = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("normal", *MACHADO_2009)
# The smallest CIEDE2000 difference two player colours must keep, for normal vision and each simulated deficiency.
MIN_PLAYER_DELTA_E = 15.0

RGB = tuple[int, int, int]


def to_linear(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def from_linear(value: float) -> int:
    c = min(1.0, max(0.0, value))
    c = c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return round(c * 255)


def simulate(rgb: RGB, vision: str) -> RGB:
    """`rgb` as seen with `vision` ("normal" or a key of MACHADO_2009)."""
    if vision == "normal":
        return tuple(rgb)
    matrix = MACHADO_2009[vision]
    linear = [to_linear(v) for v in rgb]
    return tuple(from_linear(sum(m * c for m, c in zip(row, linear))) for row in matrix)


def lab(rgb: RGB) -> tuple[float, float, float]:
    """CIELAB (D65 white) of an sRGB colour."""
    r, g, b = (to_linear(v) for v in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29
    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1), after Sharma, Wu & Dalal (2005)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    d_l = l2 - l1
    d_c = c2p - c1p
    if c1p * c2p == 0:
        d_h = 0.0
    else:
        d_h = h2p - h1p
        d_h = d_h - 360 if d_h > 180 else d_h + 360 if d_h < -180 else d_h
    d_hh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(d_h / 2))
    l_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_hh / s_h) ** 2 + r_t * (d_c / s_c) * (d_hh / s_h))


def delta_e(rgb1: RGB, rgb2: RGB, vision: str = "normal") -> float:
    """CIEDE2000 between two sRGB colours as seen with `vision`."""
    return ciede2000(lab(simulate(rgb1, vision)), lab(simulate(rgb2, vision)))


def too_close(colors: list[RGB], threshold: float = MIN_PLAYER_DELTA_E) -> list[tuple[int, int, str, float]]:
    """Every (seat i, seat j, vision, ΔE00) whose two colours are closer than `threshold` (seats 1-based)."""
    close = []
    for i in range(len(colors)):
        for j in range(i + 1, len(colors)):
            for vision in VISIONS:
                d = delta_e(colors[i], colors[j], vision)
                if d < threshold:
                    close.append((i + 1, j + 1, vision, d))
    return close
