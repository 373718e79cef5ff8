"""`scoreboard run`: the board — the session, the screens and the links' inbox.

A turn: handle window events (keys 1–9 as seats, Esc asks before quitting); take the input — drain the links' inbox
in time order, apply it as one journal batch (answering every item's `on_result` once it is durable), fire due
deadlines, publish a changed snapshot to the links; draw — each screen redraws only if what it shows changed.
`run` takes the input on its own thread so no command waits for a frame (loop.py); `frame` is one whole turn
on the calling thread. Engine time is `monotonic() - epoch`: 0 at the first command of a new journal, continuing
after the last event of a recovered one. Starting the board is start.py.
"""
from __future__ import annotations

import os
import threading
import time
from collections import deque

import pygame

from scoreboard.app.loop import Loop
from scoreboard.app.signals import stop_signals
from scoreboard.app.status import board_status, connect_hint
from scoreboard.app.tournament import TournamentScreens
from scoreboard.display.media.sounds import Sounds, cues
from scoreboard.display.render.canvas import Canvas
from scoreboard.display.screens import Screen
from scoreboard.display.theme.reload import ThemeWatcher
from scoreboard.engine.commands import Command
from scoreboard.journal import JournalError
from scoreboard.links.inbox import Holdback, Item
from scoreboard.links.keys import KeySeats
from scoreboard.session import submit_reporting
from scoreboard.tournament.board_link import game_over
from scoreboard.tournament.remote.client import resume_sender

# Host keys on the board's own keyboard (rehearsal, or when the remote is down).
HOST_KEYS = {pygame.K_SPACE: "/sg/next", pygame.K_F9: "/sg/pause", pygame.K_F10: "/sg/unpause"}
# A window whose picture the system may have thrown away: drawn again on the next frame.
EXPOSED = (pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED, pygame.WINDOWMAXIMIZED,
           pygame.WINDOWDISPLAYCHANGED)


MIN_FRAME_GAP = 0.002   # seconds: at most ~500 frames a second however fast commands come (`frame` loops)
STATUS_EVERY = 0.5      # seconds between looks at the links' and the journal's status


