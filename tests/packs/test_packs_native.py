"""Native TOML format (P1): reading, strict schema errors, media beside the file, lossless round trip."""
import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scoreboard.packs import PackError, load, load_plan, native
from scoreboard.packs.model import Final, Media, Pack, Question, Round, Topic

SAMPLE = Path(__file__).resolve().parents[2] / "assets" / "packs" / "sample.toml"


def test_p1_sample_pack_loads_into_the_engine_plan(pack_cache):
    """GIVEN the shipped Russian sample pack WHEN the board loads it THEN the plan has every part ENGINE_API names."""
    plan = load_plan(str(SAMPLE))
    assert [r["name"] for r in plan["rounds"]] == ["Синий раунд", "Красный раунд"]
    rivers = plan["rounds"][0]["topics"][0]
    assert rivers["name"] == "Реки" and rivers["explanation"] == "Все ответы — названия рек."
    assert len(rivers["questions"]) == 5 and rivers["reserve"]["answer"] == "Волга"
    first = rivers["questions"][0]
    assert (first["answer"], first["accepts"], first["comment"]) == ("Волга", ["Ра"], "Древнее название Волги — Ра.")
    assert first["source"] and set(first) >= {"text", "answer", "accepts", "comment", "source", "author", "media",
                                              "auction"}
    flag = plan["rounds"][0]["topics"][1]["questions"][0]["media"][0]
    assert flag["kind"] == "image" and os.path.isabs(flag["path"])
    assert Path(flag["path"]).is_relative_to(pack_cache) and Path(flag["path"]).read_bytes()[:4] == b"\x89PNG"
    assert plan["rounds"][0]["topics"][1]["questions"][4]["auction"] is True      # AU1: the pack sets the cell
    assert plan["final"]["topic"] == "Физика" and plan["final"]["question"]["answer"] == "Ампер"
    assert plan["extra"][0]["name"] == "Столицы"
    assert json.loads(json.dumps(plan)) == plan                                 # journaled as JSON


def test_p1_image_from_the_cache_loads_in_pygame():
    """GIVEN the sample pack's image question WHEN the display loads the cached file THEN pygame reads it."""
    import pygame
    plan = load_plan(str(SAMPLE))
    path = plan["rounds"][0]["topics"][1]["questions"][0]["media"][0]["path"]
    assert pygame.image.load(path).get_size() == (90, 60)


def _write(tmp_path, text: str) -> str:
    path = tmp_path / "pack.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_unknown_key_is_named_with_its_path(tmp_path):
    """GIVEN a typo `anser` in question 1 WHEN read THEN the error names the file and the key's path."""
    path = _write(tmp_path, '[[rounds]]\nname="Р"\n[[rounds.topics]]\nname="Т"\n'
                            '[[rounds.topics.questions]]\ntext="в"\nanser="о"\n')
    with pytest.raises(PackError) as caught:
        load(path)
    assert "pack.toml" in str(caught.value) and "rounds[1].topics[1].questions[1].anser: unknown key" in str(caught.value)


def test_wrong_type_and_toml_syntax_are_reported(tmp_path):
    """GIVEN a non-boolean auction, then a syntax error WHEN read THEN each error says where and why."""
    path = _write(tmp_path, '[[rounds]]\n[[rounds.topics]]\nname="Т"\n[[rounds.topics.questions]]\nauction="да"\n')
    with pytest.raises(PackError, match=r"questions\[1\]\.auction: expected bool"):
        load(path)
    path = _write(tmp_path, '[pack]\ntitle = "без кавычки\n')
    with pytest.raises(PackError, match=r"TOML syntax: .*line 2"):
        load(path)


def test_broken_utf8_in_toml_names_the_line(tmp_path):
    """GIVEN a TOML pack with an invalid UTF-8 byte on line 2 WHEN read THEN the error names line 2."""
    path = tmp_path / "pack.toml"
    path.write_bytes(b'[pack]\ntitle = "\xd0\xd0"\n')
    with pytest.raises(PackError, match="line 2: not valid UTF-8"):
        load(str(path))


@pytest.mark.parametrize("ref", ["../secret.png", "/etc/passwd", "media\\x.png", "C:/x.png"])
def test_media_path_leaving_the_pack_folder_is_refused(tmp_path, ref):
    """GIVEN media paths that climb out of the pack's folder WHEN read THEN refused, naming the path."""
    path = _write(tmp_path, '[[rounds]]\n[[rounds.topics]]\nname="Т"\n[[rounds.topics.questions]]\ntext="в"\n'
                            f'answer="о"\nmedia=[{{kind="image", path={json.dumps(ref)}}}]\n')
    with pytest.raises(PackError, match="media path"):
        load(path)


