"""Every phase change goes through `phases.move` and the table of where each phase moves on to (issue 23): the moves
whole games of the three regulations make are all in `MOVES`, every move `MOVES` lists is made by some game, and a
move it does not list is a bug (`InternalError`) that changes nothing."""
from __future__ import annotations

import ast
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoreboard.engine import Command, Game, InternalError, Refused, make, phases
from scoreboard.engine.phases import MOVES, Phase, move
from scoreboard.engine.state import Player, State
from scoreboard.regulations import read_regulation_table
from scoreboard.session import Session, replay_snapshot
from tests.engine.helpers import Play
from tests.engine.test_fn_final import to_final
from tests.engine.test_phases import REGULATIONS, random_play

ENGINE = Path(phases.__file__).parent
TABLE = {(here, to) for here, nexts in MOVES.items() for to in nexts}


def _callers() -> set[str]:
    """The engine's modules that call `move` (read from their source, so a new caller cannot slip past the watch)."""
    return {f"scoreboard.engine.{path.stem}" for path in ENGINE.glob("*.py") if path.stem != "phases"
            and any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "move"
                    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))}


@contextmanager
def watched_moves():
    """Every phase move the engine makes inside the block, as (from, to), noted before the table is consulted."""
    real, seen = phases.move, []

    def watch(state, to):
        seen.append((state.phase, to))
        real(state, to)

    callers = _callers()
    assert callers and all(sys.modules[name].move is real for name in callers)
    with pytest.MonkeyPatch.context() as patch:
        for name in callers:
            patch.setattr(sys.modules[name], "move", watch)
        yield seen


# -- (a) the moves whole games make are the table's, and the table's are made ----------------------------------------

@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), regulation=st.sampled_from(REGULATIONS), ending=st.booleans())
def test_every_move_a_random_game_makes_is_in_the_table(seed, regulation, ending):
    """GIVEN random play on a real Session (scoreboard.playthrough's host and players plus any command now and then,
    from the start or from the end of regular play into finals and tie-breaks) WHEN every phase move is watched THEN
    each one is a pair of MOVES (those of commands refused later and rolled back included)."""
    with watched_moves() as seen:
        random_play(regulation, seed, 200, ending)
    assert seen and set(seen) <= TABLE, set(seen) - TABLE


def replace_the_auction_during_the_bidding() -> None:
    """G9, AU3: seat 1 can outbid, so the bidding is on when the host replaces the question: it starts again."""
    g = Play()
    g.step("/sg/score/adjust", 1, 500, "t")
    g.step("/sg/select", 1, 1, "auction")
    assert g.snap["phase"] == "auction" and g.snap["auction"]["turn"] == 1
    g.step("/sg/question/replace")
    assert g.snap["phase"] == "auction" and g.snap["auction"]["stake"] == 10


def replace_the_auction_while_it_is_answered() -> None:
    """G9, AU6: nobody can outbid the nominal, so the chooser answers at once; a replacement opens a new auction."""
    g = Play()
    g.step("/sg/select", 1, 1, "auction")
    assert g.snap["phase"] == "auction_answer"
    g.step("/sg/question/replace")
    assert g.snap["phase"] == "auction_answer" and g.snap["question"]["replaced"]


def name_who_answers_after_a_wrong_answer() -> None:
    """BZ9: in manual mode the host names the next player after a wrong answer."""
    g = Play()
    g.step("/sg/buttons/manual", 1)
    g.step("/sg/select", 1, 1)
    g.step("/sg/assign", 1)
    g.step("/sg/judge/wrong")
    assert g.snap["phase"] == "after_wrong"
    g.step("/sg/assign", 2)
    assert g.snap["phase"] == "answering" and g.snap["answering"] == 2


def name_the_other_player_of_a_close_call() -> None:
    """BZ11: two keys' presses 5 ms apart, each ± 17 ms: the host names the second player instead."""
    g = Play()
    g.step("/sg/select", 1, 1)
    g.step("/sg/button", 1, "key", 17)
    g.do(g.t + 0.005, "/sg/button", 2, "key", 17)
    g.step("/sg/answerer", 2)
    assert g.snap["phase"] == "answering" and g.snap["answering"] == 2


def tie_after_the_final_round() -> None:
    """FN4, TB1: the last reveal leaves 150 / 150 / 70: a tie-break round among the tied."""
    g = Play()
    to_final(g, [100, 100, 60])
    for seat, stake in [(1, 50), (2, 50), (3, 10)]:
        g.step("/sg/final/stake", seat, stake)
    g.step("/sg/final/start")
    g.step("/sg/time")
    for seat in (1, 2, 3):
        g.step("/sg/final/judge", seat, "right")
        g.step("/sg/final/reveal", seat)
    assert g.snap["phase"] == "round_intro" and g.snap["round"]["tiebreak"]


def america(**changes) -> Game:
    """A real Game of america-2005's selection stage, its regulation's table journaled with the command."""
    table = read_regulation_table("america-2005")
    for key, value in changes.items():
        table[key] = value
    game = Game()
    game.apply(Command(0, "/sg/game/new", ("america-2005", "selection"), {"regulation": table}))
    return game


def plan(first_topic: list[dict]) -> dict:
    """A pack plan of one round of eight topics: the first as given, the rest plain questions with text."""
    plain = [{"text": f"Вопрос {i}", "answer": "Ответ"} for i in range(1, 6)]
    topics = [{"name": "Первая", "questions": first_topic}]
    topics += [{"name": f"Тема {k}", "questions": plain} for k in range(2, 9)]
    return {"rounds": [{"topics": topics}]}


