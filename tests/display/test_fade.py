"""The reveal fade at one blended blit a tick (issue 9 item 3): a tick of a running fade shows what a full redraw of
that moment shows, without drawing the scene again; anything else that changes draws the frame whole."""
import pygame
import pytest

from scoreboard.display import compose
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme


def fading(games):
    """A final reveal and a game-over chart, each with the engine time its fade starts at."""
    found = {}
    for snap, _, at in games["novosibirsk-2007"]:
        if snap["phase"] in ("final_reveal", "game_over"):
            found[snap["phase"]] = (snap, float(snap["time"]))
    return list(found.values())


def worst_difference(a: pygame.Surface, b: pygame.Surface) -> int:
    """The largest difference of one colour channel between two same-sized pictures, sampled on a grid."""
    w, h = a.get_size()
    worst = 0
    for y in range(0, h, 7):
        for x in range(0, w, 5):
            pa, pb = a.get_at((x, y)), b.get_at((x, y))
            worst = max(worst, abs(pa.r - pb.r), abs(pa.g - pb.g), abs(pa.b - pb.b))
    return worst


@pytest.mark.parametrize("theme_name", ["classic", "high-contrast"])
def test_i9_3_fade_ticks_blend_the_kept_picture_like_a_full_redraw(games, theme_name):
    """GIVEN a screen that drew the first frame of a reveal's fade WHEN the clock moves only the fade's step (0.15 s,
    0.3 s, 0.45 s, then past its end) THEN each tick draws without drawing the scene again (the draw log stays the
    first frame's), and its picture matches a full redraw of the same moment to within the blend's rounding (≤ 2 of
    255 per channel); the last tick is exactly the scene unveiled."""
    theme = load_theme(theme_name)
    for snap, start in fading(games):
        screen = Screen(ScreenSpec("audience", size=(640, 360)), theme, window=False)
        fresh = Screen(ScreenSpec("audience", size=(640, 360)), theme, window=False)
        assert screen.render(snap, start)
        first_log = screen.last_log
        for age in (0.15, 0.3, 0.45, 2.0):
            calls = []
            real = compose.draw
            compose.draw = lambda *a, **k: calls.append(1) or real(*a, **k)   # noqa: E731
            try:
                assert screen.render(snap, start + age)
            finally:
                compose.draw = real
            assert calls == [] and screen.last_log is first_log, (snap["phase"], age)
            fresh.render(snap, start + age, force=True)
            limit = 0 if age >= 2.0 else 2
            assert worst_difference(screen.surface, fresh.surface) <= limit, (snap["phase"], age)


def test_i9_3_a_new_snapshot_during_a_fade_draws_the_frame_whole(games):
    """GIVEN a fade running on a screen WHEN a new snapshot arrives (a correction of the score) THEN the frame is drawn
    whole from the new snapshot, not blended from the kept picture."""
    theme = load_theme("classic")
    snap, start = fading(games)[0]
    screen = Screen(ScreenSpec("audience", size=(640, 360)), theme, window=False)
    screen.render(snap, start)
    newer = dict(snap, rev=snap["rev"] + 1, players=[dict(p, score=p["score"] + 100) for p in snap["players"]])
    assert screen.render(newer, start + 0.2)
    assert any(d.text == str(newer["players"][0]["score"]) for d in screen.last_log)


