"""Issue 27, the gaps left (items 1 and 3 of the follow-up): the host's name kept in the journal for the protocol's
header (`board.host_name`, `scoreboard run --host`), and one reader of the journal's `ignored` table (BZ8) with its
two views — by time for the protocol, by place for the photo finish (BZ11). Real SQLite journals throughout."""
from __future__ import annotations

import json
import sqlite3

import pytest

from scoreboard.app.config import check_config, default_config
from scoreboard.app.start import open_session
from scoreboard.cli import main
from scoreboard.engine.commands import make
from scoreboard.journal import Journal, JournalError
from scoreboard.protocol import build
from scoreboard.session import Session
from tests.protocol import disputed


def _board(journal, host_name: str = "") -> dict:
    return dict(default_config()["board"], journal=str(journal), host_name=host_name)


def test_host_name_written_at_the_start_and_printed_in_the_header(tmp_path):
    """Follow-up item 1. GIVEN a board told its host (board.host_name) WHEN a new game starts on a new journal THEN
    the journal's meta keeps the name, the protocol's header names the host, and `scoreboard protocol --host` still
    overrides it (CLI, JSON out)."""
    journal = tmp_path / "game.sqlite"
    session, _, _ = open_session(_board(journal, "Ведущая Анна"), out=lambda *_: None)
    session.close()
    assert Journal(journal, readonly=True).host() == "Ведущая Анна"
    assert build(journal)["header"]["host"] == "Ведущая Анна"
    out = tmp_path / "p.json"
    assert main(["protocol", str(journal), "--format", "json", "--out", str(out), "--host", "Борис"]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["header"]["host"] == "Борис"


def test_an_old_journal_without_a_host_still_prints_and_recovery_names_it_once(tmp_path, capsys):
    """Follow-up item 1. GIVEN a journal made without a host (as every journal before this key) WHEN its protocol is
    printed THEN the header's host is empty (`--host` names one); WHEN a board with board.host_name recovers it THEN
    the name is written, and a later recovery under another name keeps the first (the game's host stays)."""
    journal = tmp_path / "old.sqlite"
    session = Session(journal)
    session.submit(make(0.0, "/sg/game/new", "novosibirsk-2007", "1/9"))
    session.close()
    assert build(journal)["header"]["host"] is None
    assert main(["protocol", str(journal), "--format", "json", "--host", "Кто-то"]) == 0
    assert json.loads(capsys.readouterr().out)["header"]["host"] == "Кто-то"
    for name in ("Анна", "Борис"):
        session, _, _ = open_session(_board(journal, name), out=lambda *_: None)
        session.close()
    assert build(journal)["header"]["host"] == "Анна"


@pytest.mark.parametrize("name, why", [("Анна\nБорис", "control character"), ("я" * 81, "at most 80"),
                                       ("  ", "non-empty")], ids=["line break", "too long", "blank"])
def test_a_bad_host_name_is_refused_naming_the_key(tmp_path, capsys, name, why):
    """Follow-up item 1. GIVEN a host's name with a line break, too long, or blank WHEN it is in the config THEN
    `config check` names board.host_name and why; WHEN it is given as `scoreboard run --host` THEN run refuses
    (exit 2) before anything starts, no journal made; the journal itself refuses to write it."""
    _, problems = check_config({"board": {"host_name": name}}, "t.toml")
    assert [p for p in problems if "board.host_name" in str(p) and why in str(p)], problems
    config = tmp_path / "scoreboard.toml"
    config.write_text(f'[board]\njournal_dir = "{tmp_path / "games"}"\n[osc]\nbind = "127.0.0.1"\n',
                      encoding="utf-8")
    assert main(["run", "--config", str(config), "--host", name]) == 2
    assert "--host" in capsys.readouterr().err and not (tmp_path / "games").exists()
    journal = Journal(tmp_path / "j.sqlite")
    with pytest.raises(JournalError, match="host name"):
        journal.name_host(name)
    journal.close()
    assert Journal(tmp_path / "j.sqlite", readonly=True).host() is None


def test_one_reader_of_the_ignored_presses_two_views(tmp_path):
    """Follow-up item 3. GIVEN a journal whose `ignored` table holds presses the rules ignored (a false start before
    the window, a press by a locked-out seat), a row from before `after` was kept, and rows that cannot be read
    WHEN it is read THEN `ignored()` returns every row once, in order; the protocol's view (by time) keeps every
    readable row and the photo finish's view (by place) only the readable presses that say where they fell — as the
    two readers did before them."""
    path = tmp_path / "game.sqlite"
    session = Session(path)
    for address, *args in disputed.OPENING:
        session.submit(make(1.0, address, *args))
    for n, (address, *args) in enumerate(disputed.DISPUTES[:10]):   # Q1: false starts, a locked-out press
        session.submit(make(2.0 + n / 10, "/sg/button" if address == "box" else address, *args))
    session.close()
    db = sqlite3.connect(path)
    logged = db.execute("SELECT at, address, after FROM ignored ORDER BY id").fetchall()
    assert logged and {row[1] for row in logged} == {"/sg/button"} and all(row[2] for row in logged)
    db.executemany("INSERT INTO ignored (at, address, args, reason, after) VALUES (?, ?, ?, ?, ?)",
                   [(6.0, "/sg/button", "[2]", "older journal: no place", None),
                    (6.5, "/sg/button", "{not json", "unreadable", 7),
                    (7.0, "/sg/button", '["x"]', "not a seat", 7)])
    db.commit()
    db.close()
    journal = Journal(path, readonly=True)
    record = journal.ignored()
    assert [row[0] for row in record] == [row[0] for row in logged] + [6.0, 6.5, 7.0]
    by_time = journal.ignored_rows(record)
    assert [at for at, *_ in by_time] == [row[0] for row in logged] + [6.0, 7.0]
    assert [args for *_, args, _ in by_time][-2:] == [[2], ["x"]]
    assert by_time == journal.ignored_rows()
    by_place = journal.ignored_presses(record)
    assert [(after, cmd.at) for after, cmd in by_place] == [(row[2], row[0]) for row in logged]
    assert by_place == journal.ignored_presses()
    journal.close()


def test_the_host_survives_a_journal_written_again_after_its_folder_vanished(tmp_path):
    """Follow-up item 1. GIVEN a journal that names its host WHEN its folder vanishes (a USB stick pulled) and comes
    back empty, and the next command writes the journal again from memory THEN the new file names the host too."""
    import shutil
    folder = tmp_path / "stick"
    journal = Journal(folder / "game.sqlite")
    journal.append(make(0.0, "/sg/game/new", "novosibirsk-2007", "1/9"))
    journal.name_host("Анна")
    shutil.rmtree(folder)
    folder.mkdir()
    journal.append(make(1.0, "/sg/game/start"))
    journal.close()
    again = Journal(folder / "game.sqlite", readonly=True)
    assert (len(again), again.host()) == (2, "Анна")
    again.close()
