"""Starting `scoreboard run`: the journal (new, configured, or the newest unfinished one), the links, the screens on
the displays they are configured for (never another: a host screen on the projector shows the answers), then the
board loop (board.py, loop.py). Every refusal to start says why and leaves no game behind.
"""
from __future__ import annotations

import os
import time
from datetime import datetime
from pathlib import Path

import pygame

from scoreboard import DISTRIBUTION, version
from scoreboard.app import protocol_desk, setup_desk
from scoreboard.app.board import Board
from scoreboard.app.signals import EarlyStop, stop_signals
from scoreboard.app.status import OSC_RETRY
from scoreboard.app.watch_spawn import start_relay
from scoreboard.display.screens import Screen, ScreenSpec, displays, missing_message, place, window_display
from scoreboard.display.theme.load import load_theme
from scoreboard.engine.commands import make
from scoreboard.folders import journals_folder
from scoreboard.journal import JournalError
from scoreboard.links import Inbox, Links
from scoreboard.packs.pictures import DEFAULT_MAX_PIXELS, set_max_pixels
from scoreboard.session import Session, replay_snapshot
from scoreboard.tournament.board_link import opening
from scoreboard.tournament.errors import TournamentError


def unfinished_journal(folder: Path) -> Path | None:
    """The newest journal in `folder` whose game has not ended (what a kiosk restart should come back to)."""
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
    folder = Path(board.get("journal_dir") or journals_folder())
    if board.get("resume") and folder.is_dir():
        found = unfinished_journal(folder)
        if found is not None:
            return found, True
    stamp = datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    path, n = folder / f"{stamp}.sqlite", 1
    while path.exists():   # a second start within the same second (a quick restart) must not reopen the first's
        n += 1
        path = folder / f"{stamp}-{n}.sqlite"
    return path, False


def open_session(board: dict, out=print, tournament: dict | None = None):
    """A recovered session for an existing journal (it comes back paused), else a new game: the tournament's
    scheduled game when one is configured, else the config's regulation and stage."""
    path, exists = journal_path(board)
    if exists:
        session = Session.recover(path, live_seed=True)
        out(f"board: recovered {path} at rev {session.rev} (paused: unpause to go on)")
        if session.journal.host() is None:      # named when the game started, if it was: that host stays
            name_host(session, board, out)
        return session, path, session.time
    game = (tournament or {}).get("game")
    commands = board.get("setup_commands") or [("/sg/game/new", (board["regulation"], board["stage"]))]
    opened = None
    if game:     # from the file, or from the organiser's `tournament serve`; TournamentError stops the start
        commands, opened = opening(tournament, game, out)
    if not board.get("journal") and not board.get("resume") and path.parent.is_dir():
        left = unfinished_journal(path.parent)
        if left is not None:   # a restart after a crash or `kill` starts afresh: say where the last game is
            out(f"board: {left} holds an unfinished game; to come back to it, start with board.journal = "
                f"\"{left}\" (or board.resume = true, which takes the newest); `scoreboard resume {left}` shows it")
    path.parent.mkdir(parents=True, exist_ok=True)
    session = Session(path, live_seed=True)
    name_host(session, board, out)
    if opened:
        opened(path)                        # the outbox: where this journal's result goes, kept across restarts
    for address, args in commands:
        session.submit(make(0.0, address, *args))
    out(f"board: new game {' '.join(map(str, commands[0][1][:2]))}"
        f"{f' (tournament game {game})' if game else ''}, journal {path}")
    return session, path, 0.0


def name_host(session: Session, board: dict, out=print) -> None:
    """The game's host (board.host_name, `run --host`) into the journal for the protocol's header. A name that
    cannot be written is said and the game goes on without it (`scoreboard protocol --host` names it later)."""
    if not board.get("host_name"):
        return
    try:
        session.journal.name_host(board["host_name"])
    except JournalError as error:
        out(f"board: the host's name is not kept: {error}")


def start_links(config: dict, clock, out=print):
    """The links' inbox and the links started (the buttons, OSC, the phone page). A bad config or a taken port
    never stops the game: it is said, and what can run runs (a taken OSC port is retried: status.py)."""
    inbox = Inbox()
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
    setup_desk.attach(links, config, inbox, clock)
    return inbox, links


def screens_to_open(config: dict, out=print) -> list[dict] | None:
    """The configured screens whose display is there. A screen whose display is missing is never opened on
    another one (a host screen on the projector shows the answers): the start is refused, naming it and the
    displays there are — unless it is `optional`, then it is skipped with a warning. None: refused."""
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
    early = EarlyStop()
    with stop_signals(early):
        return _run(config, out, frames, early)


def _run(config: dict, out, frames: int | None, early: EarlyStop) -> int:
    os.environ.setdefault("SDL_VIDEO_ALLOW_SCREENSAVER", "0")   # a projector must never blank mid-game
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")        # SIGTERM/SIGINT are the board's (Board.stop)
    out(f"board: {DISTRIBUTION} {version()}")   # the logs say which version ran the show
    pygame.init()
    set_max_pixels((config.get("packs") or {}).get("max_picture_pixels", DEFAULT_MAX_PIXELS))
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
        if not isinstance(error, (TournamentError, JournalError)):
            raise
        out(f"run: {error}")
        for screen in screens:
            screen.close()
        pygame.quit()
        return 2
    if early.stopped:   # stopped while starting: nothing to run, the journal is closed as it is
        for screen in screens:
            screen.close()
        session.close()
        pygame.quit()
        return 0
    epoch = time.monotonic() - start
    inbox, links = start_links(config, lambda: time.monotonic() - epoch, out)
    protocol_desk.attach(links, path, config)       # `/sg/protocol`: the game's protocol for the host at game over
    board = early.board = Board(config, session, epoch, screens, theme, inbox, links, out=out, journal_path=path)
    board.running = not early.stopped
    relay = start_relay(config, out)    # the hall's phones and the overlay: a process of their own (issue 27)
    board.watch_link = relay.link if relay is not None else None
    try:
        return board.run(frames)
    finally:
        if relay is not None:
            relay.stop()
