"""Visual themes: the default first, a theme laid over it, every problem reported at once (file, key, reason),
and whatever is broken falls back to the default's value instead of stopping the board."""
import shutil
from pathlib import Path

import pygame
import pytest

from scoreboard.display import compose
from scoreboard.display.theme import load as theme_module
from scoreboard.display.theme.contrast import failing_pairs
from scoreboard.display.theme.starter import write_starter
from scoreboard.demo.frames import sample_frames
from scoreboard.display.theme.legibility import check_theme
from scoreboard.display.theme.load import ASSETS_DIR, THEMES_DIR, load_theme

SHIPPED = ("default", "classic", "high-contrast", "light")


def write_theme(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "theme.toml").write_text(text, encoding="utf-8")
    return folder


def keys(problems):
    return {p.key for p in problems}


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_themes_load_without_problems(name):
    """GIVEN a shipped theme WHEN loaded over the default THEN there is no problem and its font is the shipped TTF."""
    theme = load_theme(name)
    assert theme.problems == []
    assert Path(theme.font("main")).is_relative_to(ASSETS_DIR / "fonts")


def test_high_contrast_keeps_7_to_1_and_others_4_5_to_1():
    """GIVEN the shipped themes WHEN every text/background pair the scenes draw is measured (issue 9 item 6) THEN
    high-contrast is at least 7:1 everywhere and every other theme at least WCAG AA's 4.5:1."""
    for name in SHIPPED:
        theme = load_theme(name)
        floor = 7.0 if name == "high-contrast" else 4.5
        assert failing_pairs(theme, floor) == [], name


def test_overlay_changes_only_the_keys_it_sets(tmp_path):
    """GIVEN a theme that sets one colour and one string WHEN loaded THEN those change and all else is the default."""
    folder = write_theme(tmp_path / "club", '[colors]\nbackground = "#102030"\n[strings.ru]\npaused = "Перерыв"\n')
    theme, base = load_theme(folder), load_theme(None)
    assert theme.problems == []
    assert theme.color("background") == (0x10, 0x20, 0x30)
    assert theme.text("paused") == "Перерыв"
    assert theme.color("cell") == base.color("cell") and theme.font("main") == base.font("main")
    assert theme.text("winner") == base.text("winner")


def test_every_problem_is_reported_at_once_and_falls_back(tmp_path):
    """GIVEN a theme with many different mistakes WHEN checked THEN each is listed with file, key and reason, in one
    pass, and every rejected key keeps the default's value."""
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "notafont.ttf").write_text("hello", encoding="utf-8")
    (tmp_path / "bad" / "broken.png").write_bytes(b"not a png")
    (tmp_path / "bad" / "beep.wav").write_text("not audio", encoding="utf-8")
    folder = write_theme(tmp_path / "bad", """
[meta]
language = "de"
[colors]
background = "blue"
players = ["#ff0000"]
sparkle = "#ffffff"
[fonts]
main = "missing.ttf"
text = "notafont.ttf"
[sizes]
title = 2
small = 0.01
[images]
logo = "broken.png"
background = "nowhere.png"
[sounds]
buzz = "beep.wav"
volume = 3
[animation]
reveal = -1
[strings.ru]
typo_key = "x"
[strings.fr]
title = "x"
[extras]
a = 1
""")
    theme, base = load_theme(folder), load_theme(None)
    where = {p.file for p in theme.problems}
    assert where == {str(folder / "theme.toml")}
    expected = {"meta.language", "colors.background", "colors.players", "colors.sparkle", "fonts.main", "fonts.text",
                "sizes.title", "sizes.small", "images.logo", "images.background", "sounds.buzz", "sounds.volume",
                "animation.reveal", "strings.ru.typo_key", "strings.fr", "extras"}
    assert keys(theme.problems) == expected
    reasons = {p.key: p.reason for p in theme.problems}
    assert "file not found" in reasons["fonts.main"] and "not a usable font" in reasons["fonts.text"]
    assert "3%" in reasons["sizes.small"] and "(0, 0.5]" in reasons["sizes.title"]
    assert "not a WAV or Ogg" in reasons["sounds.buzz"] and "not a readable image" in reasons["images.logo"]
    # Fallbacks: the board still gets a usable value for every rejected key.
    assert theme.color("background") == base.color("background")
    assert theme.font("main") == base.font("main") and theme.values["images"]["logo"] == base.values["images"]["logo"]
    assert theme.size("small") == base.size("small")
    assert check_theme(folder, sample_frames())[:len(theme.problems)] == theme.problems


