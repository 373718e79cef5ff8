"""`scoreboard run`: the board loop — the only thread that touches the session and pygame.

Each frame: handle window events (keys 1–9 as seats, Esc asks before quitting), drain the links' inbox in time order
and submit each command (answering every item's `on_result`), fire due deadlines, publish a changed snapshot to the
links, and let each screen redraw only if what it shows changed. Engine time is `monotonic() - epoch`: 0 at the first
command of a new journal, continuing after the last event of a recovered one.
"""
from __future__ import annotations

import time
from collections import deque
from datetime import datetime
from pathlib import Path

import pygame

from scoreboard.display.board_status import OSC_RETRY, board_status
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.sounds import Sounds
from scoreboard.display.theme import load_theme
from scoreboard.journal import JournalError

# Host keys on the board's own keyboard (rehearsal, or when the remote is down).
HOST_KEYS = {pygame.K_SPACE: "/sg/next", pygame.K_F9: "/sg/pause", pygame.K_F10: "/sg/unpause"}
# A window whose picture the system may have thrown away: drawn again on the next frame.
EXPOSED = (pygame.WINDOWEXPOSED, pygame.WINDOWSHOWN, pygame.WINDOWRESTORED, pygame.WINDOWMAXIMIZED,
           pygame.WINDOWDISPLAYCHANGED)


