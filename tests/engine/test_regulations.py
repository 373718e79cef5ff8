"""Regulations as data: the three presets, a club's own preset, and every problem of a broken one."""
import tomllib

import pytest
import tomli_w

from scoreboard.engine import Game, Refused, RegulationError, make
from scoreboard.regulations import REGULATIONS_DIR, known_regulations, load_regulation, load_regulation_file
from scoreboard.session import Session


def test_the_three_presets_load_with_rules_md_numbers():
    # GIVEN the shipped presets WHEN loaded THEN their numbers are the ones RULES.md gives
    assert known_regulations() == ["america-2005", "novosibirsk-2007", "samara-2003"]
    nsk, am, sa = (load_regulation(n) for n in ("novosibirsk-2007", "america-2005", "samara-2003"))
    assert nsk.values["red"] == (20, 40, 60, 80, 100) and nsk.false_start_lockout == 2.0 and nsk.auctions
    assert [r.topics for r in nsk.stage("final").rounds] == [6, 6] and nsk.stage("final").tiebreak_topics == 4
    assert am.order == "sequential" and am.answer_limit == 3.0 and am.final_kind == "super_question"
    assert [r.topics for r in am.stage("1/3").rounds] == [8, 2] and am.players_max == 4
    assert sa.first_chooser == "lot" and sa.winner == "top_positive" and sa.stage("cup").rounds[0].min_topics == 4


def test_broken_regulation_lists_every_problem_with_file_and_key(tmp_path):
    # GIVEN a preset with four independent mistakes WHEN loaded THEN all four are reported, each with file and key
    data = tomllib.loads((REGULATIONS_DIR / "novosibirsk-2007.toml").read_text(encoding="utf-8"))
    data["timers"]["buzz_window"] = "five"
    data["play"]["order"] = "random"
    data["values"]["red"] = [100, 50]
    del data["final"]["answer_time"]
    path = tmp_path / "club.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    with pytest.raises(RegulationError) as error:
        load_regulation_file(path)
    problems = error.value.problems
    assert len(problems) >= 4
    for key in ("timers.buzz_window", "play.order", "values.red", "final.answer_time"):
        assert any(p.startswith(f"{path}: {key}") for p in problems), (key, problems)


def test_incomplete_regulation_names_missing_tables(tmp_path):
    """GIVEN a preset with only a name WHEN loaded THEN every missing table is named."""
    path = tmp_path / "empty.toml"
    path.write_text('name = "empty"\n', encoding="utf-8")
    with pytest.raises(RegulationError) as error:
        load_regulation_file(path)
    assert {"players", "play", "values", "timers", "final", "tiebreak", "stages"} <= {
        p.split(": ")[1] for p in error.value.problems}


def test_not_toml_is_reported_with_the_file(tmp_path):
    """GIVEN a preset that is not TOML WHEN loaded THEN the error names the file and says so."""
    path = tmp_path / "bad.toml"
    path.write_text("name = \n", encoding="utf-8")
    with pytest.raises(RegulationError, match="not valid TOML"):
        load_regulation_file(path)


def test_club_preset_plays_without_code(tmp_path):
    # GIVEN a club preset: 4 players, 3 s window, values 5..25, 1 s answer limit, lot for the first chooser
    data = tomllib.loads((REGULATIONS_DIR / "samara-2003.toml").read_text(encoding="utf-8"))
    data.update(name="club-blitz", title="Клубный блиц")
    data["players"] = {"min": 2, "max": 4, "default": 4}
    data["values"] = {"blue": [5, 10, 15, 20, 25]}
    data["timers"]["buzz_window"] = 3.0
    data["timers"]["answer_limit"] = 1.0
    data["stages"] = {"blitz": {"rounds": [{"kind": "blue", "topics": 2}], "final": False}}
    (tmp_path / "club-blitz.toml").write_text(tomli_w.dumps(data), encoding="utf-8")
    # WHEN a game is played under it THEN its numbers apply
    s = Session(None, regulations_dir=tmp_path)
    s.submit(make(0, "/sg/game/new", "club-blitz", "blitz"))
    s.submit(make(0, "/sg/game/start"))
    snap = s.snapshot()
    assert len(snap["players"]) == 4 and len(snap["round"]["topics"]) == 2 and snap["chooser"] is not None
    assert [c["value"] for c in snap["round"]["topics"][0]["cells"]] == [5, 10, 15, 20, 25]
    s.submit(make(1, "/sg/select", 1, 1))
    s.submit(make(2, "/sg/reading/done"))
    assert s.snapshot()["question"]["deadline"] == 5.0
    s.submit(make(3, "/sg/button", 4))
    s.advance(4.5)
    assert s.snapshot()["players"][3]["score"] == -5, "the 1 s answer limit ran out (BZ5)"


def test_journaled_regulation_replays_even_if_the_file_changes(tmp_path):
    # GIVEN a game journaled under a club preset WHEN the preset file is later edited THEN replay is unchanged
    data = tomllib.loads((REGULATIONS_DIR / "samara-2003.toml").read_text(encoding="utf-8"))
    data["name"] = "club"
    (tmp_path / "club.toml").write_text(tomli_w.dumps(data), encoding="utf-8")
    s = Session(tmp_path / "g.sqlite", regulations_dir=tmp_path)
    s.submit(make(0, "/sg/game/new", "club", "cup"))
    s.submit(make(0, "/sg/game/start"))
    live = s.snapshot()
    s.close()
    data["values"]["blue"] = [1, 2, 3, 4, 5]
    (tmp_path / "club.toml").write_text(tomli_w.dumps(data), encoding="utf-8")
    from scoreboard.session import replay_snapshot
    assert replay_snapshot(tmp_path / "g.sqlite") == live


def test_unknown_regulation_or_stage_is_refused():
    """GIVEN a bare engine WHEN a game asks for an unknown regulation, stage or a path-like name THEN each is
    refused with the reason."""
    game = Game(load_regulation)
    with pytest.raises(Refused, match="no such regulation"):
        game.apply(make(0, "/sg/game/new", "moscow-1999", "1/9"))
    with pytest.raises(Refused, match="has no stage"):
        game.apply(make(0, "/sg/game/new", "novosibirsk-2007", "1/4"))
    with pytest.raises(Refused, match="not a regulation name"):
        game.apply(make(0, "/sg/game/new", "../etc/passwd", "1/9"))