def test_font_without_cyrillic_is_refused(tmp_path):
    """GIVEN a real OpenType font without Cyrillic (a pygame test fixture) WHEN a theme uses it THEN it is refused,
    naming the missing letters, and the default font stays."""
    fixture = Path(pygame.__file__).parent / "tests" / "fixtures" / "fonts" / "test_fixed.otf"
    if not fixture.is_file():
        pytest.skip("pygame's test fonts are not installed")
    shutil.copy(fixture, tmp_path / "latin.otf")
    folder = write_theme(tmp_path, '[fonts]\nmain = "latin.otf"\n')
    theme = load_theme(folder)
    assert keys(theme.problems) == {"fonts.main"} and "lacks Cyrillic" in theme.problems[0].reason
    assert "Ж" in theme.problems[0].reason
    assert theme.font("main") == load_theme(None).font("main")


def test_font_missing_one_required_glyph_is_refused(monkeypatch, tmp_path):
    """GIVEN a font that has Cyrillic but not one character the board needs (here: a CJK one added to the set)
    WHEN checked THEN exactly that character is named."""
    monkeypatch.setattr(theme_module, "CYRILLIC", theme_module.CYRILLIC + "中")
    folder = write_theme(tmp_path / "t", '[fonts]\nmain = "assets:fonts/DejaVuSans.ttf"\n')
    problems = [p for p in load_theme(folder).problems if p.file == str(folder / "theme.toml")]
    assert len(problems) == 1 and problems[0].key == "fonts.main" and "'中'" in problems[0].reason


def test_cyrillic_check_passes_the_shipped_and_bundled_fonts():
    """GIVEN the shipped DejaVu fonts and pygame's bundled font WHEN checked THEN every Russian letter is covered."""
    for font in ("DejaVuSans.ttf", "DejaVuSansCondensed-Bold.ttf"):
        assert theme_module.font_problem(ASSETS_DIR / "fonts" / font) is None
    assert theme_module.font_problem(Path(pygame.__file__).parent / "freesansbold.ttf") is None
    assert (ASSETS_DIR / "fonts" / "LICENSE-DejaVu.txt").is_file()


def test_contrast_promise_is_enforced(tmp_path):
    """GIVEN a theme promising 7:1 but with grey text on grey WHEN checked THEN the failing pair is reported."""
    folder = write_theme(tmp_path / "t", '[meta]\nmin_contrast = 7.0\n[colors]\nmuted = "#777777"\n')
    problems = check_theme(folder, sample_frames())
    assert "colors.muted" in keys(problems)
    assert all("below 7:1" in p.reason for p in problems)


def test_unreadable_toml_and_missing_folder_fall_back_to_default(tmp_path):
    """GIVEN a theme.toml that is not TOML, and a folder without one WHEN loaded THEN each is reported and the
    default theme is used whole."""
    broken = write_theme(tmp_path / "broken", "[colors\nbackground = ")
    theme = load_theme(broken)
    assert "not valid TOML" in theme.problems[0].reason
    assert theme.values == load_theme(None).values
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "no theme.toml" in load_theme(empty).problems[0].reason


def test_broken_theme_still_draws_every_scene(tmp_path, games):
    """GIVEN a theme whose fonts and images are all missing WHEN every phase is drawn THEN nothing raises and the
    fallbacks (the default's font and logo) are used."""
    folder = write_theme(tmp_path / "gone", '[fonts]\nmain = "gone.ttf"\ntext = "gone.ttf"\n'
                                            '[images]\nlogo = "gone.png"\nbackground = "gone.png"\n')
    theme = load_theme(folder)
    assert len(theme.problems) == 4
    phases = set()
    for snap, hq, at in games["novosibirsk-2007"]:
        if snap["phase"] not in phases:
            phases.add(snap["phase"])
            canvas = compose.draw(pygame.Surface((480, 270)), snap, theme, at, record=True)
            assert canvas.texts()


