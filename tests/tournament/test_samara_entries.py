"""Issue 12 item 4, T-S1 (samara 3.2.1 «в любом их подмножестве»): a player enters or leaves any cup before its
draw, and withdraws from a drawn cup by the substitution (round 1, for that cup) or the walkover the program's
decision allows (samara 5.4 leaves it to the organisers). Real SQLite file, through the CLI."""
from __future__ import annotations

import random

import pytest

from scoreboard.cli import main
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.service import Tournament

from .helpers import names, play_stage, register


def cli(path, *argv):
    return main(["tournament", *argv, "--file", str(path)])


def _season(path, n=13):
    t = Tournament.create(path, "samara-2003", seed=8)
    register(t, names(n))             # every cup not started: all three
    return t


def _finish_cup(t, cup):
    while True:
        stage = t.last_stage()
        play_stage(t, random.Random(stage["id"]), positive=True)
        if t.advance().get("final"):
            return
        t.draw()


def test_ts1_leave_and_enter_later_cups_after_the_first_cup_is_drawn(path, capsys):
    """GIVEN a season whose winter cup is drawn WHEN P05 leaves spring and summer, and P13 (who entered winter only)
    enters summer, through the CLI with options in any order (item 9: between two positional arguments too) THEN spring and summer are drawn with exactly those
    entries; P05 still plays winter; `draw --verify` passes."""
    t = _season(path)
    t.add_player("P14", cups=["winter"])
    t.draw()
    t.close()
    assert cli(path, "player", "leave", "P05", "spring") == 0
    assert "P05 left the spring cup (before its draw)" in capsys.readouterr().out
    assert cli(path, "--file", str(path), "player", "leave", "P05", "summer") == 0
    assert main(["tournament", "player", "enter", "P14", "--file", str(path), "summer"]) == 0   # between the two
    t = Tournament(path)
    assert t.store.player("P05")["cups"] == ["winter"] and t.store.player("P14")["cups"] == ["winter", "summer"]
    assert any("P05" in g["players"] for g in t.store.games("winter-1"))
    _finish_cup(t, "winter")
    t.draw()
    spring = {p for g in t.store.games("spring-1") for p in g["players"]}
    assert "P05" not in spring and "P14" not in spring and len(spring) == 12
    assert t.verify() == []


def test_ts1_leaving_a_drawn_round_is_a_walkover_and_the_round_goes_on(path, capsys):
    """GIVEN winter round 1 drawn (13 players: games of 3, 3, 3, 2, 2) WHEN a player of a game of three leaves
    winter THEN the other two play it; WHEN a player of a game of two leaves THEN the other wins it by walkover
    without playing (0 points, no conditional points, T-S4), recorded at once; the round's size is the 11 who
    play it (T-S3: 3·⌊11/6⌋ = 3 places, grown to 6 for its 5 winners); the walkover is audited, exported and
    `draw --verify` re-applies it to the seats."""
    t = _season(path)
    t.draw()
    games = t.store.games("winter-1")
    three = next(g for g in games if len(g["players"]) == 3)
    two = next(g for g in games if len(g["players"]) == 2)
    t.close()
    assert cli(path, "player", "leave", three["players"][0], "winter") == 0
    assert f"out of {three['id']} by walkover; {', '.join(three['players'][1:])} play it" in capsys.readouterr().out
    assert cli(path, "player", "--file", str(path), "leave", two["players"][1], "winter") == 0
    assert f"{two['players'][0]} wins it without playing" in capsys.readouterr().out
    t = Tournament(path)
    assert t.store.game(three["id"])["players"] == three["players"][1:]
    lone = t.store.game(two["id"])
    assert lone["players"] == two["players"][:1] and lone["result"]["winner"] == two["players"][0]
    with pytest.raises(TournamentError, match="neither a seat"):      # the one who left has no seat any more
        t.record_typed(three["id"], {"1": 100, "2": 50, "3": 10})
    play_stage(t, random.Random(1), positive=True)
    adv = t.advance()
    assert sum(len(g["players"]) for g in t.store.games("winter-1")) == 11
    assert adv["size"] == 6 and two["players"][0] in adv["by_win"] and adv["points"][two["players"][0]] == 0
    assert three["players"][0] not in adv["qualified"]
    assert t.verify() == []
    assert [a["detail"]["name"] for a in t.export()["corrections"] if a["what"] == "walkover"] == \
        [three["players"][0], two["players"][1]]


