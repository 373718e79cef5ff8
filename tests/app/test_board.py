"""The board loop on a real Session, a real SQLite journal and the links' real Inbox: commands in time order with
their results reported, deadlines fired by the clock, snapshots published once per change, no redraw when idle,
recovery from a journal, keyboard seats and the quit question."""
import pygame
import pytest

from scoreboard.app.start import open_session
from scoreboard.app.config import default_config
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme
from scoreboard.engine.commands import make

pytest.importorskip("scoreboard.links")


@pytest.fixture
def board(board_factory):
    return board_factory(rehearsal=True)


def put(board, at, address, *args):
    results = []
    board.inbox.put(make(at, address, *args), "test", lambda ok, reason: results.append((ok, reason)))
    return results


def test_inbox_is_submitted_in_time_order_with_results(board):
    """GIVEN commands queued out of order, one of them refused WHEN a frame runs THEN they apply in time order, the
    good ones report (True, None) and the refused one (False, reason)."""
    named = put(board, 0.2, "/sg/player/name", 1, "Анна")
    start = put(board, 0.5, "/sg/game/start")
    bad = put(board, 0.3, "/sg/select", 9, 9)       # before the game starts: refused
    board.fake_clock.t += 1
    board.frame()
    assert named == [(True, None)] and start == [(True, None)]
    assert bad[0][0] is False and bad[0][1]
    snap = board.session.snapshot()
    assert snap["phase"] == "round_intro" and snap["players"][0]["name"] == "Анна"


def test_bz2_window_closes_by_the_clock_alone(board):
    """GIVEN an open question whose 5 s window started (BZ2) WHEN frames run 6 s later with no command THEN the
    board fired the deadline itself and the question closed unanswered."""
    for at, address, *args in [(0.1, "/sg/game/start"), (0.2, "/sg/chooser", 1), (0.3, "/sg/select", 1, 1),
                               (0.4, "/sg/reading/done")]:
        put(board, at, address, *args)
    board.fake_clock.t += 0.5
    board.frame()
    assert board.session.snapshot()["phase"] == "buzz_window"
    board.fake_clock.t += 6
    board.frame()
    snap = board.session.snapshot()
    assert snap["phase"] == "reveal" and snap["last"]["answers"] == []


def test_publish_once_per_change_and_no_redraw_when_idle(board):
    """GIVEN a board with nothing happening WHEN frames run THEN the snapshot is published once and no screen
    redraws; a change publishes once more and redraws once (with the host screen getting the question)."""
    board.frame()
    frames = [s.frames for s in board.screens]
    published = len(board.links.published)
    for _ in range(5):
        board.fake_clock.t += 0.5
        board.frame()
    assert [s.frames for s in board.screens] == frames and len(board.links.published) == published
    put(board, board.now(), "/sg/player/name", 2, "Борис")
    board.frame()
    assert [s.frames for s in board.screens] == [f + 1 for f in frames]
    assert len(board.links.published) == published + 1


def test_running_clock_redraws_only_when_its_digits_change(board):
    """GIVEN the 5 s window running WHEN frames come 1 ms apart THEN the screen redraws only when the tenths shown
    change, not every frame."""
    for at, address, *args in [(0.1, "/sg/game/start"), (0.2, "/sg/chooser", 1), (0.3, "/sg/select", 1, 1),
                               (0.4, "/sg/reading/done")]:
        put(board, at, address, *args)
    board.fake_clock.t += 0.41
    board.frame()
    audience = board.screens[0]
    before = audience.frames
    for _ in range(200):                                   # 0.2 s in 1 ms steps
        board.fake_clock.t += 0.001
        board.frame()
    assert 1 <= audience.frames - before <= 3


def test_recovery_continues_after_the_last_event(tmp_path):
    """GIVEN a journal of a started game WHEN the board opens it again THEN the game is recovered paused and the
    engine clock continues after its last event."""
    config = default_config()
    config["board"].update(journal=str(tmp_path / "g.sqlite"))
    session, _, start = open_session(config["board"], out=lambda *_: None)
    assert start == 0.0
    session.submit(make(12.0, "/sg/player/name", 1, "Анна"))
    session.close()
    again, _, start = open_session(config["board"], out=lambda *_: None)
    snap = again.snapshot()
    assert start >= 12.0 and snap["paused"] and snap["players"][0]["name"] == "Анна"
    again.close()


def test_keys_press_seats_and_esc_asks_before_quitting(board):
    """GIVEN rehearsal mode WHEN key 2 is pressed during the window THEN seat 2 answers; WHEN Esc THEN the board
    asks, Esc again cancels, Esc then Enter quits."""
    for at, address, *args in [(0.1, "/sg/game/start"), (0.2, "/sg/chooser", 1), (0.3, "/sg/select", 1, 1),
                               (0.4, "/sg/reading/done")]:
        put(board, at, address, *args)
    board.fake_clock.t += 0.5
    board.frame()
    board.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2, mod=0, unicode="2", scancode=0))
    assert board.session.snapshot()["answering"] == 2
    esc = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
    board.handle(esc)
    assert board.confirm_quit and board.running
    board.frame()                                  # the question is drawn on every screen
    board.handle(esc)
    assert not board.confirm_quit and board.running
    board.handle(esc)
    board.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    assert not board.running