def test_media_symlink_out_of_the_pack_folder_is_refused(tmp_path):
    """GIVEN media/x.png is a symlink to a file outside the pack folder WHEN loaded THEN refused, nothing cached."""
    (tmp_path / "outside.png").write_bytes(b"secret")
    pack_dir = tmp_path / "pack"
    (pack_dir / "media").mkdir(parents=True)
    os.symlink(tmp_path / "outside.png", pack_dir / "media" / "x.png")
    (pack_dir / "p.toml").write_text('[[rounds]]\n[[rounds.topics]]\nname="Т"\n[[rounds.topics.questions]]\n'
                                     'text="в"\nanswer="о"\nmedia=[{kind="image", path="media/x.png"}]\n')
    with pytest.raises(PackError, match="outside the pack's folder"):
        load(str(pack_dir / "p.toml"))


def test_missing_media_is_a_warning_not_a_crash(tmp_path):
    """GIVEN a question naming an image that is not there WHEN loaded THEN a warning naming the question, and the
    plan has no media for it."""
    src = tmp_path / "p"
    shutil.copytree(SAMPLE.parent, src, ignore=shutil.ignore_patterns("*.png"))
    loaded = load(str(src / "sample.toml"))
    missing = [i for i in loaded.issues if "flag.png" in i.message]
    assert [(i.level, i.where) for i in missing] == [("warning", "round 1 «Синий раунд», topic 2 «Флаги», question 1")]
    assert "is missing; the question plays without it" in missing[0].message
    plan = load_plan(str(src / "sample.toml"))
    assert plan["rounds"][0]["topics"][1]["questions"][0]["media"] == []
    assert any("flag.png" in w for w in plan["warnings"])


# --- round trip --------------------------------------------------------------------------------------------
text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
media = st.builds(Media, st.sampled_from(["image", "audio", "video"]),
                  st.from_regex(r"[a-zа-я0-9_]{1,6}(/[a-z0-9]{1,6}){0,2}\.(png|mp3|mp4)", fullmatch=True))
question = st.builds(Question, text, text, st.lists(text, max_size=2), text, text, text,
                     st.lists(media, max_size=2), st.lists(media, max_size=1), st.booleans(),
                     st.none() | st.integers(-10**6, 10**6), wrong=st.lists(text, max_size=2),
                     options=st.lists(text, max_size=3), kind=text, secret_topic=text,
                     secret_price=st.sampled_from(["", "2000", "[100;500]", "[100;500]/400"]), empty=st.booleans())
topic = st.builds(Topic, text, text, text, text, st.lists(question, max_size=6), st.none() | question,
                  st.lists(text, max_size=2))
final = st.builds(Final, text, question, text)
pack = st.builds(Pack, text, text, st.lists(st.builds(Round, text, st.lists(topic, max_size=2), text), max_size=2),
                 st.none() | final, st.lists(topic, max_size=1), st.lists(text, max_size=2), text,
                 st.none() | media.map(lambda m: Media("image", m.ref)), st.lists(final, max_size=2))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack)
@example(Pack(title="a\r\nb", reference_works=["\r\n"]))      # CR LF inside a text (a bare CR would be lost)
@example(Pack(title='"""\n\\', comment="\n\n\x7f\x00\t"))         # quotes, backslashes, control characters
def test_p1_native_format_round_trips_without_loss(original):
    """GIVEN any pack (any Unicode text, media, prices, reserve, finals, extras, wrong answers, options, cat in the
    bag, empty cells, comments, logo) WHEN written and read back THEN it is equal to the original."""
    written = native.dumps(original).encode("utf-8")
    assert native.read("roundtrip.toml", written) == original


# --- the writer's text --------------------------------------------------------------------------------------
AWKWARD = ['say "hi"', "C:\\dir\\", 'ends with a quote"', "two\nlines", "crlf\r\nline", "tab\there", "\x00\x01\x1f\x7f",
           "\b\f", '"""', "emoji 😀 and 𝔸 (non-BMP)", "nbsp\xa0and\u2028separator", "back\\slash\nand newline",
           "\n", "кириллица «ёлки»"]


def _toml(pack):
    import tomllib
    return tomllib.loads(native.dumps(pack))


