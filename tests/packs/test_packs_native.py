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