def test_damaged_default_theme_uses_pygame_font(monkeypatch, tmp_path):
    """GIVEN even the default theme is missing (a damaged install) WHEN a theme loads THEN the built-in values and
    pygame's bundled font are used, the problem is reported, and a scene still draws Cyrillic text."""
    monkeypatch.setattr(theme_module, "DEFAULT_DIR", tmp_path / "no-default")
    theme = load_theme(None)
    assert theme.font("main") is None and "no theme.toml" in theme.problems[0].reason
    snap = {"phase": "setup", "players": [{"seat": 1, "name": "Ёжик", "score": 0}], "screen": "board"}
    canvas = compose.draw(pygame.Surface((480, 270)), snap, theme, 0, record=True)
    assert canvas.texts()


def test_theme_new_writes_a_starter_that_checks_clean(tmp_path):
    """GIVEN `theme new myclub` WHEN its starter is checked THEN it is clean and lists every key for the crew."""
    path = write_starter("myclub", tmp_path)
    text = path.read_text(encoding="utf-8")
    assert check_theme(path.parent, sample_frames()) == []
    for key in ("background", "players", "main", "cell_value", "logo", "buzz", "reveal", "winner"):
        assert f"# {key} = " in text
    with pytest.raises(FileExistsError):
        write_starter("myclub", tmp_path)
    with pytest.raises(ValueError):
        write_starter("../escape", tmp_path)


def test_live_reload_picks_up_an_edit(tmp_path):
    """GIVEN a rehearsal watcher on a theme WHEN its theme.toml is edited THEN the next poll returns the new theme."""
    from scoreboard.display.theme.reload import ThemeWatcher
    folder = write_theme(tmp_path / "live", '[colors]\nbackground = "#000000"\n')
    ticks = iter(range(100))
    watcher = ThemeWatcher(load_theme(folder), folder, interval=1.0, clock=lambda: next(ticks) * 2.0)
    assert watcher.poll() is None
    (folder / "theme.toml").write_text('[colors]\nbackground = "#ffffff"\n', encoding="utf-8")
    import os
    os.utime(folder / "theme.toml", ns=(1, 10**18))
    reloaded = watcher.poll()
    assert reloaded is not None and reloaded.color("background") == (255, 255, 255)


def test_shipped_theme_folders_are_exactly_the_documented_ones():
    """GIVEN themes/ WHEN listed THEN it holds the four documented themes (docs/THEMES.md)."""
    assert {p.name for p in THEMES_DIR.iterdir() if (p / "theme.toml").is_file()} >= set(SHIPPED)


def test_theme_new_starter_stays_valid_toml_with_every_line_uncommented(tmp_path):
    """GIVEN a starter theme WHEN every commented `# key = value` line is uncommented (a crew trying each key)
    THEN the file is still valid TOML, loads with no problem, and every uncommented value is the default's."""
    import re
    import tomllib
    path = write_starter("everything", tmp_path)
    opened = re.sub(r"(?m)^# (\w+ = )", r"\1", path.read_text(encoding="utf-8"))
    assert "None" not in opened
    tomllib.loads(opened)          # raises on invalid TOML (e.g. `background = None`, a key given twice)
    path.write_text(opened, encoding="utf-8")
    theme = load_theme(path.parent)
    assert theme.problems == []
    assert theme.values == load_theme(None).values | {"meta": theme.values["meta"]}


def test_theme_new_writes_into_the_current_directory_and_says_where(tmp_path):
    """GIVEN `scoreboard theme new myclub` run in some folder outside the checkout (and then with --dir) WHEN it
    finishes THEN ./myclub/theme.toml exists there (DIR/myclub with --dir), the checkout's themes/ got nothing, and
    the message names the absolute path written."""
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = str(THEMES_DIR.parent)
    before = sorted(p.name for p in THEMES_DIR.iterdir())
    work = tmp_path / "club"
    work.mkdir()
    done = subprocess.run([sys.executable, "-m", "scoreboard", "theme", "new", "myclub"], cwd=work, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (work / "myclub" / "theme.toml").is_file()
    assert str((work / "myclub" / "theme.toml").resolve()) in done.stdout
    done = subprocess.run([sys.executable, "-m", "scoreboard", "theme", "new", "other", "--dir", "looks"], cwd=work,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and (work / "looks" / "other" / "theme.toml").is_file()
    assert sorted(p.name for p in THEMES_DIR.iterdir()) == before
