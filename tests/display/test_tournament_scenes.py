"""Tournament screens drawn headless (SDL dummy): every kind draws its view, and text always fits its box."""
from __future__ import annotations

import json

import pygame
import pytest

from scoreboard.display.scenes import tournament as screens
from scoreboard.tournament import demo, views

STYLE = dict(screens.DEFAULT_STYLE)


@pytest.fixture(scope="module")
def fonts():
    pygame.font.init()
    yield


@pytest.fixture(scope="module")
def season(tmp_path_factory):
    return demo.build(tmp_path_factory.mktemp("s") / "samara.sqlite", "samara-2003")


def _colours(surface, rect):
    sub = surface.subsurface(rect)
    return {tuple(sub.get_at((x, y)))[:3] for x in range(0, rect.width, 3) for y in range(0, rect.height, 3)}


@pytest.mark.parametrize("fmt, kind, until", [
    ("novosibirsk-2007", "bracket", "1/3"),
    ("america-2005", "round", "selection"),
    ("america-2005", "bracket", "1/3"),
    ("america-2005", "standings", None),
    ("samara-2003", "round", "winter-1"),
    ("samara-2003", "standings", "winter-1"),
])
def test_each_screen_draws_its_view(fonts, tmp_path, fmt, kind, until):
    """GIVEN a demo tournament WHEN a screen is drawn THEN the title is in the accent colour and the body shows text."""
    t = demo.build(tmp_path / "t.sqlite", fmt, until)
    view = views.build(t, kind)
    assert json.loads(json.dumps(view, ensure_ascii=False)) == view       # JSON-able, as the board may send it on
    surface = pygame.Surface((1280, 720))
    screens.draw(surface, kind, view, STYLE)
    assert STYLE["accent"] in _colours(surface, pygame.Rect(0, 0, 1280, 80))
    body = _colours(surface, pygame.Rect(0, 90, 1280, 620))
    assert STYLE["fg"] in body or STYLE["accent"] in body


def test_super_nine_cross_table_and_scene_choice(fonts, season):
    """GIVEN a finished samara season THEN `/sg/screen bracket` shows the Super Nine cross-table and `standings` the
    Super Nine table with the champion first."""
    kind, view = views.screen_view(season, "bracket")
    assert kind == "cross" and len(view["cells"]) == 9
    assert all(view["cells"][i][i] is None for i in range(9))
    assert sum(1 for row in view["cells"] for c in row if c) == 72       # every pair, both ways
    kind, table = views.screen_view(season, "standings")
    assert kind == "standings" and table["rows"][0][1] in season.standings()["champion"]
    surface = pygame.Surface((1920, 1080))
    screens.draw(surface, "cross", view, STYLE)
    assert STYLE["accent"] in _colours(surface, pygame.Rect(0, 0, 1920, 110))


def test_text_shrinks_to_fit_and_never_below_three_percent(fonts):
    """GIVEN a long name and a narrow box THEN the drawn text is no wider than the box and no smaller than 3 % of
    the screen height (it is cut with an ellipsis instead)."""
    surface = pygame.Surface((1280, 720))
    box = pygame.Rect(10, 10, 120, 60)
    drawn = screens.fit(surface, "Константин Константинопольский-Щедрин", box, (255, 255, 255), STYLE)
    assert drawn.width <= box.width
    assert drawn.height >= 0.03 * 720
    wide = screens.fit(surface, "Аня", pygame.Rect(0, 100, 1000, 60), (255, 255, 255), STYLE)
    assert wide.height > drawn.height       # a short name in a wide box is drawn larger


def test_unknown_scene_is_refused(season):
    with pytest.raises(Exception, match="no tournament screen"):
        views.screen_view(season, "winner")


def test_board_gets_game_setup_and_screen_from_the_file(tmp_path):
    """GIVEN a drawn novosibirsk 1/9 WHEN the board asks for game 1/9-4's setup and for `/sg/screen bracket`
    THEN it gets the /sg/game/new arguments with a per-game seed, the players by seat, and the bracket view."""
    t = demo.build(tmp_path / "n.sqlite", "novosibirsk-2007", "1/9")
    setup = views.game_setup(t, "1/9-4")
    players = t.store.game("1/9-4")["players"]
    assert setup["game_new"][:4] == ["/sg/game/new", "novosibirsk-2007", "1/9", len(players)]
    assert [p["name"] for p in setup["players"]] == players and setup["done"] is True
    assert views.game_setup(t, "1/9-4")["seed"] == setup["seed"] != views.game_setup(t, "1/9-5")["seed"]
    kind, view = views.load_screen(tmp_path / "n.sqlite", "bracket")
    assert kind == "bracket" and [c["title"] for c in view["columns"]] == ["1/9", "1/3", "final"]
    assert sum(p["won"] for g in view["columns"][0]["games"] for p in g["players"]) == 9


def test_bold_text_fits_too(fonts):
    """A winner's name is drawn bold; it is measured bold, so it never spills out of its box."""
    surface = pygame.Surface((1280, 720))
    box = pygame.Rect(10, 10, 200, 40)
    drawn = screens.fit(surface, "Богдан Эйдельман-Широковский", box, (255, 255, 255), STYLE, bold=True)
    assert drawn.width <= box.width


@pytest.mark.parametrize("fmt", ["novosibirsk-2007", "america-2005", "samara-2003"])
def test_screens_before_the_first_draw(fonts, tmp_path, fmt):
    """GIVEN a tournament with players but no draw yet WHEN the board shows `bracket` and `standings`
    THEN both draw, and an undrawn 1/9 final says 'to be drawn' (never a winner of a game that does not exist)."""
    from scoreboard.tournament.service import Tournament
    t = Tournament.create(tmp_path / "t.sqlite", fmt, seed=1)
    for i in range(18):
        t.add_player(f"Игрок {i + 1}")
    for scene in ("bracket", "standings"):
        kind, view = views.screen_view(t, scene)
        screens.draw(pygame.Surface((1280, 720)), kind, view, STYLE)
        if kind == "bracket" and fmt == "novosibirsk-2007":
            assert view["columns"][0]["games"][0]["players"][0]["name"] == "to be drawn"
            assert "winner 1/9-1" in [p["name"] for p in view["columns"][1]["games"][0]["players"]]
