"""SIGame .siq import, versions 4 and 5, from archives the tests write from the published schemas."""
import os
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from scoreboard.packs import ERROR, INFO, WARNING, PackError, load, load_plan
from siqbuild import NS4, NS5, NS5_OLD, content_xml, png_bytes, topic, write_siq

FINAL = ("Физика", {"text": "Единица силы тока", "answers": ["ампер"], "price": 0, "source": "ГОСТ"})


@pytest.mark.parametrize("version", [4, 5])
def test_p1_siq_questions_answers_and_info_are_imported(tmp_path, version):
    """GIVEN a v4 / v5 pack WHEN imported THEN text, answer, accepted answers, source, author, comment and the
    topic's explanation land in the plan."""
    path = write_siq(tmp_path / "p.siq", version)
    plan = load_plan(str(path))
    assert plan["format"] == f"siq{version}" and plan["title"] == "Тестовый пакет"
    t = plan["rounds"][0]["topics"][0]
    assert t["name"] == "Тема 1" and t["explanation"] == "Пояснение к теме Тема 1"
    q = t["questions"][1]
    assert (q["text"], q["answer"], q["accepts"]) == ("Тема 1: вопрос 2", "ответ 2", ["вариант 2"])
    assert (q["source"], q["author"], q["comment"], q["price"]) == ("Источник 2", "Иван Петров", "Комментарий 2", 200)


@pytest.mark.parametrize("version", [4, 5])
def test_au1_stake_and_auction_types_become_the_auction(tmp_path, version):
    """GIVEN question 3 of type stake (v5) / auction (v4) WHEN imported THEN that cell is the auction (AU1)."""
    rounds = [("Р", [topic("Реки", extra={3: {"type": "stake"}})] + [topic(f"Т{i}") for i in range(3)])]
    plan = load_plan(str(write_siq(tmp_path / "p.siq", version, rounds)))
    assert [q["auction"] for q in plan["rounds"][0]["topics"][0]["questions"]] == [False, False, True, False, False]


@pytest.mark.parametrize("version,kinds", [(4, ["sponsored", "custom"]),
                                           (5, ["noRisk", "forAll", "forYourself", "stakeAll", "madeUp"])])
def test_special_types_play_as_normal_with_a_warning(tmp_path, version, kinds):
    """GIVEN cat-in-a-bag, no-risk, for-all… questions WHEN imported THEN they are normal questions and each one
    has a warning that names its topic, question and type."""
    extra = {n: {"type": kind} for n, kind in enumerate(kinds, 1)}
    path = write_siq(tmp_path / "p.siq", version, [("Р", [topic("Особые", extra=extra)])])
    loaded = load(str(path))
    warned = [i for i in loaded.issues if "played as a normal question" in i.message]
    assert len(warned) == len(kinds) and all(i.level == WARNING for i in warned)
    for n, (issue, kind) in enumerate(zip(warned, kinds), 1):
        assert f"«{kind}»" in issue.message and f"topic 1 «Особые», question {n}" in issue.where
    assert not any(q.auction for q in loaded.pack.rounds[0].topics[0].questions)


@pytest.mark.parametrize("version", [4, 5])
@pytest.mark.parametrize("escape", [False, True])
def test_media_with_cyrillic_and_url_escaped_names_are_extracted_into_the_cache(tmp_path, pack_cache, version,
                                                                               escape):
    """GIVEN an image, a sound and an answer image, stored with plain or URL-escaped names WHEN imported
    THEN each is in the pack cache with its bytes and the plan points at it."""
    media = [("image", "Снимок 6.png"), ("audio", "гимн.mp3")]
    rounds = [("Р", [topic("Медиа", media=media, extra={2: {"answer_media": [("image", "ответ.png")]}})])]
    files = {"Images/Снимок 6.png": png_bytes(), "Audio/гимн.mp3": b"ID3" + b"\0" * 50,
             "Images/ответ.png": png_bytes(2, 2)}
    path = write_siq(tmp_path / "p.siq", version, rounds, files=files, escape_names=escape)
    plan = load_plan(str(path))
    first, second = plan["rounds"][0]["topics"][0]["questions"][:2]
    assert [m["kind"] for m in first["media"]] == ["image", "audio"]
    assert Path(first["media"][0]["path"]).read_bytes() == png_bytes()
    assert Path(first["media"][1]["path"]).read_bytes().startswith(b"ID3")
    assert second["media"] == [] and Path(second["answer_media"][0]["path"]).read_bytes() == png_bytes(2, 2)
    for m in first["media"] + second["answer_media"]:
        assert Path(m["path"]).is_relative_to(pack_cache)


