"""Pack media on the host's monitor (issue 5 §6): the host sees the picture the audience sees beside the question
text, and the answer's picture (`host_question.answer_media`, SIGame packs have them) small beside the answer once the
question is resolved; a missing file is a "нет файла" note and one warning, never a crash."""
import shutil
from pathlib import Path

import pygame
import pytest

from scoreboard.display import compose
from scoreboard.display.media import files as media
from scoreboard.display.theme.load import load_theme
from tests.conftest import ROOT
from scoreboard.engine.commands import make
from scoreboard.session import Session

SIZE = (1280, 720)
SAMPLE = ROOT / "assets" / "packs" / "sample.toml"
FLAG = ROOT / "assets" / "packs" / "sample_media" / "flag.png"
FLAG_MEDIA = '''media = [
    { kind = "image", path = "sample_media/flag.png" },
]
'''


@pytest.fixture(autouse=True)
def fresh_media_caches(tmp_path, monkeypatch):
    """Each test loads and warns about files from scratch, with its own pack cache (deleting a file there must not
    touch the machine's cache)."""
    monkeypatch.setenv("SVOYA_PACK_CACHE", str(tmp_path / "pack-cache"))
    media.forget()
    yield


def pack_with_answer_picture(tmp_path: Path) -> Path:
    """A copy of the sample pack whose flag question also has an answer picture (a 40×80 PNG: tall, unlike the
    3:2 flag, so the two are told apart)."""
    shutil.copytree(FLAG.parent, tmp_path / "sample_media")
    pygame.image.save(pygame.Surface((40, 80)), str(tmp_path / "sample_media" / "answer.png"))
    text = SAMPLE.read_text(encoding="utf-8")
    assert text.count(FLAG_MEDIA) == 1
    text = text.replace(FLAG_MEDIA, FLAG_MEDIA + 'answer_media = [\n    { kind = "image", path = '
                                                 '"sample_media/answer.png" },\n]\n')
    pack = tmp_path / "pack.toml"
    pack.write_text(text, encoding="utf-8")
    return pack


def open_flag_question(pack=SAMPLE) -> Session:
    """A real samara cup game on `pack`, up to the image question ("Флаги", 10) being read."""
    session = Session()
    for at, address, *args in [(0, "/sg/game/new", "samara-2003", "cup", 3), (0, "/sg/player/name", 1, "Анна"),
                               (0, "/sg/pack/load", str(pack)), (1, "/sg/game/start"), (2, "/sg/next"),
                               (3, "/sg/select", 2, 1)]:
        session.submit(make(at, address, *args))
    return session


def resolve_unanswered(session: Session) -> None:
    """The host ends the reading, nobody presses, the window runs out: the question is resolved (reveal)."""
    session.submit(make(5, "/sg/reading/done"))
    session.advance(session.next_deadline())
    assert session.snapshot()["phase"] == "reveal"


def host_frame(session: Session, now: float = 3.5):
    snap = session.snapshot()
    return compose.draw(pygame.Surface(SIZE), snap, load_theme("classic"), now, "host",
                       host_question=session.host_question(), animate=False, record=True)


def test_host_sees_the_image_questions_picture_beside_its_text():
    """issue 5 §6 (host) — GIVEN the sample pack's flag question (a 90×60 PNG) open in a real Session WHEN the
    host's screen is drawn THEN it draws the flag fitted in its box with the 3:2 aspect kept, beside (not over) the
    question text, and every text stays inside its box."""
    session = open_flag_question()
    canvas = host_frame(session)
    pictures = canvas.tagged("host:media:image")
    assert len(pictures) == 1
    picture = pictures[0]
    assert picture.text == session.host_question()["media"][0]["path"]
    assert picture.box.contains(picture.rect)
    assert picture.rect.w / picture.rect.h == pytest.approx(90 / 60, abs=0.02)
    text = canvas.texts("host:text")[0]
    assert text.text == session.host_question()["text"]
    assert not text.box.colliderect(picture.box)
    assert all(d.box.contains(d.rect) for d in canvas.texts())


def test_host_screen_without_media_draws_no_picture(games):
    """issue 5 §6 (host) — GIVEN every frame of a whole demo game (its built-in pack has no media) WHEN the host's
    screen is drawn THEN no media panel appears and the question text is drawn whenever a question is open."""
    for snap, hq, at in games["novosibirsk-2007"][::7]:
        canvas = compose.draw(pygame.Surface(SIZE), snap, load_theme("classic"), at, "host", host_question=hq,
                             animate=False, record=True)
        assert not canvas.tagged("host:media") and not canvas.tagged("host:answer_media")
        if hq and hq.get("text") and snap["phase"] != "game_over":
            assert canvas.texts("host:text")[0].text == hq["text"]


