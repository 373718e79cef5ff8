"""Hostile packs (issue 5 §7): every trick is refused or reported, and nothing is written outside the pack cache."""
import hashlib
import os
import struct
import zipfile

import pytest

from conftest import files_under
from scoreboard.packs import PackError, load, load_plan
from scoreboard.packs.cache import safe_name
from scoreboard.packs.safezip import Limits, SafeZip
from siqbuild import content_xml, deflated_zip, overlapping_zip, png_bytes, topic, write_siq

GOOD_XML = content_xml(5, "П", [("Р", [topic("Т")])])


def _zip(path, entries, **kw):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, blob in entries:
            archive.writestr(name, blob, **kw)
    return str(path)


def _untouched(tmp_path, before):
    """Every file that appeared under tmp_path is inside the pack cache."""
    cache = str(tmp_path / "cache")
    return all(f.startswith(cache + os.sep) for f in files_under(tmp_path) - before)


@pytest.mark.parametrize("name", ["../evil.txt", "Images/../../evil.txt", "/etc/evil", "Images/%2e%2e/%2e%2e/evil",
                                  "..\\evil.txt", "C:/evil.txt", "Images/%2Fetc%2Fevil"])
def test_entry_leaving_the_archive_is_refused(tmp_path, name):
    """GIVEN a .siq with an entry named to escape (`..`, absolute, escaped, backslash, drive) WHEN loaded
    THEN the pack is refused naming the entry, and no file appears outside the cache."""
    path = _zip(tmp_path / "p.siq", [("content.xml", GOOD_XML), (name, b"x")])
    before = files_under(tmp_path)
    with pytest.raises(PackError, match="refused: entry"):
        load(path)
    assert _untouched(tmp_path, before) and not (tmp_path.parent / "evil.txt").exists()


def test_symlink_entry_is_refused(tmp_path):
    """GIVEN an entry stored as a Unix symlink to /etc/passwd WHEN loaded THEN refused as a symbolic link."""
    path = tmp_path / "p.siq"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("content.xml", GOOD_XML)
        link = zipfile.ZipInfo("Images/a.png")
        link.create_system = 3
        link.external_attr = (0o120777 << 16)
        archive.writestr(link, "/etc/passwd")
    with pytest.raises(PackError, match="'Images/a.png' is a symbolic link"):
        load(str(path))


def test_zip_bomb_by_compression_ratio_is_refused(tmp_path):
    """GIVEN a 5 MB entry of zeros that compresses about 1000:1 WHEN loaded THEN refused as a zip bomb, before
    anything is unpacked."""
    path = _zip(tmp_path / "p.siq", [("content.xml", GOOD_XML), ("Video/bomb.mp4", bytes(5 * 1024 * 1024))])
    with pytest.raises(PackError, match=r"compresses \d+:1.*zip bomb"):
        load(path)


MB = 1024 * 1024


def _reviewers_bomb(path):
    """1000 entries of 1 MiB of zeros, every one referenced by a question: ~1.1 MB on disk, ~1 GB unpacked."""
    names = [f"{n}.mp3" for n in range(1000)]
    rounds = [("Р", [topic(f"Т{t}", media=[("audio", name) for name in names[t * 200:(t + 1) * 200]])
                     for t in range(5)])]
    entries = [("content.xml", content_xml(5, "Бомба", rounds))] + [(f"Audio/{name}", bytes(MB)) for name in names]
    return deflated_zip(path, entries)


