"""What the CLI says and refuses: advance reasons (T-N1), the `topic draw` hint (T-S8), views that fit the format,
--topics-per-game within a cup and for the Super Nine (samara 3.2.4, 3.3.3)."""
from __future__ import annotations

import random
import shutil

from scoreboard.cli import main
from scoreboard.tournament.formats.samara import flow as flow_samara
from scoreboard.tournament.service import Tournament

from .helpers import names, play_stage, register


def cli(path, *argv):
    return main(["tournament", *argv, "--file", str(path)])


def test_tn1_novosibirsk_advance_gives_each_qualifier_the_game_won(path, capsys):
    """GIVEN a played 1/9 final WHEN `advance` runs THEN every qualifier's line says which game they won."""
    t = Tournament.create(path, "novosibirsk-2007", seed=4)
    register(t, names(27))
    t.draw()
    play_stage(t, random.Random(4), positive=True)
    winners = {g["id"]: g["result"]["winner"] for g in t.store.games("1/9")}
    t.close()
    capsys.readouterr()
    assert cli(path, "advance") == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    assert sorted(lines) == sorted(f"  {w}: won {gid}" for gid, w in winners.items())


def test_ts8_failed_topic_draw_points_at_the_real_command(path, capsys):
    """GIVEN a samara cup drawn with too few topics THEN the draw says to run `topic draw`; WHEN topics are added
    and that very command is run THEN the topics are assigned."""
    t = Tournament.create(path, "samara-2003", seed=8)
    register(t, names(9), cups=["winter"])
    flow_samara.add_topic(t, "Only one")
    summary = t.draw()
    assert summary["topics"].endswith("add topics and run `topic draw`")
    t.close()
    for i in range(12):
        assert cli(path, "topic", "add", f"Тема {i}") == 0
    capsys.readouterr()
    assert cli(path, "topic", "draw") == 0
    assert capsys.readouterr().out.strip() == "topics assigned"


def test_render_refuses_a_view_the_format_does_not_have(season_file, tmp_path, capsys):
    """GIVEN a samara season WHEN `render bracket` is asked THEN it is refused with the views that fit, and no PNG is
    written; `render round` draws."""
    out, season = tmp_path / "b.png", tmp_path / "s.sqlite"
    shutil.copy(season_file, season)
    assert cli(season, "render", "bracket", "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert "no 'bracket' view; its views are round, standings, cross" in err and not out.exists()
    assert cli(season, "render", "round", "--out", str(out)) == 0 and out.stat().st_size > 0


def test_render_refuses_rounds_for_novosibirsk(path, tmp_path, capsys):
    """GIVEN a drawn novosibirsk 1/9 final WHEN `render round` is asked THEN it exits 2 naming the views the format has
    (bracket, standings)."""
    t = Tournament.create(path, "novosibirsk-2007", seed=4)
    register(t, names(18))
    t.draw()
    t.close()
    assert cli(path, "render", "round", "--out", str(tmp_path / "r.png")) == 2
    assert "its views are bracket, standings" in capsys.readouterr().err


def test_ts3_topics_per_game_is_refused_after_a_cups_first_round(path, capsys):
    """GIVEN a winter cup drawn with 5 topics a game (samara 3.2.4: the same number in every game of a cup)
    WHEN round 2 is drawn with --topics-per-game 6 THEN it is refused with the reason and nothing is drawn;
    the same count as the cup's is accepted."""
    t = Tournament.create(path, "samara-2003", seed=8)
    register(t, names(18), cups=["winter"])
    t.draw(topics_per_game=5)
    play_stage(t, random.Random(8), positive=True)
    t.advance()
    t.close()
    assert cli(path, "draw", "--topics-per-game", "6") == 2
    assert "plays 5 topics in every game" in capsys.readouterr().err
    assert Tournament(path).last_stage()["id"] == "winter-1"
    assert cli(path, "draw", "--topics-per-game", "5") == 0
    assert Tournament(path).store.stage("winter-2")["draw"]["topics_per_game"] == 5


def test_ts6_topics_per_game_applies_to_the_super_nine(season_file, tmp_path):
    """GIVEN a season ready for the Super Nine WHEN it is drawn with --topics-per-game 6 (samara 3.3.3)
    THEN its stored draw and every game's setup say 6."""
    copy = tmp_path / "s.sqlite"
    shutil.copy(season_file, copy)
    t = Tournament(copy)
    assert t.draw(topics_per_game=6)["stage"] == "super9"
    assert t.store.stage("super9")["draw"]["topics_per_game"] == 6
    assert t.verify() == []
