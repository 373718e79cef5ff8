"""The display's commands as a user runs them: `scoreboard demo` headless, `screenshot`, `theme check`, `config`."""
import os
import subprocess
import sys

import pygame
import pytest

from scoreboard.display.theme.load import load_theme

SCRIPT = """\
0    /sg/game/new novosibirsk-2007 1/9
0    /sg/player/name 1 "Анна Петрова"
0    /sg/player/name 2 Борис
0    /sg/player/name 3 Вера
0    /sg/topics Реки Горы Птицы Кино
0    /sg/game/start
0    /sg/chooser 2
1    /sg/select 3 1
2    /sg/reading/done
3    /sg/button 1
4    /sg/judge/right
5    /sg/next
"""


def scoreboard(*args, cwd, env_extra=None):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "scoreboard", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_demo_runs_headless_on_a_machine_without_display(tmp_path):
    """GIVEN no DISPLAY (CI) WHEN `scoreboard demo` runs THEN it exits 0, prints the game's progress through the
    auction, the false start, the final round, the tie-break and the winner, says the presses went through the fake
    box and the links, and writes PNG frames and the journal to out/demo/."""
    result = scoreboard("demo", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for moment in ("phase auction", "false start", "phase final_stakes", "tie-break", "WINNER",
                   "presses through the fake box", "the links' serial reader counted"):
        assert moment in out
    frames = sorted((tmp_path / "out" / "demo").glob("*.png"))
    assert len(frames) >= 12
    assert pygame.image.load(str(frames[0])).get_size() == (1280, 720)
    assert (tmp_path / "out" / "demo" / "demo.sqlite").stat().st_size > 0


def test_screenshot_draws_the_scripts_last_snapshot(tmp_path):
    """GIVEN a script that ends on the board after one played cell WHEN `screenshot` renders it at 960x540 THEN the
    PNG has that size, the played cell is the played colour and an unplayed one the cell colour (G7)."""
    script = tmp_path / "game.txt"
    script.write_text(SCRIPT, encoding="utf-8")
    png = tmp_path / "shot.png"
    result = scoreboard("screenshot", str(script), "--out", str(png), "--size", "960x540", "--theme", "light",
                        cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "choosing" in result.stdout
    image = pygame.image.load(str(png))
    assert image.get_size() == (960, 540)
    from scoreboard.display.render.canvas import Canvas
    from scoreboard.display.scenes.board import grid_rects
    from scoreboard.display.scenes.common import Layout
    theme = load_theme("light")
    layout = Layout(Canvas(pygame.Surface((960, 540)), theme))
    _, grid = grid_rects(layout.main, 4, 5, max(2, layout.m // 2))
    played, unplayed = grid[2][0], grid[0][0]
    assert image.get_at((played.left + played.w // 10, played.centery))[:3] == theme.color("cell_played")
    assert image.get_at((unplayed.left + unplayed.w // 10, unplayed.centery))[:3] == theme.color("cell")


def test_screenshot_reports_a_refused_line(tmp_path):
    """GIVEN a script with a refused command WHEN `screenshot` runs THEN it exits 1 naming the line."""
    script = tmp_path / "bad.txt"
    script.write_text("0 /sg/game/new novosibirsk-2007 1/9\n1 /sg/select 1 1\n", encoding="utf-8")
    result = scoreboard("screenshot", str(script), "--out", str(tmp_path / "x.png"), cwd=tmp_path)
    assert result.returncode == 1 and ":2:" in result.stderr


def test_theme_check_exit_status(tmp_path):
    """GIVEN a clean shipped theme and a broken one WHEN `theme check` runs THEN 0 / 1, listing file: key: reason."""
    assert scoreboard("theme", "check", "high-contrast", cwd=tmp_path).returncode == 0
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "theme.toml").write_text('[colors]\ntext = "white"\n', encoding="utf-8")
    result = scoreboard("theme", "check", str(tmp_path / "t"), cwd=tmp_path)
    assert result.returncode == 1 and "theme.toml: colors.text: expected a colour" in result.stdout


def test_config_init_then_check_then_run_use_the_platforms_config_folder(tmp_path):
    """Issue 25 item 2. GIVEN a user with no config (XDG folders in a temporary home) and a working folder
    WHEN `run` starts, then `config init`, `config check` and `config init` again run there
    THEN `run` says in one line what to do, naming the file; `config init` writes that file in the platform's config
    folder (nothing in the working folder) with its packs/themes/regulations folders beside, says where, checks
    clean, and is never overwritten silently; `SCOREBOARD_CONFIG` moves it."""
    home = {name: str(tmp_path / name) for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME")}
    work = tmp_path / "work"
    work.mkdir()
    expected = tmp_path / "XDG_CONFIG_HOME" / "svoya-scoreboard" / "scoreboard.toml"
    run = scoreboard("run", cwd=work, env_extra=home)
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert "config init" in run.stderr and str(expected) in run.stderr
    done = scoreboard("config", "init", cwd=work, env_extra=home)
    assert done.returncode == 0 and str(expected) in done.stdout
    assert expected.is_file() and list(work.iterdir()) == []
    assert (tmp_path / "XDG_DATA_HOME" / "svoya-scoreboard" / "packs").is_dir()
    assert (expected.parent / "themes").is_dir() and (expected.parent / "regulations").is_dir()
    assert scoreboard("config", "check", cwd=work, env_extra=home).returncode == 0
    assert scoreboard("config", "init", cwd=work, env_extra=home).returncode == 1   # never overwrites silently
    elsewhere = tmp_path / "etc" / "board.toml"
    assert scoreboard("config", "init", cwd=work, env_extra=dict(home, SCOREBOARD_CONFIG=str(elsewhere))).returncode == 0
    assert elsewhere.is_file()


def test_windowed_demo_plays_to_the_end_in_real_time(capsys):
    """GIVEN the windowed demo (a pygame.Window on the dummy driver) at 600× speed WHEN it runs THEN the board's
    loop plays the whole game in its window — auction, final, tie-break, winner, then the chart — with the presses
    through the fake box, and returns 0."""
    from scoreboard.demo.show import run_windowed
    lines = []
    assert run_windowed("novosibirsk-2007", None, speed=600.0, size=(320, 180), out=lines.append,
                        max_frames=20000, fps=240) == 0
    text = "\n".join(lines)
    for moment in ("phase auction", "phase final_reveal", "tie-break", "WINNER", "the game's chart",
                   "presses through the fake box"):
        assert moment in text


def test_demo_with_a_dead_display_falls_back_to_headless(tmp_path):
    """GIVEN DISPLAY naming an X server that is not there (a dead ssh -X) WHEN `scoreboard demo` runs THEN it says
    so, plays headless and exits 0 instead of running invisibly in real time."""
    result = scoreboard("demo", "--regulation", "samara-2003", cwd=tmp_path, env_extra={"DISPLAY": ":97"})
    assert result.returncode == 0, result.stderr
    assert "running headless instead" in result.stdout and "WINNER" in result.stdout
