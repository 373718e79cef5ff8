"""Choosing a game's topics (by order, by name, by number, by round.topic) and what the plan carries."""
import pytest

from scoreboard.packs import PackError, load_plan
from siqbuild import topic, write_siq


@pytest.fixture
def pack(tmp_path):
    rounds = [("Синий", [topic("Реки"), topic("Горы"), topic("Сломанная", count=4), topic("Моря")]),
              ("Красный", [topic("Космос"), topic("Реки")])]
    return str(write_siq(tmp_path / "p.siq", 5, rounds))


def names(plan):
    return [[t["name"] for t in r["topics"]] for r in plan["rounds"]]


def test_default_order_takes_every_topic_and_refuses_a_broken_one(pack):
    """GIVEN a pack with a 4-question topic WHEN loaded with no choice THEN refused naming that topic."""
    with pytest.raises(PackError, match="topic 3 «Сломанная»: the topic has 4 questions"):
        load_plan(pack)


def test_organiser_chooses_by_name_number_and_round_topic(pack):
    """GIVEN the organiser's list «Моря», 2, 2.1 WHEN loaded THEN rounds keep those topics in that order, the
    plan records the choice, and the playable topics not chosen become extras (the broken one does not)."""
    plan = load_plan(pack, topics=["Моря", "2", "2.1"])
    assert names(plan) == [["Моря", "Горы"], ["Космос"]]
    assert plan["selection"] == [{"round": 1, "topic": 4, "name": "Моря"}, {"round": 1, "topic": 2, "name": "Горы"},
                                 {"round": 2, "topic": 1, "name": "Космос"}]
    assert [t["name"] for t in plan["extra"]] == ["Реки", "Реки"]


@pytest.mark.parametrize("choice,reason", [(["Океаны"], "no topic named «Океаны»"),
                                           (["Реки"], "«Реки» names 2 topics \\(1.1, 2.2\\)"),
                                           (["9"], "topic number 9: the pack has topics 1–6"),
                                           (["3.1"], "topic 3.1: no such round.topic"),
                                           (["Горы", "1.2"], "«1.2» is chosen twice"),
                                           ([], "the list of topics is empty")])
def test_bad_choices_are_refused_with_the_reason(pack, choice, reason):
    """GIVEN an unknown, ambiguous, out-of-range, duplicate or empty choice WHEN loaded THEN refused, saying why."""
    with pytest.raises(PackError, match=reason):
        load_plan(pack, topics=choice)


def test_choosing_by_name_ignores_case_and_spaces(pack):
    """GIVEN «  горы » WHEN loaded THEN topic «Горы» is chosen."""
    assert names(load_plan(pack, topics=["  горы ", "космос"])) == [["Горы"], ["Космос"]]