@pytest.mark.parametrize("awkward", AWKWARD)
def test_writer_escapes_every_awkward_string_so_tomllib_reads_it_back(awkward):
    """GIVEN a question whose answer is an awkward string (quotes, backslashes, line breaks, CR LF, control
    characters, non-BMP characters, Unicode separators) and whose other texts are plain, and one whose texts are all
    plain WHEN the pack is written THEN tomllib reads back exactly those strings (the plain question too: one
    awkward text must not change how its neighbours are written)."""
    odd = Question(text="Вопрос", answer=awkward, accepts=["plain", awkward], wrong=[awkward], comment=awkward,
                   source="Источник", author=awkward, options=[awkward, "B"], price=-5)
    plain = Question(text="Вопрос два", answer="ответ", accepts=["вариант"], source="Источник", price=200)
    pack = Pack(title=awkward, rounds=[Round(awkward, [Topic(awkward, explanation=awkward, questions=[odd, plain],
                                                             reference_works=[awkward])])])
    data = _toml(pack)
    assert data["pack"] == {"format": "svoya-pack", "version": 1, "title": awkward}
    r = data["rounds"][0]
    assert r["name"] == awkward and r["topics"][0]["name"] == awkward
    assert r["topics"][0]["explanation"] == awkward and r["topics"][0]["reference_works"] == [awkward]
    first, second = r["topics"][0]["questions"]
    assert first["answer"] == first["comment"] == first["author"] == awkward
    assert first["accepts"] == ["plain", awkward] and first["wrong"] == [awkward]
    assert first["options"] == [awkward, "B"] and first["price"] == -5
    assert second == {"text": "Вопрос два", "answer": "ответ", "accepts": ["вариант"], "source": "Источник",
                      "price": 200}
    assert native.read("p.toml", native.dumps(pack).encode("utf-8")) == pack


def test_writer_gives_each_field_its_toml_type_and_leaves_defaults_out():
    """GIVEN a pack with every kind of field: a reserve, media, a cat in the bag, an auction, an empty cell, a final
    and another final, an extra topic, a logo, a round and a topic with nothing in them WHEN written THEN tomllib
    reads tables, arrays of tables, inline media tables, booleans and integers where native.py expects them, and
    nothing that holds its default."""
    cat = Question(text="Кот", answer="мяу", kind="secret", secret_topic="Звери", secret_price="[100;500]",
                   media=[Media("image", "m/cat.png")], answer_media=[Media("audio", "m/meow.mp3")], auction=True)
    empty = Question(empty=True)
    pack = Pack(title="П", author="А", comment="К", reference_works=["БСЭ"], logo=Media("image", "m/logo.png"),
                rounds=[Round("Р", [Topic("Т", questions=[cat, empty], reserve=Question(text="з", answer="о")),
                                    Topic("Пусто")]), Round("Пустой")],
                final=Final("Ф", Question(text="ф", answer="о"), "пояснение"),
                other_finals=[Final("Ф2", Question(text="ф2", answer="о2"))],
                extra=[Topic("Доп", questions=[Question(text="д", answer="о")])])
    data = _toml(pack)
    assert data["pack"] == {"format": "svoya-pack", "version": 1, "title": "П", "author": "А",
                            "reference_works": ["БСЭ"], "comment": "К", "logo": "m/logo.png"}
    topic = data["rounds"][0]["topics"][0]
    assert topic["questions"][0] == {"text": "Кот", "answer": "мяу", "kind": "secret", "secret_topic": "Звери",
                                     "secret_price": "[100;500]", "auction": True,
                                     "media": [{"kind": "image", "path": "m/cat.png"}],
                                     "answer_media": [{"kind": "audio", "path": "m/meow.mp3"}]}
    assert topic["questions"][1] == {"text": "", "answer": "", "empty": True}
    assert topic["reserve"] == {"text": "з", "answer": "о"}
    assert data["rounds"][0]["topics"][1] == {"name": "Пусто", "questions": []}
    assert data["rounds"][1] == {"name": "Пустой", "topics": []}
    assert data["final"] == {"topic": "Ф", "explanation": "пояснение", "question": {"text": "ф", "answer": "о"}}
    assert data["other_finals"] == [{"topic": "Ф2", "question": {"text": "ф2", "answer": "о2"}}]
    assert data["extra"] == [{"name": "Доп", "questions": [{"text": "д", "answer": "о"}]}]
    assert native.read("p.toml", native.dumps(pack).encode("utf-8")) == pack


def test_the_bench_pack_converts_to_toml_that_reads_back_as_the_imported_pack(tmp_path):
    """Issue 10 item 6: GIVEN the bench's generated SIGame pack (`bench.make_big_pack`, made small here) WHEN it is
    converted by `pack convert` THEN tomllib parses the TOML, and it reads back as the very pack the import gave."""
    import tomllib

    from scoreboard.cli import main
    from scoreboard.bench import packs as bench
    from scoreboard.packs import siq
    source, target = tmp_path / "big.siq", tmp_path / "big.toml"
    bench.make_big_pack(str(source), target=400_000)
    assert main(["pack", "convert", str(source), str(target)]) == 0
    imported, archive, _ = siq.read(str(source))
    archive.close()
    text = target.read_text(encoding="utf-8")
    assert len(tomllib.loads(text)["rounds"]) == len(imported.rounds) >= 10
    assert native.read(str(target), text.encode("utf-8")) == imported
