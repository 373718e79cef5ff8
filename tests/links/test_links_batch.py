"""One journal transaction per drained inbox batch (issue 11 items 1 and 9): every command a board turn drains is
journaled in one SQLite transaction (one fsync, synchronous=FULL), each is answered only once that transaction is
durable, and a batch the journal cannot take is undone whole and submitted again one by one, so exactly the
commands that cannot be journaled are refused and the engine keeps only what the journal has.

Real parts: a SQLite journal file in the test folder, a real `Session` and `Inbox`. The journal is made to refuse one
command with a SQLite trigger on its own file (a row the database will not take), the way a failing disk refuses a
write, without touching the code under test."""
import sqlite3

import pytest

from scoreboard.engine.commands import make
from scoreboard.session import Session, replay_snapshot

links_pkg = pytest.importorskip("scoreboard.links")
from scoreboard.links import Inbox  # noqa: E402


@pytest.fixture
def session(tmp_path):
    session = Session(tmp_path / "game.sqlite")
    session.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9"))
    session.submit(make(0, "/sg/game/start"))
    yield session
    session.close()


def rows_seen_by_another_reader(path) -> list[tuple[str, str]]:
    """The journal as any other process would read it now: only committed (durable) rows."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return [tuple(r) for r in db.execute("SELECT address, args FROM events ORDER BY seq")]


def statements(session) -> list[str]:
    seen: list[str] = []
    session.journal.db.set_trace_callback(lambda sql: seen.append(sql.split()[0].upper()))
    return seen


def refuse_name(session, name: str) -> None:
    """The journal's own file refuses one row: the insert of a name change to `name` aborts."""
    session.journal.db.execute(f"""CREATE TRIGGER refuse_one BEFORE INSERT ON events
        WHEN NEW.address = '/sg/player/name' AND NEW.args LIKE '%{name}%'
        BEGIN SELECT RAISE(ABORT, 'the drive refused this write'); END""")


def put_names(inbox, session, names) -> list:
    acks = []
    for i, name in enumerate(names):
        cmd = make(session.time + 1 + i, "/sg/player/name", 1 + i % 3, name)
        inbox.put(cmd, "osc:1", lambda ok, reason, name=name: acks.append(
            (name, ok, reason, ("/sg/player/name", f'[{1 + names.index(name) % 3}, "{name}"]')
             in rows_seen_by_another_reader(session.journal.path))))
    return acks


def test_i11_9_a_drained_batch_is_one_transaction_and_each_ack_comes_after_it_is_durable(session):
    """GIVEN a board session on a real SQLite journal and five host commands queued in one turn
    WHEN the inbox is drained THEN the journal runs exactly one BEGIN and one COMMIT for the five (one fsync), each
    command is answered ok, and at the moment each answer is sent another reader of the file already sees that
    command's row (an ack means journaled); the engine is what the journal replays to."""
    inbox = Inbox()
    names = ["Анна", "Борис", "Вера", "Глеб", "Дина"]
    acks = put_names(inbox, session, names)
    seen = statements(session)
    results = inbox.deliver_all(session)
    assert [ok for _, ok, _ in results] == [True] * 5
    assert [(name, ok, durable) for name, ok, _, durable in acks] == [(name, True, True) for name in names]
    assert seen.count("BEGIN") == 1 and seen.count("COMMIT") == 1 and seen.count("INSERT") == 5
    assert session.rev == len(session.journal)
    assert replay_snapshot(session.journal.path) == session.snapshot()


