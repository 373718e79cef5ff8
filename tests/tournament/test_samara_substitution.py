"""samara substitutions hold for one cup only (T-S1): the players table keeps both players for the later cups;
novosibirsk (T-N3) and america still mark the absent player withdrawn for their one tournament."""
from __future__ import annotations

import random

import pytest

from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.service import Tournament

from .helpers import names, play_stage, register


def _play_cup(t, rnd):
    """Play and advance the drawn cup round by round (drawing each next round) up to its final."""
    while True:
        play_stage(t, rnd, positive=True)
        if t.advance()["final"]:
            return
        t.draw()


def _winter_with_substitution(path):
    """Nine players enter winter and spring, «Весна» only spring; winter-1 is drawn and one absent player of
    winter-1-1 is replaced by «Весна» (a registered non-qualifier), another of winter-1-2 by «Гость» (unregistered)."""
    t = Tournament.create(path, "samara-2003", seed=3)
    register(t, names(9), cups=["winter", "spring"])
    t.add_player("Весна", cups=["spring"])
    t.draw()
    absent = t.store.game("winter-1-1")["players"][0]
    other = t.store.game("winter-1-2")["players"][1]
    assert t.substitute("winter-1-1", absent, "Весна") == "Весна"
    assert t.substitute("winter-1-2", other, "Гость") == "Гость"
    return t, absent, other


def test_ts1_winter_substitution_leaves_both_players_in_the_spring_draw(path):
    """GIVEN a samara season where winter-1-1's absent player is replaced by «Весна» (entered only in spring)
    WHEN winter is played out and spring's first round is drawn
    THEN the spring draw holds the absent player and «Весна» both (both entered spring), all ten spring entrants are
    seated, their season statuses are still active, and `draw --verify` finds nothing (T-S1)."""
    t, absent, other = _winter_with_substitution(path)
    assert t.store.game("winter-1-1")["players"][0] == "Весна"
    _play_cup(t, random.Random(3))
    t.draw()
    assert t.last_stage()["id"] == "spring-1"
    seated = sorted(p for g in t.store.games("spring-1") for p in g["players"])
    assert absent in seated and "Весна" in seated and other in seated
    assert seated == sorted(names(9) + ["Весна"])
    assert "Гость" not in seated          # entered no cup: the substitution did not enter them in one
    assert {t.store.player(n)["status"] for n in (absent, other, "Весна", "Гость")} == {"active"}
    assert t.verify() == []


def test_ts1_substitute_registered_by_a_substitution_can_enter_a_later_cup(path):
    """GIVEN «Гость», registered by a winter-1 substitution WHEN they enter spring before it starts
    THEN spring's first round seats them, and the audit entry scopes the substitution to the winter cup."""
    t, _, _ = _winter_with_substitution(path)
    t.enter_cup("Гость", "spring")
    _play_cup(t, random.Random(4))
    t.draw()
    assert "Гость" in {p for g in t.store.games("spring-1") for p in g["players"]}
    audit = [a["detail"] for a in t.store.audit_log() if a["what"] == "substitute"]
    assert [(d["by"], d["scope"]) for d in audit] == [("Весна", "winter"), ("Гость", "winter")]
    assert t.verify() == []


def test_ts1_substitution_in_a_later_cups_first_round_only(path):
    """GIVEN a samara season in its spring cup WHEN a spring-1 player is replaced THEN it is accepted (round 1 of that
    cup) and verifies; WHEN a player of a cup's second round is to be replaced THEN it is refused with the reason."""
    t = Tournament.create(path, "samara-2003", seed=5)
    register(t, names(12), cups=["winter", "spring"])
    t.add_player("Запасной", cups=["summer"])
    rnd = random.Random(5)
    t.draw()
    play_stage(t, rnd, positive=True)
    t.advance()
    t.draw()
    assert t.last_stage()["id"] == "winter-2"
    with pytest.raises(TournamentError, match="cup's first round"):
        t.substitute("winter-2-1", t.store.game("winter-2-1")["players"][0], "Запасной")
    _play_cup(t, rnd)
    t.draw()
    assert t.last_stage()["id"] == "spring-1"
    absent = t.store.game("spring-1-1")["players"][2]
    assert t.substitute("spring-1-1", absent, "Запасной") == "Запасной"
    assert t.store.player(absent)["status"] == "active" == t.store.player("Запасной")["status"]
    assert t.verify() == []


def test_tn3_novosibirsk_substitution_still_withdraws_for_the_tournament(path):
    """GIVEN a novosibirsk 1/9 final WHEN an absent player is replaced (T-N3) THEN, as before, the absent player is
    `withdrawn` and the substitute `substitute` in the players table, with no cup scope in the audit."""
    t = Tournament.create(path, "novosibirsk-2007", seed=2)
    register(t, names(27))
    t.draw()
    absent = t.store.game("1/9-3")["players"][0]
    t.substitute("1/9-3", absent, "Гость")
    assert t.store.player(absent)["status"] == "withdrawn"
    assert t.store.player("Гость")["status"] == "substitute"
    assert "scope" not in [a for a in t.store.audit_log() if a["what"] == "substitute"][0]["detail"]
    assert t.verify() == []


def test_ta1_america_waiting_substitute_still_marked_for_the_tournament(path):
    """GIVEN an america selection with a waiting list WHEN an absent player is replaced by the next waiting player
    THEN, as before, they are `withdrawn` and `substitute` in the players table."""
    t = Tournament.create(path, "america-2005", seed=6)
    register(t, names(38))
    t.draw()
    absent = t.store.game("S2")["players"][0]
    assert t.substitute("S2", absent) == "P37"
    assert (t.store.player(absent)["status"], t.store.player("P37")["status"]) == ("withdrawn", "substitute")
    assert t.verify() == []
