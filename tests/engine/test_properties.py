"""Property tests over random legal-looking command sequences, for each regulation (G8, TB4 and the engine's
contract: journal replay = live snapshot, undo restores, scores are folds, refusals change nothing)."""
import random
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoreboard.engine import Game, Refused, make
from scoreboard.playthrough import steps
from scoreboard.session import Session, replay_snapshot

REGULATIONS = ["novosibirsk-2007", "america-2005", "samara-2003"]
VOLATILE = ("rev", "time", "paused", "paused_at", "buttons_live")
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def strip(snap):
    return {k: v for k, v in snap.items() if k not in VOLATILE}


class Recorder:
    """An in-memory journal: the commands the session accepted, in order."""

    def __init__(self):
        self.commands = []

    def append(self, cmd):
        self.commands.append(cmd)


def run(regulation, seed, count=250):
    session = Session(None)
    recorder = Recorder()
    session.journal = recorder
    session.journal.log_ignored = lambda cmd, reason: None
    rng = random.Random(seed)
    checks = []
    for cmd, t in steps(session, regulation, rng, count):
        session.advance(t)   # time passing may fire deadlines; the command itself must change nothing if refused
        before = session.snapshot()
        try:
            if cmd is None:
                session.advance(t)
            else:
                session.submit(cmd)
        except Refused:
            checks.append((before, session.snapshot()))
    return session, recorder, checks


@FAST
@given(seed=st.integers(0, 2 ** 32 - 1), regulation=st.sampled_from(REGULATIONS))
def test_replaying_the_journal_gives_the_live_snapshot(seed, regulation):
    # GIVEN a random game WHEN its accepted commands are replayed into a fresh engine THEN the snapshot is identical
    session, recorder, _ = run(regulation, seed)
    game = Game()
    for cmd in recorder.commands:
        assert game.apply(cmd).changed
    assert game.snapshot() == session.snapshot()


@FAST
@given(seed=st.integers(0, 2 ** 32 - 1), regulation=st.sampled_from(REGULATIONS))
def test_a_refused_command_changes_nothing(seed, regulation):
    # GIVEN a random game WHEN any command is refused THEN the snapshot before and after are equal
    _, _, checks = run(regulation, seed)
    for before, after in checks:
        assert before == after


@FAST
@given(seed=st.integers(0, 2 ** 32 - 1), regulation=st.sampled_from(REGULATIONS))
def test_each_score_is_the_sum_of_its_answers_stakes_and_corrections(seed, regulation):
    # GIVEN a random game THEN every score equals the sum of its ledger entries (G8: corrections are entries too)
    session, _, _ = run(regulation, seed)
    st_ = session.game.st
    totals, extra = defaultdict(int), defaultdict(int)
    for entry in st_.ledger:
        assert entry.kind in ("answer", "auction", "final", "adjust", "rejudge", "replace", "timeout")
        (extra if entry.tiebreak else totals)[entry.seat] += entry.delta
    for p in session.snapshot()["players"]:
        assert p["score"] == totals[p["seat"]] and p["tiebreak_score"] == extra[p["seat"]]
    adjust = defaultdict(int)
    for a in session.snapshot()["adjustments"]:
        adjust[a["seat"]] += a["delta"]
    for entry in st_.ledger:
        if entry.kind == "adjust":
            adjust[entry.seat] -= entry.delta
    assert all(v == 0 for v in adjust.values())


@FAST
@given(seed=st.integers(0, 2 ** 32 - 1), regulation=st.sampled_from(REGULATIONS), where=st.integers(5, 200))
def test_undo_restores_the_previous_snapshot(seed, regulation, where):
    # GIVEN a random game stopped before a host command C (with the clock brought to C's time)
    session = Session(None)
    rng = random.Random(seed)
    n = 0
    for cmd, t in steps(session, regulation, rng, 400):
        try:
            if cmd is None:
                session.advance(t)
                continue
            n += 1
            if n >= where and cmd.address not in ("/sg/button", "/sg/undo", "/sg/game/new"):
                session.advance(cmd.at)
                before = session.snapshot()
                session.submit(cmd)
                if session.rev == before["rev"]:
                    continue
                # WHEN C is undone THEN the game is exactly as before C (clocks may come back frozen)
                session.submit(make(cmd.at + 1, "/sg/undo"))
                assert strip(session.snapshot()) == strip(before)
                return
            session.submit(cmd)
        except Refused:
            continue


@pytest.mark.parametrize("regulation", REGULATIONS)
def test_random_game_with_a_real_journal_file_replays(tmp_path, regulation):
    # GIVEN a long random game journaled to a real SQLite file WHEN replayed read-only THEN the same snapshot
    path = tmp_path / "g.sqlite"
    session = Session(path)
    rng = random.Random(7)
    for cmd, t in steps(session, regulation, rng, 400, new_games=True):
        try:
            session.submit(cmd) if cmd is not None else session.advance(t)
        except Refused:
            pass
    live = session.snapshot()
    session.close()
    assert replay_snapshot(path) == live
