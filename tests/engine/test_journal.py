"""The journal: durable append, replay equals the live game, recovery comes back paused, damage is refused."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from scoreboard.engine import Game, Refused, make
from scoreboard.journal import Journal, JournalError
from scoreboard.script import load_script, run_script
from scoreboard.session import Session, replay_snapshot

ROOT = Path(__file__).resolve().parents[2]
NSK = ROOT / "examples" / "novosibirsk-2007-1-9.txt"
VOLATILE = ("rev", "paused", "paused_at", "buttons_live")  # buttons_live follows paused


def strip(snap):
    return {k: v for k, v in snap.items() if k not in VOLATILE}


def prefix_snapshots(journal_path):
    """The snapshot after each event of a journal, by replaying it one event at a time."""
    game, snaps = Game(), []
    with_journal = Journal(journal_path, readonly=True)
    for _, cmd in with_journal.events():
        game.apply(cmd)
        snaps.append(game.snapshot())
    with_journal.close()
    return snaps


def test_every_accepted_command_is_journaled_and_replay_gives_the_live_snapshot(tmp_path):
    # GIVEN a whole novosibirsk game run with a journal on disk
    path = tmp_path / "game.sqlite"
    session = Session(path)
    run_script(load_script(NSK), session)
    live = session.snapshot()
    session.close()
    # WHEN the journal is replayed read-only THEN the snapshot is the same, byte for byte
    assert json.dumps(replay_snapshot(path), sort_keys=True) == json.dumps(live, sort_keys=True)
    # AND every event is in the file: rev counts them
    assert len(Journal(path, readonly=True)) == live["rev"]


def test_refused_and_ignored_commands_are_not_replayed(tmp_path):
    """GIVEN a refused command and an ignored press WHEN the journal is read THEN neither is an event; the press is
    in the ignored log (BZ8)."""
    path = tmp_path / "g.sqlite"
    s = Session(path)
    s.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9"))
    with pytest.raises(Refused, match="has not started"):
        s.submit(make(1, "/sg/select", 1, 1))          # refused: not started
    s.submit(make(2, "/sg/button", 1))                 # ignored (BZ8): logged apart
    assert len(s.journal) == 1
    rows = s.journal.db.execute("SELECT address, reason FROM ignored").fetchall()
    assert rows and rows[0][0] == "/sg/button"


def test_resume_comes_back_paused_and_equal(tmp_path):
    # GIVEN a game stopped in the middle of a 5 s window
    path = tmp_path / "g.sqlite"
    s = Session(path)
    for c in [make(0, "/sg/game/new", "novosibirsk-2007", "1/9"), make(0, "/sg/game/start"), make(0, "/sg/chooser", 2),
              make(1, "/sg/select", 2, 3), make(2, "/sg/reading/done")]:
        s.submit(c)
    live = s.snapshot()
    s.close()
    # WHEN it is recovered THEN the snapshot is the same, paused, with the same remaining time
    r = Session.recover(path)
    snap = r.snapshot()
    assert strip(snap) == strip(live) and snap["paused"] and snap["paused_at"] == 2
    assert r.next_deadline() is None
    # AND the pause is journaled: recovering again gives the same game
    r.close()
    assert strip(Session.recover(path).snapshot()) == strip(live)


def _run_child(journal, script):
    code = ("import sys; from scoreboard.script import load_script; from scoreboard.session import Session;"
            "s=Session(sys.argv[1]);\n"
            "for line in load_script(sys.argv[2]):\n"
            "    (s.submit(line.command) if line.command else s.advance(line.at)); print(s.rev, flush=True)\n")
    return subprocess.Popen([sys.executable, "-c", code, str(journal), str(script)], stdout=subprocess.PIPE,
                            cwd=ROOT, text=True)


@pytest.mark.parametrize("kill_after", [1, 37, 150, 333])
def test_kill_at_any_point_and_resume_gives_back_the_same_game(tmp_path, kill_after):
    # GIVEN the reference list of snapshots after each event of the whole game
    ref = tmp_path / "ref.sqlite"
    s = Session(ref)
    run_script(load_script(NSK), s)
    s.close()
    expected = prefix_snapshots(ref)
    # WHEN a board process running the same game is killed (SIGKILL) after some lines
    path = tmp_path / "killed.sqlite"
    child = _run_child(path, NSK)
    for _ in range(kill_after):
        if not child.stdout.readline():
            break
    child.send_signal(signal.SIGKILL)
    child.wait()
    # THEN resuming gives exactly the snapshot after the last event that reached the journal
    reader = Journal(path, readonly=True)
    n = len(reader)
    reader.close()
    assert n >= 1
    resumed = Session.recover(path).snapshot()
    assert strip(resumed) == strip(expected[n - 1])
    assert resumed["paused"] or resumed["game_over"]


def _journal_with_game(tmp_path):
    path = tmp_path / "g.sqlite"
    s = Session(path)
    for c in [make(0, "/sg/game/new", "novosibirsk-2007", "1/9"), make(0, "/sg/game/start"), make(0, "/sg/chooser", 2),
              make(1, "/sg/select", 2, 3), make(2, "/sg/button", 1), make(3, "/sg/judge/right")]:
        s.submit(c)
    s.close()
    return path


def _edit(path, sql):
    """Change a journal behind the board's back, as a damaged disk or a curious hand would."""
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()