def test_ts1_substitution_stays_the_round_one_alternative(path):
    """GIVEN winter round 1 drawn WHEN an absent player is replaced (player substitute) THEN the substitute plays
    that game; the walkover is the way out of a later round, where a substitution is refused."""
    t = _season(path)
    t.draw()
    g = t.store.games("winter-1")[0]
    assert t.substitute(g["id"], g["players"][0], "Новичок") == "Новичок"
    play_stage(t, random.Random(2), positive=True)
    t.advance()
    t.draw()
    g2 = t.store.games("winter-2")[0]
    with pytest.raises(TournamentError, match="only a player of a cup's first round can be replaced"):
        t.substitute(g2["id"], g2["players"][0], "Ещё один")
    out = t.leave_cup(g2["players"][0], "winter")
    assert out["how"] == "walkover" and out["game"] == g2["id"]
    assert t.verify() == []


def test_ts1_withdraw_during_the_season_leaves_every_cup_not_over(path, capsys):
    """GIVEN winter round 1 drawn WHEN a player withdraws (player withdraw) THEN they leave their winter game by
    walkover and their spring and summer entries; a later withdrawal, with nothing left, is refused."""
    t = _season(path)
    t.draw()
    who = t.store.games("winter-1")[0]["players"][0]
    t.close()
    assert cli(path, "player", "withdraw", who) == 0
    out = capsys.readouterr().out
    assert "by walkover" in out and "left the spring cup" in out and "left the summer cup" in out
    t = Tournament(path)
    assert t.store.player(who)["cups"] == ["winter"]
    assert who not in t.store.games("winter-1")[0]["players"]


@pytest.mark.parametrize("action, says", [
    (("P01", "autumn"), "unknown cup 'autumn'"),
    (("P99", "spring"), "no player 'P99'"),
    (("PLAYED", "winter"), "already has a result"),
    (("OUT", "summer"), "has not entered the summer cup"),
])
def test_ts1_leaving_refusals_change_nothing(path, capsys, action, says):
    """GIVEN winter round 1 drawn and its first game recorded WHEN leaving an unknown cup, as an unknown player,
    from a game with a result, or a cup not entered THEN refused with the reason, exit 2, the file unchanged."""
    t = _season(path)
    t.add_player("OUT", cups=["winter"])
    t.draw()
    first = t.store.games("winter-1")[0]
    t.record_typed(first["id"], {str(i + 1): 100 - 10 * i for i in range(len(first["players"]))})
    before = (t.store.players(), t.store.games(), len(t.store.audit_log()))
    t.close()
    name = first["players"][0] if action[0] == "PLAYED" else action[0]
    assert cli(path, "player", "leave", name, action[1]) == 2
    assert says in capsys.readouterr().err
    t = Tournament(path)
    assert (t.store.players(), t.store.games(), len(t.store.audit_log())) == before


def test_ts1_a_finished_cup_cannot_be_left_and_other_formats_have_no_cups(path, tmp_path):
    """GIVEN the winter cup played to its final THEN leaving it is refused («the winter cup is over»); GIVEN a
    novosibirsk tournament THEN `player leave` is refused: it has no cups."""
    t = _season(path, 9)
    t.draw()
    _finish_cup(t, "winter")
    with pytest.raises(TournamentError, match="the winter cup is over"):
        t.leave_cup("P01", "winter")
    n = Tournament.create(tmp_path / "n.sqlite", "novosibirsk-2007", seed=1)
    with pytest.raises(TournamentError, match="has no cups"):
        n.leave_cup("P01", "winter")
