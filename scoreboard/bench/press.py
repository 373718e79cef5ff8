"""Press → first frame showing the answering player: the board's real loop against a fake button box on a pty.

Everything is what `scoreboard run` does, on SDL's dummy video driver: `open_session` journals a new game into a
SQLite file in a temp folder (WAL, synchronous=FULL: each accepted press is fsync'ed before it counts), the board's
`_links` starts the real `Links` (the serial reader thread on the pty in events mode, the OSC server on 127.0.0.1),
the loop is `Board.run`'s (`board_loop.Loop`: the input thread drains, journals and publishes as soon as a command
arrives; the main thread's turns draw at most one full redraw per frame period, a new answering player at once,
60 fps), on one 1920×1080 audience window
with the `classic` theme and sounds on (the buzz cue plays on the press frame, into the dummy audio device).

A trial: once the audience screen has drawn the open 5 s window (BZ2), a player thread waits a random fraction of
two frames (so the presses fall anywhere between frame boundaries, as a human's do), takes `time.perf_counter()`
and makes the fake box write `EV … PRESS seat` on the pty. The clock stops right after the audience screen's
`render` (draw and `Window.flip`) returns for the first frame whose snapshot has `answering == seat`; that frame's
drawing must hold the seat's answering band, else the bench stops. Then the host, as the OSC server would,
queues `/sg/undo` (takes back `/sg/reading/done` and the press: the question is being read again) and
`/sg/reading/done` (the window opens again), and the next seat presses. Every frame of the loop runs in full.
"""
from __future__ import annotations

import os
import random
import tempfile
import threading
import time

import pygame

from scoreboard.app.board import Board
from scoreboard.app.config import default_config
from scoreboard.app.loop import Loop
from scoreboard.app.start import open_session, start_links
from scoreboard.bench.figures import percentiles
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme
from scoreboard.engine.commands import make
from scoreboard.engine.phases import Phase
from scoreboard.links.serial.fake_box import FakeBox

TARGET_P99_MS = 20.0


class _PressTimer:
    """Wraps the audience screen's `render`: when a drawn frame shows the seat the trial waits for, the time right
    after the draw and flip returned is the end of the trial."""

    def __init__(self, screen):
        self.screen = screen
        self.inner = screen.render
        self.seat: int | None = None
        self.shown_at: float | None = None
        self.shown: list[dict] = []  # per trial: the seat pressed and what the frame that stopped the clock drew
        self.window_drawn = False    # the last drawn frame showed the open window with live buttons
        screen.render = self.render

    def render(self, snapshot, now, *args, **kwargs) -> bool:
        drew = self.inner(snapshot, now, *args, **kwargs)
        if drew:
            done = time.perf_counter()
            if self.seat is not None and self.shown_at is None and snapshot.get("answering") == self.seat:
                # the first frame drawn from a snapshot with this seat answering: the clock stops here; what it
                # drew is kept, and the bench stops if it did not show the seat's answering band
                log = self.screen.last_log
                self.shown_at = done
                self.shown.append({"seat": self.seat, "phase": snapshot.get("phase"),
                                   "answering": snapshot.get("answering"), "error": self.screen.error,
                                   "band": any(d.tag == f"answering:{self.seat}" for d in log),
                                   "name": " ".join(d.text for d in log if d.tag == "answering:name")})
            self.window_drawn = (snapshot.get("phase") == Phase.BUZZ_WINDOW and bool(snapshot.get("buttons_live"))
                                 and snapshot.get("answering") is None and self.screen.error is None)
        return drew


class _Player(threading.Thread):
    """Presses a seat on the fake box when asked, after a random delay; records the time just before the write."""

    def __init__(self, box, frame_s: float, seed: int = 3):
        super().__init__(name="bench-player", daemon=True)
        self.box, self.frame_s, self.rng = box, frame_s, random.Random(seed)
        self.wanted = threading.Event()
        self.seat = 0
        self.pressed_at: float | None = None
        self.running = True

    def ask(self, seat: int) -> None:
        self.seat, self.pressed_at = seat, None
        self.wanted.set()

    def run(self) -> None:
        while self.running:
            if not self.wanted.wait(0.05):
                continue
            self.wanted.clear()
            time.sleep(self.rng.uniform(0, 2 * self.frame_s))
            self.pressed_at = time.perf_counter()
            self.box.press(self.seat)


NAMES = ("Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Захар", "Ирина")


def player_name(seat: int) -> str:
    return NAMES[(seat - 1) % len(NAMES)]