def test_zip_bomb_of_many_referenced_1_mb_entries_is_refused_before_anything_is_written(tmp_path, pack_cache,
                                                                                       capsys):
    """GIVEN the reviewer's bomb: a 1.1 MB .siq whose 1000 referenced entries of 1 MB of zeros unpack to ~1 GB
    WHEN `pack check` runs and the board loads it with the default limits THEN both refuse it as a zip bomb with the
    figures, and the pack cache stays empty (nothing was unpacked)."""
    from scoreboard.cli import main
    path = tmp_path / "bomb.siq"
    assert _reviewers_bomb(path) < 1.2 * MB
    before = files_under(tmp_path)
    assert main(["pack", "check", str(path)]) == 1
    assert "refused: the archive unpacks to 1000.1 MiB (1048632870 bytes)" in capsys.readouterr().out
    with pytest.raises(PackError, match=r"refused: the archive unpacks to 1000\.1 MiB \(1048632870 bytes\), over the "
                                        r"limit of 512\.0 MiB \(536870912 bytes\) \(zip bomb\?\)"):
        load_plan(str(path))
    assert files_under(tmp_path) == before and not pack_cache.exists()
    roomy = Limits(max_total_bytes=4096 * MB)          # with room for its size, its ratio still gives it away
    with pytest.raises(PackError, match=r"from 1\.\d MiB \(\d+ bytes\), \d{3}:1, over the limit of 10:1"):
        SafeZip(str(path), roomy)


def test_zip_bomb_caught_by_the_whole_archive_ratio_when_every_entry_is_small(tmp_path):
    """GIVEN 1200 entries of 64 KiB of zeros (each at the per-entry floor, so no single entry is judged): 75 MiB from
    a few hundred kB WHEN opened with the default limits THEN refused by the whole archive's ratio, with the
    figures and the limit."""
    path = tmp_path / "small.siq"
    size = deflated_zip(path, [("content.xml", GOOD_XML)] + [(f"Images/{n}.png", bytes(64 * 1024))
                                                             for n in range(1200)])
    with pytest.raises(PackError, match=rf"unpacks to 75\.0 MiB \(78645709 bytes\) from 0\.2 MiB \({size} bytes\), "
                                        r"\d{3}:1, over the limit of 10:1 for an archive unpacking to more than "
                                        r"64\.0 MiB \(67108864 bytes\) \(zip bomb\?\)"):
        SafeZip(str(path))


def test_overlapping_entries_bomb_is_caught_by_the_ratio_to_the_files_real_size(tmp_path):
    """GIVEN 100 directory entries that all point at one stored 1 MiB of random bytes (each entry alone is 1:1, so
    no per-entry check can see it): 100 MiB promised by a 1 MiB file WHEN opened with the default limits THEN refused
    by the whole archive's ratio, which is measured against the file's size on disk."""
    path = tmp_path / "overlap.siq"
    overlapping_zip(path, [f"Video/{n}.mp4" for n in range(100)], os.urandom(MB))
    with pytest.raises(PackError, match=r"unpacks to 100\.0 MiB \(104857600 bytes\) from 1\.0 MiB .* 99:1, over the "
                                        r"limit of 10:1"):
        SafeZip(str(path))


def test_zip_bomb_of_one_entry_under_1_mb_is_refused_by_its_ratio(tmp_path):
    """GIVEN an honest-looking pack (2 MB of incompressible video) with one 200 KB entry of zeros (~1000:1), well under
    the old 1 MB floor WHEN opened with the default limits THEN that entry is refused, named, with its ratio."""
    path = _zip(tmp_path / "p.siq", [("content.xml", GOOD_XML), ("Video/clip.mp4", os.urandom(2 * MB)),
                                     ("Images/zeros.png", bytes(200 * 1024))])
    with pytest.raises(PackError, match=r"entry 'Images/zeros.png' compresses \d{3,}:1 \(204800 bytes from \d+\), "
                                        r"over the limit of 200:1 for an entry over 65536 bytes \(zip bomb\?\)"):
        SafeZip(path)


