"""Whole championships of each regulation, from registration to the champion, through the real file and CLI."""
from __future__ import annotations

import json
import random

import pytest

from scoreboard.cli import main
from scoreboard.tournament import draw as draw_rules
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.service import Tournament

from .helpers import names, play_stage, register


def cli(path, *argv):
    return main(["tournament", *argv, "--file", str(path)])


def test_tn1_novosibirsk_championship_through_the_cli(path, capsys):
    """GIVEN 27 registered players (a team of 4, nine last-season 1/3-finalists)
    WHEN the organiser draws, records every game by seat, advances, through to the final
    THEN the champion is the final's winner, the bracket has 9 + 3 + 1 games and every draw re-runs from the seed."""
    assert cli(path, "new", "--format", "novosibirsk-2007", "--seed", "2007") == 0
    for i, name in enumerate(names(27)):
        extra = (["--team", "Мозговорот"] if i < 4 else []) + (["--seeded"] if i % 3 == 0 else [])
        assert cli(path, "player", "add", name, *extra) == 0
    for stage, count in (("1/9", 9), ("1/3", 3), ("final", 1)):
        assert cli(path, "draw") == 0
        games = Tournament(path).store.games(stage)
        assert len(games) == count
        for k, g in enumerate(games):
            scores = ",".join(f"{seat}={v}" for seat, v in zip((1, 2, 3), (100 + k, 50, -20)))
            assert cli(path, "result", g["id"], "--scores", scores) == 0
        assert cli(path, "advance") == 0
    t = Tournament(path)
    final = t.store.games("final")[0]
    assert t.standings()["champion"] == final["players"][0]
    capsys.readouterr()
    assert cli(path, "draw", "--verify") == 0
    assert "matches the file" in capsys.readouterr().out
    assert cli(path, "export", "--format", "games-csv") == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == 1 + 3 * 13
    assert cli(path, "export", "--csv") == 0      # the standings: one row per player (issue 12 item 5)
    assert len(capsys.readouterr().out.strip().splitlines()) == 1 + len(t.store.players())
    assert cli(path, "draw") == 2
    assert "championship is over" in capsys.readouterr().err


def test_tn1_game_without_winner_leaves_a_smaller_game_and_a_walkover(path):
    """GIVEN 1/9 games 1 and 2 end with no positive score (no winner, FN1) THEN 1/3 game 1 has only the winner of
    1/9-3, who goes on by walkover without playing."""
    t = Tournament.create(path, "novosibirsk-2007", seed=1)
    register(t, names(27))
    t.draw()
    play_stage(t, random.Random(1), scores=lambda g: [-10, -20, -30] if g["id"] in ("1/9-1", "1/9-2") else [90, 20, 10])
    assert t.advance()["by_game"]["1/9-1"] is None
    t.draw()
    first = t.store.game("1/3-1")
    assert len(first["players"]) == 1 and first["result"]["winner"] == first["players"][0]


def test_tn3_absent_player_replaced_by_a_present_non_qualifier(path):
    """GIVEN a drawn 1/9 final WHEN an absent player of 1/9-4 is replaced by a non-qualifier THEN the seat is theirs;
    a player drawn in another game is refused as substitute, so is replacing in a game with a result, and the
    draw still verifies (T-N3)."""
    t = Tournament.create(path, "novosibirsk-2007", seed=1)
    register(t, names(27))
    t.draw()
    game = t.store.game("1/9-4")
    absent = game["players"][1]
    assert t.substitute("1/9-4", absent, "Гость") == "Гость"
    assert t.store.game("1/9-4")["players"][1] == "Гость"
    with pytest.raises(TournamentError, match="non-qualifier"):
        t.substitute("1/9-5", t.store.game("1/9-5")["players"][0], t.store.game("1/9-6")["players"][0])
    t.record_typed("1/9-4", {"1": 30, "2": 20, "3": 10})
    with pytest.raises(TournamentError, match="already has a result"):
        t.substitute("1/9-4", "Гость", "Другой")
    assert t.verify() == []


def test_verify_catches_a_tampered_draw(path):
    """GIVEN an america selection drawn from seed 5 WHEN two players are swapped in the stored draw
    THEN `verify` reports that the re-run from the seed differs, and names games S1 and S2 as no longer matching."""
    t = Tournament.create(path, "america-2005", seed=5)
    register(t, names(20))
    t.draw()
    stage = t.store.stage("selection")
    games = stage["draw"]["games"]
    games[0][0], games[1][0] = games[1][0], games[0][0]
    t.store.db.execute("UPDATE stages SET draw = ? WHERE id = 'selection'", (json.dumps(dict(stage["draw"], games=games)),))
    problems = t.verify()
    assert problems[0].startswith("selection: the draw re-run from seed 5")
    # the games table still holds the true draw, so it no longer matches the edited one: both games are named
    assert [p.split(":")[0] for p in problems[1:]] == ["game S1", "game S2"]