def test_clock_tick_redraw_matches_a_full_redraw(games):
    """GIVEN a screen that drew a frame of the running window, and of a false-start lockout WHEN the clock alone
    moves and it redraws only the live boxes THEN the picture is pixel for pixel what a full redraw gives."""
    theme = load_theme("classic")
    wanted = [x for x in games["novosibirsk-2007"] if x[0]["phase"] in ("buzz_window", "answering")][:2]
    wanted += [x for x in games["novosibirsk-2007"] if x[0]["phase"] == "after_wrong"
               and any(p["locked_until"] for p in x[0]["players"])][:1]
    assert len(wanted) == 3
    for snap, _, at in wanted:
        ticking = Screen(ScreenSpec("audience", size=(640, 360)), theme, window=False)
        ticking.render(snap, at + 0.05)
        drew = 0
        for step in (0.31, 0.77, 1.93, 2.6):
            drew += ticking.render(snap, at + step)   # False when nothing visible changed (elapsed whole seconds)
            fresh = Screen(ScreenSpec("audience", size=(640, 360)), theme, window=False)
            fresh.render(snap, at + step, force=True)
            assert pygame.image.tobytes(ticking.surface, "RGB") == pygame.image.tobytes(fresh.surface, "RGB"), \
                f"{snap['phase']} at +{step}"
        assert drew >= 2


def killed_mid_game(config: dict, out=lambda *_: None):
    """A board's game started and left unfinished (seat 2 named «Борис» at 3 s), its session closed: its journal."""
    first, path, _ = open_session(config["board"], out=out)
    first.submit(make(3.0, "/sg/player/name", 2, "Борис"))
    first.close()
    return path


def test_kiosk_restart_resumes_the_newest_unfinished_game(tmp_path):
    """GIVEN `resume = true` and a journal folder with an unfinished game WHEN the board starts again (a kiosk
    restart after a crash) THEN it recovers that game instead of starting a new one."""
    config = default_config()
    config["board"].update(journal_dir=str(tmp_path), resume=True)
    path = killed_mid_game(config)
    again, again_path, start = open_session(config["board"], out=lambda *_: None)
    assert again_path == path and start >= 3.0
    assert again.snapshot()["players"][1]["name"] == "Борис"
    again.close()


def test_a_new_game_beside_an_unfinished_one_says_where_it_is_and_how_to_come_back(tmp_path):
    """GIVEN `resume = false` (the shipped default) WHEN the board starts in an empty journal folder THEN it says
    nothing of other games; WHEN it starts again after being killed mid-game THEN it starts a new game, as configured,
    and says which journal holds the unfinished one and the settings that come back to it."""
    config = default_config()
    config["board"].update(journal_dir=str(tmp_path), resume=False)
    said: list[str] = []
    path = killed_mid_game(config, out=said.append)
    assert not [line for line in said if "unfinished" in line]
    said.clear()
    again, again_path, _ = open_session(config["board"], out=said.append)
    assert again_path != path and again.snapshot()["players"][1]["name"] != "Борис"
    notice = [line for line in said if "unfinished" in line]
    assert len(notice) == 1 and str(path) in notice[0] and "board.resume = true" in notice[0], said
    again.close()


def test_two_starts_within_one_second_never_share_a_journal(tmp_path, monkeypatch):
    """GIVEN a board started and stopped mid-game WHEN it starts again within the same second (Ctrl-C and start
    again) THEN the new game gets its own journal, and the first game's journal still replays whole — before, the new
    game was appended to it and the journal no longer read ("event 3: bad time 0.0")."""
    from scoreboard.app import start as board_start
    from scoreboard.session import replay_snapshot

    class Frozen:   # the clock stands still: both starts fall in one second
        @staticmethod
        def now():
            from datetime import datetime
            return datetime(2026, 12, 4, 16, 36, 16)
    monkeypatch.setattr(board_start, "datetime", Frozen)
    config = default_config()
    config["board"].update(journal_dir=str(tmp_path), resume=False)
    path = killed_mid_game(config)
    again, again_path, _ = open_session(config["board"], out=lambda *_: None)
    again.close()
    assert again_path != path and again_path.name == "2026-12-04_16-36-16-2.sqlite"
    assert replay_snapshot(path)["players"][1]["name"] == "Борис"


def test_run_wires_screens_links_and_journal(tmp_path):
    """GIVEN a config with an audience and a host window (dummy driver), OSC on loopback and a journal folder WHEN
    `run` plays a few frames THEN it exits 0 having opened both windows and written a new journal."""
    from scoreboard.app import start as board_module
    from scoreboard.session import replay_snapshot
    config = default_config()
    config["board"].update(journal_dir=str(tmp_path / "games"), sounds=False, theme="light")
    config["screens"] = [{"role": "audience", "display": 0, "size": [480, 270], "fullscreen": False},
                         {"role": "host", "display": 0, "size": [320, 180], "fullscreen": False}]
    config["osc"].update(bind="127.0.0.1", port=0, passcode="1234")
    said = []
    assert board_module.run(config, out=said.append, frames=5) == 0
    journals = list((tmp_path / "games").glob("*.sqlite"))
    assert len(journals) == 1 and replay_snapshot(journals[0])["phase"] == "setup"
    assert any("new game novosibirsk-2007 1/9" in line for line in said)


def test_bz8_a_refused_press_is_kept_for_the_operator_not_lost(board):
    """GIVEN the board loop WHEN a box press for a seat that does not exist comes through the inbox (a press has
    no on_result to hear the refusal) THEN the board keeps it with the reason and the game is unchanged."""
    before = board.session.snapshot()
    board.inbox.put(make(board.session.time + 0.1, "/sg/button", 9), "serial")
    board.frame()
    assert len(board.refused) == 1
    cmd, reason = board.refused[0]
    assert cmd.args == (9,) and "no seat 9" in reason
    assert board.session.snapshot()["rev"] == before["rev"]
