"""The examples in docs/PACKS.md are real: the TOML example reads as documented, the ChGK example imports."""
import re
from pathlib import Path

from scoreboard.packs import chgk, native

DOC = (Path(__file__).resolve().parents[2] / "docs" / "PACKS.md").read_text(encoding="utf-8")


def _block(kind: str) -> str:
    return re.search(rf"```{kind}\n(.*?)```", DOC, re.S).group(1)


def test_p1_documented_toml_example_reads_with_every_field():
    """GIVEN the native-format example of docs/PACKS.md WHEN read THEN each documented field lands in the model."""
    pack = native.read("PACKS.md", _block("toml").encode("utf-8"))
    flags = pack.rounds[0].topics[0]
    assert (pack.title, flags.name, flags.team, len(flags.questions)) == ("Кубок Самары, первый тур", "Флаги",
                                                                          "Тольятти", 5)
    first = flags.questions[0]
    assert first.accepts == ["Российская Федерация"] and first.media[0].ref == "sample_media/flag.png"
    assert first.price == 10 and flags.questions[4].auction and flags.reserve.answer == "13"
    assert pack.final.question.answer == "Ампер" and pack.extra[0].name == "Столицы"


def test_documented_chgk_example_imports():
    """GIVEN the ChGK-text example of docs/PACKS.md WHEN imported THEN one topic with 5 questions and a reserve."""
    pack = chgk.read("PACKS.md", _block("text").encode("utf-8"))
    rivers = pack.rounds[0].topics[0]
    assert rivers.name == "Реки" and len(rivers.questions) == 5 and rivers.reserve.answer == "Волга."
    assert rivers.questions[0].accepts == ["Ра."] and rivers.author == "Иван Петров (Самара)"
