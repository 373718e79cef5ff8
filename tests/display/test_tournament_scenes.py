"""Tournament screens drawn headless (SDL dummy) through the board's Canvas: every kind draws its view, text always
fits its box, words come from the theme."""
from __future__ import annotations

import json

import pygame
import pytest

from scoreboard.demo import tournament as demo
from scoreboard.display.render.canvas import Canvas
from scoreboard.display.scenes import tournament as screens
from scoreboard.display.theme.load import load_theme
from scoreboard.labels import say, text_for
from scoreboard.tournament import board_link, terminal, views
from scoreboard.tournament.errors import TournamentError

THEME = load_theme()


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


def _draw(kind, view, theme=THEME, size=(1280, 720)) -> Canvas:
    canvas = Canvas(pygame.Surface(size), theme, record=True)
    screens.draw(canvas, kind, view)
    return canvas


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
    canvas = _draw(kind, view)
    assert THEME.color("accent") in _colours(canvas.surface, pygame.Rect(0, 0, 1280, 80))
    body = _colours(canvas.surface, pygame.Rect(0, 90, 1280, 620))
    assert THEME.color("text") in body or THEME.color("accent") in body


def test_super_nine_cross_table_and_scene_choice(fonts, season):
    """GIVEN a finished samara season THEN `/sg/screen bracket` shows the Super Nine cross-table and `standings` the
    Super Nine table with the champion first."""
    kind, view = views.screen_view(season, "bracket")
    assert kind == "cross" and len(view["cells"]) == 9
    assert all(view["cells"][i][i] is None for i in range(9))
    assert sum(1 for row in view["cells"] for c in row if c) == 72       # every pair, both ways
    kind, table = views.screen_view(season, "standings")
    assert kind == "standings" and table["rows"][0][1] in season.standings()["champion"]
    canvas = _draw("cross", view, size=(1920, 1080))
    assert THEME.color("accent") in _colours(canvas.surface, pygame.Rect(0, 0, 1920, 110))


