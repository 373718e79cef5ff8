"""ChGK-database exports as the database writes them (`Вид: Я`): its own label spellings, `(pic: FILE)` pictures,
72-column hard wraps, «Тема 1. Реки.» and «1. Цвета» topic lines, the final block, encodings and CRLF.
Every sample is written here, in the shape of the database's exports (db.chgk.info, chgkdb-parser)."""
from pathlib import Path

import pytest

from scoreboard.packs import ERROR, WARNING, load, load_plan
from siqbuild import png_bytes


def items(prefix: str, count: int = 5) -> str:
    return "\n".join(f"   {n}. {prefix} {n}." for n in range(1, count + 1))


def block(number: int, head: str, answers: str = "", more: str = "") -> str:
    return (f"Вопрос {number}:\n{head}\n{items('Вопрос')}\n\nОтвет:\n{answers or items('Ответ')}\n\n"
            f"{more}")


HEADER = "Чемпионат:\nКубок клуба\n\nДата:\n01-Dec-2026\n\nВид:\nЯ\n\nТур:\n1\n\n"


def write(tmp_path, text: str, name: str = "pack.txt", encoding: str = "utf-8", newline: str = "\n") -> str:
    path = tmp_path / name
    path.write_bytes(text.replace("\n", newline).encode(encoding))
    return str(path)


def test_p1_the_databases_own_label_spellings_are_read(tmp_path):
    """GIVEN a topic whose fields are labelled `Источник(и):`, `Автор(ы):`, `Зачёт.`, `Комментарии:` (as the
    database writes them) WHEN imported THEN each lands in its own field and nothing is glued onto the answers."""
    more = ("Зачёт.\n   1. Первый.\n\nКомментарии:\n   2. Пояснение.\n\nИсточник(и):\n   1. БСЭ.\n   2. Атлас.\n"
            "   3. Словарь.\n   4. Справочник.\n   5. Энциклопедия.\n\nАвтор(ы):\nИван Петров (Самара)\n")
    loaded = load(write(tmp_path, HEADER + block(1, "Реки", more=more)))
    topic = loaded.pack.rounds[0].topics[0]
    q1, q2 = topic.questions[:2]
    assert (q1.answer, q1.accepts, q1.source) == ("Ответ 1.", ["Первый."], "БСЭ.")
    assert (q2.answer, q2.comment, q2.source) == ("Ответ 2.", "Пояснение.", "Атлас.")
    assert topic.author == "Иван Петров (Самара)" and {q.author for q in topic.questions} == {topic.author}
    assert not any("no source" in i.message for i in loaded.issues)


def test_p1_one_letter_answer_label_and_a_line_that_only_looks_like_one(tmp_path):
    """GIVEN a topic whose answers follow `О:` and whose question 3 starts a line with «А. С. Пушкин» WHEN imported
    THEN `О:` is the answer field and «А. С. Пушкин» stays in the question's text."""
    text = HEADER + ("Вопрос 1:\nПоэты\n   1. Вопрос 1.\n   2. Вопрос 2.\n   3. Его инициалы:\nА. С. Пушкин?\n"
                     "   4. Вопрос 4.\n   5. Вопрос 5.\n\nО:\n" + items("Ответ") + "\n")
    q = load(write(tmp_path, text)).pack.rounds[0].topics[0].questions
    assert q[2].text == "Его инициалы: А. С. Пушкин?" and [x.answer for x in q] == [f"Ответ {n}." for n in range(1, 6)]


def test_hard_wrapped_lines_are_joined_into_paragraphs(tmp_path):
    """GIVEN a question and an explanation wrapped at 72 columns, and an explanation of two paragraphs WHEN imported
    THEN each wrapped paragraph is one line, paragraphs stay apart."""
    head = ("Реки\nВсе ответы в этой теме - реки России, и в каждом вопросе названа\nобласть, через которую "
            "река течёт.\n\nВторой абзац пояснения.")
    text = HEADER + block(1, head).replace("   1. Вопрос 1.", "   1. Эта река течёт через Тверскую, Ярославскую и\n"
                                                                "Нижегородскую области.")
    topic = load(write(tmp_path, text)).pack.rounds[0].topics[0]
    assert topic.explanation == ("Все ответы в этой теме - реки России, и в каждом вопросе названа область, через "
                                 "которую река течёт.\nВторой абзац пояснения.")
    assert topic.questions[0].text == "Эта река течёт через Тверскую, Ярославскую и Нижегородскую области."


@pytest.mark.parametrize("line,name", [("Тема 1. Реки.", "Реки"), ("1. Цвета", "Цвета"), ("Тема: Моря", "Моря"),
                                       ("Реки", "Реки")])
def test_topic_lines_as_the_database_writes_them(tmp_path, line, name):
    """GIVEN a block whose topic line is «Тема 1. Реки.», «1. Цвета», «Тема: Моря» or plain WHEN imported THEN the
    topic is named without the numbering and the final dot, and its five items are still the questions."""
    topic = load(write(tmp_path, HEADER + block(1, line))).pack.rounds[0].topics[0]
    assert topic.name == name and [q.text for q in topic.questions] == [f"Вопрос {n}." for n in range(1, 6)]