class Board:
    def __init__(self, config: dict, session, epoch: float, screens: list[Screen], theme, inbox=None, links=None,
                 clock=time.monotonic, out=print, journal_path=None):
        self.config, self.session, self.epoch, self.screens = config, session, epoch, screens
        self.journal_path = journal_path
        self.refused: deque = deque(maxlen=100)   # (command, reason) of the newest refused inbox commands
        self.theme, self.inbox, self.links, self.clock, self.out = theme, inbox, links, clock, out
        board = config["board"]
        self.sounds = Sounds(theme, board.get("sounds", True))
        self.keys = self._key_seats(config)
        self.watcher = ThemeWatcher(theme, board.get("theme")) if board.get("rehearsal") else None
        self.lock = threading.RLock()             # the session: the input thread, or a key pressed on this one
        self.published_rev = None
        self.published_seen = 0                   # the photo finish's presses (an ignored press keeps the rev)
        self.snapshot = session.snapshot()
        self.host_question: dict | None = None
        self._forced = self._drawn_forced = 0     # status changes to draw (the host's alarm), and those drawn
        self._drawn_rev = self._drawn_answering = None
        self.full_drawn_at = 0.0                  # perf_counter of the last redraw of a new state
        # a bench's worst case: every frame redrawn whole (`bench links --board`: "while it draws at 60 fps")
        self.draw_every_frame = os.environ.get("SCOREBOARD_DRAW_EVERY_FRAME") == "1"
        self.status: dict | None = None           # the links' status (badges, counters)
        self.host_status: dict | None = None      # the links' status plus the connect hint (host only)
        self.board_status: dict | None = None     # the snapshot's `status` key (docs/ENGINE_API.md)
        self.alerts: deque = deque(maxlen=3)      # internal errors, for the host's screen
        self.holdback = Holdback(getattr(links, "deadline_grace", 0.0), getattr(links, "phone_wait", None))
        self._local: list = []                     # the board's own keys, submitted with the inbox's items
        self.osc_tried_at = 0.0
        self._status_at = 0.0
        self.confirm_quit = False
        self.running = True
        self.tournament = self._tournament(config)
        self.result_sender = resume_sender(journal_path, config.get("tournament"), self.out)
        self.watch_link: dict | None = None       # the hall's phones' link, for the QR between games (issue 27)

    def now(self) -> float:
        return self.clock() - self.epoch

    @staticmethod
    def _key_seats(config):
        keys = dict((config.get("buttons") or {}).get("keys") or {})
        if not keys and config["board"].get("rehearsal"):
            keys = {str(seat): seat for seat in range(1, 10)}
        # a key is read at the next turn: its stamp may be one frame late (the photo finish shows it, BZ11)
        frame_ms = -int(-1000 // config["board"].get("fps", 60))
        return KeySeats(keys, (config.get("buttons") or {}).get("gamepad"), bound_ms=frame_ms)

    def _tournament(self, config):
        path = (config.get("tournament") or {}).get("file")
        return TournamentScreens(path, out=self.out) if path else None

    # --- one frame -------------------------------------------------------------------------------------------
    def submit(self, cmd, on_result=None) -> None:
        """A command of the board's own (its keys): through the inbox's turn when there is one, so it is
        ordered with the links' items and waits out the grace like a remote's command (none: at once)."""
        with self.lock:
            if self.inbox is None or not self.holdback.delay():
                submit_reporting(self.session, cmd, on_result)
            else:
                self._local.append(Item(cmd, "keys", on_result, -len(self._local) - 1))
        if self.inbox is not None:
            self.inbox.nudge()   # the input thread takes it now, not at its next timeout

    def stop(self, signum=None, frame=None) -> None:
        """SIGTERM / SIGINT (systemd stop, Ctrl-C), or the last window closed: this frame ends, the loop closes the
        journal and the process exits 0. Never the on-screen prompt, which is for the Esc key only."""
        self.running = False

    def handle(self, event) -> None:
        if event.type == pygame.QUIT:
            self.stop()
        elif event.type in (pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED):
            for screen in self.screens:
                screen.resized()
        elif event.type in EXPOSED:   # uncovered, restored, shown again: the window's pixels may be gone
            window = getattr(event, "window", None)
            for screen in self.screens:
                if window is None or screen.window is window or screen.id == getattr(window, "id", window):
                    screen.exposed()
        elif event.type == pygame.KEYDOWN and self.confirm_quit:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_y):
                self.running = False
            elif event.key == pygame.K_ESCAPE:
                self.confirm_quit = False
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.confirm_quit = self.config["board"].get("confirm_quit", True)
            self.running = self.confirm_quit
        elif event.type == pygame.KEYDOWN and event.key in HOST_KEYS:
            self.submit(Command(max(self.now(), self.session.time), HOST_KEYS[event.key]))
        elif self.keys is not None:
            cmd = self.keys.command_for(event, max(self.now(), self.session.time))
            if cmd is not None:
                self.submit(cmd)

    def frame(self) -> None:
        """One whole turn on this thread — window events, the input, the drawing — as tests, benches and a board
        without links run it. `run` splits it: the input on its own thread (loop.py), the rest here."""
        self.events()
        self.take_input()
        self.draw()

    def events(self) -> None:
        for event in pygame.event.get():
            self.handle(event)

    def take_input(self) -> bool:
        """Drain the inbox and apply it as one journal batch (every command answered once it is durable), fire due
        deadlines, publish a changed state. True when the picture changed."""
        with self.lock:
            now = self.now()
            if self.inbox is not None:
                local, self._local = self._local, []
                for item, ok, reason in self.inbox.deliver_all(self.session, self.holdback, now, local):
                    if not ok:   # a remote hears its refusal in the ack; a press has no one to tell but the operator
                        self.refused.append((item.cmd, reason))
                        if item.on_result is None:
                            self.out(f"board: {item.source} {item.cmd.address} {list(item.cmd.args)} refused: "
                                     f"{reason}")
            # deadlines fire a little late (the links' grace) so a press made just before the window closed, but
            # delivered by a buffering USB adapter after it, still counts by its own timestamp (BZ2, BZ3)
            try:
                self.session.advance(now - self.holdback.delay())
            except JournalError:
                pass    # the deadline is not done; the alarm is up (status.journal) and the next turn tries again
            notices = getattr(self.session, "notices", [])
            while notices:   # a loaded pack's warnings go to the operator's console, once
                notice = notices.pop(0)
                if "INTERNAL ERROR" in notice:
                    self.alerts.append(notice.removeprefix("board: "))
                self.out(notice)
            status_changed = self._watch()
            seen = getattr(self.session, "presses_seen", 0)
            if self.session.rev == self.published_rev and not status_changed and seen == self.published_seen:
                return False
            self.published_seen = seen
            before, snapshot = self.snapshot, self.session.snapshot()
            if self.board_status is not None:
                snapshot["status"] = self.board_status
            if snapshot["game_over"] and not before["game_over"] and self.session.rev != self.published_rev:
                self._record_result()
            self.published_rev = self.session.rev
            self.host_question = self.session.host_question()
            self.snapshot = snapshot
            self._forced += status_changed
            if self.links is not None:
                self.links.publish(snapshot, self.host_question)
            self.sounds.play(cues(before, snapshot))
            return True

    def draw(self) -> None:
        """Each screen draws the latest state if what it shows changed (the input thread may move on meanwhile)."""
        now, snapshot, host_question, forced = self.now(), self.snapshot, self.host_question, self._forced
        self.sounds.follow(snapshot, now)
        if self.watcher is not None and (theme := self.watcher.poll()) is not None:
            self.out(f"board: theme reloaded ({len(theme.problems)} problem(s))")
            for screen in self.screens:
                screen.set_theme(theme)
        overlay = self._quit_overlay if self.confirm_quit else None
        force = self.draw_every_frame or forced != self._drawn_forced
        if snapshot.get("rev") != self._drawn_rev or force:
            self.full_drawn_at = time.perf_counter()
        for screen in self.screens:
            status = self.host_status if screen.spec.role == "host" else self.status
            screen.render(snapshot, now, status, host_question, self.tournament, overlay, force=force)
        for screen in self.screens:   # after every flip: the frames are shown before their new tiles are kept
            screen.settle()
        self._drawn_rev, self._drawn_forced, self._drawn_answering = snapshot.get("rev"), forced, snapshot.get(
            "answering")

    def picture_changed(self) -> bool:
        """A new state or status is waiting to be drawn (a full redraw) — except a new answering player, which is
        drawn at once (the press → frame target; it happens at most a few times a question)."""
        snapshot = self.snapshot
        if snapshot.get("answering") is not None and snapshot.get("answering") != self._drawn_answering:
            return False
        return snapshot.get("rev") != self._drawn_rev or self._forced != self._drawn_forced

    def input_timeout(self, period: float) -> float:
        """How long the input thread may wait for the inbox: until the next status check, a held-back command or a
        deadline is due (an idle board's input thread sleeps; `period` bounds a clock that jumped)."""
        due = [max(period, STATUS_EVERY - (self.clock() - self._status_at))]
        held = self.holdback.next_due()
        if held is not None:
            due.append(held + self.holdback.delay() - self.now())
        deadline = self.session.next_deadline()
        if deadline is not None:
            due.append(deadline + self.holdback.delay() - self.now())
        return max(0.0, min(due))

    def _watch(self) -> bool:
        """Twice a second (status.py): True when the snapshot's `status` changed."""
        if self.clock() - self._status_at < STATUS_EVERY and self.board_status is not None:
            return False
        self._status_at = self.clock()
        status = board_status(self)
        if self.watch_link is not None and self.status is not None:   # the hall's screen shows it between games
            self.status = {**self.status, "watch": self.watch_link}
        if self.status is not None:   # the passcode goes to the host's screen only, never into what is published
            self.host_status = {**self.status, "connect": connect_hint(self.config, self.status)}
        if status == self.board_status:
            return False
        self.board_status = status
        return True

    def sleep_until(self, deadline: float, earliest: float = 0.0) -> None:
        """Sleep out the frame (an idle board costs almost no CPU), but wake as soon as a command arrives: a
        press is drawn at once instead of waiting up to a whole frame period. `earliest` keeps a flood of
        commands from spinning the loop."""
        left = deadline - time.perf_counter()
        if left > 0:
            if self.inbox is not None and hasattr(self.inbox, "wait"):
                self.inbox.wait(left)
            else:
                time.sleep(left)
        gap = earliest - time.perf_counter()
        if gap > 0:
            time.sleep(gap)

    def _record_result(self) -> None:
        """A scheduled tournament game ended: its result goes into the tournament file from the journal."""
        tournament = self.config.get("tournament") or {}
        if tournament.get("game") and self.journal_path:
            self.result_sender = game_over(tournament, self.journal_path, self.out) or self.result_sender

    def _quit_overlay(self, surface) -> None:
        canvas = Canvas(surface, self.screens[0].theme)
        canvas.dim(200)
        canvas.text(pygame.Rect(0, canvas.h // 3, canvas.w, canvas.h // 3), canvas.theme.text("quit_confirm"),
                    "title", canvas.theme.color("text"), tag="quit")

    def run(self, frames: int | None = None) -> int:
        """Turns until Esc-Enter, SIGTERM or SIGINT (or `frames` of them on this thread alone: a smoke test), then
        the links, the screens and the journal are closed."""
        period = 1.0 / self.config["board"].get("fps", 60)
        loop = Loop(self, period) if frames is None and self.inbox is not None else None
        with stop_signals(self.stop):
            if self.running:
                self.out("board: running (SIGTERM or Ctrl-C stops it; Esc asks)")
            try:
                if loop is not None:
                    loop.start()
                    while self.running:
                        loop.turn()
                while self.running and loop is None and (frames is None or frames > 0):
                    started = time.perf_counter()
                    self.frame()
                    self.sleep_until(started + period, started + MIN_FRAME_GAP)
                    frames = None if frames is None else frames - 1
            finally:
                if loop is not None:
                    loop.stop()
                if self.links is not None:
                    self.links.stop()
                if self.result_sender is not None:   # an unsent result stays pending in its outbox for the next start
                    self.result_sender.stop()
                for screen in self.screens:
                    screen.close()
                self.session.close()
        return 0
