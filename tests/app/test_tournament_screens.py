"""`/sg/screen bracket|standings` on the audience screen: the tournament's own drawing when a tournament file is
configured, a "no tournament" placeholder otherwise, and a broken file never stops the board."""
import pygame
import pytest

from scoreboard.display import compose
from scoreboard.app.tournament import TournamentScreens
from scoreboard.display.theme.load import load_theme

service = pytest.importorskip("scoreboard.tournament.service")

SNAP = {"phase": "round_intro", "screen": "bracket", "players": [{"seat": 1, "name": "Анна", "score": 0}],
        "round": {"index": 0, "kind": "blue", "topics": []}}


def test_bracket_screen_draws_the_tournament(tmp_path):
    """GIVEN a drawn novosibirsk tournament of 27 players WHEN the audience screen is on `bracket` THEN the
    tournament's bracket is drawn (not the placeholder) and the screen differs from the placeholder's pixels."""
    path = tmp_path / "cup.sqlite"
    t = service.Tournament.create(path, "novosibirsk-2007", seed=7)
    for i in range(27):
        t.add_player(f"Игрок {i + 1}")
    t.draw()
    t.close()
    theme = load_theme("classic")
    with_file = compose.draw(pygame.Surface((960, 540)), SNAP, theme, 0, tournament=TournamentScreens(str(path)),
                            record=True)
    assert with_file.tagged("tournament:bracket") and not with_file.texts("tournament:none")
    placeholder = compose.draw(pygame.Surface((960, 540)), SNAP, theme, 0, record=True)
    assert placeholder.texts("tournament:none")[0].text == theme.text("no_tournament")
    assert pygame.image.tobytes(with_file.surface, "RGB") != pygame.image.tobytes(placeholder.surface, "RGB")


def test_missing_tournament_file_falls_back_to_the_placeholder(tmp_path):
    """GIVEN a configured tournament file that does not exist WHEN `standings` is shown THEN the placeholder is
    drawn and the reason is reported once."""
    said = []
    screens = TournamentScreens(str(tmp_path / "nope.sqlite"), out=said.append)
    snap = dict(SNAP, screen="standings")
    for _ in range(3):
        canvas = compose.draw(pygame.Surface((480, 270)), snap, load_theme(None), 0, tournament=screens, record=True)
        assert canvas.texts("tournament:none")
    assert len(said) == 1 and "nope.sqlite" in said[0]


def test_english_theme_language_switches_the_strings(tmp_path):
    """GIVEN a theme with language = "en" WHEN the placeholder is drawn THEN it is in English."""
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "theme.toml").write_text('[meta]\nlanguage = "en"\n', encoding="utf-8")
    canvas = compose.draw(pygame.Surface((480, 270)), SNAP, load_theme(tmp_path / "en"), 0, record=True)
    assert canvas.texts("tournament:none")[0].text == "No tournament configured"