def press_to_frame(trials: int, fps: int = 60, size=(1920, 1080), theme_name: str = "classic",
                   folder: str | None = None, trial_timeout: float = 2.0, pacing: str = "board",
                   ready_timeout: float = 5.0) -> dict:
    """Runs `trials` presses through the real board loop; returns the figures, the per-trial `samples` (seconds)
    and `shown` (what the frame that stopped each trial's clock drew). The journal and the box's pty link go into
    `folder` if given (kept), else a temp folder.

    `pacing="board"` is `Board.run`'s own loop, `board_loop.Loop` (what `scoreboard bench display` measures);
    `pacing="tick"` is the earlier fixed `Clock.tick(fps)` on one thread, kept for comparison: a press then waits for
    the next frame boundary.
    `trial_timeout` and `ready_timeout` (the box's first tight clock sample) bound a hang; tests on a loaded machine
    pass generous ones.

    pygame must be initialised on the dummy drivers (see `screens.use_dummy_drivers`)."""
    if pacing not in ("board", "tick"):
        raise ValueError(f"pacing must be 'board' or 'tick', got {pacing!r}")

    with tempfile.TemporaryDirectory() as scratch:
        temp = folder or scratch   # a given folder keeps the journal (tests read it back)
        config = default_config()
        config["board"].update(journal=os.path.join(temp, "game.sqlite"), fps=fps, sounds=True)
        config["screens"] = [{"role": "audience", "display": 0, "size": list(size), "fullscreen": False}]
        session, path, start = open_session(config["board"], out=lambda *_: None)
        seats = [p["seat"] for p in session.snapshot()["players"]]
        box = FakeBox(players=len(seats), link=os.path.join(temp, "box")).start()
        config["osc"].update(bind="127.0.0.1", port=0, passcode="bench", advertise=False)
        config["buttons"].update(port=box.url, mode="events")
        epoch = time.monotonic() - start
        theme = load_theme(theme_name)
        screen = Screen(ScreenSpec("audience", 0, tuple(size), False), theme)
        timer = _PressTimer(screen)
        messages: list[str] = []
        inbox, links = start_links(config, lambda: time.monotonic() - epoch, messages.append)
        if links is None or links.buttons is None:
            box.stop()
            session.close()
            raise RuntimeError(f"links did not start: {messages}")
        board = Board(config, session, epoch, [screen], theme, inbox, links, out=messages.append, journal_path=path)
        player = _Player(box, 1.0 / fps)
        tick = pygame.time.Clock()
        loop = Loop(board, 1.0 / fps) if pacing == "board" else None

        def turn():   # Board.run's turn (input on its thread, drawing here), or the old fixed pacing
            if loop is not None:
                loop.turn()
            else:
                board.frame()
                tick.tick(fps)

        def host(address, *args):   # what the OSC server does with a host's command: onto the inbox, stamped now
            inbox.put(make(board.now(), address, *args), "bench-host")

        samples: list[float] = []
        work: list[float] = []
        try:
            if loop is not None:
                loop.start()
            # The box said HELLO and a PONG with a tight round trip maps its clock (PROTOCOL.md §5). The fake box
            # is a thread of this process: while the board draws, its PONG can wait for the GIL, and a first
            # sample with a long round trip would map presses up to half of it too early — before the window
            # opened, so refused as "time goes backwards". A hardware box answers at once.
            deadline = time.monotonic() + ready_timeout
            while not ((status := links.status())["buttons_online"] and (status.get("box_rtt_ms") or 99) <= 2):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"fake box at {box.url}: no tight clock sample in {ready_timeout} s ({status})")
                turn()
            for address, *args in [*[("/sg/player/name", seat, player_name(seat)) for seat in seats],
                                   ("/sg/game/start",), ("/sg/chooser", seats[0]), ("/sg/select", 1, 1),
                                   ("/sg/reading/done",)]:
                host(address, *args)
            player.start()
            trial, waiting_since = 0, time.monotonic()
            while trial < trials:
                frame_start = time.perf_counter()
                turn()                                            # exactly Board.run's turn
                if timer.seat is None and timer.window_drawn:      # the players see the window open: press
                    timer.seat, timer.shown_at = seats[trial % len(seats)], None
                    player.ask(timer.seat)
                    waiting_since = time.monotonic()
                elif timer.seat is not None and timer.shown_at is not None and player.pressed_at is not None:
                    drawn = timer.shown[-1]
                    if drawn["error"] or not drawn["band"]:
                        raise RuntimeError(f"trial {trial + 1}: the frame of seat {timer.seat} answering did not "
                                           f"show it: {drawn}")
                    samples.append(timer.shown_at - player.pressed_at)
                    work.append(timer.shown_at - frame_start)    # the part spent in the frame that showed it
                    trial += 1
                    timer.seat, timer.window_drawn = None, False
                    host("/sg/undo")                               # back to reading: the press is taken back
                    host("/sg/reading/done")                       # and the window opens again
                    waiting_since = time.monotonic()
                if board.refused:   # a refused press or host command stops the bench with its reason
                    cmd, reason = board.refused[0]
                    raise RuntimeError(f"trial {trial + 1}: {cmd.address} {cmd.args} at {cmd.at:.4f} refused: {reason}")
                if time.monotonic() - waiting_since > trial_timeout:
                    snap = session.snapshot()
                    raise RuntimeError(f"trial {trial + 1}: no frame showed seat {timer.seat} answering within "
                                       f"{trial_timeout} s (phase {snap['phase']}, answering {snap['answering']}, "
                                       f"ignored {session.ignored[-1:]}, links {links.status()})")
            status = links.status()
        finally:
            player.running = False
            if player.is_alive():
                player.join(timeout=1)
            if loop is not None:
                loop.stop()
            board.run(frames=0)                                    # Board.run's shutdown: links, screens, journal
            box.stop()
    figures = percentiles(samples)
    frame = percentiles(work)
    figures.update(frame_median_ms=frame["median_ms"], frame_p99_ms=frame["p99_ms"])
    figures.update(ratio_p99_to_target=round(figures["p99_ms"] / TARGET_P99_MS, 3), target_p99_ms=TARGET_P99_MS,
                   fps=fps, pacing=pacing, size=f"{size[0]}x{size[1]}", presses_seen_by_links=status.get("presses"),
                   samples=samples, shown=timer.shown)
    return figures
