"""Issue 27 item 2 (the hall's screens show the photo finish only when the host sends it there), BZ11: the audience
scene drawn from a real Session's snapshots — nothing of the presses before /sg/photo/show, then the presses in
order with the gaps, devices, bounds and the close call, legible at 1920×1080 and at 4:3 with long names, gone after
/sg/photo/hide."""
from __future__ import annotations

import pygame
import pytest

from scoreboard.display import compose
from scoreboard.display.theme.load import MIN_CAP_FRACTION, known_themes, load_theme
from tests.engine.helpers import Play

LONG = "Анна-Мария Константинопольская-Рождественская"


@pytest.fixture(scope="module")
def theme():
    return load_theme("classic")


@pytest.fixture(scope="module")
def disputed():
    """A real game: seat 1's key and seat 2's phone 6 ms apart (a close call), seat 3's box 120 ms later."""
    g = Play()
    g.step("/sg/player/name", 1, LONG)
    g.step("/sg/player/name", 2, "Борис")
    g.step("/sg/select", 1, 1)
    g.do(g.t + 1.0, "/sg/button", 1, "key", 17)
    g.do(g.t + 0.006, "/sg/button", 2, "phone", 40)
    g.do(g.t + 0.120, "/sg/button", 3, "box", 2)
    return g


def draw(snapshot, theme, size=(1920, 1080), role="audience"):
    surface = pygame.Surface(size)
    canvas = compose.draw(surface, snapshot, theme, snapshot["time"] + 3.0, role, record=True)
    return surface, canvas


def cap_height(theme, px):
    from scoreboard.display.render.canvas import text_cache     # lazy: the font cache of the drawing code
    return text_cache().cap_height(theme.font("main"), px)


def test_bz11_the_hall_draws_no_press_until_the_host_sends_it(disputed, theme):
    """GIVEN a close call while seat 1 answers WHEN the hall's screen draws the snapshot THEN it is the answering
    scene, and no text says a device, a bound or a gap in ms (issue 27 item 2: not unless the host sends it)."""
    _, canvas = draw(disputed.snap, theme)
    assert compose.scene_name(disputed.snap) == "answering"
    texts = " | ".join(d.text for d in canvas.texts())
    assert not canvas.tagged("photo:")
    for word in ("телефон", "клавиша", " мс", "±", "Фотофиниш"):
        assert word not in texts


@pytest.mark.parametrize("size", [(1920, 1080), (1024, 768)])
def test_bz11_sent_to_the_hall_the_photo_finish_is_drawn_legibly_in_order(disputed, theme, size, tmp_path):
    """GIVEN the host sent the photo finish (/sg/photo/show) WHEN the hall's screen draws it at 16:9 and 4:3 THEN it
    shows the presses in the order of their stamps with each player's name, the gap after the first, the device and
    its ± bound, what the press did, and the close call in words; every text inside its box and its capitals at
    least MIN_CAP_FRACTION of the height; no figure cut short in any shipped theme; the PNG has the close call's frame in the theme's colour (BZ11)."""
    disputed.step("/sg/photo/show")
    try:
        snap = disputed.snap
        assert compose.scene_name(snap) == "photo"
        surface, canvas = draw(snap, theme, size)
        said = {d.tag: d.text for d in canvas.texts()}
        assert [said[f"photo:{i}:name"] for i in range(3)] == [LONG, "Борис", "Игрок 3"]
        assert [said[f"photo:{i}:gap"] for i in range(3)] == ["0 мс", "+6,0 мс", "+126 мс"]
        assert [said[f"photo:{i}:device"] for i in range(3)] == ["клавиша ±17 мс", "телефон ±40 мс", "кнопка ±2 мс"]
        assert [said[f"photo:{i}:outcome"] for i in range(3)] == ["≈ первый", "≈ позже", "позже"]
        assert said["photo:close"] == "Спорно: 6 мс между нажатиями, погрешность ±57 мс"
        for d in canvas.texts():
            assert d.box.contains(d.rect), (size, d.tag, d.text)
            assert cap_height(theme, d.px) >= size[1] * MIN_CAP_FRACTION, (size, d.tag, d.px)
        frame = next(d for d in canvas.log if d.tag == "photo:0:close")
        png = tmp_path / f"photo_{size[0]}.png"
        pygame.image.save(surface, str(png))
        shot = pygame.image.load(str(png))
        assert tuple(shot.get_at((frame.rect.centerx, frame.rect.top + 1)))[:3] == tuple(theme.color("locked"))
        for name in known_themes():                     # every shipped theme: the figures are never cut short
            _, themed = draw(snap, load_theme(name), size)
            cut = [d.tag for d in themed.texts() if d.tag.endswith((":gap", ":device", ":outcome", ":close"))
                   and "…" in "".join(d.lines)]
            assert not cut, (name, size, cut)
        _, players = draw(snap, theme, size, role="players")
        assert not players.tagged("photo:")             # the players' own screen keeps its view
    finally:
        disputed.step("/sg/photo/hide")


def test_bz11_taken_away_the_hall_draws_the_game_again(disputed, theme):
    """GIVEN the photo finish shown, then hidden by the host WHEN the hall's screen draws THEN the answering scene is
    back and nothing of the presses is drawn (issue 27 item 2)."""
    disputed.step("/sg/photo/show")
    disputed.step("/sg/photo/hide")
    _, canvas = draw(disputed.snap, theme)
    assert compose.scene_name(disputed.snap) == "answering" and not canvas.tagged("photo:")


def test_bz11_the_player_the_host_named_instead_is_marked_on_the_hall(theme):
    """GIVEN a close call in which the host named the other player (/sg/answerer, BZ11) WHEN the photo finish is sent
    to the hall and drawn at 4:3 THEN the named player's row says «≈ назван», the first press's
    row still «≈ первый», every text inside its box."""
    g = Play()
    g.step("/sg/select", 1, 1)
    g.do(g.t + 1.0, "/sg/button", 1, "key", 17)
    g.do(g.t + 0.006, "/sg/button", 2, "phone", 40)
    g.step("/sg/answerer", 2)
    g.step("/sg/photo/show")
    _, canvas = draw(g.snap, theme, (1024, 768))
    said = {d.tag: d for d in canvas.texts()}
    assert said["photo:0:outcome"].text == "≈ первый" and said["photo:1:outcome"].text == "≈ назван"
    assert all(d.box.contains(d.rect) for d in canvas.texts())
