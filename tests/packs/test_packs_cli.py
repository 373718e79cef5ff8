"""`scoreboard pack check|show|convert`, the progress bar, and the benchmark's pack generator."""
import io
import os
import shutil
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.cli import main
from scoreboard.packs import load, load_plan
from scoreboard.bench.packs import make_pack
from scoreboard.packs.progress import ProgressBar
from siqbuild import png_bytes, topic, write_siq

SAMPLE = Path(__file__).resolve().parents[2] / "assets" / "packs" / "sample.toml"


def test_p2_check_lists_errors_and_warnings_by_place_and_exits_1(tmp_path, capsys):
    """GIVEN a pack with a question without answer and one without source WHEN `pack check` runs THEN both are
    listed with round, topic and question, errors first, and the exit code is 1."""
    rounds = [("Р", [topic("Реки", extra={2: {"answers": []}, 4: {"source": ""}})])]
    path = str(write_siq(tmp_path / "p.siq", 5, rounds))
    assert main(["pack", "check", path]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{path}: SIGame 5 pack «Тестовый пакет», 1 rounds, 1 topics, 5 questions")
    assert out[1] == f"{path}: error: round 1 «Р», topic 1 «Реки», question 2: the question has no answer"
    assert f"{path}: warning: round 1 «Р», topic 1 «Реки», question 4: P2: the question has no source" in out
    assert out[-1] == "1 error, 2 warnings"          # the second warning: no reserve (P1)


def test_check_of_the_sample_pack_is_clean_and_of_a_hostile_one_fails(tmp_path, capsys):
    """GIVEN the shipped sample, then a .siq with a `..` entry WHEN checked THEN exit 0 with no issue, then exit 1
    with the refusal."""
    assert main(["pack", "check", str(SAMPLE)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "0 errors, 0 warnings"
    import zipfile
    bad = tmp_path / "bad.siq"
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr("../x", b"x")
    assert main(["pack", "check", str(bad)]) == 1
    assert "refused: entry '../x'" in capsys.readouterr().out


def test_show_prints_topics_questions_answers_and_pack_prices(tmp_path, capsys):
    """GIVEN a SIGame pack with an auction WHEN `pack show` runs THEN each question shows its price, text, answer
    with accepted alternatives, and the auction mark."""
    path = str(write_siq(tmp_path / "p.siq", 4, [("Р", [topic("Реки", extra={3: {"type": "stake"}})])]))
    assert main(["pack", "show", path]) == 0
    out = capsys.readouterr().out
    assert "Round 1 «Р»\n  1. Реки" in out and "(Пояснение к теме Реки)" in out
    assert "     3. [300] Реки: вопрос 3  [auction]\n        → ответ 3 (зачёт: вариант 3)" in out


def test_convert_siq_to_native_keeps_everything_and_copies_media(tmp_path, capsys):
    """GIVEN a v5 pack with an image WHEN converted to TOML THEN the TOML loads to the same plan content (media
    copied beside it) and `pack check` on it passes the same way."""
    rounds = [("Р", [topic(f"Т{i}", count=6, media=[("image", "кадр.png")] if i == 1 else ()) for i in range(1, 5)])]
    src = str(write_siq(tmp_path / "p.siq", 5, rounds, final=("Физика", {"text": "в", "answers": ["о"]}),
                        files={"Images/кадр.png": png_bytes()}))
    out = tmp_path / "out" / "pack.toml"
    assert main(["pack", "convert", src, str(out)]) == 0
    assert main(["pack", "convert", src, str(out)]) == 1                  # refuses to overwrite
    assert "exists" in capsys.readouterr().err
    before, after = load(src).pack, load(str(out)).pack
    assert [t.name for t in after.rounds[0].topics] == [t.name for t in before.rounds[0].topics]
    strip = lambda qs: [(q.text, q.answer, q.accepts, q.source, q.author, q.comment, q.price, q.auction) for q in qs]
    for a, b in zip(before.rounds[0].topics, after.rounds[0].topics):
        assert strip(a.questions) == strip(b.questions) and strip([a.reserve]) == strip([b.reserve])
    media = after.rounds[0].topics[0].questions[0].media[0]
    assert (out.parent / media.ref).read_bytes() == png_bytes() and after.final.topic == "Физика"
    shutil.rmtree(tmp_path / "cache", ignore_errors=True)
    plan = load_plan(str(out))
    assert Path(plan["rounds"][0]["topics"][0]["questions"][0]["media"][0]["path"]).read_bytes() == png_bytes()


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_draws_on_a_terminal_and_stays_quiet_in_a_log():
    """GIVEN a terminal stream and a plain one WHEN an import reports progress THEN the terminal gets a bar ending
    at 100 %, and a short import writes nothing to a log."""
    tty, log = _Terminal(), io.StringIO()
    for stream in (tty, log):
        bar = ProgressBar("importing p.siq", stream=stream)
        bar(1_000_000, 2_000_000)
        bar(2_000_000, 2_000_000)
        bar.close()
    assert "\rimporting p.siq [###############...............]  50%" in tty.getvalue()
    assert tty.getvalue().endswith("100% 2.0/2.0 MB\n") and log.getvalue() == ""
    slow = ProgressBar("importing big.siq", stream=log, delay=0.0)
    slow(3, 4)
    assert log.getvalue() == "importing big.siq: 75% (0.0/0.0 MB)\n"


def test_bench_pack_is_3_mb_with_60_images_and_loads(tmp_path):
    """GIVEN the benchmark's generated pack WHEN built and loaded THEN it is about 3 MB with 60 images in the plan."""
    path = str(tmp_path / "bench.siq")
    size = make_pack(path)
    assert 3_000_000 <= size <= 3_300_000
    plan = load_plan(path)
    assert sum(len(q["media"]) for r in plan["rounds"] for t in r["topics"] for q in t["questions"]) == 60
    assert os.path.getsize(plan["rounds"][0]["topics"][0]["questions"][0]["media"][0]["path"]) == 50_000


def test_check_with_topics_says_whether_the_chosen_topics_can_be_played(tmp_path, capsys):
    """GIVEN a pack whose third topic is broken WHEN checked with --topics that skip it, then with it THEN the first
    prints the rounds as played and exits 0, the second names the broken topic and exits 1."""
    rounds = [("Р", [topic("А"), topic("Б"), topic("Сломанная", count=3)])]
    path = str(write_siq(tmp_path / "p.siq", 5, rounds))
    assert main(["pack", "check", path, "--topics", "Б,1"]) == 0
    out = capsys.readouterr().out
    assert "plays Р: Б, А\nextra topics: none" in out
    assert main(["pack", "check", path, "--topics", "3"]) == 1
    assert "topic 3 «Сломанная»: the topic has 3 questions; it needs 5" in capsys.readouterr().out


def test_convert_of_a_converted_pack_keeps_media_names_and_content(tmp_path):
    """GIVEN a v5 pack whose image and video share the base name «кадр.png» WHEN converted to TOML, that TOML
    converted again, and once more THEN the two files are `кадр.png` and `кадр-2.png` every time (no prefix stacks
    up), each keeps its own bytes, and the three converted packs are the same pack apart from the media folder."""
    clip = b"\x00\x00\x00\x18ftypmp42" + bytes(64)
    rounds = [("Р", [topic("Т1", count=6, media=[("image", "кадр.png")]), topic("Т2", media=[("video", "кадр.png")]),
                     topic("Т3"), topic("Т4")])]
    src = str(write_siq(tmp_path / "p.siq", 5, rounds, files={"Images/кадр.png": png_bytes(),
                                                               "Video/кадр.png": clip}))
    packs, previous = [], src
    for n in (1, 2, 3):
        out = tmp_path / f"out{n}.toml"
        assert main(["pack", "convert", previous, str(out)]) == 0
        pack = load(str(out)).pack
        media = {m.kind: m.ref for m in pack.all_media()}
        assert media == {"image": f"out{n}_media/кадр.png", "video": f"out{n}_media/кадр-2.png"}
        assert (tmp_path / media["image"]).read_bytes() == png_bytes() and (tmp_path / media["video"]).read_bytes() == clip
        assert sorted(os.listdir(tmp_path / f"out{n}_media")) == ["кадр-2.png", "кадр.png"]
        for m in pack.all_media():
            m.ref = m.ref.split("/", 1)[1]
        packs.append(pack)
        previous = str(out)
    assert packs[0] == packs[1] == packs[2]


def test_media_names_keep_safe_base_names_and_number_only_clashes():
    """GIVEN refs from two folders with clashing names (one in another case), an escaped SIGame name and names that
    already look numbered WHEN named for a converted pack THEN base names are kept, clashes get -2, -3 and nothing
    gains a prefix."""
    from scoreboard.packs.cli import media_names
    refs = ["a/song.mp3", "b/Song.mp3", "c/song.mp3", "d/0001-song.mp3", "e/noext", "f/noext"]
    assert media_names(refs, escaped=False) == {"a/song.mp3": "song.mp3", "b/Song.mp3": "Song-2.mp3",
                                                "c/song.mp3": "song-3.mp3", "d/0001-song.mp3": "0001-song.mp3",
                                                "e/noext": "noext", "f/noext": "noext-2"}
    assert media_names(["Images/%D0%BA%D0%B0%D0%B4%D1%80%201.png"], escaped=True) == {
        "Images/%D0%BA%D0%B0%D0%B4%D1%80%201.png": "кадр 1.png"}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="aЯ1. -%/\\", min_size=1, max_size=12) | st.text(alphabet="aЯ. -", min_size=75,
                                                                                 max_size=95) | st.text(min_size=1),
                min_size=1, max_size=6), st.booleans())
def test_converted_media_names_are_kept_by_the_next_conversion(bases, escaped):
    """GIVEN any media base names (escaped SIGame ones or not, clashing, long, with dots and spaces) WHEN named for
    a converted pack, and those names named again as the next conversion does THEN the second naming changes
    nothing, every name is distinct (case ignored) and none starts with a dot or holds a separator."""
    from scoreboard.packs.cli import media_names
    refs = [f"m{n}/{base.replace('/', '_')}" for n, base in enumerate(bases)]
    first = media_names(sorted(refs), escaped=escaped)
    again = media_names(sorted(f"out_media/{name}" for name in first.values()), escaped=False)
    assert sorted(again.values()) == sorted(first.values())
    assert len({name.casefold() for name in first.values()}) == len(refs)
    assert all(name and not name.startswith(".") and "/" not in name and "\\" not in name for name in first.values())
