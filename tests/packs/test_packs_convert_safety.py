"""`scoreboard pack convert` writes only OUT.toml and OUT_media/, never through a link, never over a media folder
it was not told to overwrite; bad paths are one line naming them, never a traceback (issue 10 §5)."""
import os

import pytest

from scoreboard.cli import main
from siqbuild import png_bytes, topic, write_siq


def _pack(tmp_path):
    rounds = [("Р", [topic(f"Т{i}", media=[("image", "кадр.png")] if i == 1 else ()) for i in range(1, 5)])]
    return str(write_siq(tmp_path / "p.siq", 5, rounds, files={"Images/кадр.png": png_bytes()}))


def _one_line_error(capsys, *names) -> str:
    captured = capsys.readouterr()
    text = (captured.err + captured.out).strip()
    assert "Traceback" not in text and len(text.splitlines()) == 1, text
    assert text.startswith("error: ") and all(str(name) in text for name in names), text
    return text


def test_a_symlink_planted_in_the_media_folder_is_not_written_through(tmp_path, capsys):
    """GIVEN OUT_media/ already there (with --force) holding a symlink named like the media file, pointing at a file
    outside WHEN converting THEN the outside file is untouched and the media folder holds a real file instead."""
    source = _pack(tmp_path)
    outside = tmp_path / "victim.txt"
    outside.write_text("keep me")
    out = tmp_path / "out"
    (out / "pack_media").mkdir(parents=True)
    os.symlink(outside, out / "pack_media" / "кадр.png")
    assert main(["pack", "convert", source, str(out / "pack.toml"), "--force"]) == 0
    assert outside.read_text() == "keep me"
    written = out / "pack_media" / "кадр.png"
    assert not written.is_symlink() and written.read_bytes() == png_bytes()


def test_a_media_folder_that_is_a_symlink_is_refused(tmp_path, capsys):
    """GIVEN OUT_media is a symlink to a folder elsewhere WHEN converting, even with --force THEN refused in one line
    naming it, and nothing is written there."""
    source = _pack(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, tmp_path / "pack_media")
    assert main(["pack", "convert", source, str(tmp_path / "pack.toml"), "--force"]) == 1
    _one_line_error(capsys, tmp_path / "pack_media", "symbolic link")
    assert os.listdir(elsewhere) == [] and not (tmp_path / "pack.toml").exists()


def test_the_output_toml_as_a_symlink_is_refused(tmp_path, capsys):
    """GIVEN OUT.toml is a symlink to another file WHEN converting with --force THEN refused; that file is
    untouched."""
    source = _pack(tmp_path)
    other = tmp_path / "other.toml"
    other.write_text("x = 1\n")
    os.symlink(other, tmp_path / "pack.toml")
    assert main(["pack", "convert", source, str(tmp_path / "pack.toml"), "--force"]) == 1
    _one_line_error(capsys, tmp_path / "pack.toml", "symbolic link")
    assert other.read_text() == "x = 1\n"


def test_an_existing_media_folder_needs_force(tmp_path, capsys):
    """GIVEN OUT_media/ exists (an earlier conversion) and OUT.toml does not WHEN converting without --force THEN
    refused naming the folder and asking for --force; with --force it is written."""
    source = _pack(tmp_path)
    (tmp_path / "pack_media").mkdir()
    (tmp_path / "pack_media" / "mine.png").write_bytes(b"mine")
    assert main(["pack", "convert", source, str(tmp_path / "pack.toml")]) == 1
    assert "--force" in _one_line_error(capsys, tmp_path / "pack_media")
    assert not (tmp_path / "pack.toml").exists()
    assert main(["pack", "convert", source, str(tmp_path / "pack.toml"), "--force"]) == 0
    assert (tmp_path / "pack_media" / "кадр.png").read_bytes() == png_bytes()
    assert (tmp_path / "pack_media" / "mine.png").read_bytes() == b"mine"


def test_an_output_toml_that_is_a_folder_is_one_line(tmp_path, capsys):
    """GIVEN OUT.toml names an existing folder WHEN converting, even with --force THEN one line naming it, exit 1,
    and the folder is left as it was."""
    source = _pack(tmp_path)
    (tmp_path / "pack.toml").mkdir()
    assert main(["pack", "convert", source, str(tmp_path / "pack.toml"), "--force"]) == 1
    _one_line_error(capsys, tmp_path / "pack.toml", "is a folder")
    assert (tmp_path / "pack.toml").is_dir() and os.listdir(tmp_path / "pack.toml") == []


def test_an_output_that_cannot_be_created_is_one_line(tmp_path, capsys):
    """GIVEN an output whose folder would have to be made inside a regular file (so no user, root included, can
    create it) WHEN converting THEN one line naming the output, exit 1, no traceback."""
    source = _pack(tmp_path)
    blocker = tmp_path / "afile"
    blocker.write_text("not a folder")
    assert main(["pack", "convert", source, str(blocker / "sub" / "pack.toml")]) == 1
    _one_line_error(capsys, blocker / "sub" / "pack.toml")


@pytest.mark.parametrize("command", ["check", "show", "convert"])
def test_a_folder_given_as_the_pack_is_one_line(tmp_path, capsys, command):
    """GIVEN a folder where a pack file is expected WHEN check / show / convert run THEN one line saying it is a
    folder, naming it, exit 1."""
    folder = tmp_path / "packs"
    folder.mkdir()
    args = ["pack", command, str(folder)] + ([str(tmp_path / "out.toml")] if command == "convert" else [])
    assert main(args) == 1
    assert "is a folder" in _one_line_error(capsys, folder)
