"""No command waits for a frame (issue 11 item 9): `Board.run`'s loop takes the input on its own thread, so a command
that arrives while a frame is being drawn and flipped (15–50 ms for 1080p under X, a vsync'd flip waits for the
screen) is applied, journaled and answered before that frame ends; and a run of commands costs one redraw a frame.
Real parts: a SQLite journal, the links' Inbox, a pygame screen on SDL's dummy driver, the board's own Loop."""
import sqlite3
import threading
import time

from scoreboard.app.board import Board
from scoreboard.app.start import open_session
from scoreboard.app.loop import Loop
from scoreboard.app.config import default_config
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme
from scoreboard.engine.commands import make
from scoreboard.links import Inbox

DEADLINE = 30.0   # seconds: bounds a hang only


def make_board(tmp_path):
    config = default_config()
    config["board"].update(journal=str(tmp_path / "g.sqlite"), sounds=False)
    session, path, start = open_session(config["board"], out=lambda *_: None)
    theme = load_theme("classic")
    screen = Screen(ScreenSpec("audience", size=(640, 360)), theme, window=False)
    board = Board(config, session, time.monotonic() - start, [screen], theme, Inbox(), None, out=lambda *_: None,
                  journal_path=path)
    return board, screen, path


def journaled_names(path) -> list[str]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return [args for (args,) in db.execute("SELECT args FROM events WHERE address = '/sg/player/name'")]


def test_i11_9_a_command_arriving_during_a_frame_is_acked_before_the_frame_ends(tmp_path):
    """GIVEN the board's loop drawing a frame that takes as long as it takes (its render holds until told)
    WHEN a host command reaches the inbox during that frame THEN its ack — after it is journaled — arrives while the
    frame is still being drawn, and the next frame shows it."""
    board, screen, path = make_board(tmp_path)
    acks, acked, during = [], threading.Event(), threading.Event()
    inner = screen.render
    drawn: list[list[str]] = []   # the names of each state a frame was drawn from

    def slow_render(snapshot, now, *args, **kwargs):
        names = [p["name"] for p in snapshot["players"]]
        if "Анна" in names and not during.is_set() and not acks:   # the frame of the first command: a long flip
            board.inbox.put(make(board.now(), "/sg/player/name", 2, "Борис"), "osc:1",
                            lambda ok, reason: acks.append((ok, reason, journaled_names(path))) or acked.set())
            if acked.wait(DEADLINE):   # this frame is not over until the ack is here (or the deadline)
                during.set()
        if inner(snapshot, now, *args, **kwargs):
            drawn.append(names)
            return True
        return False

    screen.render = slow_render
    loop = Loop(board, 1 / 60).start()
    try:
        board.inbox.put(make(board.now(), "/sg/player/name", 1, "Анна"), "osc:1")
        deadline = time.monotonic() + DEADLINE
        while not (during.is_set() and drawn and "Борис" in drawn[-1]) and time.monotonic() < deadline:
            loop.turn()
    finally:
        loop.stop()
        board.session.close()
    assert during.is_set(), "the second command's ack waited for the frame"
    ok, reason, rows = acks[0]
    assert ok and reason is None and any("Борис" in row for row in rows)   # durable when acked
    assert drawn[-1][:2] == ["Анна", "Борис"]


def test_i11_9_a_run_of_commands_costs_one_redraw_a_frame_not_one_each(tmp_path):
    """GIVEN the board's loop WHEN forty name changes arrive while its input thread is busy THEN its next turn takes
    them as one batch: all are acked, and the screen redraws at most a few times (not forty), the last frame showing
    the last name."""
    board, screen, _ = make_board(tmp_path)
    acks, drawn = [], []
    inner = screen.render
    screen.render = lambda snap, *a, **k: (inner(snap, *a, **k) and drawn.append(snap["players"][0]["name"])
                                           is None)
    loop = Loop(board, 1 / 60).start()
    try:
        loop.turn()
        frames = screen.frames
        with board.lock:   # they arrive while the input thread is busy: its next turn drains them together
            for i in range(40):
                board.inbox.put(make(board.now(), "/sg/player/name", 1, f"Игрок-{i}"), "osc:1",
                                lambda ok, reason: acks.append(ok))
        deadline = time.monotonic() + DEADLINE
        while not (len(acks) == 40 and drawn and drawn[-1] == "Игрок-39") and time.monotonic() < deadline:
            loop.turn()
    finally:
        loop.stop()
        board.session.close()
    assert acks == [True] * 40
    assert drawn[-1] == "Игрок-39"
    assert screen.frames - frames <= 3
