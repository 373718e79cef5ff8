"""Pack media (issue 5 §6): an image question shows its picture on the audience screen, an audio one plays once as
the question opens, a video shows a placeholder; a missing or broken file is a warning, not a crash."""
import shutil
import wave
from pathlib import Path

import pygame
import pytest

from scoreboard.display import compose
from scoreboard.display.media import files as media
from scoreboard.display.media.sounds import Sounds
from scoreboard.display.theme.load import load_theme
from tests.conftest import ROOT
from scoreboard.engine.commands import make
from scoreboard.session import Session

SIZE = (1280, 720)
SAMPLE = ROOT / "assets" / "packs" / "sample.toml"
FLAG = ROOT / "assets" / "packs" / "sample_media" / "flag.png"


@pytest.fixture(autouse=True)
def fresh_media_caches(tmp_path, monkeypatch):
    """Each test sees files loaded and warned about from scratch, and its own pack cache (damaging a media file
    there must not touch the machine's cache)."""
    monkeypatch.setenv("SVOYA_PACK_CACHE", str(tmp_path / "pack-cache"))
    media.forget()
    yield


def open_flag_question(pack=SAMPLE):
    """A real samara cup game on the sample pack, up to the image question ("Флаги", 10) being read."""
    session = Session()
    for at, address, *args in [(0, "/sg/game/new", "samara-2003", "cup", 3), (0, "/sg/player/name", 1, "Анна"),
                               (0, "/sg/pack/load", str(pack)), (1, "/sg/game/start"), (2, "/sg/next")]:
        session.submit(make(at, address, *args))
    before = session.snapshot()
    after = session.submit(make(3, "/sg/select", 2, 1))
    return session, before, after


def draw(snapshot, now=3.5):
    return compose.draw(pygame.Surface(SIZE), snapshot, load_theme("classic"), now, record=True, animate=False)


def test_image_question_shows_its_picture_fitted_with_its_aspect_only_once_open():
    """GIVEN the sample pack's flag question (a 90×60 PNG) WHEN the board is drawn while choosing and then while
    the question is read and in its window THEN no picture before it opens; after, the picture fills its box in one
    dimension with the 3:2 aspect kept, and every text stays inside its box."""
    session, before, after = open_flag_question()
    assert after["question"]["media"][0]["kind"] == "image"
    assert not draw(before).tagged("media:")
    reading = draw(after)
    picture = reading.tagged("media:image")[0]
    assert picture.box.contains(picture.rect)
    assert picture.rect.w / picture.rect.h == pytest.approx(90 / 60, abs=0.02)
    assert picture.rect.w == picture.box.w or picture.rect.h == picture.box.h
    assert all(d.box.contains(d.rect) for d in reading.texts())
    window = draw(session.submit(make(5, "/sg/reading/done")), 6.0)
    assert window.tagged("media:image") and window.texts("timer:left")


def test_picture_is_loaded_once_per_path(monkeypatch):
    """GIVEN the image question WHEN it is drawn in 20 frames THEN the file is decoded once."""
    _, _, after = open_flag_question()
    loads = []
    real = pygame.image.load
    monkeypatch.setattr(pygame.image, "load", lambda path, *a: loads.append(path) or real(path, *a))
    for k in range(20):
        draw(after, 3.0 + k / 10)
    assert loads.count(after["question"]["media"][0]["path"]) == 1


@pytest.mark.parametrize("damage", ["missing", "broken"])
def test_missing_or_broken_picture_is_a_note_and_one_warning(tmp_path, capsys, damage):
    """GIVEN a copy of the sample pack whose flag file is then deleted, or replaced by bytes that are no picture
    WHEN the question is drawn in several frames THEN a "нет файла" note stands in its box, the game draws on, and
    one warning naming the file is printed."""
    pack = tmp_path / "pack.toml"
    shutil.copy(SAMPLE, pack)
    shutil.copytree(FLAG.parent, tmp_path / "sample_media")
    _, _, after = open_flag_question(pack)
    path = Path(after["question"]["media"][0]["path"])
    if damage == "missing":
        path.unlink()
    else:
        path.write_bytes(b"\x89PNG this is not a picture")
    for k in range(3):
        canvas = draw(after, 3.0 + k)
        assert canvas.texts("media:missing")[0].text == "нет файла"
        assert not canvas.tagged("media:image")
    warnings = [line for line in capsys.readouterr().err.splitlines() if line.startswith("media:")]
    assert len(warnings) == 1 and str(path) in warnings[0]


