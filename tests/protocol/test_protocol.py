"""Issue 27 item 1: the protocol of a game (протокол боя), built from real journals (the demo's game, and a disputed
game with a false start, a lockout, an auction, a re-judging, a correction, an undo and the final) — checked line by
line against the journal, as JSON and CSV read back, escaped, and refused cleanly when the journal is not one."""
from __future__ import annotations

import csv
import io
import json
import sqlite3

import pytest

from scoreboard.cli import main
from scoreboard.demo.game import play
from scoreboard.demo.simulated import Director
from scoreboard.protocol import ProtocolError, build, from_json, render
from scoreboard.protocol.tables import COLUMNS
from scoreboard.protocol.words import KINDS
from scoreboard.engine.commands import make
from scoreboard.session import Session
from tests.engine.helpers import Play
from tests.packs.siqbuild import topic, write_siq
from tests.protocol import disputed
from tests.protocol.check import all_lines, check_against_journal


@pytest.fixture(scope="module")
def disputed_journal(tmp_path_factory):
    return disputed.on_session(tmp_path_factory.mktemp("disputed") / "game.sqlite")


@pytest.fixture(scope="module")
def demo_journal(tmp_path_factory):
    path = tmp_path_factory.mktemp("demo") / "demo.sqlite"
    session = Session(path)
    play(session, Director("novosibirsk-2007"))
    session.close()
    return path


def _lines(model, what):
    return [line for line in all_lines(model) if line["what"] == what]


def test_item1_the_demo_game_line_by_line(demo_journal):
    """GIVEN the demo's whole novosibirsk game (two rounds, auctions, the final, a tie-break) WHEN its protocol is
    built THEN every journaled event is a line at its time, the points add up to the engine's scores, each question
    is there in play order with its round, topic and value, and the result says how the tie was decided."""
    model = build(demo_journal)
    check_against_journal(model, demo_journal)
    questions = [b for b in model["questions"] if b["n"] is not None]
    assert [b["n"] for b in questions] == list(range(1, len(questions) + 1))
    assert {b["kind"] for b in questions} >= {"normal", "auction", "final", "tiebreak"}
    assert all(b["topic"] and b["value"] for b in questions if b["kind"] != "final")
    assert model["header"]["pack"]["title"] and model["header"]["regulation"] == "novosibirsk-2007"
    final = next(b for b in questions if b["kind"] == "final")
    assert [line["amount"] for line in final["lines"] if line["what"] == "stake"] == [1, 61, 1]
    text = render(model, "html")
    assert "перестрелк" in text and "Как решено" in text


def test_item1_disputed_game_line_by_line(disputed_journal):
    """GIVEN the disputed game WHEN its protocol is built THEN it matches the journal line by line, and says: seat 1's
    two false starts before the window (negative ms) and the press the lockout ignored (BZ7, in Russian); the phone's
    press with its bound (BZ11); the auction's bids, the pass the rules made (AU6) and the host's pass, who won at
    which stake; the re-judging's +70, the +5 correction with its reason; the undo naming the «верно» it took back,
    that verdict struck out; the final's stakes revealed with the verdicts; the winner."""
    model = build(disputed_journal)
    check_against_journal(model, disputed_journal)
    starts = _lines(model, "false_start")
    assert [(x["seat"], x["ms"]) for x in starts] == [(1, -1000), (1, -500)]
    (ignored,) = _lines(model, "ignored")
    assert ignored["seat"] == 1 and "фальстарт" in render(model, "csv").split("ignored,1,", 1)[1].splitlines()[0]
    (phone,) = [x for x in _lines(model, "press") if x.get("source")]
    assert (phone["seat"], phone["source"], phone["bound_ms"], phone["ms"]) == (1, "phone", 40, 500)
    auction = next(b for b in model["questions"] if b["kind"] == "auction")
    assert [(x["what"], x["seat"], x.get("amount"), x.get("auto", False)) for x in auction["lines"][:5]] == [
        ("bid", 2, 30, False), ("pass", 3, None, True), ("bid", 1, 35, False), ("pass", 2, None, False),
        ("auction_won", 1, 35, False)]
    (rejudge,) = _lines(model, "rejudge")
    assert rejudge["deltas"] == [{"seat": 1, "delta": 70}] and rejudge["verdict"] == "right"
    (adjust,) = _lines(model, "adjust")
    assert (adjust["seat"], adjust["amount"], adjust["reason"]) == (3, 5, "счёт: ошибка табло")
    (undo,) = _lines(model, "undo")
    undone = [x for x in all_lines(model) if x.get("undone_by") == undo["seq"]]
    assert [(x["what"], x["verdict"]) for x in undone] == [("verdict", "right")]
    assert undo["undone_address"] == "/sg/judge/right" and undo["undone_at"] == undone[0]["at"]
    assert [(x["seat"], x["amount"], x["verdict"]) for x in _lines(model, "reveal")] == [
        (1, 30, "wrong"), (2, 20, "right"), (3, 5, "right")]
    assert model["result"]["winner"] == 2 and model["result"]["adjustments"][0]["reason"] == "счёт: ошибка табло"
    text = render(model, "html")
    assert "отмена: снято — «верно» от 0:18.5" in text and "заблокирован после фальстарта (BZ7)" in text


