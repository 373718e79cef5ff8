"""ChGK-database text import (`Вид: Я`), in UTF-8, CP1251 and KOI8-R."""
import pytest

from scoreboard.packs import ERROR, WARNING, PackError, load, load_plan
from scoreboard.packs.chgk import decode

TEXT = """Чемпионат:
Кубок Самары по своей игре

Дата:
12-Apr-2003

Редактор:
Анна Смирнова

Вид:
Я

Тур:
1

Вопрос 1:
Реки
Все ответы - реки России.
   1. Самая длинная река Европы.
   2. На этой реке стоит
   Новосибирск.
   3. Река Санкт-Петербурга.
   4. Река, на которой стоит Омск.
   5. В 1945. году на этой реке встретились войска.
   6. Река Самары.

Ответ:
   1. Волга.
   2. Обь.
   3. Нева.
   4. Иртыш.
   5. Эльба.
   6. Волга.

Зачет:
   1. Ра.
   5. Лаба; Labe.

Источник:
   1. БСЭ.
   2. Новосибирск: энциклопедия.
   3. БСЭ.
   4. Атлас.
   5. История войн.
   6. Атлас.

Автор:
Иван Петров (Самара)

Комментарий:
   1. Древнее название - Ра.

Вопрос 2:
Химия
   1. Символ золота.
   2. Самый лёгкий элемент.
   3. Открыл периодический закон.
   4. Формула соли.
   5. Газ красных трубок.
   Р. Символ серебра.

Ответ:
   1. Au.
   2. Водород.
   3. Менделеев.
   4. NaCl.
   5. Неон.
   Р. Ag.

Источник:
Глинка Н. Л. Общая химия.

Тур:
2

Вопрос 3:
Космос
   1. Первый космонавт.
   2. Ближайшая к Солнцу планета.
   3. Крупнейшая планета.
   4. Год первого спутника.
   5. Наша галактика.

Ответ:
   1. Гагарин.
   2. Меркурий.
   3. Юпитер.
   4. 1957.
   5. Млечный Путь.

Источник:
   1. ТАСС.
   2. NASA.
   3. NASA.
   4. ТАСС.
   5. БСЭ.
"""


@pytest.mark.parametrize("encoding", ["utf-8", "cp1251", "koi8_r"])
def test_p1_chgk_text_in_each_encoding_reads_the_same(tmp_path, encoding):
    """GIVEN the same pack saved in UTF-8, CP1251 and KOI8-R WHEN imported THEN the encoding is detected and topics,
    questions, numbered answers, accepted answers, sources, author and comment come out the same."""
    path = tmp_path / "pack.txt"
    path.write_bytes(TEXT.encode(encoding))
    loaded = load(str(path))
    pack = loaded.pack
    assert pack.title == "Кубок Самары по своей игре" and pack.author == "Анна Смирнова"
    assert [r.name for r in pack.rounds] == ["Тур 1", "Тур 2"]
    rivers, chemistry = pack.rounds[0].topics
    assert rivers.name == "Реки" and rivers.explanation == "Все ответы - реки России."
    q1, q2, _, _, q5 = rivers.questions
    assert (q1.text, q1.answer, q1.accepts, q1.source, q1.comment) == (
        "Самая длинная река Европы.", "Волга.", ["Ра."], "БСЭ.", "Древнее название - Ра.")
    assert q2.text == "На этой реке стоит Новосибирск." and q5.text.startswith("В 1945. году")
    assert q5.accepts == ["Лаба", "Labe."]
    assert rivers.author == "Иван Петров (Самара)" and {q.author for q in rivers.questions} == {rivers.author}
    assert rivers.reserve.text == "Река Самары." and rivers.reserve.answer == "Волга."
    assert chemistry.reserve.answer == "Ag." and pack.rounds[1].topics[0].questions[3].answer == "1957."
    assert not [i for i in loaded.issues if i.level == ERROR]


def test_p2_unnumbered_source_applies_to_the_whole_topic_and_is_warned(tmp_path):
    """GIVEN `Источник:` without numbers for topic «Химия» WHEN checked THEN every question has it and P2 warns that
    five questions share it; topic «Реки» with БСЭ twice is fine (at most two may)."""
    path = tmp_path / "pack.txt"
    path.write_text(TEXT, encoding="utf-8")
    loaded = load(str(path))
    p2 = [i for i in loaded.issues if i.message.startswith("P2:")]
    assert len(p2) == 1 and "«Химия»" in p2[0].where and "5 questions share the source" in p2[0].message