def test_truncated_journal_is_refused(tmp_path):
    """GIVEN a journal cut to half its size WHEN resumed THEN it is refused with the file named."""
    path = _journal_with_game(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(JournalError) as error:
        Session.recover(path)
    assert str(path) in str(error.value)


def test_edited_row_fails_its_checksum(tmp_path):
    """GIVEN a journal row edited behind the board's back WHEN resumed THEN refused: that event's checksum does not
    match."""
    path = _journal_with_game(tmp_path)
    _edit(path, "UPDATE events SET args='[3, 3]' WHERE address='/sg/select'")
    with pytest.raises(JournalError, match="event 4: checksum mismatch"):
        Session.recover(path)


def test_missing_row_is_refused_not_replayed_halfway(tmp_path):
    """GIVEN a journal with one event deleted WHEN replayed THEN refused at the gap, not replayed halfway."""
    path = _journal_with_game(tmp_path)
    _edit(path, "DELETE FROM events WHERE seq=3")
    with pytest.raises(JournalError, match="event 3 is missing"):
        replay_snapshot(path)


def test_journal_from_a_newer_version_is_refused(tmp_path):
    """GIVEN a journal of a newer format WHEN resumed THEN refused with a message to upgrade."""
    path = _journal_with_game(tmp_path)
    _edit(path, "UPDATE meta SET value='2' WHERE key='format'")
    with pytest.raises(JournalError, match="newer version"):
        Session.recover(path)


def test_not_a_journal_is_refused(tmp_path):
    """GIVEN a file of random bytes WHEN resumed THEN refused as not a readable journal."""
    path = tmp_path / "x.sqlite"
    path.write_bytes(os.urandom(4096))
    with pytest.raises(JournalError, match="not a readable journal"):
        Session.recover(path)


def test_resume_cli_reports_damage_with_exit_1(tmp_path):
    """GIVEN a damaged journal WHEN `scoreboard resume` runs THEN exit 1 with the file named on stderr."""
    path = _journal_with_game(tmp_path)
    path.write_bytes(path.read_bytes()[:1500])
    result = subprocess.run([sys.executable, "-m", "scoreboard", "resume", str(path)], capture_output=True, text=True,
                            cwd=ROOT)
    assert result.returncode == 1 and str(path) in result.stderr


def test_failed_append_rolls_the_engine_back(tmp_path):
    # GIVEN a journal whose disk write fails WHEN a command is submitted THEN it is refused and the game unchanged
    s = Session(tmp_path / "g.sqlite")
    s.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9"))
    s.submit(make(0, "/sg/game/start"))
    before = s.snapshot()

    def broken(cmd):
        raise JournalError("disk full")
    s.journal.append = broken
    with pytest.raises(JournalError):
        s.submit(make(1, "/sg/chooser", 1))
    assert s.snapshot() == before


def test_missing_or_empty_journal_is_refused_not_made_a_new_game(tmp_path):
    # GIVEN a mistyped path and a journal truncated to nothing WHEN resumed THEN both are refused and nothing is created
    missing = tmp_path / "nosuch.sqlite"
    with pytest.raises(JournalError, match="no such journal"):
        Session.recover(missing)
    assert not missing.exists()
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    with pytest.raises(JournalError, match="empty"):
        Session.recover(empty)
    assert empty.stat().st_size == 0
    result = subprocess.run([sys.executable, "-m", "scoreboard", "resume", str(missing)], capture_output=True,
                            text=True, cwd=ROOT)
    assert result.returncode == 1 and "no such journal" in result.stderr


def test_another_sqlite_file_is_not_taken_for_a_journal(tmp_path):
    """GIVEN some other SQLite database WHEN resumed THEN refused as not a scoreboard journal."""
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="not a scoreboard journal"):
        Session.recover(other)