def test_missing_and_internet_media_are_warnings(tmp_path):
    """GIVEN a question naming an image absent from the archive and one naming an http URL WHEN imported
    THEN the pack loads, the plan carries no media for them, and two warnings say why."""
    rounds = [("Р", [topic("Т", media=[("image", "нет.png")])])]
    xml = content_xml(5, "П", rounds).replace(
        b'<item type="text">\xd0\xa2: \xd0\xb2\xd0\xbe\xd0\xbf\xd1\x80\xd0\xbe\xd1\x81 2</item>',
        b'<item type="text">T2</item><item type="image">http://example.com/x.png</item>')
    path = write_siq(tmp_path / "p.siq", content=xml)
    loaded = load(str(path))
    messages = [i.message for i in loaded.issues if i.level == WARNING]
    assert any("'нет.png' is not in the archive" in m for m in messages)
    assert any("http://example.com/x.png" in m and "never fetches" in m for m in messages)
    assert load_plan(str(path))["rounds"][0]["topics"][0]["questions"][0]["media"] == []


@pytest.mark.parametrize("version", [4, 5])
def test_fn_final_round_gives_the_final_topic(tmp_path, version):
    """GIVEN a round of type final WHEN imported THEN its first topic and question are the plan's final."""
    plan = load_plan(str(write_siq(tmp_path / "p.siq", version, final=FINAL)))
    assert plan["final"]["topic"] == "Физика" and plan["final"]["question"]["answer"] == "ампер"
    assert len(plan["rounds"]) == 1


def test_g9_sixth_question_becomes_the_reserve_and_a_seventh_is_dropped(tmp_path):
    """GIVEN a theme of 7 questions WHEN imported THEN 1–5 are the topic, 6 the reserve, 7 dropped with a warning."""
    loaded = load(str(write_siq(tmp_path / "p.siq", 5, [("Р", [topic("Длинная", count=7)])])))
    t = loaded.pack.rounds[0].topics[0]
    assert len(t.questions) == 5 and t.reserve.text == "Длинная: вопрос 6"
    assert any(i.level == WARNING and "question 7" in i.where and "dropped" in i.message for i in loaded.issues)


def test_pack_prices_are_in_the_import_report(tmp_path):
    """GIVEN SIGame prices 100…500 WHEN imported THEN an info line lists them and says the regulation applies."""
    loaded = load(str(write_siq(tmp_path / "p.siq", 4)))
    prices = [i for i in loaded.issues if i.level == INFO and "pack prices" in i.message]
    assert prices and "100 200 300 400 500" in prices[0].message and "regulation" in prices[0].message


def test_v5_global_author_and_inherited_sources_resolve(tmp_path):
    """GIVEN a v5 pack whose question cites `@a1` from <global> and whose theme holds the source WHEN imported
    THEN the author is the global name and every question inherits the theme's source (P2 then warns)."""
    xml = f"""<?xml version="1.0" encoding="utf-8"?>
<package xmlns="{NS5}" name="Г" version="5" id="x"><info><authors/><sources/><comments/></info>
<global><Authors id="a1"><Name>Анна</Name><SecondName/><Surname>Смирнова</Surname><Country/><City/></Authors></global>
<rounds><round name="Р" type="standart"><info><authors/><sources/><comments/></info><themes>
<theme name="Т"><info><authors/><sources><source>БСЭ</source></sources><comments/></info><questions>
""" + "".join(f"""<question price="{n}00"><info><authors><author>@a1</author></authors><sources/><comments/></info>
<params><param name="question" type="content"><item>в{n}</item></param></params>
<right><answer>о{n}</answer></right><wrong/></question>""" for n in range(1, 6)) + \
        "</questions></theme></themes></round></rounds></package>"
    loaded = load(str(write_siq(tmp_path / "p.siq", content=xml.encode())))
    qs = loaded.pack.rounds[0].topics[0].questions
    assert {q.author for q in qs} == {"Анна Смирнова"} and {q.source for q in qs} == {"БСЭ"}
    assert any("P2: 5 questions share the source" in i.message for i in loaded.issues)


def test_question_without_answer_is_an_error_naming_it(tmp_path):
    """GIVEN question 4 of topic 2 with no right answer WHEN checked THEN an error names round, topic, question,
    and load_plan refuses a game that chooses that topic with that message (by default the topic is left out)."""
    rounds = [("Р", [topic("А"), topic("Б", extra={4: {"answers": []}})])]
    path = write_siq(tmp_path / "p.siq", 5, rounds)
    errors = [i for i in load(str(path)).issues if i.level == ERROR]
    assert [(e.where, e.message) for e in errors] == [("round 1 «Р», topic 2 «Б», question 4",
                                                       "the question has no answer")]
    with pytest.raises(PackError, match=r"p\.siq: round 1 «Р», topic 2 «Б», question 4: the question has no answer"):
        load_plan(str(path), topics=["Б"])
    assert load_plan(str(path), topics=["А"])["rounds"][0]["topics"][0]["name"] == "А"   # unplayed, no harm
    assert [t["name"] for t in load_plan(str(path))["rounds"][0]["topics"]] == ["А"]


def test_content_xml_missing_is_refused(tmp_path):
    """GIVEN a zip with media but no content.xml WHEN loaded THEN refused with a message that says so."""
    path = tmp_path / "p.siq"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("Images/a.png", png_bytes())
    with pytest.raises(PackError, match="no content.xml"):
        load(str(path))