def test_answer_picture_is_shown_small_on_the_host_screen_only_at_reveal(tmp_path):
    """issue 5 §6 (host, answer_media) — GIVEN a pack whose flag question has an answer picture (40×80) WHEN the
    host's screen is drawn while the question is read, then once nobody pressed and it is resolved THEN while it is
    read only the question's picture is drawn; at the reveal the answer picture is drawn too, smaller than the
    question's box, with its aspect, inside the answer area below the text, and the answer text does not overlap
    it. The audience never gets it (the snapshot carries no answer media)."""
    session = open_flag_question(pack_with_answer_picture(tmp_path))
    assert session.host_question()["answer_media"][0]["path"].endswith("answer.png")
    reading = host_frame(session)
    assert reading.tagged("host:media:image") and not reading.tagged("host:answer_media")
    resolve_unanswered(session)
    assert "answer_media" not in (session.snapshot().get("question") or {})
    reveal = host_frame(session, session.snapshot()["time"] + 0.5)
    question_picture = reveal.tagged("host:media:image")[0]
    answer_picture = reveal.tagged("host:answer_media:image")[0]
    assert answer_picture.text.endswith("answer.png")
    assert answer_picture.box.contains(answer_picture.rect)
    assert answer_picture.rect.w / answer_picture.rect.h == pytest.approx(40 / 80, abs=0.03)
    assert answer_picture.box.w * answer_picture.box.h < question_picture.box.w * question_picture.box.h
    assert answer_picture.box.top > reveal.texts("host:text")[0].box.bottom
    assert not reveal.texts("host:answer")[0].box.colliderect(answer_picture.box)


@pytest.mark.parametrize("which", ["media", "answer_media"])
def test_missing_picture_on_the_host_screen_is_a_note_and_one_warning(tmp_path, capsys, which):
    """issue 5 §6 (host) — GIVEN the question's picture, or the answer's, deleted from the pack cache after the
    pack was loaded WHEN the host's screen is drawn in several frames at the reveal THEN a "нет файла" note stands
    in that picture's place, nothing raises, and one warning naming the file is printed."""
    session = open_flag_question(pack_with_answer_picture(tmp_path))
    gone = Path(session.host_question()[which][0]["path"])
    gone.unlink()
    resolve_unanswered(session)
    tag = "host:media" if which == "media" else "host:answer_media"
    for k in range(3):
        canvas = host_frame(session, session.snapshot()["time"] + k)
        assert canvas.texts(f"{tag}:missing")[0].text == "нет файла"
        assert not canvas.tagged(f"{tag}:image")
    warnings = [line for line in capsys.readouterr().err.splitlines() if line.startswith("media:")]
    assert len(warnings) == 1 and str(gone) in warnings[0]


def test_a_cat_in_the_bag_shows_its_own_topic_and_the_host_its_price_and_the_wrong_answers(tmp_path):
    """Issue 10 item 1 (cat in the bag keeps its own topic and price, «shown on the board and the host's screen»;
    wrong answers reach the host's screen) — GIVEN the sample pack's flag question made a SIGame cat in the bag
    (its own topic «Кошки», pack price [100;500]/100) with a wrong answer, open in a real Session
    WHEN the audience and the host's screens are drawn THEN the hall's header names the cat's topic, the host's title
    adds the pack's price, the host's answer lists the wrong answer, and the audience screen draws no answer."""
    shutil.copytree(FLAG.parent, tmp_path / "sample_media")
    text = SAMPLE.read_text(encoding="utf-8")
    cat = 'kind = "secret"\nsecret_topic = "Кошки"\nsecret_price = "[100;500]/100"\nwrong = ["Кот"]\n'
    (tmp_path / "pack.toml").write_text(text.replace(FLAG_MEDIA, FLAG_MEDIA + cat), encoding="utf-8")
    session = open_flag_question(tmp_path / "pack.toml")
    host = host_frame(session)
    assert host.texts("host:topic")[0].text.startswith("Кот в мешке: Кошки (100…500, шаг 100)")
    assert "Неверные: Кот" in host.texts("host:answer")[0].text
    snap = session.snapshot()
    hall = compose.draw(pygame.Surface(SIZE), snap, load_theme("classic"), 3.5, "audience", animate=False,
                       record=True)
    assert any("Кот в мешке: Кошки" in d.text for d in hall.texts())
    answer = session.host_question()["answer"]
    assert not any(answer in d.text for d in hall.texts())
    assert all(d.box.contains(d.rect) for d in host.texts())