def pass_a_topic_the_pack_left_empty() -> None:
    """G7, G4: in sequential play a topic whose cells the pack left empty is passed over to the next topic."""
    game = america()
    game.apply(Command(0, "/sg/pack/load", ("empty-topic.toml",), plan([{"empty": True}] * 5)))
    game.apply(make(1, "/sg/game/start"))
    game.apply(make(2, "/sg/next"))
    assert game.snapshot()["phase"] == "topic_intro" and game.snapshot()["round"]["topic"] == 1
    game.apply(make(3, "/sg/next"))
    assert game.snapshot()["phase"] == "topic_intro" and game.snapshot()["round"]["topic"] == 2
    game.apply(make(4, "/sg/next"))
    assert game.snapshot()["phase"] == "reading" and game.snapshot()["question"]["topic"] == 2


RARE = {(Phase.AUCTION, Phase.AUCTION): replace_the_auction_during_the_bidding,
        (Phase.AUCTION_ANSWER, Phase.AUCTION): replace_the_auction_while_it_is_answered,
        (Phase.AFTER_WRONG, Phase.ANSWERING): name_who_answers_after_a_wrong_answer,
        (Phase.ANSWERING, Phase.ANSWERING): name_the_other_player_of_a_close_call,
        (Phase.FINAL_REVEAL, Phase.ROUND_INTRO): tie_after_the_final_round,
        (Phase.TOPIC_INTRO, Phase.TOPIC_INTRO): pass_a_topic_the_pack_left_empty}


@pytest.mark.parametrize("pair", list(RARE), ids=lambda pair: f"{pair[0]}->{pair[1]}")
def test_a_move_random_play_seldom_makes_is_made_by_its_game(pair):
    """GIVEN a short game on real parts that leads to one of the moves random play seldom makes (a replaced auction,
    G9; a player named after a wrong answer, BZ9; a tie after the final, TB1; a topic the pack left empty, G7)
    WHEN it is played THEN the engine makes that move, and only moves of the table."""
    with watched_moves() as seen:
        RARE[pair]()
    assert pair in seen and set(seen) <= TABLE, set(seen) - TABLE


def test_every_move_in_the_table_is_made_by_some_game():
    """GIVEN whole random games of the three regulations (from the start and from the end of regular play, fixed
    seeds) and the short games of the moves they seldom make WHEN every phase move is watched THEN the moves made are
    exactly the table: nothing listed that the engine never does."""
    with watched_moves() as seen:
        for regulation in REGULATIONS:
            for seed in range(3):
                for ending in (False, True):
                    random_play(regulation, seed, 200, ending)
        for play in RARE.values():
            play()
    assert set(seen) == TABLE, {"never made": TABLE - set(seen), "not listed": set(seen) - TABLE}


# -- (b) a move the table does not list is a bug that changes nothing -----------------------------------------------

def test_a_move_the_table_does_not_list_is_an_internal_error_and_the_command_changes_nothing(tmp_path):
    """GIVEN a real Session journaled to SQLite, a question being read, and a table without reading → buzz_window
    WHEN the host says the reading is done (BZ2) THEN InternalError — not a refusal — names the move, the game is
    exactly as before and the journal holds nothing of the command; with the table back the same command is taken."""
    path = tmp_path / "game.sqlite"
    session = Session(path)
    for at, address, *args in [(0, "/sg/game/new", "novosibirsk-2007", "1/9"), (0, "/sg/game/start"),
                               (0, "/sg/chooser", 1), (1, "/sg/select", 1, 1)]:
        session.submit(make(at, address, *args))
    before = session.snapshot()
    reading = {to: why for to, why in MOVES[Phase.READING].items() if to is not Phase.BUZZ_WINDOW}
    without = {**MOVES, Phase.READING: reading}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(phases, "MOVES", without)
        with pytest.raises(InternalError, match="from reading to buzz_window") as caught:
            session.submit(make(2, "/sg/reading/done"))
    assert not isinstance(caught.value, Refused)
    assert session.snapshot() == before and replay_snapshot(path) == before
    assert session.submit(make(2, "/sg/reading/done"))["phase"] == "buzz_window"
    session.close()


def test_topic_intro_to_auction_is_not_a_move_a_sequential_game_with_auctions_fails_unchanged():
    """GIVEN america-2005 changed to play auctions (AU1) and a pack that marks its first question an auction — the
    move the table leaves out on purpose: the auction starts with the chooser (AU3) and sequential play has none (G4)
    WHEN /sg/next would open it from the topic's intro THEN InternalError naming the move, and the game unchanged."""
    assert (Phase.TOPIC_INTRO, Phase.AUCTION) not in TABLE
    stage = {"rounds": [{"kind": "blue", "topics": 8, "auctions": 1}], "final": False}
    game = america(auction={"enabled": True}, stages={"selection": stage})
    first = [{"text": "Аукцион", "answer": "Ответ", "auction": True}]
    first += [{"text": "Вопрос", "answer": "Ответ"}] * 4
    game.apply(Command(0, "/sg/pack/load", ("auction.toml",), plan(first)))
    game.apply(make(1, "/sg/game/start"))
    game.apply(make(2, "/sg/next"))
    before, rev = game.snapshot(), game.rev
    with pytest.raises(InternalError, match="from topic_intro to auction"):
        game.apply(make(3, "/sg/next"))
    assert game.snapshot() == before and game.rev == rev


def test_move_checks_the_table_before_the_phase_changes():
    """GIVEN a game in setup WHEN the engine would move it straight to game_over THEN InternalError and the phase is
    still setup; a listed move (setup → round_intro) is made."""
    state = State("novosibirsk-2007", "1/9", [Player(1, "Анна")])
    with pytest.raises(InternalError, match="from setup to game_over"):
        move(state, Phase.GAME_OVER)
    assert state.phase is Phase.SETUP
    move(state, Phase.ROUND_INTRO)
    assert state.phase is Phase.ROUND_INTRO