def test_a_long_name_becomes_initial_and_surname_before_it_is_cut(fonts):
    """GIVEN a long name and a narrow box WHEN the scene draws a person's name THEN it is no wider than the box, at
    no less than 3 % of the screen height, shortened to «И. Фамилия» rather than shrunk below; a short name in a
    wide box is drawn larger and whole."""
    canvas = Canvas(pygame.Surface((1280, 720)), THEME, record=True)
    name = "Константин Константинопольский"
    whole = canvas.cache.width(THEME.font("main"), canvas.min_px, name)       # as small as a text may get
    short = canvas.cache.width(THEME.font("main"), canvas.min_px, "К. Константинопольский")
    box = pygame.Rect(10, 10, (whole + short) // 2, 60)
    drawn = screens._name(canvas, box, name, 40, (255, 255, 255), "n")
    log = canvas.texts("n")[0]
    assert drawn.width <= box.width and log.px >= 0.03 * 720 - 1
    assert log.text == "К. Константинопольский"
    narrow = pygame.Rect(10, 200, short - 20, 60)      # not even «К. …» fits: the surname alone
    screens._name(canvas, narrow, name, 40, (255, 255, 255), "s")
    assert canvas.texts("s")[0].text.startswith("Константинопольский"[:5])
    wide = screens._name(canvas, pygame.Rect(0, 100, 1000, 60), "Аня", 40, (255, 255, 255), "w")
    assert wide.height > drawn.height * 0.9 and canvas.texts("w")[0].text == "Аня"


def test_unknown_scene_is_refused(season):
    """GIVEN a samara season WHEN a screen kind that does not exist ('winner') is asked THEN it is refused with
    'no tournament screen'."""
    with pytest.raises(TournamentError, match="no tournament screen"):
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
    kind, view = board_link.load_screen(tmp_path / "n.sqlite", "bracket")
    assert kind == "bracket" and [c["title"] for c in view["columns"]] == ["1/9", "1/3", "final"]
    assert sum(p["won"] for g in view["columns"][0]["games"] for p in g["players"]) == 9


@pytest.mark.parametrize("fmt", ["novosibirsk-2007", "america-2005", "samara-2003"])
def test_screens_before_the_first_draw(fonts, tmp_path, fmt):
    """GIVEN a tournament with players but no draw yet WHEN the board shows `bracket` and `standings`
    THEN both draw, and an undrawn 1/9 final says 'to be drawn' (never a winner of a game that does not exist):
    as codes in the view, as «жеребьёвка впереди» / «победитель 1/9-1» in the default (Russian) theme's words."""
    from scoreboard.tournament.service import Tournament
    t = Tournament.create(tmp_path / "t.sqlite", fmt, seed=1)
    for i in range(18):
        t.add_player(f"Игрок {i + 1}")
    for scene in ("bracket", "standings"):
        kind, view = views.screen_view(t, scene)
        _draw(kind, view)
        if kind == "bracket" and fmt == "novosibirsk-2007":
            assert view["columns"][0]["games"][0]["players"][0]["name"] == {"key": "tn_to_be_drawn"}
            feeds = view["columns"][1]["games"][0]["players"]
            assert {"key": "tn_winner_of", "game": "1/9-1"} in [p["name"] for p in feeds]
            text = text_for("ru")
            assert say(view["columns"][0]["games"][0]["players"][0]["name"], text) == "жеребьёвка впереди"
            assert [say(p["name"], text) for p in feeds] == [f"победитель 1/9-{k}" for k in (1, 2, 3)]


# --- The board's language: views carry codes, the scene says them in the theme's words --------------------------

FORMATS = [("novosibirsk-2007", "1/3"), ("novosibirsk-2007", None), ("america-2005", "selection"),
           ("america-2005", None), ("samara-2003", "winter-2"), ("samara-2003", "summer-1"), ("samara-2003", None)]


@pytest.fixture(scope="module")
def tournaments(tmp_path_factory):
    folder = tmp_path_factory.mktemp("t")
    return [demo.build(folder / f"{i}.sqlite", fmt, until) for i, (fmt, until) in enumerate(FORMATS)]


def _every_view(t):
    for kind in ("bracket", "standings"):
        yield views.screen_view(t, kind)
    for kind in t.flow.VIEWS:
        try:
            yield kind, views.build(t, kind)
        except TournamentError:     # e.g. no Super Nine cross-table before the Super Nine
            pass


def _labels(value):
    """Every label ({"key": …}) anywhere in a view."""
    if isinstance(value, dict):
        if isinstance(value.get("key"), str):
            yield value
        for v in value.values():
            yield from _labels(v)
    elif isinstance(value, list):
        for v in value:
            yield from _labels(v)


def _english_theme(tmp_path):
    from scoreboard.display.theme.load import load_theme
    folder = tmp_path / "en"
    folder.mkdir()
    (folder / "theme.toml").write_text('[meta]\nname = "en"\nlanguage = "en"\n', encoding="utf-8")
    theme = load_theme(folder)
    assert not theme.problems and theme.language == "en"
    return theme


def test_every_label_of_every_screen_is_a_theme_string_in_both_languages(tournaments):
    """GIVEN tournaments of each format at several stages WHEN their screen views are built
    THEN they stay JSON-able, every label key is a UI string of the default theme in ru and en (so a theme may
    override it), and every label says a full sentence in both (no '{field}' left unfilled)."""
    from scoreboard.display.theme.builtin import BUILTIN_STRINGS, BUILTIN_STRINGS_EN
    ru = THEME.text
    seen = set()
    for t in tournaments:
        for kind, view in _every_view(t):
            assert json.loads(json.dumps(view, ensure_ascii=False)) == view
            for lab in _labels(view):
                assert lab["key"] in BUILTIN_STRINGS and lab["key"] in BUILTIN_STRINGS_EN, lab
                seen.add(lab["key"])
                words = say(lab, ru)
                assert "{" not in words and "tn_" not in words, words
    # the pieces every format needs were met: titles, cup rounds, reasons, the cut note, the legend
    assert {"tn_novosibirsk", "tn_america", "tn_samara", "tn_cup_round", "tn_super_nine", "tn_why_won",
            "tn_why_cup_sum", "tn_why_wild_card", "tn_legend_samara", "tn_legend_america"} <= seen


def test_screens_speak_russian_by_default_and_the_board_themes_language(fonts, tmp_path, tournaments):
    """GIVEN the novosibirsk bracket, a samara cup round and the Super Nine cross-table
    WHEN drawn with the default theme THEN the hall reads Russian («Чемпионат Новосибирска», «1/9 финала», «Финал»,
    «Зимний кубок · 2-й тур», «Супердевятка») and no English label;
    WHEN drawn with a board theme that is English THEN the same screens say it in English."""
    screens_ = [("bracket", views.build(tournaments[0], "bracket")), ("round", views.build(tournaments[4], "round")),
                ("cross", views.build(tournaments[6], "cross")), ("standings", views.build(tournaments[5], "standings"))]
    ru = {d.text for kind, view in screens_ for d in _draw(kind, view).texts()}
    assert {"Чемпионат Новосибирска", "1/9 финала", "1/3 финала", "Финал", "Зимний кубок · 2-й тур",
            "Супердевятка", "Чемпионат Самары", "Игрок", "Очки"} <= ru
    english = ("winner", "final", "Champion", "cell:", "Pts", "Player", "round", "cup", "goes on", "drawn")
    assert not [x for x in ru if any(word in x for word in english)]
    theme = _english_theme(tmp_path)
    en = {d.text for kind, view in screens_ for d in _draw(kind, view, theme).texts()}
    assert {"Novosibirsk championship", "1/9 final", "Final", "Winter cup · round 2", "Super Nine", "Player"} <= en
    assert not en & {"Чемпионат Новосибирска", "1/9 финала", "Финал", "Супердевятка", "Игрок", "Очки"}


def test_screens_take_colours_from_the_board_theme(fonts, tournaments):
    """GIVEN the light theme WHEN a bracket is drawn through its canvas THEN the screen is filled with the theme's
    background and the title is in the theme's accent."""
    theme = load_theme("light")
    canvas = _draw("bracket", views.build(tournaments[1], "bracket"), theme)
    assert canvas.surface.get_at((2, 700))[:3] == theme.color("background")
    assert theme.color("accent") in _colours(canvas.surface, pygame.Rect(0, 0, 1280, 80))


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_long_russian_names_and_labels_fit_their_boxes_at_three_percent(fonts, tournaments, size):
    """GIVEN every screen with each person's name replaced by a long Russian double-barrelled name
    WHEN drawn in Russian THEN every text stays inside its box and no text is smaller than 3 % of the screen
    height (a name becomes «И. Фамилия» or is cut with an ellipsis rather than shrink further)."""
    long = "Константин Константинопольский-Щедрин"

    def lengthen(value):
        if isinstance(value, dict):
            return {k: (long + str(i) if k in ("name", "above", "below") and isinstance(v, str) else lengthen(v))
                    for i, (k, v) in enumerate(value.items())}
        return [lengthen(v) for v in value] if isinstance(value, list) else value

    for t in tournaments:
        for kind, view in _every_view(t):
            view = lengthen(view)
            if kind == "standings":
                view["rows"] = [[row[0], long, *row[2:]] for row in view["rows"]]
            drawn = _draw(kind, view, size=size).texts()
            assert drawn
            for d in drawn:
                assert d.box.contains(d.rect) or d.rect.width <= d.box.width + 1, (kind, d.text, d.box, d.rect)
                assert d.px >= 0.03 * size[1] - 1, (kind, d.text, d.px)


def test_standings_text_for_the_terminal_uses_the_theme_words(tournaments, tmp_path):
    """GIVEN a finished samara season THEN `scoreboard tournament standings` prints the Super Nine table with
    Russian headers and the champion line (default theme), or English ones with an English theme's text."""
    text = terminal.standings_text(tournaments[6])
    assert text.splitlines()[0] == "Супердевятка" and "Игрок" in text.splitlines()[1]
    assert "Чемпион: " in text
    en = terminal.standings_text(tournaments[6], text_for("en"))
    assert en.splitlines()[0] == "Super Nine" and en.splitlines()[1].split()[:3] == ["#", "Player", "Points"]