def test_samara_season_three_cups_super_nine_champion(path):
    """GIVEN a season: 30 enter winter, 24 spring, 27 summer (some relatives, last season's Super Nine seeded)
    WHEN every cup is played round by round and the Super Nine after it
    THEN round 1 of each cup keeps relatives apart and spreads the right group (winter: the seeded; spring and
    summer: the previous cup's 1/3-finalists), the Super Nine takes the top 9 by T-S5 and plays the 12 fixed games,
    and the champion is its first place."""
    t = Tournament.create(path, "samara-2003", seed=2003)
    everyone = names(34)
    for i, name in enumerate(everyone):
        cups = [c for c, span in (("winter", range(0, 30)), ("spring", range(10, 34)), ("summer", range(4, 31)))
                if i in span]
        t.add_player(name, seeded=i < 9, cups=cups, relatives=[everyone[i - 1]] if i in (11, 20) else ())
    rnd = random.Random(3)
    spread_seen = {}
    for cup in ("winter", "spring", "summer"):
        t.draw()
        first = t.last_stage()
        given = first["draw"]["input"]
        groups = [draw_rules.Group("x", tuple(pair), apart=True) for pair in given["relatives"]]
        groups.append(draw_rules.Group("spread", tuple(given["spread"])))
        assert draw_rules.check(first["draw"]["games"], groups) == []
        spread_seen[cup] = given["spread"]
        while True:
            play_stage(t, rnd, positive=True)
            if t.advance().get("final"):
                break
            t.draw()
    assert spread_seen["winter"] == names(9)
    winter_rounds = [s for s in t.store.stages() if s["id"].startswith("winter-")]
    assert spread_seen["spring"] == sorted(set(p for g in winter_rounds[-2]["draw"]["games"] for p in g)
                                           & set(everyone[10:34]))
    summary = t.draw()
    assert summary["stage"] == "super9" and len(summary["games"]) == 12
    season = t.standings()["season"]
    nine = {p for g in summary["games"].values() for p in g}
    assert nine == {row["name"] for row in season[:9]}
    play_stage(t, rnd)
    adv = t.advance()
    assert adv["champion"] == [line["name"] for line in adv["lines"] if line["place"] == 1]
    assert all(line["games"] == 4 for line in adv["lines"])
    assert t.verify() == []
    with pytest.raises(TournamentError, match="season is over"):
        t.draw()


def test_bad_input_is_refused_and_changes_nothing(path, capsys):
    """GIVEN a samara file WHEN the CLI gets an unknown cup, a duplicate or malformed name, an unknown relative,
    non-numeric scores, a `new` over an existing file or a non-tournament file THEN each exits 2 with the reason,
    and the player list is unchanged."""
    assert cli(path, "new", "--format", "samara-2003", "--seed", "1") == 0
    assert cli(path, "player", "add", "Анна", "--cups", "autumn") == 2
    assert "unknown cup 'autumn'" in capsys.readouterr().err
    assert cli(path, "player", "add", "Анна") == 0
    assert cli(path, "player", "add", " анна ") == 2
    assert cli(path, "player", "add", "Борис", "--relative-of", "Никто") == 2
    assert cli(path, "player", "add", "Иванов, Пётр") == 2
    assert [p["name"] for p in Tournament(path).store.players()] == ["Анна"]
    assert cli(path, "result", "winter-1-1", "--scores", "1=ten") == 2
    assert "is not a number" in capsys.readouterr().err
    assert cli(path, "result", "winter-1-1", "--scores", "1=nan,2=inf") == 2
    assert "is not a number" in capsys.readouterr().err
    assert cli(path, "new", "--format", "samara-2003") == 2
    assert "never overwritten" in capsys.readouterr().err
    (path.parent / "junk.sqlite").write_text("not a database")
    assert main(["tournament", "games", "--file", str(path.parent / "junk.sqlite")]) == 2
    assert "not a tournament file" in capsys.readouterr().err


def test_verify_reruns_the_super_nine_selection_from_the_cups(tmp_path):
    """GIVEN a finished season WHEN a cup result is edited behind the tournament's back
    THEN `draw --verify` reports that the re-run differs (the selection or an advancement no longer matches)."""
    from scoreboard.demo import tournament as demo
    t = demo.build(tmp_path / "s.sqlite", "samara-2003")
    assert t.verify() == []
    g = t.store.game("summer-1-1")
    r = g["result"]
    loser = [s for s in r["seats"] if s["name"] != r["winner"]][-1]
    loser["score"] = 5000
    t.store.db.execute("UPDATE games SET result = ? WHERE id = ?", (json.dumps(r), g["id"]))
    assert t.verify()
