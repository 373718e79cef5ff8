"""Issue 24 item 8 ("Hall-proof", packs): a pack's picture on the frame loop. A 12000×12000 PNG of 18 KB passed the
byte cap and cost the board a 144 MP decode (576 MB once scaled in 32 bits) on its frame loop; the pixels are now
read from the header and refused before anything decodes. A GIF (8 bits a pixel) is drawn, never a ValueError."""
import shutil
import struct
import zlib
from pathlib import Path

import pygame
import pytest

from scoreboard.app.config import check_config
from scoreboard.display import compose
from scoreboard.display.media import files as media
from scoreboard.display.theme.load import load_theme
from scoreboard.engine.commands import make
from scoreboard.packs import pictures
from scoreboard.session import Session
from tests.conftest import ROOT

SAMPLE = ROOT / "assets" / "packs" / "sample.toml"
FLAG = ROOT / "assets" / "packs" / "sample_media" / "flag.png"


def big_png(width: int, height: int) -> bytes:
    """A real PNG of width × height black pixels, 1 bit each."""
    row = b"\x00" * (1 + (width + 7) // 8)

    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height, 9)) + chunk(b"IEND", b""))


# a 3×2 GIF with a two-colour palette (what SIGame packs often carry)
GIF = (b"GIF89a" + struct.pack("<HHBBB", 3, 2, 0x80, 0, 0) + b"\x00\x00\x00\xff\xff\xff" + b"\x2c"
       + struct.pack("<HHHHB", 0, 0, 3, 2, 0) + b"\x02\x02\x44\x01\x00\x3b")


@pytest.fixture
def flag_pack(tmp_path, monkeypatch):
    """A copy of the sample pack (its flag file to be replaced), its own pack cache, caches and warnings fresh."""
    monkeypatch.setenv("SVOYA_PACK_CACHE", str(tmp_path / "pack-cache"))
    media.forget()
    shutil.copy(SAMPLE, tmp_path / "pack.toml")
    shutil.copytree(FLAG.parent, tmp_path / "sample_media")
    yield tmp_path / "pack.toml"
    media.forget()
    pictures.set_max_pixels(pictures.DEFAULT_MAX_PIXELS)


def flag_question(pack):
    """A samara cup game on the pack, up to the image question ("Флаги", 10) being read: its snapshot."""
    session = Session()
    for at, address, *args in [(0, "/sg/game/new", "samara-2003", "cup", 3), (0, "/sg/player/name", 1, "Анна"),
                               (0, "/sg/pack/load", str(pack)), (1, "/sg/game/start"), (2, "/sg/next")]:
        session.submit(make(at, address, *args))
    return session.submit(make(3, "/sg/select", 2, 1))


def draw(snapshot, now=3.5):
    return compose.draw(pygame.Surface((1280, 720)), snapshot, load_theme("classic"), now, record=True, animate=False)


def test_item8_a_picture_over_the_pixel_limit_is_never_decoded(flag_pack, capsys, monkeypatch):
    """GIVEN the image question's picture replaced (in the board's pack cache) by a 12000×12000 PNG of a few KB
    WHEN the question is drawn in three frames THEN the file is never handed to the decoder, a "нет файла" note stands
    in its box, and one warning names the file, its pixels and the limit."""
    after = flag_question(flag_pack)
    path = Path(after["question"]["media"][0]["path"])
    path.write_bytes(big_png(12000, 12000))
    decoded = []
    real = pygame.image.load
    monkeypatch.setattr(pygame.image, "load", lambda p, *a: decoded.append(p) or real(p, *a))
    for k in range(3):
        canvas = draw(after, 3.0 + k)
        assert canvas.texts("media:missing")[0].text == "нет файла" and not canvas.tagged("media:image")
    assert str(path) not in decoded
    warnings = [line for line in capsys.readouterr().err.splitlines() if line.startswith("media:")]
    assert len(warnings) == 1 and str(path) in warnings[0] and "12000×12000" in warnings[0]
    assert "16.8 MP" in warnings[0]


def test_item8_the_pixel_limit_is_the_boards_setting(flag_pack, capsys):
    """GIVEN `[packs] max_picture_pixels` WHEN the config is checked THEN 16 MP (4096×4096) is the default and a value
    outside 1..256 MP is a problem naming the key; WHEN the limit is set below the sample flag's 90×60 THEN the flag
    is refused (a note, a warning) — the limit the board applies is the configured one."""
    config, problems = check_config({}, "b.toml")
    assert config["packs"]["max_picture_pixels"] == 4096 * 4096 and not [p for p in problems if "packs" in p.key]
    _, problems = check_config({"packs": {"max_picture_pixels": 0}}, "b.toml")
    assert [p.key for p in problems if "packs" in p.key] == ["packs.max_picture_pixels"]
    pictures.set_max_pixels(90 * 60 - 1)
    canvas = draw(flag_question(flag_pack))
    assert canvas.texts("media:missing") and not canvas.tagged("media:image")
    assert "90×60" in capsys.readouterr().err


def test_item8_a_gif_picture_is_drawn(flag_pack):
    """GIVEN the image question's picture replaced by a GIF (8 bits a pixel, a palette) WHEN drawn THEN it is drawn
    fitted into its box (it raised ValueError from smoothscale on the frame loop before)."""
    after = flag_question(flag_pack)
    Path(after["question"]["media"][0]["path"]).write_bytes(GIF)
    picture = draw(after).tagged("media:image")[0]
    assert picture.box.contains(picture.rect) and picture.rect.w / picture.rect.h == pytest.approx(1.5, abs=0.05)
