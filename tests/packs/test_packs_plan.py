"""Choosing a game's topics (by order, by name, by number, by round.topic) and what the plan carries."""
import shutil
from pathlib import Path

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


def test_default_order_takes_every_playable_topic_and_leaves_a_broken_one_out(pack):
    """GIVEN a pack with a 4-question topic WHEN loaded with no choice THEN every other topic is in the plan, in pack
    order and in its own round, and a warning names the broken one and says it is left out; choosing it refuses."""
    plan = load_plan(pack)
    assert "Сломанная" not in [t["name"] for r in plan["rounds"] for t in r["topics"]]
    assert len(plan["rounds"]) == 2
    assert any("topic 3 «Сломанная»: the topic has 4 questions" in w and "left out" in w for w in plan["warnings"])
    with pytest.raises(PackError, match="topic 3 «Сломанная»: the topic has 4 questions"):
        load_plan(pack, topics=["Сломанная"])


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


def test_p2_plan_warnings_name_every_warning_of_what_the_game_can_play(tmp_path):
    """GIVEN a v5 pack: «А» q2 without a source (P2), «Б» q3 of type secret, «В» q1 with an image missing from the
    archive, «Г» broken and also without a source, a final of type forAll WHEN the organiser plays «А», «Б» THEN
    plan["warnings"] has a line naming round, topic and question for «А», «Б», «В» (now a tie-break topic) and the
    final, nothing about «Г» (never played), and no info line (pack prices)."""
    rounds = [("Р", [topic("А", count=6, extra={2: {"source": ""}}), topic("Б", count=6, extra={3: {"type": "secret"}}),
                     topic("В", count=6, media=[("image", "нет.png")]), topic("Г", count=4, extra={1: {"source": ""}})])]
    final = ("Физика", {"text": "в", "answers": ["о"], "source": "ГОСТ", "type": "forAll"})
    plan = load_plan(str(write_siq(tmp_path / "p.siq", 5, rounds, final=final)), topics=["А", "Б"])
    assert plan["warnings"] == [
        "round 1 «Р», topic 2 «Б», question 3: SIGame «secret» (cat in the bag) is played by the buttons here",
        "round 1 «Р», topic 3 «В», question 1: image 'нет.png' is not in the archive; the question plays without it",
        "final topic «Физика»: SIGame question type «forAll» (for all: SIGame has everyone answer in writing; here "
        "the buttons decide) is played as a normal question",
        "round 1 «Р», topic 1 «А», question 2: P2: the question has no source"]
    assert [t["name"] for t in plan["extra"]] == ["В"]


def test_p2_plan_warnings_cover_the_packs_own_extra_topics_and_missing_native_media(tmp_path):
    """GIVEN the sample TOML pack copied with its extra topic's question 1 stripped of its source and the flag image
    renamed away WHEN loaded with every topic THEN plan["warnings"] names the extra topic's P2 and the missing image
    by round, topic and question, and nothing else (the sample is otherwise clean)."""
    sample = Path(__file__).resolve().parents[2] / "assets" / "packs"
    shutil.copytree(sample / "sample_media", tmp_path / "sample_media")
    text = (sample / "sample.toml").read_text(encoding="utf-8")
    rounds, extra = text.split("[[extra]]")
    text = rounds.replace("flag.png", "lost.png") + "[[extra]]" + extra.replace('source = "Атлас мира. Роскартография, '
                                                                                '2010"\n', "", 1)
    (tmp_path / "sample.toml").write_text(text, encoding="utf-8")
    plan = load_plan(str(tmp_path / "sample.toml"))
    assert plan["warnings"] == [
        "round 1 «Синий раунд», topic 2 «Флаги», question 1: image 'sample_media/lost.png' is missing; the question "
        "plays without it",
        "extra topic 1 «Столицы», question 1: P2: the question has no source"]
    assert plan["rounds"][0]["topics"][1]["questions"][0]["media"] == []


def test_p2_plan_warnings_of_a_text_pack_carry_their_line(tmp_path):
    """GIVEN a ChGK text pack whose only topic's question 2 has no source WHEN loaded THEN its warning in the plan
    starts with the line of that question's item."""
    text = "Вид:\nЯ\n\nВопрос 1:\nРеки\n" + "".join(f"   {n}. в{n}\n" for n in range(1, 7)) + "\nОтвет:\n" + \
        "".join(f"   {n}. о{n}\n" for n in range(1, 7)) + "\nИсточник:\n" + \
        "".join(f"   {n}. и{n}\n" for n in (1, 3, 4, 5, 6))
    path = tmp_path / "pack.txt"
    path.write_text(text, encoding="utf-8")
    assert load_plan(str(path))["warnings"] == ["line 7: round 1 «Тур 1», topic 1 «Реки», question 2: P2: the question "
                                                "has no source"]
