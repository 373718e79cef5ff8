"""Issue 24 item 8 ("Hall-proof", packs): a pack from anywhere, built to hurt the board — a picture of 144 MP in a
18 KB file, topic names of 9,000 characters, a UTF-16 content.xml without a byte-order mark that declares entities.
Real .siq archives on disk, loaded through `load_plan` and a real session."""
import json
import time

import pytest

from scoreboard.engine.commands import make
from scoreboard.packs import WARNING, PackError, load, load_plan
from scoreboard.packs.pictures import DEFAULT_MAX_PIXELS, picture_size
from scoreboard.session import Session
from siqbuild import big_png, png_bytes, topic, write_siq

NAME = ("Очень длинная тема " * 474).strip()       # 9,005 characters, most of them two bytes each in UTF-8


@pytest.fixture(scope="module")
def huge_png():
    return big_png(12000, 12000)             # 144 MP: 576 MB once decoded to RGBA


def test_item8_a_picture_over_the_pixel_limit_is_named_at_import(tmp_path, huge_png):
    """GIVEN a .siq whose question 1 shows Images/huge.png (12000×12000, 18 KB) and question 2 a small picture
    WHEN the pack is loaded THEN a warning names the huge file, its place, its pixels and the limit (16 MP by
    default) — read from the PNG's header, nothing decoded — and the small picture raises nothing."""
    media = [("image", "huge.png")]
    rounds = [("Раунд", [topic("Картины", media=media, extra={2: {"media": [("image", "small.png")]}}),
                         topic("Б"), topic("В"), topic("Г")])]
    path = write_siq(tmp_path / "p.siq", rounds=rounds,
                     files={"Images/huge.png": huge_png, "Images/small.png": png_bytes()})
    started = time.perf_counter()
    loaded = load(str(path))
    took = time.perf_counter() - started
    said = [i for i in loaded.issues if "pixels" in i.message]
    assert len(said) == 1 and said[0].level == WARNING
    assert "'Images/huge.png'" in said[0].message and "12000×12000" in said[0].message and "16.8 MP" in said[0].message
    assert "topic 1 «Картины», question 1" in said[0].where
    assert picture_size(loaded.media["Images/huge.png"]) == ("PNG", 12000, 12000) and DEFAULT_MAX_PIXELS == 4096 * 4096
    assert took < 5.0       # only bounds a hang: decoding it is what the header read avoids


def test_item8_long_text_fields_are_capped_at_import_with_a_warning_naming_them(tmp_path):
    """GIVEN a .siq whose four topic names are 9,007 characters and one question's text 20,000 WHEN it is loaded
    into a session THEN each name is cut to 120 characters and the text to 4,000, each with a warning naming the
    field, its place and its length; the board's whole state stays a few KB (it was over 72 KB: beyond a datagram)."""
    rounds = [("Раунд", [topic(f"{k} {NAME}", extra={1: {"text": "т" * 20000}} if k == 1 else None)
                         for k in range(1, 5)]),
              ("Второй", [topic(f"Тема {k}") for k in range(1, 5)])]
    path = write_siq(tmp_path / "p.siq", rounds=rounds)
    plan = load_plan(str(path))
    topics = plan["rounds"][0]["topics"]
    assert [len(t["name"]) for t in topics] == [120] * 4 and topics[0]["name"].startswith("1 Очень")
    assert len(topics[0]["questions"][0]["text"]) == 4000
    warned = [i for i in load(str(path)).issues if "cut to" in i.message]
    names = [i for i in warned if i.message.startswith("name cut to 120 characters (it had 9007)")]
    assert len(names) == 4 and all(i.level == WARNING for i in warned)
    assert names[1].where == "round 1 «Раунд», topic 2"
    assert any(i.message == "text cut to 4000 characters (it had 20000)" and i.where.endswith("question 1")
               for i in warned)
    session = Session()
    for at, address, *args in [(0, "/sg/game/new", "novosibirsk-2007", "1/9", 3), (0, "/sg/pack/load", str(path)),
                               (1, "/sg/game/start")]:
        session.submit(make(at, address, *args))
    assert len(json.dumps(session.snapshot(), ensure_ascii=False).encode()) < 16_000


BILLION_LAUGHS = """<?xml version="1.0" encoding="UTF-16"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>
<package xmlns="https://github.com/VladimirKhil/SI/blob/master/assets/siq_5.xsd" name="&lol4;" version="5">
<rounds><round name="Р"><themes><theme name="&lol4;"><questions/></theme></themes></round></rounds></package>"""


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_item8_a_utf16_content_xml_without_a_bom_cannot_declare_a_dtd(tmp_path, encoding):
    """GIVEN content.xml in UTF-16 without a byte-order mark (its bytes pass a UTF-8 check: every other byte is
    NUL; a byte scan for `<!DOCTYPE` cannot see it) declaring entities that expand 10,000-fold WHEN loaded THEN it
    is refused for its DTD — by the parser's own doctype handler, whatever the encoding — and nothing expands."""
    path = write_siq(tmp_path / "p.siq", content=BILLION_LAUGHS.encode(encoding))
    with pytest.raises(PackError, match=r"content.xml: refused: a DTD \(<!DOCTYPE lolz>\)"):
        load_plan(str(path))
