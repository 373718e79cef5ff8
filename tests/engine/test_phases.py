"""The engine's phases are one enumeration and which commands each accepts is one table (issue 11 item 4): every
command and phase is in it, docs/ENGINE.md prints it verbatim, and random play on a real Session never has a
command accepted in a phase the table leaves it out of, nor refused by phase where the table lists it."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoreboard import cli
from scoreboard.engine import Game, Refused, make, phases
from scoreboard.engine.commands import SPEC, NotNow
from scoreboard.engine.handlers import BY_GAME, HANDLERS, NEXT_STEP
from scoreboard.engine.phases import ACCEPTS, NEEDS, NOT_NOW, Phase
from scoreboard.demo.playthrough import steps
from scoreboard.session import Session
from tests.engine.test_properties import to_the_end_of_play

ROOT = Path(__file__).resolve().parents[2]
REGULATIONS = ["novosibirsk-2007", "america-2005", "samara-2003"]
SAMPLE_PACK = str(ROOT / "assets" / "packs" / "sample.toml")
# Scores at the end of regular play that lead to the final round, the super-question and tie-breaks.
ENDINGS = {"novosibirsk-2007": [90, 90, 40], "america-2005": [40, 40, 0], "samara-2003": [40, 40, 10]}
BEFORE_PHASE = {row.reason for row in NEEDS if row.phases is None}


def test_every_command_and_every_phase_is_in_the_table():
    """GIVEN the command vocabulary (commands.SPEC) and the Phase enumeration WHEN the table is read THEN every phase
    has its row, every command is accepted somewhere and nothing else is named; each refusal text and each need
    names a known command in a phase where it applies; /sg/next has a step in exactly the phases that take it; every
    phase has its row of the phases it moves on to, each with when (test_moves.py plays them)."""
    assert set(ACCEPTS) == set(Phase)
    named = set().union(*ACCEPTS.values())
    assert named == set(SPEC), (set(SPEC) - named, named - set(SPEC))
    assert set(HANDLERS) | BY_GAME == set(SPEC)
    for (command, phase), _ in NOT_NOW.items():
        assert command in SPEC and (phase is None or command not in ACCEPTS[phase]), (command, phase)
    for row in NEEDS:
        assert row.command in SPEC and row.reason
        assert row.phases is None or all(row.command in ACCEPTS[p] for p in row.phases), row
    assert set(NEXT_STEP) == set(phases.accepted_in("/sg/next"))
    assert all(isinstance(p.value, str) and Phase(p.value) is p for p in Phase)
    assert set(phases.MOVES) == set(Phase) and all(isinstance(to, Phase) and why
                                                   for nexts in phases.MOVES.values() for to, why in nexts.items())


def test_docs_engine_md_contains_the_table_the_code_renders(capsys):
    """GIVEN the tables in code WHEN rendered by the real command line (`scoreboard phases --markdown`) THEN
    docs/ENGINE.md contains them verbatim; and a table that differs (a command dropped from a phase, a move dropped
    from where a phase moves on to) is not in it, so the check can fail."""
    assert cli.main(["phases", "--markdown"]) == 0
    rendered = capsys.readouterr().out
    assert rendered == phases.markdown() and rendered.startswith("## Phases and the commands each accepts")
    docs = (ROOT / "docs" / "ENGINE.md").read_text(encoding="utf-8")
    assert rendered in docs, "docs/ENGINE.md is out of date: paste `scoreboard phases --markdown` over its section"
    changed = dict(ACCEPTS)
    changed[Phase.REVEAL] = ACCEPTS[Phase.REVEAL] - {"/sg/rejudge"}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(phases, "ACCEPTS", changed)
        assert phases.markdown() not in docs
    moves = {**phases.MOVES, Phase.FINAL_REVEAL: {Phase.GAME_OVER: phases.MOVES[Phase.FINAL_REVEAL][Phase.GAME_OVER]}}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(phases, "MOVES", moves)
        assert phases.markdown() not in docs and "round_intro" not in phases.text().splitlines()[-3]


def any_command(rng: random.Random, seats: int) -> tuple[str, tuple]:
    """A well-typed command of any address, whatever the phase (the table, not the generator, decides)."""
    address = rng.choice(sorted(SPEC))
    return address, args_for(address, rng, seats)


def args_for(address: str, rng: random.Random, seats: int) -> tuple:
    seat = rng.randint(1, seats)
    args = {"/sg/player/name": (seat, rng.choice(["Анна", "Борис"])), "/sg/topics": ("А", "Б", "В", "Г", "Д", "Е"),
            "/sg/chooser": (seat,), "/sg/select": (rng.randint(1, 6), rng.randint(1, 5)),
            "/sg/answer/extend": (2,), "/sg/buttons/manual": (rng.randint(0, 1),), "/sg/assign": (seat,),
            "/sg/auction/bid": (seat, rng.choice([20, 60, 200])), "/sg/auction/allin": (seat,),
            "/sg/auction/pass": (seat,), "/sg/final/topic": ("Физика",), "/sg/final/stake": (seat, rng.randint(0, 50)),
            "/sg/final/judge": (seat, rng.choice(["right", "wrong"])), "/sg/final/reveal": (seat,),
            "/sg/score/adjust": (seat, rng.choice([-10, 10, 30])),
            "/sg/rejudge": (seat, rng.choice(["right", "wrong"])), "/sg/screen": (rng.choice(["board", "scores"]),), "/sg/button": (seat,),
            "/sg/game/new": ("novosibirsk-2007", "1/9"), "/sg/pack/load": (SAMPLE_PACK,),
            "/sg/answerer": (seat,)}
    return args.get(address, ())


class Spy:
    """Wraps the real engine's `apply`: every command the session gives it (deadlines fired by `advance` too) is
    recorded with the phase it met and how it ended."""

    def __init__(self, game: Game):
        self.game, self.apply = game, game.apply
        self.seen: list[tuple[Phase, str, str]] = []    # (phase, address, accepted | ignored | not_now | refused)
        game.apply = self

    def __call__(self, cmd, *args, **kwargs):
        st = self.game.st
        phase = st.phase if st is not None else None
        try:
            outcome = self.apply(cmd, *args, **kwargs)
        except NotNow:
            self._note(phase, cmd.address, "not_now")
            raise
        except Refused:
            self._note(phase, cmd.address, "refused")
            raise
        self._note(phase, cmd.address, "accepted" if outcome.changed else "ignored")
        assert type(self.game.st.phase) is Phase, f"{cmd.address} left the phase {self.game.st.phase!r}"
        return outcome

    def _note(self, phase, address, how):
        if phase is not None:
            self.seen.append((phase, address, how))


def probe(game: Game, rng: random.Random) -> None:
    """Every command its phase does not accept, sent now: each is refused by phase (or by a need checked before
    the phase) or, a press, ignored — and the game is exactly as it was."""
    phase, before = game.st.phase, game.snapshot()
    for address in sorted(SPEC):
        if address in ACCEPTS[phase]:
            continue
        try:
            outcome = game.apply(make(game.time, address, *args_for(address, rng, 2)))
        except Refused as refusal:
            assert isinstance(refusal, NotNow) or str(refusal) in BEFORE_PHASE, (phase, address, str(refusal))
        else:
            assert address == "/sg/button" and not outcome.changed, (phase, address)
        assert game.snapshot() == before, (phase, address)


def random_play(regulation: str, seed: int, count: int, ending: bool, probed: set | None = None) -> Spy:
    session = Session(None)
    spy = Spy(session.game)
    rng = random.Random(seed)
    start = 0.0
    if ending:
        start = to_the_end_of_play(session, regulation, ENDINGS[regulation])
    for cmd, t in steps(session, regulation, rng, count, start=start, new_games=True, pace=0.5 if ending else 0.2):
        session.advance(t)
        if probed is not None and session.game.st is not None and session.game.st.phase not in probed:
            probed.add(session.game.st.phase)
            probe(session.game, rng)
        commands = [cmd] if cmd is not None else []
        if rng.random() < 0.3:      # now and then any command at all, to meet the table where it says no
            address, args = any_command(rng, len(session.snapshot()["players"]) or 3)
            commands.insert(0, make(t, address, *args))
        for command in commands:
            try:
                session.submit(command)
            except Refused:
                pass
    return spy


def check_against_the_table(seen) -> None:
    for phase, address, how in seen:
        if how == "accepted":
            assert address in ACCEPTS[phase], f"{address} was accepted in {phase}, which the table does not list"
        elif how == "not_now":
            assert address not in ACCEPTS[phase], f"{address} was refused by phase in {phase}, which lists it"
        if address not in ACCEPTS[phase]:
            assert how != "accepted"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), regulation=st.sampled_from(REGULATIONS), ending=st.booleans())
def test_random_play_applies_commands_only_where_the_table_accepts_them(seed, regulation, ending):
    """GIVEN random play on a real Session (scoreboard.demo.playthrough's host and players, plus any command now and then;
    from the start, or from the end of regular play into finals and tie-breaks) WHEN every command the engine meets is
    watched THEN each accepted one was in ACCEPTS for the phase it was applied in, each refused by phase was not, and
    nothing outside the table was accepted."""
    spy = random_play(regulation, seed, 150, ending)
    check_against_the_table(spy.seen)
    assert any(how == "not_now" for _, _, how in spy.seen) and any(how == "accepted" for _, _, how in spy.seen)


def test_every_phase_is_reached_and_refuses_what_it_does_not_list():
    """GIVEN random play of the three regulations, from the start and from the end of regular play WHEN each phase is
    first met THEN every command it does not accept is refused by phase (or ignored, a press) and changes nothing;
    and over the games every phase of the enumeration is reached (a command is applied in it)."""
    reached: set[Phase] = set()
    for regulation in REGULATIONS:
        probed: set[Phase] = set()
        for seed, ending in ((1, False), (2, True), (3, True)):
            spy = random_play(regulation, seed, 200, ending, probed)
            check_against_the_table(spy.seen)
            reached |= {phase for phase, _, how in spy.seen if how == "accepted"}
    assert reached == set(Phase), set(Phase) - reached


def test_a_pack_loads_in_setup_and_on_the_full_first_board_only():
    """GIVEN a real Session and the sample pack WHEN it is loaded in setup, then once play has started and the first
    board is full, then after a cell was played THEN the first two are accepted and the third is refused by the
    table's need (the first board is no longer full), with the same reason as before the table (P3, G3)."""
    session = Session(None)
    spy = Spy(session.game)
    session.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9"))
    session.submit(make(0, "/sg/pack/load", SAMPLE_PACK))
    session.submit(make(1, "/sg/game/start"))
    session.submit(make(1, "/sg/pack/load", SAMPLE_PACK))
    session.submit(make(2, "/sg/chooser", 1))
    session.submit(make(2, "/sg/select", 1, 1))
    with pytest.raises(Refused, match="only before the game starts or while the first board is full") as caught:
        session.submit(make(3, "/sg/pack/load", SAMPLE_PACK))
    assert isinstance(caught.value, NotNow)    # reading: the phase does not take it
    assert [(p, a, h) for p, a, h in spy.seen if a == "/sg/pack/load"] == [
        (Phase.SETUP, "/sg/pack/load", "accepted"), (Phase.ROUND_INTRO, "/sg/pack/load", "accepted"),
        (Phase.READING, "/sg/pack/load", "not_now")]
