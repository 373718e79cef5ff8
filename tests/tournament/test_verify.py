"""`draw --verify` compares the games actually played and the stored draw input with the file, not only the draw
with its own re-run (fairness, T-N2/T-N3, T-A1)."""
from __future__ import annotations

import json

from scoreboard.cli import main
from scoreboard.tournament.service import Tournament

from .helpers import names, register


def _nsk(path, **kwargs):
    t = Tournament.create(path, "novosibirsk-2007", seed=9)
    for i, n in enumerate(names(27)):
        t.add_player(n, team="Т1" if i % 9 == 0 else None, seeded=i < 3)
    t.draw()
    return t


def test_tn3_verify_names_games_whose_seats_were_swapped_in_the_games_table(path, capsys):
    """GIVEN a drawn 1/9 final WHEN one player of 1/9-1 and one of 1/9-2 are swapped in the games table (the draw
    itself untouched) THEN verify names exactly those two games, with what the draw seats and what the table has;
    the CLI says there are differences and exits 1."""
    t = _nsk(path)
    one, two = t.store.game("1/9-1")["players"], t.store.game("1/9-2")["players"]
    one[0], two[0] = two[0], one[0]
    for gid, players in (("1/9-1", one), ("1/9-2", two)):
        t.store.db.execute("UPDATE games SET players = ? WHERE id = ?", (json.dumps(players), gid))
    problems = t.verify()
    assert [p.split(":")[0] for p in problems] == ["game 1/9-1", "game 1/9-2"]
    assert f"the games table has {', '.join(one)}" in problems[0]
    t.close()
    assert main(["tournament", "draw", "--verify", "--file", str(path)]) == 1
    assert "2 difference(s)" in capsys.readouterr().out


def test_tn3_audited_substitution_is_not_a_difference_but_an_unaudited_one_is(path):
    """GIVEN a T-N3 substitution made with `player substitute` THEN verify finds nothing (the absent player is in the
    draw input as at the draw, the substitute in the game); WHEN another seat is changed by hand THEN it is named."""
    t = _nsk(path)
    absent = t.store.game("1/9-4")["players"][2]
    t.substitute("1/9-4", absent, "Гость")
    assert t.verify() == []
    players = t.store.game("1/9-5")["players"]
    players[1] = "Чужой"
    t.store.db.execute("UPDATE games SET players = ? WHERE id = '1/9-5'", (json.dumps(players, ensure_ascii=False),))
    problems = t.verify()
    assert len(problems) == 1 and problems[0].startswith("game 1/9-5:") and "Чужой" in problems[0]


def test_tn2_verify_compares_the_stored_draw_input_with_the_players_table(path):
    """GIVEN a drawn 1/9 final WHEN a player's team is changed in the players table afterwards (the spread the draw
    kept no longer matches who is who) THEN verify says the input differs and which team list."""
    t = _nsk(path)
    t.store.db.execute("UPDATE players SET team = 'Т2' WHERE name = 'P05'")
    problems = t.verify()
    assert len(problems) == 1
    assert problems[0].startswith("1/9: the stored draw input differs from the players table")
    assert problems[0].endswith("teams.Т2: the file lacks P05")


def test_ta1_waiting_list_substitute_and_an_added_player(path):
    """GIVEN an america selection where P05 withdrew before the draw (P37 came in from the waiting list) and the
    next waiting player was brought in for an absent one THEN verify is clean; WHEN a player is slipped into the
    players table as active afterwards THEN the selection input misses them, named."""
    t = Tournament.create(path, "america-2005", seed=3)
    register(t, names(38))
    assert t.withdraw("P05") == "P37"
    t.draw()
    game = t.store.game("S2")
    assert t.substitute("S2", game["players"][0]) == "P38"
    assert t.verify() == []
    t.store.db.execute("INSERT INTO players(name, status, entered) VALUES ('Новый', 'active', 99)")
    problems = t.verify()
    assert problems == ["selection: the stored draw input differs from the players table at the draw: "
                        "the file lacks Новый"]


def test_tn2_verify_checks_the_stored_draw_keeps_every_spread(path):
    """GIVEN a drawn 1/9 final (3 seeded, a team of 3) WHEN the stored draw is edited so that two seeded players share
    a 1/3 branch (a seeded player swapped with an unseeded one of another branch, games table alike) THEN verify says
    the stored draw breaks a spread it did not report, naming the group and its counts per branch."""
    t = _nsk(path)
    stage = t.store.stage("1/9")
    games = stage["draw"]["games"]
    seeded = set(stage["draw"]["input"]["seeded"])
    team = set(stage["draw"]["input"]["teams"]["Т1"])
    where = {p: g for g, ps in enumerate(games) for p in ps}
    a, b = sorted(seeded, key=lambda p: where[p])[:2]                       # one a branch: 1/1/1
    d = next(p for g in games[3 * (where[a] // 3):3 * (where[a] // 3) + 3] for p in g
             if p not in seeded | team)                                     # a plain player in a's branch
    games = [[{b: d, d: b}.get(p, p) for p in g] for g in games]            # b and d change places: 2/1/0
    draw = dict(stage["draw"], games=games)
    t.store.db.execute("UPDATE stages SET draw = ? WHERE id = '1/9'", (json.dumps(draw, ensure_ascii=False),))
    problems = [p for p in t.verify() if "breaks a spread" in p]
    assert problems and "last championship's 1/3-finalists (3): per 1/3 branch" in problems[0], t.verify()
    t.close()