def test_item1_stakes_not_revealed_stay_unknown(tmp_path):
    """GIVEN the disputed game stopped after the final's stakes and verdicts, before any reveal (FN4) WHEN its protocol
    is built THEN no stake amount and no verdict of the final is in it, in any format."""
    cut = next(i for i, c in enumerate(disputed.commands()) if c[0] == "/sg/final/reveal")
    model = build(disputed.on_session(tmp_path / "cut.sqlite", cut))
    stakes = _lines(model, "stake")
    assert len(stakes) == 3 and all("amount" not in x for x in stakes)
    assert all("verdict" not in x for x in _lines(model, "final_judge"))
    final = json.loads(render(model, "json"))["questions"][-1]
    assert final["kind"] == "final" and all("amount" not in x and "verdict" not in x for x in final["lines"])
    rows = [r for r in csv.DictReader(io.StringIO(render(model, "csv"))) if r["kind"] == "final"]
    assert rows and all(r["amount"] == r["verdict"] == "" for r in rows)
    text = render(model, "html")
    assert text.count("ставка сделана (не вскрыта)") == 3 and text.count("ответ оценён (не вскрыт)") == 3


def test_item1_json_and_csv_round_trip(disputed_journal):
    """GIVEN the disputed game's protocol WHEN written as JSON and read back THEN it is the same protocol and prints
    the same HTML; as CSV: the documented columns, one row per line, each row's time and seat as in the model."""
    model = build(disputed_journal)
    again = from_json(render(model, "json"))
    assert again == json.loads(json.dumps(model)) and render(again, "html") == render(model, "html")
    rows = list(csv.DictReader(io.StringIO(render(model, "csv"))))
    assert tuple(rows[0]) == COLUMNS
    lines = all_lines(model)
    assert len(rows) == len(lines)
    for row, line in zip(rows, lines):
        assert (row["event"], float(row["time_s"])) == (line["what"], round(line["at"], 3))
        assert row["seat"] == (str(line["seat"]) if line.get("seat") and line["what"] not in
                               ("lot", "name", "game_over") else "")
    with pytest.raises(ProtocolError, match="not a protocol"):
        from_json('{"format": "other"}', "x.json")


def test_item1_hostile_names_escaped(disputed_journal, tmp_path):
    """GIVEN player names and a topic that are markup and a spreadsheet formula WHEN the protocol is written THEN the
    HTML shows them as text (escaped, no markup of theirs), fetches nothing, and the CSV keeps the formula a text."""
    text = render(build(disputed_journal), "html")
    for raw in ("<b>Ёж</b>", "<script>", "<img src=x"):
        assert raw not in text
    assert "&lt;b&gt;Ёж&lt;/b&gt; &amp; &quot;Ко&quot; &lt;script&gt;x&lt;/script&gt;" in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text
    lowered = text.lower().replace("<!doctype html>", "")
    for outside in ("http:", "https:", "src=", "<link", "@import", "url(", "<script"):
        assert outside not in lowered.replace("http://evil", "").replace("src=x", ""), outside
    rows = list(csv.DictReader(io.StringIO(render(build(disputed_journal), "csv"))))
    assert {r["player"] for r in rows if r["seat"] == "3"} == {"'" + disputed.FORMULA}


def _damaged(tmp_path, source):
    """Three journals that are not a game: a text file, an empty file, a game with one row edited."""
    text = tmp_path / "notes.sqlite"
    text.write_text("not a journal\n", encoding="utf-8")
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    edited = tmp_path / "edited.sqlite"
    edited.write_bytes(source.read_bytes())
    with sqlite3.connect(edited) as db:
        db.execute("UPDATE events SET args = '[3]' WHERE seq = 10")
    return [(text, "not a readable journal"), (empty, "no game|not a"), (edited, "event 10: checksum")]


def test_item1_damaged_journal_refused_cleanly(disputed_journal, tmp_path, capsys):
    """GIVEN a text file, an empty file and a journal with an edited row WHEN `scoreboard protocol` reads each THEN it
    exits 1 with one line naming the file and why, and writes no output file."""
    for path, why in _damaged(tmp_path, disputed_journal):
        out = tmp_path / f"{path.stem}.html"
        assert main(["protocol", str(path), "--out", str(out)]) == 1
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and str(path) in err, err
        assert __import__("re").search(why, err), err
        assert not out.exists()
    missing = tmp_path / "nowhere.sqlite"
    assert main(["protocol", str(missing)]) == 1
    assert str(missing) in capsys.readouterr().err and not missing.exists()


def test_item1_cli_formats(disputed_journal, tmp_path, capsys):
    """GIVEN the disputed journal WHEN `scoreboard protocol --format csv|json|html --out F` runs THEN each file is
    written whole in its format."""
    for fmt in ("csv", "json", "html"):
        out = tmp_path / f"p.{fmt}"
        assert main(["protocol", str(disputed_journal), "--format", fmt, "--out", str(out), "--host", "Ведущий И."]) == 0
        assert out.read_text(encoding="utf-8") == render(build(disputed_journal, host="Ведущий И."), fmt)
    assert "Ведущий И." in (tmp_path / "p.html").read_text(encoding="utf-8")