def test_missing_item_and_unnumbered_answers_are_errors_with_lines(tmp_path):
    """GIVEN a topic without item 4. and a topic whose answers are not numbered WHEN checked THEN errors name the
    line and the topic; load_plan refuses a game that chooses the broken topic, and by default leaves it out,
    saying why."""
    bad = TEXT.replace("   4. Река, на которой стоит Омск.\n", "").replace(
        "Ответ:\n   1. Гагарин.\n   2. Меркурий.\n   3. Юпитер.\n   4. 1957.\n   5. Млечный Путь.",
        "Ответ:\nГагарин, Меркурий")
    path = tmp_path / "pack.txt"
    path.write_text(bad, encoding="utf-8")
    errors = [i for i in load(str(path)).issues if i.level == ERROR]
    line = TEXT.splitlines().index("Вопрос 1:") + 1
    answers = _line(bad, "Ответ:", after="Космос")
    assert any(e.line == line and e.where == "round 1 «Тур 1», topic 1 «Реки»" and "no item 4." in e.message
               for e in errors)
    assert any(e.line == answers and e.where == "round 2 «Тур 2», topic 1 «Космос»" and
               "must number its items" in e.message for e in errors)
    with pytest.raises(PackError, match=f"pack.txt:{line}: round 1 «Тур 1», topic 1 «Реки»: no item 4."):
        load_plan(str(path), topics=["Реки"])
    plan = load_plan(str(path))
    assert "Реки" not in [t["name"] for r in plan["rounds"] for t in r["topics"]]
    assert any(w.startswith(f"line {line}: round 1 «Тур 1», topic 1 «Реки»: no item 4.") and "left out" in w
               for w in plan["warnings"])


def _line(text: str, wanted: str, after: str = "") -> int:
    """The 1-based number of the first line equal to `wanted` that comes after the line `after`."""
    lines = text.splitlines()
    start = lines.index(after) if after else 0
    return lines.index(wanted, start) + 1


def test_p2_validation_messages_of_a_text_pack_carry_the_line_of_their_topic_or_question(tmp_path, capsys):
    """GIVEN good.txt where Реки question 3 has no answer, Космос has no item 5 and question 2 no source, and Химия's
    five questions share one source WHEN `pack check` runs and the board loads it THEN every validation message
    (no answer, question count, P2) starts `good.txt:LINE:` with the line of that question (its item) or topic
    (its `Вопрос N:`), and so does the refusal."""
    from scoreboard.cli import main
    bad = TEXT.replace("   3. Нева.\n", "").replace("   5. Наша галактика.\n", "").replace("   2. NASA.\n", "")
    path = tmp_path / "good.txt"
    path.write_text(bad, encoding="utf-8")
    no_answer = _line(bad, "   3. Река Санкт-Петербурга.")
    space = _line(bad, "Вопрос 3:")
    no_source = _line(bad, "   2. Ближайшая к Солнцу планета.")
    chemistry = _line(bad, "Вопрос 2:")
    assert main(["pack", "check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"{path}:{no_answer}: error: round 1 «Тур 1», topic 1 «Реки», question 3: the question has no answer" in out
    assert f"{path}:{space}: error: round 2 «Тур 2», topic 1 «Космос»: the topic has 4 questions; it needs 5" in out
    assert f"{path}:{no_source}: warning: round 2 «Тур 2», topic 1 «Космос», question 2: P2: the question has no " \
           "source" in out
    assert any(line.startswith(f"{path}:{chemistry}: warning: round 1 «Тур 1», topic 2 «Химия», questions 1, 2, 3, "
                               "4, 5: P2: 5 questions share the source") for line in out)
    issues = load(str(path)).issues
    assert issues and all(i.line for i in issues if i.topic is not None)
    with pytest.raises(PackError) as refused:
        load_plan(str(path), topics=["1.1"])
    assert f"good.txt:{no_answer}: round 1 «Тур 1», topic 1 «Реки», question 3: the question has no answer" \
        in str(refused.value)


def test_vid_other_than_ya_and_missing_vid_are_warned(tmp_path):
    """GIVEN `Вид: Б` (a ЧГК pack), then no `Вид:` at all WHEN imported THEN a warning each, the pack still reads."""
    path = tmp_path / "pack.txt"
    path.write_text(TEXT.replace("Вид:\nЯ", "Вид:\nБ"), encoding="utf-8")
    assert any(i.level == WARNING and "`Вид: Б`" in i.message for i in load(str(path)).issues)
    path.write_text(TEXT.replace("Вид:\nЯ\n", ""), encoding="utf-8")
    assert any("no `Вид:` field" in i.message for i in load(str(path)).issues)


def test_broken_utf8_is_reported_with_its_line_not_guessed(tmp_path):
    """GIVEN a UTF-8 pack with one damaged byte in the topic name line WHEN imported THEN refused naming that line
    (not read as CP1251 mojibake)."""
    line = TEXT.splitlines().index("Реки") + 1
    data = TEXT.encode("utf-8").replace("Реки\n".encode(), b"\xd0\xa0\xd0\xb5\xd0\xba\xd0\n", 1)
    path = tmp_path / "pack.txt"
    path.write_bytes(data)
    with pytest.raises(PackError, match=f"line {line}: broken UTF-8"):
        load(str(path))


def test_text_without_question_blocks_is_refused(tmp_path):
    """GIVEN a text file with no `Вопрос N:` WHEN loaded THEN refused as not a ChGK-database pack."""
    path = tmp_path / "notes.txt"
    path.write_text("просто заметки\n", encoding="utf-8")
    with pytest.raises(PackError, match="no `Вопрос N:` block"):
        load(str(path))


def test_decode_prefers_the_right_cyrillic_codepage():
    """GIVEN one short phrase in KOI8-R and in CP1251 WHEN decoded THEN each comes back as the original text."""
    phrase = "Вопрос 1:\nсамая длинная река Европы"
    assert decode("x", phrase.encode("koi8_r")) == phrase
    assert decode("x", phrase.encode("cp1251")) == phrase
