"""A board playing a scheduled game: it sets the game up from the tournament file and records the result from its
journal at game over (issue 6 item 1: nobody types scores twice; T-A6: results keyed by game)."""
from __future__ import annotations

import pygame
import pytest

from scoreboard.app.board import Board
from scoreboard.app.start import open_session
from scoreboard.app.config import default_config
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme
from scoreboard.tournament.board_link import setup_commands
from scoreboard.tournament.errors import TournamentError

from .helpers import play_to_the_end
from scoreboard.tournament.service import Tournament

from .helpers import names, register


def _cup(path):
    t = Tournament.create(path, "samara-2003", seed=4)
    register(t, names(9), cups=["winter"])
    t.draw()
    game = t.store.games()[0]
    t.close()
    return game


def test_board_sets_up_the_scheduled_game_and_records_its_result(path, tmp_path):
    # GIVEN a samara cup with its first round drawn, and a board configured to play game G
    pygame.init()
    game = _cup(path)
    config = default_config()
    config["board"].update(journal=str(tmp_path / "g.sqlite"), sounds=False)
    config["tournament"].update(file=str(path), game=game["id"])
    lines = []
    session, journal, start = open_session(config["board"], lines.append, config["tournament"])
    # THEN the game is the tournament's: its regulation, stage, players by seat and the game's own seed
    snap = session.snapshot()
    assert snap["regulation"] == "samara-2003" and snap["stage"] == "cup"
    assert [p["name"] for p in snap["players"]] == game["players"]
    assert setup_commands(path, game["id"])[0][1][3] == session.game.st.seed
    theme = load_theme("classic")
    board = Board(config, session, 0.0, [Screen(ScreenSpec("audience", size=(320, 180)), theme, window=False)],
                  theme, out=lines.append, clock=lambda: session.time, journal_path=journal)
    # WHEN the game is played to its end (seat 1 takes topic 1, nothing else is answered)
    play_to_the_end(session, board)
    # THEN the board recorded it into the tournament, with the winner from the journal
    assert session.snapshot()["winner"] == 1
    assert any(f"game {game['id']} recorded" in line for line in lines), lines
    t2 = Tournament(path)
    recorded = [g for g in t2.store.games() if g["id"] == game["id"]][0]["result"]
    t2.close()
    assert recorded["winner"] == game["players"][0]


def test_a_game_with_a_result_is_not_set_up_again(path, tmp_path):
    """GIVEN a scheduled game whose result is already recorded WHEN a board is opened to play it
    THEN opening is refused with 'has a result already'."""
    game = _cup(path)
    t = Tournament(path)
    t.record_typed(game["id"], {"1": 30, "2": 20, "3": 10})
    t.close()
    config = default_config()
    config["board"].update(journal=str(tmp_path / "g.sqlite"))
    with pytest.raises(TournamentError, match="has a result already"):
        open_session(config["board"], lambda *_: None, {"file": str(path), "game": game["id"]})


def test_next_game_gives_the_first_unplayed_game_with_its_seats(path):
    """GIVEN a samara cup round 1 drawn (3 games) WHEN the remote asks for the next game, then one game is recorded
    and it asks again THEN it gets the first game without a result, with regulation, engine stage, seats by name and
    the setup the board opens; once every game has a result there is no next game (None)."""
    from scoreboard.tournament.board_link import next_game
    game = _cup(path)
    first = next_game(path)
    assert first["game"] == game["id"] and first["regulation"] == "samara-2003" and first["stage"] == "cup"
    assert first["stage_id"] == "winter-1" and len(first["to_play"]) == 3
    assert [s["name"] for s in first["seats"]] == game["players"] and [s["seat"] for s in first["seats"]] == [1, 2, 3]
    assert first["game_new"] == ["/sg/game/new", "samara-2003", "cup", 3, first["seed"]]
    t = Tournament(path)
    t.record_typed(game["id"], {"1": 30, "2": 20, "3": 10})
    second = next_game(path)
    assert second["game"] == first["to_play"][1] and second["to_play"] == first["to_play"][1:]
    for gid in second["to_play"]:
        t.record_typed(gid, {"1": 30, "2": 20, "3": 10})
    t.close()
    assert next_game(path) is None


def test_next_game_of_a_missing_file_is_refused_naming_it(tmp_path):
    """GIVEN no tournament file WHEN the board asks for its next game THEN TournamentError names the path."""
    from scoreboard.tournament.board_link import next_game
    with pytest.raises(TournamentError, match="no such tournament file"):
        next_game(tmp_path / "nope.sqlite")