def test_fn2_the_block_with_no_numbered_items_is_the_final(tmp_path):
    """GIVEN four topics and then a block with a topic line and a question but no numbered items, with its own
    unnumbered answer and source WHEN imported THEN it is the final topic with its question, answer and source, and
    the pack has no error (an unnumbered answer is right for a final)."""
    final = ("Вопрос 5:\nФизика\nЕдиница силы тока в СИ.\n\nОтвет:\nАмпер.\n\nЗачет:\nА (ампер).\n\nИсточник:\nГОСТ "
             "8.417-2002.\n")
    text = HEADER + "".join(block(n, f"Тема {n}") for n in range(1, 5)) + final
    loaded = load(write(tmp_path, text))
    final_topic = loaded.pack.final
    assert (final_topic.topic, final_topic.question.text, final_topic.question.answer) == (
        "Физика", "Единица силы тока в СИ.", "Ампер.")
    assert final_topic.question.source == "ГОСТ 8.417-2002." and final_topic.question.accepts == ["А (ампер)."]
    assert len(loaded.pack.rounds[0].topics) == 4
    assert not [i for i in loaded.issues if i.level == ERROR]


def test_pictures_become_image_items_from_beside_the_file_or_a_warning(tmp_path, pack_cache):
    """GIVEN question 1 with `(pic: 20261201.jpg)` (the file is beside the pack), an answer with
    `(pic: ответ.png)` in a folder named like the pack, and question 2 naming a picture that is nowhere WHEN loaded
    THEN the first two are images (question / answer) copied into the cache, the text keeps no `(pic:` marker, and
    the missing one is one warning naming the question and the file."""
    (tmp_path / "20261201.jpg").write_bytes(png_bytes())
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "ответ.png").write_bytes(png_bytes(2, 2))
    text = HEADER + block(1, "Картины").replace("   1. Вопрос 1.", "   1. (pic: 20261201.jpg)\nЧья это картина?") \
        .replace("   2. Вопрос 2.", "   2. (pic: нигде.png) Кто автор?") \
        .replace("   1. Ответ 1.", "   1. Репин. (pic: ответ.png)")
    path = write(tmp_path, text)
    plan = load_plan(path)
    q1, q2 = plan["rounds"][0]["topics"][0]["questions"][:2]
    assert q1["text"] == "Чья это картина?" and q1["answer"] == "Репин."
    assert Path(q1["media"][0]["path"]).read_bytes() == png_bytes()
    assert Path(q1["answer_media"][0]["path"]).read_bytes() == png_bytes(2, 2)
    assert Path(q1["media"][0]["path"]).is_relative_to(pack_cache)
    assert q2["media"] == [] and q2["text"] == "Кто автор?"
    missing = [w for w in plan["warnings"] if "нигде.png" in w]
    assert len(missing) == 1 and "topic 1 «Картины», question 2" in missing[0]


def test_a_picture_name_cannot_leave_the_packs_folder(tmp_path):
    """GIVEN `(pic: ../secret.png)` with that file really there, one level up WHEN loaded THEN it is not used (a
    warning instead), so a pack cannot read files from outside its folder."""
    (tmp_path / "secret.png").write_bytes(png_bytes())
    (tmp_path / "packs").mkdir()
    text = HEADER + block(1, "Т").replace("   1. Вопрос 1.", "   1. (pic: ../secret.png) Что это?")
    loaded = load(write(tmp_path / "packs", text))
    assert loaded.pack.rounds[0].topics[0].questions[0].media == []
    assert any(i.level == WARNING and "../secret.png" in i.message for i in loaded.issues)


@pytest.mark.parametrize("encoding", ["utf-8", "cp1251", "koi8_r"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_p1_encodings_and_crlf_read_the_same(tmp_path, encoding, newline):
    """GIVEN the same export in UTF-8, CP1251 and KOI8-R, with LF or CRLF line ends WHEN imported THEN the topic,
    a wrapped question and the labels come out the same, with no stray carriage return."""
    text = HEADER + block(1, "Тема 1. Ёлки.", more="Источник(и):\nБСЭ.\n\nАвтор(ы):\nЁж Ежов\n").replace(
        "   1. Вопрос 1.", "   1. Длинный вопрос, который\nпереносится.")
    loaded = load(write(tmp_path, text, encoding=encoding, newline=newline))
    topic = loaded.pack.rounds[0].topics[0]
    assert (topic.name, topic.questions[0].text, topic.questions[0].source) == (
        "Ёлки", "Длинный вопрос, который переносится.", "БСЭ.")
    assert topic.author == "Ёж Ежов"
    assert "\r" not in "".join(q.text + q.answer + q.source for q in topic.questions)