def test_a_real_300_mb_media_pack_passes_the_default_limits(tmp_path):
    """GIVEN a pack shaped like a real one: 300 MB of already-compressed media (stored, ratio ~1), a 2 MB song in a
    looser format (deflated ~1.5:1) and a text content.xml (deflated well) WHEN opened with the default limits
    THEN it is accepted with every entry listed."""
    media = os.urandom(MB)
    loose = bytes(range(256)) * (MB // 256) + os.urandom(MB)
    rounds = [(f"Раунд {r}", [topic(f"Тема {r}.{t}") for t in range(6)]) for r in range(4)]
    path = tmp_path / "real.siq"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("content.xml", content_xml(5, "Настоящий", rounds))
        archive.writestr("Audio/song.wav", loose)
        for n in range(300):
            archive.writestr(f"Video/{n}.mp4", media, compress_type=zipfile.ZIP_STORED)
    with SafeZip(str(path)) as archive:
        assert len(archive.names) == 302 and archive.total_bytes > 300 * MB


def test_per_entry_total_and_count_limits(tmp_path):
    """GIVEN limits of 100 kB an entry, 150 kB in all, 4 entries WHEN archives go past each THEN each is refused."""
    limits = Limits(max_entries=4, max_entry_bytes=100_000, max_total_bytes=150_000)
    big = _zip(tmp_path / "a.zip", [("Images/a", os.urandom(120_000))])
    with pytest.raises(PackError, match="over the limit of 100000"):
        SafeZip(big, limits)
    total = _zip(tmp_path / "b.zip", [(f"Images/{n}", os.urandom(60_000)) for n in range(3)])
    with pytest.raises(PackError, match=r"unpacks to 0.2 MiB \(180000 bytes\), over the limit of 0.1 MiB \(150000"):
        SafeZip(total, limits)
    many = _zip(tmp_path / "c.zip", [(f"Images/{n}", b"x") for n in range(5)])
    with pytest.raises(PackError, match="5 entries, more than the limit of 4"):
        SafeZip(many, limits)


def test_lying_size_header_cannot_inflate_past_it(tmp_path):
    """GIVEN content.xml whose central-directory size is lowered after writing WHEN read THEN reading stops at the
    declared size and the CRC check refuses the entry instead of unpacking more."""
    path = tmp_path / "p.siq"
    _zip(path, [("content.xml", GOOD_XML)])
    data = bytearray(path.read_bytes())
    at = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, at + 24, 100)          # uncompressed size: 100 bytes
    path.write_bytes(bytes(data))
    with pytest.raises(PackError, match="'content.xml' cannot be read"):
        load(str(path))