def unfinished_journal(folder: Path) -> Path | None:
    """The newest journal in `folder` whose game has not ended (what a kiosk restart should come back to)."""
    from scoreboard.session import replay_snapshot
    for path in sorted(folder.glob("*.sqlite"), key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            if not replay_snapshot(path).get("game_over"):
                return path
        except Exception:  # an unreadable journal is not one to resume; `scoreboard resume` explains why
            continue
    return None


def journal_path(board: dict) -> tuple[Path, bool]:
    """(path, exists): the configured journal, the newest unfinished one (`resume`), or a new one under
    journal_dir named by the date and time."""
    if board.get("journal"):
        path = Path(board["journal"])
        return path, path.exists() and path.stat().st_size > 0
    folder = Path(board.get("journal_dir") or "games")
    if board.get("resume") and folder.is_dir():
        found = unfinished_journal(folder)
        if found is not None:
            return found, True
    stamp = datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    return Path(board.get("journal_dir") or "games") / f"{stamp}.sqlite", False


def open_session(board: dict, out=print, tournament: dict | None = None):
    """A recovered session for an existing journal (it comes back paused), else a new game: the tournament's
    scheduled game when one is configured, else the config's regulation and stage."""
    from scoreboard.engine.commands import make
    from scoreboard.session import Session
    path, exists = journal_path(board)
    if exists:
        session = Session.recover(path, live_seed=True)
        out(f"board: recovered {path} at rev {session.rev} (paused: unpause to go on)")
        return session, path, session.time
    game = (tournament or {}).get("game")
    commands = board.get("setup_commands") or [("/sg/game/new", (board["regulation"], board["stage"]))]
    opened = None
    if game:     # from the file, or from the organiser's `tournament serve`; TournamentError stops the start
        from scoreboard.tournament.board_link import opening
        commands, opened = opening(tournament, game, out)
    path.parent.mkdir(parents=True, exist_ok=True)
    session = Session(path, live_seed=True)
    if opened:
        opened(path)                        # the outbox: where this journal's result goes, kept across restarts
    for address, args in commands:
        session.submit(make(0.0, address, *args))
    out(f"board: new game {' '.join(map(str, commands[0][1][:2]))}"
        f"{f' (tournament game {game})' if game else ''}, journal {path}")
    return session, path, 0.0


def _links(config: dict, inbox_box: list, clock, out=print):
    """The links package's Inbox and Links, when it is installed; the board also runs without them."""
    try:
        from scoreboard.links import Inbox, Links
    except ImportError as error:
        out(f"board: links unavailable ({error}); keyboard seats only")
        return None, None
    inbox = Inbox()
    inbox_box.append(inbox)
    links_config = {k: config[k] for k in ("osc", "buttons", "remote_web") if k in config}
    try:
        links = Links(links_config, inbox, clock)
    except Exception as error:  # a bad config must not stop the game
        out(f"board: links failed to start: {error}")
        return inbox, None
    try:
        links.start()
    except OSError as error:
        # the OSC port is taken (another board?): the buttons start now, the board retries the port
        out(f"board: OSC failed to start ({error}); buttons only for now, retrying every {OSC_RETRY:g} s")
        links.osc_error = str(error)
        try:
            links.start_buttons()
        except Exception as second:
            out(f"board: buttons failed to start: {second}")
    except Exception as error:  # a bad box path must not stop the game
        out(f"board: links failed to start: {error}")
    _attach_setup(links, config, inbox, clock)
    return inbox, links


def _attach_setup(links, config: dict, inbox, clock) -> None:
    if getattr(links, "osc", None) is not None:   # the remote's set-up screens ask the board what it has
        from scoreboard.links.setup_desk import SetupDesk
        links.osc.setup = SetupDesk(config, inbox, clock)


MIN_FRAME_GAP = 0.002   # seconds: at most ~500 frames a second however fast commands come


class DigitSeats:
    """Keys standing in for seats when the links package is absent (the links' KeySeats also does gamepads)."""

    def __init__(self, keys: dict):
        self.keys = {name.lower(): seat for name, seat in keys.items()}

    def command_for(self, event, at: float):
        if event.type != pygame.KEYDOWN or getattr(event, "repeat", False):
            return None
        seat = self.keys.get(pygame.key.name(event.key).lower())
        if seat is None:
            return None
        from scoreboard.engine.commands import Command
        return Command(at, "/sg/button", (seat,))


class TournamentScreens:
    """`/sg/screen bracket|standings` views from the tournament file, re-read at most every `ttl` seconds (results
    arrive between games; the file stays closed in between so the tournament commands can write to it)."""

    def __init__(self, path: str, ttl: float = 5.0, clock=time.monotonic, out=print):
        self.path, self.ttl, self.clock, self.out = path, ttl, clock, out
        self._cache: dict[str, tuple[float, object]] = {}
        self._reported = False

    def __call__(self, scene: str):
        cached = self._cache.get(scene)
        if cached is not None and self.clock() - cached[0] < self.ttl:
            return cached[1]
        try:
            from scoreboard.tournament.views import load_screen
            view = load_screen(self.path, scene)
        except Exception as error:  # a missing or damaged file: the screen says "no tournament"
            if not self._reported:
                self.out(f"board: tournament {self.path}: {error}")
                self._reported = True
            view = None
        self._cache[scene] = (self.clock(), view)
        return view


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
        self.watcher = None
        if board.get("rehearsal"):
            from scoreboard.display.reload import ThemeWatcher
            self.watcher = ThemeWatcher(theme, board.get("theme"))
        self.published_rev = None
        self.snapshot = session.snapshot()
        self.status: dict | None = None           # the links' status (badges, counters)
        self.host_status: dict | None = None      # the links' status plus the connect hint (host only)
        self.board_status: dict | None = None     # the snapshot's `status` key (docs/ENGINE_API.md)
        self.alerts: deque = deque(maxlen=3)      # internal errors, for the host's screen
        from scoreboard.links.inbox import Holdback, Item
        self._item = Item
        self.holdback = Holdback(getattr(links, "deadline_grace", 0.0))
        self._local: list = []                     # the board's own keys, submitted with the inbox's items
        self.osc_tried_at = 0.0
        self._status_at = 0.0
        self.confirm_quit = False
        self.running = True
        self.tournament = self._tournament(config)
        from scoreboard.tournament.remote_client import resume_sender
        self.result_sender = resume_sender(journal_path, config.get("tournament"), self.out)

    def now(self) -> float:
        return self.clock() - self.epoch

    @staticmethod
    def _key_seats(config):
        keys = dict((config.get("buttons") or {}).get("keys") or {})
        if not keys and config["board"].get("rehearsal"):
            keys = {str(seat): seat for seat in range(1, 10)}
        try:
            from scoreboard.links.keys import KeySeats
        except ImportError:
            return DigitSeats(keys)
        return KeySeats(keys, (config.get("buttons") or {}).get("gamepad"))

    def _tournament(self, config):
        path = (config.get("tournament") or {}).get("file")
        return TournamentScreens(path, out=self.out) if path else None

    # --- one frame -------------------------------------------------------------------------------------------
    def submit(self, cmd, on_result=None) -> None:
        """A command of the board's own (its keys): through the inbox's turn when there is one, so it is
        ordered with the links' items and waits out the grace like a remote's command (none: at once)."""
        if self.inbox is None or not self.holdback.grace:
            from scoreboard.session import submit_reporting
            submit_reporting(self.session, cmd, on_result)
        else:
            self._local.append(self._item(cmd, "keys", on_result, -len(self._local) - 1))

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
            from scoreboard.engine.commands import Command
            self.submit(Command(max(self.now(), self.session.time), HOST_KEYS[event.key]))
        elif self.keys is not None:
            cmd = self.keys.command_for(event, max(self.now(), self.session.time))
            if cmd is not None:
                self.submit(cmd)

    def frame(self) -> None:
        for event in pygame.event.get():
            self.handle(event)
        now = self.now()
        if self.inbox is not None:
            local, self._local = self._local, []
            for item, ok, reason in self.inbox.deliver_all(self.session, self.holdback, now, local):
                if not ok:   # a remote hears its refusal in the ack; a press has no one to tell but the operator
                    self.refused.append((item.cmd, reason))
                    if item.on_result is None:
                        self.out(f"board: {item.source} {item.cmd.address} {list(item.cmd.args)} refused: {reason}")
        # deadlines fire a little late (the links' grace) so a press made just before the window closed, but
        # delivered by a buffering USB adapter after it, still counts by its own timestamp (BZ2, BZ3)
        try:
            self.session.advance(now - getattr(self.links, "deadline_grace", 0.0))
        except JournalError:
            pass    # the deadline is not done; the alarm is up (status.journal) and the next frame tries again
        notices = getattr(self.session, "notices", [])
        while notices:   # a loaded pack's warnings go to the operator's console, once
            notice = notices.pop(0)
            if "INTERNAL ERROR" in notice:
                self.alerts.append(notice.removeprefix("board: "))
            self.out(notice)
        status_changed = self._watch()
        if self.session.rev != self.published_rev or status_changed:
            before, self.snapshot = self.snapshot, self.session.snapshot()
            if self.board_status is not None:
                self.snapshot["status"] = self.board_status
            if self.snapshot["game_over"] and not before["game_over"] and self.session.rev != self.published_rev:
                self._record_result()
            self.published_rev = self.session.rev
            if self.links is not None:
                self.links.publish(self.snapshot, self.session.host_question())
            self.sounds.update(before, self.snapshot, now)
        else:
            self.sounds.update(None, self.snapshot, now)
        if self.watcher is not None and (theme := self.watcher.poll()) is not None:
            self.out(f"board: theme reloaded ({len(theme.problems)} problem(s))")
            for screen in self.screens:
                screen.set_theme(theme)
        overlay = self._quit_overlay if self.confirm_quit else None
        host_question = None
        for screen in self.screens:
            if screen.spec.role == "host" and host_question is None:
                host_question = self.session.host_question()
            status = self.host_status if screen.spec.role == "host" else self.status
            screen.render(self.snapshot, now, status, host_question, self.tournament, overlay,
                          force=status_changed)

    def _watch(self) -> bool:
        """Twice a second (board_status.py): True when the snapshot's `status` changed."""
        if self.clock() - self._status_at < 0.5 and self.board_status is not None:
            return False
        self._status_at = self.clock()
        status = board_status(self)
        if self.status is not None:   # the passcode goes to the host's screen only, never into what is published
            self.host_status = {**self.status, "connect": self._connect(self.status)}
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

    def _connect(self, status: dict) -> dict | None:
        """What the host types on the remote to connect: the board's address and the passcode (host screen only)."""
        osc = self.config.get("osc") or {}
        if not osc.get("enabled", True) or not status.get("osc_address"):
            return None
        from scoreboard.display.screens import reachable_address
        host, port = status["osc_address"][:2]
        urls = (status.get("remote_web") or {}).get("urls") or []
        return {"address": f"{reachable_address(host)}:{port}", "passcode": osc.get("passcode", ""),
                "web": urls[0] if urls else ""}

    def _record_result(self) -> None:
        """A scheduled tournament game ended: its result goes into the tournament file from the journal."""
        tournament = self.config.get("tournament") or {}
        if tournament.get("game") and self.journal_path:
            from scoreboard.tournament.board_link import game_over
            self.result_sender = game_over(tournament, self.journal_path, self.out) or self.result_sender

    def _quit_overlay(self, surface) -> None:
        from scoreboard.display.canvas import Canvas
        canvas = Canvas(surface, self.screens[0].theme)
        canvas.dim(200)
        canvas.text(pygame.Rect(0, canvas.h // 3, canvas.w, canvas.h // 3), canvas.theme.text("quit_confirm"),
                    "title", canvas.theme.color("text"), tag="quit")

    def run(self, frames: int | None = None) -> int:
        """Frames until Esc-Enter, SIGTERM or SIGINT (or `frames` of them: a smoke test)."""
        period = 1.0 / self.config["board"].get("fps", 60)
        import signal
        import threading
        previous = {}
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGTERM, signal.SIGINT):
                previous[signum] = signal.signal(signum, self.stop)
        if self.running:
            self.out("board: running (SIGTERM or Ctrl-C stops it; Esc asks)")
        try:
            while self.running and (frames is None or frames > 0):
                started = time.perf_counter()
                self.frame()
                self.sleep_until(started + period, started + MIN_FRAME_GAP)
                frames = None if frames is None else frames - 1
        finally:
            if self.links is not None:
                self.links.stop()
            if self.result_sender is not None:     # an unsent result stays pending in its outbox for the next start
                self.result_sender.stop()
            for screen in self.screens:
                screen.close()
            self.session.close()
            for signum, handler in previous.items():
                signal.signal(signum, handler)
        return 0


def screens_to_open(config: dict, out=print) -> list[dict] | None:
    """The configured screens whose display is there. A screen whose display is missing is never opened on
    another one (a host screen on the projector shows the answers): the start is refused, naming it and the
    displays there are — unless it is `optional`, then it is skipped with a warning. None: refused."""
    from scoreboard.display.screens import displays, missing_message, place
    found = displays()
    placements = place(config["screens"], found)
    for p in placements:
        if p.missing:
            out(f"run: {missing_message(p, found)}" + ("; optional: skipped" if p.optional else
                                                       "; the board does not start (fix the config or connect "
                                                       "the display; `scoreboard screens` lists them)"))
    if any(p.missing and not p.optional for p in placements):
        return None
    return [spec for p, spec in zip(placements, config["screens"]) if not p.missing]


def open_screens(specs: list[dict], theme, out=print) -> list[Screen] | None:
    """Open each window and check it landed on its display (SDL may put it elsewhere: see window_display); one
    that did not is closed at once, then refused like a missing display (or skipped, if optional). None: refused."""
    from scoreboard.display.screens import window_display
    screens = []
    for number, spec in enumerate(specs):
        screen = Screen(ScreenSpec(spec["role"], spec["display"], tuple(spec["size"]), spec["fullscreen"]), theme)
        landed = window_display(screen.window)
        if landed is not None and landed != spec["display"]:
            screen.close()
            out(f"run: the {spec['role']} screen for display {spec['display']} opened on display {landed} "
                f"instead (one X screen per display? use one X screen spanning the displays)"
                + ("; optional: skipped" if spec.get("optional") else "; the board does not start"))
            if spec.get("optional"):
                continue
            for other in screens:
                other.close()
            return None
        screens.append(screen)
        if spec["fullscreen"]:
            pygame.mouse.set_visible(False)
    return screens


def run(config: dict, out=print, frames: int | None = None) -> int:
    """Start the board; a SIGTERM/SIGINT that arrives while it starts is kept, and the loop then ends at once."""
    import signal
    import threading
    state: dict = {"stop": False, "board": None}

    def early_stop(signum, frame):
        state["stop"] = True
        if state["board"] is not None:
            state["board"].stop()
    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {signum: signal.signal(signum, early_stop) for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        return _run(config, out, frames, state)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _run(config: dict, out, frames: int | None, state: dict) -> int:
    import os
    os.environ.setdefault("SDL_VIDEO_ALLOW_SCREENSAVER", "0")   # a projector must never blank mid-game
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")        # SIGTERM/SIGINT are the board's (Board.stop)
    pygame.init()
    driver = pygame.display.get_driver()
    if driver in ("offscreen", "dummy") and os.environ.get("SDL_VIDEODRIVER") != driver:
        out(f"run: no usable display (SDL fell back to {driver!r}); check DISPLAY or use SDL_VIDEODRIVER=kmsdrm")
        pygame.quit()
        return 2
    specs = screens_to_open(config, out)
    if specs is None:
        pygame.quit()
        return 2
    board = config["board"]
    theme = load_theme(board.get("theme"))
    for problem in theme.problems:
        out(f"theme: {problem} (the default is used)")
    screens = open_screens(specs, theme, out)   # before the journal: a refused start leaves no game behind
    if screens is None:
        pygame.quit()
        return 2
    try:
        session, path, start = open_session(board, out, config.get("tournament"))
    except Exception as error:   # a tournament game that cannot be set up, a journal held by another board
        from scoreboard.tournament.errors import TournamentError
        if not isinstance(error, (TournamentError, JournalError)):
            raise
        out(f"run: {error}")
        for screen in screens:
            screen.close()
        pygame.quit()
        return 2
    if state["stop"]:   # stopped while starting: nothing to run, the journal is closed as it is
        for screen in screens:
            screen.close()
        session.close()
        pygame.quit()
        return 0
    epoch = time.monotonic() - start
    holder: list = []
    inbox, links = _links(config, holder, lambda: time.monotonic() - epoch, out)
    board = state["board"] = Board(config, session, epoch, screens, theme, inbox, links, out=out, journal_path=path)
    board.running = not state["stop"]
    return board.run(frames)
