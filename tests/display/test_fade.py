"""The reveal fade at one blended blit a tick (issue 9 item 3): a tick of a running fade shows what a full redraw of
that moment shows, without drawing the scene again; anything else that changes draws the frame whole."""
import pygame
import pytest

from scoreboard.display import scenes
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme import load_theme


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
            real = scenes.draw
            scenes.draw = lambda *a, **k: calls.append(1) or real(*a, **k)   # noqa: E731
            try:
                assert screen.render(snap, start + age)
            finally:
                scenes.draw = real
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