def test_duplicate_and_encrypted_entries_are_refused(tmp_path):
    """GIVEN an archive with one name twice, then one with an encrypted entry WHEN loaded THEN each is refused."""
    with pytest.warns(UserWarning):
        dup = _zip(tmp_path / "d.siq", [("content.xml", GOOD_XML), ("content.xml", b"<x/>")])
    with pytest.raises(PackError, match="appears twice"):
        load(dup)
    path = tmp_path / "e.siq"
    _zip(path, [("content.xml", GOOD_XML)])
    data = bytearray(path.read_bytes())
    at = data.index(b"PK\x01\x02")
    struct.pack_into("<H", data, at + 8, struct.unpack_from("<H", data, at + 8)[0] | 1)
    path.write_bytes(bytes(data))
    with pytest.raises(PackError, match="encrypted"):
        load(str(path))


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<package xmlns="http://vladimirkhil.com/siq_5.xsd" name="&lol3;" version="5"><rounds/></package>"""
EXTERNAL = b"""<?xml version="1.0"?>
<!DOCTYPE package [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<package xmlns="http://vladimirkhil.com/siq_5.xsd" name="&xxe;" version="5"><rounds/></package>"""


@pytest.mark.parametrize("xml", [BILLION_LAUGHS, EXTERNAL], ids=["entity-expansion", "external-entity"])
def test_dtd_and_entities_are_refused(tmp_path, xml):
    """GIVEN content.xml with a DTD (entity expansion or an external entity) WHEN loaded THEN refused, naming it."""
    with pytest.raises(PackError, match=r"content.xml: refused: a DTD \(<!DOCTYPE (lolz|package)>\)"):
        load(str(write_siq(tmp_path / "p.siq", content=xml)))


def test_undeclared_entity_without_dtd_does_not_expand(tmp_path):
    """GIVEN an entity reference with no DTD at all WHEN loaded THEN the XML is rejected, naming line and column."""
    xml = GOOD_XML.replace(b'name="\xd0\x9f"', b'name="&xxe;"')
    with pytest.raises(PackError, match=r"line \d+, column \d+: XML does not parse \(undefined entity"):
        load(str(write_siq(tmp_path / "p.siq", content=xml)))


def test_broken_utf8_and_other_encodings_in_content_xml(tmp_path):
    """GIVEN content.xml with a broken UTF-8 byte on line 2, in UTF-16, declared windows-1251 WHEN loaded
    THEN each is refused with the reason (and the line for the broken byte)."""
    broken = GOOD_XML.replace("П".encode(), b"\xd0", 1)
    with pytest.raises(PackError, match="content.xml: line 2: broken UTF-8"):
        load(str(write_siq(tmp_path / "a.siq", content=broken)))
    with pytest.raises(PackError, match="UTF-16"):
        load(str(write_siq(tmp_path / "b.siq", content=GOOD_XML.decode().encode("utf-16"))))
    declared = GOOD_XML.replace(b'encoding="utf-8"', b'encoding="windows-1251"')
    with pytest.raises(PackError, match="declares encoding 'windows-1251'"):
        load(str(write_siq(tmp_path / "c.siq", content=declared)))


def test_a_siq_that_is_not_a_zip_and_a_missing_file(tmp_path):
    """GIVEN a .siq that is plain text, and a path that does not exist WHEN loaded THEN clear refusals."""
    fake = tmp_path / "p.siq"
    fake.write_text("hello")
    with pytest.raises(PackError, match="not one"):
        load(str(fake))
    with pytest.raises(PackError, match="no such pack file"):
        load_plan(str(tmp_path / "nope.siq"))


def test_media_names_cannot_steer_cache_writes(tmp_path, pack_cache):
    """GIVEN media whose names hold `..`, separators and a leading dot WHEN extracted THEN every file lands directly
    in the pack's cache folder, named by the cache."""
    names = {"Images/..png": png_bytes(), "Images/%2E%2Ebashrc": b"x", "Audio/a b;rm -rf.mp3": b"ID3"}
    rounds = [("Р", [topic("Т", media=[("image", "..png"), ("image", "%2E%2Ebashrc"), ("audio", "a b;rm -rf.mp3")])])]
    path = write_siq(tmp_path / "p.siq", 5, rounds, files=names)
    before = files_under(tmp_path)
    plan = load_plan(str(path))
    folder = pack_cache / hashlib.sha256((tmp_path / "p.siq").read_bytes()).hexdigest()
    paths = [m["path"] for m in plan["rounds"][0]["topics"][0]["questions"][0]["media"]]
    assert len(paths) == 3 and all(os.path.dirname(p) == str(folder) for p in paths)
    assert _untouched(tmp_path, before)
    assert safe_name("../../etc/passwd") == "passwd" and safe_name("..") == "media"
    assert "/" not in safe_name("a/b\\c") and not safe_name(".bashrc").startswith(".")


def test_symlink_planted_in_the_cache_is_refused(tmp_path, pack_cache):
    """GIVEN the pack's cache folder replaced by a symlink to another folder WHEN the pack loads THEN refused and
    nothing is written through the link."""
    path = write_siq(tmp_path / "p.siq", 5, [("Р", [topic("Т", media=[("image", "a.png")])])],
                     files={"Images/a.png": png_bytes()})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    pack_cache.mkdir()
    os.symlink(elsewhere, pack_cache / hashlib.sha256(path.read_bytes()).hexdigest())
    with pytest.raises(PackError, match="symbolic link"):
        load_plan(str(path))
    assert os.listdir(elsewhere) == []
