"""The tournament package's shape (issue 12 item 8, issue 23) and its command line (item 9): the domain never imports
the display, the links or the app, its import graph has no circle and takes no private name, `scoreboard tournament …`
loads no pygame, formats live in their modules behind one registry; options go anywhere, a mistyped name gets the
closest names, an option the format has not is refused."""
from __future__ import annotations

import ast
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from scoreboard import labels
from scoreboard.cli import main
from scoreboard.demo import tournament as demo
from scoreboard.tournament import formats
from scoreboard.tournament.service import Tournament
from scoreboard.tournament.terminal import display_width, render_table
from tests.architecture import problems

from .helpers import names, play_stage, register

PACKAGE = Path(__file__).resolve().parents[2] / "scoreboard" / "tournament"
# Modules that belong to one format (formats/: the registry, and each format's rules, flow, views, labels) and the
# samara topic rule (T-S8): only they may name one.
FORMAT_OWNED = ("formats/", "topics.py")


def _imports(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield node, [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node, [node.module]


def test_the_tournament_domain_never_imports_the_display_the_links_or_the_app():
    """GIVEN every module of scoreboard/tournament, its sub-packages too WHEN its imports are read THEN none imports
    scoreboard.display, scoreboard.links, scoreboard.app or pygame (`render` and the bench draw from outside)."""
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, modules in _imports(tree):
            shown = [m for m in modules
                     if m.startswith(("scoreboard.display", "scoreboard.links", "scoreboard.app", "pygame"))]
            assert not shown, (path.name, shown)


def test_the_tournament_import_graph_has_no_circle_no_private_reach_no_unmarked_inner_import():
    """GIVEN the import graph read from the sources, imports inside functions counted (tests/architecture.py) WHEN the
    problems of the tournament's own modules are listed THEN there are none: no circle, no `_private` name taken from
    another module, every import inside a function says why it waits (`# lazy:`), no arrow up the layers."""
    ours = [p for p in problems("scoreboard.tournament") if p.startswith(("scoreboard.tournament", "circle:"))]
    assert ours == []


def test_no_module_outside_a_format_branches_on_a_format_name():
    """GIVEN the shared modules (service, views, common, CLI, store, verify, labels …) WHEN searched for the three
    regulation names THEN none has one: a fourth format is its own module plus one line in formats.FORMATS."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).as_posix().startswith(FORMAT_OWNED):
            continue
        text = path.read_text(encoding="utf-8")
        for name in formats.names():
            assert name not in text, (path.name, name)


def test_every_registered_format_offers_the_whole_interface():
    """GIVEN the registry WHEN each format module is loaded THEN it has its flow, views, screen, its words in both
    languages (scoreboard/labels.py) and winner rules (what service, views and the CLI call)."""
    for name in formats.names():
        module = formats.format_module(name)
        for attr in ("draw_next", "advance", "standings", "expected_input", "redraw", "registration_status",
                     "cups_entered", "substitute_for", "screen", "WINNER", "TIEBREAK", "SHARED_FIRST_STAGES",
                     "OPTIONS", "TITLE", "DEMO"):
            assert hasattr(module, attr), (name, attr)
        words = labels.FORMATS[name]
        assert "standings" in module.VIEWS and set(words) == {"ru", "en"}
        assert module.TITLE in words["ru"] and set(words["ru"]) == set(words["en"])


def test_tournament_standings_in_a_terminal_loads_no_pygame(tmp_path):
    """GIVEN a finished novosibirsk championship WHEN `python -X importtime -m scoreboard tournament standings` runs
    THEN it prints the table and not one pygame module is imported."""
    demo.build(tmp_path / "t.sqlite", "novosibirsk-2007").close()
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "scoreboard", "tournament", "standings",
                          "--file", str(tmp_path / "t.sqlite")], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Чемпион: " in run.stdout
    imported = [line.split("|")[-1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")]
    assert "scoreboard.tournament.views" in imported          # the measurement saw the tournament's own modules
    assert not [m for m in imported if m.split(".")[0] == "pygame"]


def test_options_go_before_or_after_the_action_file_included(path, capsys):
    """GIVEN a new tournament WHEN `--file` and `--json` come before the action, after it, or the file comes from
    $TOURNAMENT THEN every form finds the same file."""
    assert main(["tournament", "--file", str(path), "new", "--format", "america-2005", "--seed", "3"]) == 0
    assert main(["tournament", "player", "add", "Анна", "--file", str(path)]) == 0
    assert main(["tournament", "--json", "--file", str(path), "player", "list"]) == 0
    out = capsys.readouterr().out
    assert '"name": "Анна"' in out


def test_a_mistyped_player_name_suggests_the_closest(path, capsys):
    """GIVEN players «Анна Белова» and «Борис Гусев» WHEN a withdrawal names «Ана Белова» THEN it is refused, exits
    2, and suggests «Анна Белова»; nothing changes."""
    t = Tournament.create(path, "novosibirsk-2007", seed=1)
    t.add_player("Анна Белова")
    t.add_player("Борис Гусев")
    t.close()
    capsys.readouterr()
    assert main(["tournament", "player", "withdraw", "Ана Белова", "--file", str(path)]) == 2
    assert "did you mean Анна Белова?" in capsys.readouterr().err
    assert Tournament(path).store.player("Анна Белова")["status"] == "active"


@pytest.mark.parametrize("fmt, argv, flag", [
    ("america-2005", ["player", "add", "X", "--seeded"], "--seeded"),
    ("america-2005", ["player", "add", "X", "--team", "T"], "--team"),
    ("novosibirsk-2007", ["player", "add", "X", "--cups", "winter"], "--cups"),
    ("novosibirsk-2007", ["player", "add", "X", "--relative-of", "Y"], "--relative-of"),
    ("novosibirsk-2007", ["draw", "--topics-per-game", "5"], "--topics-per-game"),
])
def test_an_option_the_format_has_not_is_refused(path, capsys, fmt, argv, flag):
    """GIVEN a tournament of one format WHEN a command carries an option of another format THEN it is refused naming
    the option and the format, exit 2, and nobody is registered."""
    Tournament.create(path, fmt, seed=1).close()
    capsys.readouterr()
    assert main(["tournament", *argv, "--file", str(path)]) == 2
    assert f"{flag} does not apply to a {fmt} tournament" in capsys.readouterr().err
    assert Tournament(path).store.players() == []


def test_ta5_americas_final_advance_prints_the_champion(path, capsys):
    """GIVEN an america tournament played to its final WHEN the final is advanced from the CLI THEN the output names
    the champion (the final's winner)."""
    t = Tournament.create(path, "america-2005", seed=5)
    register(t, names(18))
    rnd = random.Random(5)
    for _ in range(2):
        t.draw()
        play_stage(t, rnd)
        t.advance()
    t.draw()
    play_stage(t, rnd)
    winner = t.store.game("final")["result"]["winner"]
    t.close()
    capsys.readouterr()
    assert main(["tournament", "advance", "--file", str(path)]) == 0
    assert f"champion: {winner}" in capsys.readouterr().out


def test_terminal_table_aligns_by_display_width():
    """GIVEN names with a combining breve (й typed as и + ◌̆) and wide CJK characters WHEN the table is rendered
    THEN every line has the same display width up to its last column, so the numbers line up."""
    assert display_width("Йи\u0306") == 2 and display_width("王小明") == 6
    rows = [["1", "Андреи\u0306 Й", "10"], ["2", "王小明", "200"], ["3", "Bob", "3"]]
    lines = render_table(["#", "Игрок", "Очки"], rows).splitlines()
    assert len({display_width(line) for line in lines}) == 1, lines
