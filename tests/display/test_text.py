"""Text that always fits: shrink, wrap, and at the smallest size break and end with an ellipsis — never spill out,
never below the minimum size, never a cut glyph."""
import pygame
from hypothesis import given, settings, strategies as st

from scoreboard.display.render.canvas import Canvas
from scoreboard.display.render.text import ELLIPSIS, TextCache
from scoreboard.display.theme.load import load_theme

FONT = str(load_theme(None).font("main"))
WORDS = st.lists(st.text(alphabet="абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЖЗИКЛМН-", min_size=1, max_size=30),
                 min_size=1, max_size=12).map(" ".join)


def test_short_text_keeps_its_size_on_one_line():
    """GIVEN a short name and a roomy box WHEN fitted THEN it is one line at the largest size asked."""
    fit = TextCache().fit(FONT, "Анна", 600, 100, 48, 12)
    assert fit.lines == ("Анна",) and fit.px == 48 and not fit.truncated


def test_long_name_shrinks_then_wraps_inside_its_box():
    """GIVEN a long double-barrelled Cyrillic name and a narrow box WHEN fitted THEN it wraps at spaces, every line
    is narrower than the box and all lines fit its height."""
    cache = TextCache()
    fit = cache.fit(FONT, "Вера Смирнова-Оболенская Константинопольская", 220, 120, 60, 12)
    assert len(fit.lines) >= 2 and all(cache.width(FONT, fit.px, line) <= 220 for line in fit.lines)
    assert fit.line_height * len(fit.lines) <= 120 and 12 <= fit.px < 60


def test_overlong_text_ends_with_an_ellipsis_at_the_minimum_size():
    """GIVEN far too much text for a box WHEN fitted THEN it is drawn at the minimum size, cut at a whole glyph,
    and ends with an ellipsis."""
    cache = TextCache()
    fit = cache.fit(FONT, "Достопримечательности " * 30, 200, 40, 40, 14)
    assert fit.truncated and fit.px == 14 and fit.lines[-1].endswith(ELLIPSIS)
    assert all(cache.width(FONT, fit.px, line) <= 200 for line in fit.lines)


@settings(max_examples=60, deadline=None)
@given(text=WORDS, width=st.integers(80, 900), height=st.integers(30, 400))
def test_any_cyrillic_text_stays_inside_any_box(text, width, height):
    """GIVEN any Cyrillic words and any box at least one minimum line tall WHEN drawn THEN the ink lies inside the
    box and the size is never below the minimum, whose capitals are 3 % of the height (issue 9 item 6)."""
    surface = pygame.Surface((1000, 1000))
    canvas = Canvas(surface, load_theme(None), record=True)
    box = pygame.Rect(0, 0, width, max(height, canvas.cache.line_height(FONT, canvas.min_px)))
    canvas.text(box, text, "title")
    drawn = canvas.texts()[0]
    assert box.contains(drawn.rect)
    assert drawn.px >= canvas.min_px and canvas.cache.cap_height(FONT, canvas.min_px) >= 30   # capitals ≥ 3 %


def _binary_search_fit(cache, path, text, width, height, max_px, min_px, max_lines):
    """The plain binary search over the sizes the fit used before it probed the likeliest ones first."""
    lo, hi, best = max(1, min(min_px, max_px)), max_px, None
    while lo <= hi:
        px = (lo + hi) // 2
        fit = cache._try(path, text, width, height, px, max_lines)
        best, lo, hi = (fit, px + 1, hi) if fit is not None else (best, lo, px - 1)
    return best if best is not None else cache._squeeze(path, text, width, height, max(1, min(min_px, max_px)),
                                                        max_lines)


@settings(max_examples=150, deadline=None)
@given(text=WORDS, width=st.integers(40, 1500), height=st.integers(12, 400), max_px=st.integers(8, 240),
       min_px=st.integers(6, 60), max_lines=st.sampled_from([0, 1, 2, 3]))
def test_i9_3_probing_likely_sizes_first_finds_the_size_a_binary_search_finds(text, width, height, max_px, min_px,
                                                                              max_lines):
    """GIVEN any text and box WHEN fitted (the largest size first, then the size scaling its one line to the box)
    THEN the fit is the one the plain binary search over the sizes gives: same size, lines and ellipsis."""
    assert TextCache()._fit(FONT, text, width, height, max_px, min_px, max_lines) == \
        _binary_search_fit(TextCache(), FONT, text, width, height, max_px, min_px, max_lines)


def test_i9_3_a_new_text_at_4k_costs_few_sizes_tried():
    """GIVEN new one-line texts at 4K sizes, one that fits at the largest size and one that must shrink WHEN fitted
    THEN one size is tried for the first and at most three for the second, not the eight a binary search over
    88–237 px takes (each size tried loads its glyphs afresh: what a scene change pays for a new name)."""
    cache = TextCache()
    tried = []
    real = cache._try
    cache._try = lambda *args: tried.append(args[4]) or real(*args)
    assert cache.fit(FONT, "Анна Петрова", 2400, 300, 237, 88).px == 237 and len(tried) == 1
    tried.clear()
    fit = cache.fit(FONT, "Вера Смирнова-Оболенская", 1700, 200, 237, 88)   # one line: two would not fit
    assert 88 < fit.px < 237 and len(tried) <= 3, tried