@pytest.mark.parametrize("version,namespace", [(5, NS5), (5, NS5_OLD), (4, NS4), (4, "http://ur-quan1986.narod.ru/ygpackage3.0.xsd"),
                                               (5, "urn:other"), (4, ""), (5, "")])
def test_p1_every_namespace_is_read_by_element_names_as_sigame_does(tmp_path, version, namespace):
    """GIVEN a v4 / v5 content.xml in today's SIGame namespace, the older ones, a third party's, or none
    WHEN loaded THEN the questions come through the same way (SIGame matches local names); a namespace SIGame
    does not write is an info line, never a refusal."""
    xml = content_xml(version, "П", [("Р", [topic("Т")])])
    own = NS4 if version == 4 else NS5
    xml = xml.replace(f' xmlns="{own}"'.encode(), f' xmlns="{namespace}"'.encode() if namespace else b"")
    loaded = load(str(write_siq(tmp_path / "p.siq", content=xml)))
    q = loaded.pack.rounds[0].topics[0].questions[0]
    assert (q.text, q.answer, q.accepts, q.source) == ("Т: вопрос 1", "ответ 1", ["вариант 1"], "Источник 1")
    assert loaded.format == f"siq{version}"
    foreign = [i for i in loaded.issues if "read by element names" in i.message]
    assert [i.level for i in foreign] == ([] if namespace in (NS5, NS5_OLD, NS4) else [INFO])


def test_same_pack_loads_twice_into_the_same_cache_folder(tmp_path, pack_cache):
    """GIVEN a pack loaded once WHEN loaded again THEN the media paths are the same (content-addressed cache)."""
    path = write_siq(tmp_path / "p.siq", 5, [("Р", [topic("Т", media=[("image", "a.png")])])],
                     files={"Images/a.png": png_bytes()})
    first = load_plan(str(path))["rounds"][0]["topics"][0]["questions"][0]["media"]
    second = load_plan(str(path))["rounds"][0]["topics"][0]["questions"][0]["media"]
    assert first == second and len(os.listdir(pack_cache)) == 1


def test_a_read_pack_is_freed_when_dropped_without_a_garbage_collection(tmp_path):
    """Issue 10 item 6 (convert ≤ 2 s): GIVEN a .siq read with the cyclic collector off, as `pack convert` reads it
    WHEN the caller drops the pack THEN nothing of it is left for the collector (no reference cycle holds it: a 30 MB
    pack's cycle cost 0.4 s of a full collection at the end of every conversion)."""
    import gc

    from scoreboard.packs import siq
    from scoreboard.packs.model import Question
    path = write_siq(tmp_path / "p.siq", 5)
    was = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        pack, archive, _ = siq.read(str(path))
        archive.close()
        assert list(pack.questions())
        del pack
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = [o for o in gc.garbage if isinstance(o, Question)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
    assert left == []


@pytest.mark.parametrize("version", [4, 5])
def test_content_xml_read_in_tiny_chunks_gives_the_same_pack_and_drops_each_round_once_read(tmp_path, monkeypatch,
                                                                                           version):
    """Issue 10 item 6 (stream, ≤ 150 MB for 30 MB): GIVEN a pack of 12 rounds, a final and the package's own info
    after its rounds WHEN content.xml is read in 1 MB chunks and again in 7-byte chunks (every tag and text split
    somewhere) THEN both give the same pack and the same notes, and in 7-byte chunks the tree never holds more than
    the round being read and the one being parsed: each round is dropped from the tree once it is read."""
    from scoreboard.packs import safexml, siq
    from scoreboard.packs.safezip import SafeZip
    rounds = [(f"Раунд {r}", [topic(f"Тема {r}.{t}") for t in range(1, 3)]) for r in range(1, 13)]
    root = ET.fromstring(content_xml(version, "Пакет", rounds, FINAL))
    info = root[0]
    root.remove(info)
    root.append(info)                      # the package's own info after its rounds: read once the file has ended
    path = write_siq(tmp_path / "p.siq", version, content=ET.tostring(root, encoding="utf-8", xml_declaration=True))

    def read():
        pack, archive, _ = siq.read(str(path))
        archive.close()
        return pack, [str(i) for i in pack.issues]

    whole = read()
    held = []
    real_chunks, real_growing = SafeZip.chunks, safexml.growing

    def spying(chunks, where):
        for root, done in real_growing(chunks, where):
            if root is not None:
                held.append(max((len(child) for child in root if child.tag.endswith("rounds")), default=0))
            yield root, done

    monkeypatch.setattr(SafeZip, "chunks", lambda self, name, cap=None, size=0: real_chunks(self, name, cap, 7))
    monkeypatch.setattr(safexml, "growing", spying)
    tiny = read()
    assert tiny == whole and len(whole[0].rounds) == 12 and whole[0].final.topic == "Физика"
    assert whole[0].author == "Автор пакета"
    assert len(held) > 1000 and max(held) <= 2