def test_i11_1_a_batch_with_one_command_the_journal_fails_refuses_exactly_that_one(session):
    """GIVEN a batch of five name changes of which the journal's file refuses the third
    WHEN it is drained THEN the third is refused «not journaled, not done» with the journal's reason and the four
    others are done and answered ok only once durable; the engine holds exactly what the journal holds (rev = rows,
    the refused name is nowhere, the replay equals the live snapshot) and the alarm is up until an append succeeds."""
    inbox = Inbox()
    names = ["Анна", "Борис", "Вера", "Глеб", "Дина"]
    refuse_name(session, "Вера")
    before = session.snapshot()
    acks = put_names(inbox, session, names)
    results = inbox.deliver_all(session)
    assert [(name, ok) for name, ok, _, _ in acks] == [("Анна", True), ("Борис", True), ("Вера", False),
                                                       ("Глеб", True), ("Дина", True)]
    assert "not journaled, not done" in acks[2][2] and "refused this write" in acks[2][2]
    assert all(durable for _, ok, _, durable in acks if ok)
    assert [ok for _, ok, _ in results] == [ok for _, ok, _, _ in acks]
    snap = session.snapshot()
    assert session.rev == len(session.journal) == before["rev"] + 4
    assert [p["name"] for p in snap["players"]] == ["Глеб", "Дина", "Игрок 3"]   # seat 3 never became «Вера»
    assert replay_snapshot(session.journal.path) == snap
    assert "Вера" not in str(rows_seen_by_another_reader(session.journal.path))
    # the last append of the turn succeeded: the alarm of the failed one is down again, as for single appends
    assert session.journal_status()["ok"] is True


def test_i11_1_a_batch_whose_every_command_fails_keeps_the_engine_exactly_as_it_was(session):
    """GIVEN a batch of an undo and two name changes, the last of which the journal refuses, after a game whose
    state the undo would rebuild from a checkpoint
    WHEN it is drained THEN the undo and the first name change are done (each journaled alone after the batch was
    undone) and the last refused; the engine equals the journal's replay, so the batch's undo-and-restore left no
    trace of the refused command."""
    inbox = Inbox()
    session.submit(make(session.time + 0.5, "/sg/chooser", 2))
    refuse_name(session, "Жанна")
    acks = []
    at = session.time + 1
    for i, (address, *args) in enumerate([("/sg/undo",), ("/sg/player/name", 1, "Егор"),
                                          ("/sg/player/name", 2, "Жанна")]):
        inbox.put(make(at + i, address, *args), "osc:1", lambda ok, reason, a=address: acks.append((a, ok, reason)))
    inbox.deliver_all(session)
    assert [(a, ok) for a, ok, _ in acks] == [("/sg/undo", True), ("/sg/player/name", True),
                                              ("/sg/player/name", False)]
    snap = session.snapshot()
    assert snap["chooser"] is None and [p["name"] for p in snap["players"]][:2] == ["Егор", "Игрок 2"]
    assert session.rev == len(session.journal)
    assert replay_snapshot(session.journal.path) == snap


def test_i11_9_a_rule_refusal_inside_a_batch_is_answered_and_the_rest_stays_one_transaction(session):
    """GIVEN a batch of three commands whose second the rules refuse (a seat that does not exist)
    WHEN it is drained THEN the second is refused with the rule's reason, the other two are done in the one
    transaction of the batch (one COMMIT), and nothing of the refused one is journaled."""
    inbox = Inbox()
    acks = []
    at = session.time + 1
    for i, (address, *args) in enumerate([("/sg/player/name", 1, "Захар"), ("/sg/chooser", 9),
                                          ("/sg/player/name", 2, "Ирина")]):
        inbox.put(make(at + i, address, *args), "osc:1", lambda ok, reason, a=address: acks.append((a, ok, reason)))
    seen = statements(session)
    inbox.deliver_all(session)
    assert [(a, ok) for a, ok, _ in acks] == [("/sg/player/name", True), ("/sg/chooser", False),
                                              ("/sg/player/name", True)]
    assert acks[1][2] and "not journaled" not in acks[1][2]
    assert seen.count("COMMIT") == 1 and seen.count("INSERT") == 2
    assert "/sg/chooser" not in str(rows_seen_by_another_reader(session.journal.path))
    assert replay_snapshot(session.journal.path) == session.snapshot()