def test_video_question_shows_a_placeholder(games):
    """GIVEN an open question whose media is a video WHEN drawn THEN a "видео" placeholder is shown, no picture."""
    snap, _, at = next(x for x in games["novosibirsk-2007"] if x[0]["phase"] == "reading")
    video = dict(snap, question=dict(snap["question"], media=[{"kind": "video", "path": "/nowhere/clip.mp4"}]))
    canvas = draw(video, at)
    assert canvas.texts("media:video")[0].text == "видео" and not canvas.tagged("media:image")


def _tone(path: Path) -> Path:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(22050)
        out.writeframes(b"\x00\x10" * 2205)
    return path


def test_audio_question_plays_its_sound_once_when_it_opens(tmp_path, games):
    """GIVEN a question whose media is a WAV sound (dummy audio driver) WHEN the board's sound player sees the
    question open, then more snapshots of the same question THEN the sound is started exactly once; the next
    question with the same sound starts it again; the audience sees a "звук" note, no picture."""
    sound = str(_tone(tmp_path / "tone.wav"))
    frames = [s for s, _, _ in games["novosibirsk-2007"]]
    k = next(i for i, s in enumerate(frames) if s["phase"] == "reading" and frames[i - 1]["phase"] != "reading")
    with_sound = lambda s: dict(s, question=dict(s["question"], media=[{"kind": "audio", "path": sound}]))  # noqa
    choosing, reading, window = frames[k - 1], with_sound(frames[k]), with_sound(frames[k + 1])
    assert window["question"]["index"] == reading["question"]["index"]
    player = Sounds(load_theme("classic"), enabled=False)
    player.update(choosing, reading, 0.0)
    player.update(reading, window, 0.0)
    player.update(window, window, 0.0)
    assert player.media_played == [sound]
    assert isinstance(media._sounds.recall(sound), pygame.mixer.Sound)
    later = next(s for s in frames[k + 2:] if s["phase"] == "reading")
    player.update(window, with_sound(later), 0.0)
    assert player.media_played == [sound, sound]
    assert draw(reading).texts("media:audio")[0].text == "звук"


def test_missing_sound_is_one_warning_and_silence(tmp_path, games, capsys):
    """GIVEN a question whose sound file does not exist WHEN it opens twice THEN nothing plays, nothing raises,
    and one warning is printed."""
    frames = [s for s, _, _ in games["novosibirsk-2007"]]
    gone = str(tmp_path / "gone.ogg")
    opens = [dict(s, question=dict(s["question"], media=[{"kind": "audio", "path": gone}]))
             for i, s in enumerate(frames) if s["phase"] == "reading" and frames[i - 1]["phase"] != "reading"][:2]
    player = Sounds(load_theme("classic"), enabled=False)
    for snap in opens:
        player.update(frames[0], snap, 0.0)
    assert player.media_played == []
    assert len([line for line in capsys.readouterr().err.splitlines() if gone in line]) == 1


def test_a_long_pack_keeps_only_a_few_pictures_in_memory(tmp_path):
    """GIVEN 40 picture questions drawn one after another WHEN each is shown THEN each picture is drawn, and the
    caches hold only the last few decoded and scaled pictures (a pack of 4K photos must not fill the memory)."""
    _, _, snap = open_flag_question()
    for k in range(40):
        path = tmp_path / f"p{k}.png"
        pygame.image.save(pygame.Surface((30 + k, 20)), str(path))
        shown = dict(snap, question=dict(snap["question"], media=[{"kind": "image", "path": str(path)}]))
        assert draw(shown).tagged("media:image")
    assert len(media._originals) <= 6 and len(media._scaled) <= 6