def test_i9_3_a_fade_tick_blends_band_by_band_exactly_as_in_one_pass(monkeypatch):
    """GIVEN a kept picture of an area away from the corner, in bands of 7 rows (a small BAND_BYTES: many bands and a
    short last one) WHEN a tick shows it under veils of 0, 90 and 200 THEN every pixel is what the three passes over
    the whole area give (the band's source rows match its place), within the blend's rounding of the exact
    picture·(1 − a) + colour·a, and nothing outside the area is touched."""
    from scoreboard.display.render import fade
    surface = pygame.Surface((320, 200))
    area = pygame.Rect(13, 21, 290, 150)                          # 150 rows: 21 bands of 7 and one of 3
    for y in range(surface.get_height()):                         # rows and columns all differ: a shifted band shows
        for x in range(0, surface.get_width(), 2):
            surface.fill(((x * 3 + y) % 256, (y * 5) % 256, (x + 2 * y) % 256), (x, y, 2, 1))
    color = (20, 40, 90)
    cache = fade.FadeCache()
    cache.keep(surface, area)
    picture = cache.picture.copy()
    outside = surface.copy()
    monkeypatch.setattr(fade, "BAND_BYTES", 7 * area.w * surface.get_bytesize())
    for alpha in (0, 90, 200):
        surface.fill((255, 0, 255), area)                         # whatever the last frame left there
        cache.show(surface, alpha, color)
        whole = surface.copy()                                    # the same three passes, the whole area at once
        whole.blit(picture, area)
        if alpha:
            whole.fill((255 - alpha,) * 3, area, special_flags=pygame.BLEND_RGB_MULT)
            whole.fill(tuple(round(c * alpha / 255) for c in color), area, special_flags=pygame.BLEND_RGB_ADD)
        assert pygame.image.tobytes(surface, "RGB") == pygame.image.tobytes(whole, "RGB"), alpha
        for x, y in ((area.left, area.top), (area.right - 1, area.bottom - 1), (150, 100), (40, 170)):
            shown, kept = surface.get_at((x, y)), picture.get_at((x - area.left, y - area.top))
            for c, k, v in zip(shown[:3], kept[:3], color):
                assert abs(c - (k * (255 - alpha) + v * alpha) / 255) <= 2, (alpha, x, y)
        for x, y in ((area.left - 1, area.top), (area.right, area.bottom - 1), (100, area.top - 1), (100, area.bottom)):
            assert surface.get_at((x, y)) == outside.get_at((x, y)), (alpha, x, y)


def test_i9_3_a_fades_kept_tiles_reach_its_picture_after_the_flip(games):
    """GIVEN a 1280×720 audience screen (tiles wholly inside the main area) whose fade's first frame is drawn again,
    so the tiles under its veil are kept ones WHEN that frame is shown THEN their copies into the fade's picture wait
    until after the flip (`settle`), and the fade's next ticks then match a full redraw of the same moment (≤ 2 of
    255 per channel) — a picture missing them would show the veil's colour or an older frame there."""
    theme = load_theme("classic")
    size = (1280, 720)
    deferred = 0
    for snap, start in fading(games):
        screen = Screen(ScreenSpec("audience", size=size), theme, window=False)
        fresh = Screen(ScreenSpec("audience", size=size), theme, window=False)
        assert screen.render(snap, start)
        screen.settle()
        screen._fade._memory.fill((255, 0, 255))                  # what an earlier fade left in the picture's memory
        assert screen.render(snap, start, force=True)            # the same first frame: its tiles are kept now
        pending = screen._tiles._to_picture
        deferred += len(pending[1]) if pending else 0
        screen.settle()                                           # after the flip
        for age in (0.1, 0.3, 0.5):
            assert screen.render(snap, start + age)
            fresh.render(snap, start + age, force=True)
            assert worst_difference(screen.surface, fresh.surface) <= 2, (snap["phase"], age)
    assert deferred > 0, "kept tiles under the veil went to the picture after the flip"


def test_i9_3_a_fade_that_follows_a_frame_keeps_every_tile_under_its_veil_in_its_picture(games):
    """GIVEN a 1280×720 audience screen that showed the frame just before each result (its tiles on the surface) and
    a fade picture's memory holding an older picture WHEN the result's frame opens the fade — a new snapshot draws
    only the tiles that differ from what the surface shows — THEN every tile under the veil still reaches the fade's
    picture (the surface shows the veil there, not them), so the fade's ticks match a full redraw (≤ 2 of 255)."""
    theme = load_theme("classic")
    size = (1280, 720)
    frames = games["novosibirsk-2007"]
    checked = 0
    for (before, _, at_before), (snap, _, at) in zip(frames, frames[1:]):
        if snap["phase"] not in ("reveal", "final_reveal", "game_over") or before["phase"] == snap["phase"]:
            continue
        screen = Screen(ScreenSpec("audience", size=size), theme, window=False)
        fresh = Screen(ScreenSpec("audience", size=size), theme, window=False)
        assert screen.render(before, at_before)
        screen.settle()
        screen._fade._memory.fill((255, 0, 255))
        start = float(snap["time"])
        assert screen.render(snap, start)                        # a new snapshot: the fade's first frame
        screen.settle()
        for age in (0.2, 0.4):
            assert screen.render(snap, start + age)
            fresh.render(snap, start + age, force=True)
            assert worst_difference(screen.surface, fresh.surface) <= 2, (before["phase"], snap["phase"], age)
        checked += 1
        if checked >= 6:
            break
    assert checked >= 3