def test_item1_kinds_super_question_timeout_and_reserve(tmp_path, capsys):
    """GIVEN america's final played from its example script (sequential topics, a timed-out answer, the
    super-question) and a novosibirsk game on the sample pack whose answered question is replaced by its topic's
    reserve (G9) WHEN their protocols are built THEN the super-question is a block of its kind with its stake
    revealed, the timeout is a line (BZ5), the reserve question is a block of its own, and the replacement takes the
    first answer's points back on its line."""
    from scoreboard.engine.commands import make
    from tests.protocol.check import ROOT
    america = tmp_path / "america.sqlite"
    assert main(["simulate", str(ROOT / "examples" / "america-2005-final.txt"), "--journal", str(america)]) == 0
    capsys.readouterr()
    model = build(america)
    check_against_journal(model, america)
    assert model["questions"][-1]["kind"] == "super" and _lines(model, "timeout")
    assert [x["amount"] for x in _lines(model, "reveal")] and model["result"]["winner"] == 1
    reserve = tmp_path / "reserve.sqlite"
    session = Session(reserve)
    for k, (address, *args) in enumerate([
            ("/sg/game/new", "novosibirsk-2007", "1/9", 3, 0), ("/sg/pack/load", str(ROOT / "assets/packs/sample.toml")),
            ("/sg/game/start",), ("/sg/chooser", 1), ("/sg/select", 1, 1), ("/sg/reading/done",), ("/sg/button", 2),
            ("/sg/judge/right",), ("/sg/question/replace",)]):
        session.submit(make(k + 1.0, address, *args))
    session.close()
    model = build(reserve)
    check_against_journal(model, reserve)
    assert [b["kind"] for b in model["questions"]] == ["round_start", "normal", "reserve"]
    (replaced,) = _lines(model, "replace")
    assert replaced["deltas"] == [{"seat": 2, "delta": -10}]


def test_item1_bz11_the_host_naming_the_other_player_is_in_the_protocol(tmp_path):
    """Issue 27 items 1–2, BZ11: GIVEN two key presses 5 ms apart (± 17 ms each: a close call) and the host naming
    seat 2 before the verdict WHEN the game's protocol is built THEN it has that line, naming both players, and the
    verdict that follows is seat 2's; the check against the journal still holds line by line."""

    path = tmp_path / "close.sqlite"
    g = Play(journal=path)
    g.step("/sg/select", 1, 1)
    g.step("/sg/button", 1, "key", 17)
    g.do(g.t + 0.005, "/sg/button", 2, "key", 17)
    g.step("/sg/answerer", 2)
    g.step("/sg/judge/right")
    g.session.close()
    model = build(path)
    check_against_journal(model, path)
    (named,) = _lines(model, "answerer")
    assert (named["seat"], named["instead"]) == (2, 1)
    assert [line["seat"] for line in _lines(model, "verdict")] == [2]
    text = render(model, "html")
    assert "вместо" in text and "(BZ11)" in text


def test_item1_the_cat_in_the_bag_is_named_in_the_protocol(tmp_path):
    """GIVEN a SIGame pack whose topic 2 question 3 is a «secret» (cat in the bag, played by the buttons here) and a
    game that plays it and a plain question WHEN the protocol is built THEN that question's kind is the cat — «кот в
    мешке» in the HTML, `cat` in the CSV — and the plain one's is not (issue 27 item 1: each question's kind)."""
    pack = write_siq(tmp_path / "cat.siq", 5, [("Р", [topic("А"), topic("Б", extra={3: {"type": "secret"}}),
                                                      topic("В"), topic("Г")]),
                                               ("Р2", [topic(name) for name in ("Д", "Е", "Ж", "З")])])
    journal = tmp_path / "cat.sqlite"
    session = Session(journal)
    for k, (address, *args) in enumerate([
            ("/sg/game/new", "novosibirsk-2007", "1/9", 3, 0), ("/sg/pack/load", str(pack)), ("/sg/game/start",),
            ("/sg/chooser", 1), ("/sg/select", 2, 3), ("/sg/reading/done",), ("/sg/button", 2),
            ("/sg/judge/right",), ("/sg/select", 1, 1), ("/sg/reading/done",), ("/sg/time",)]):
        session.submit(make(0.5 * (k + 1), address, *args))
    session.close()
    model = build(journal)
    kinds = {(b["topic"], b["value"]): b["kind"] for b in model["questions"] if b["n"] is not None}
    assert kinds == {("Б", 30): "cat", ("А", 10): "normal"}    # the regulation's values, not the pack's prices
    cat = KINDS["cat"]                                              # «кот в мешке», with its non-breaking spaces
    assert f'<span class="kind">{cat}</span>' in render(model, "html")
    assert [row["kind"] for row in csv.DictReader(io.StringIO(render(model, "csv")))
            if row["topic"] == "Б"][0] == "cat"
