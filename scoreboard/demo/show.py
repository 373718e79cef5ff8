"""`scoreboard demo`: a whole game with simulated players and the built-in pack, on the board's real path.

What runs is what `scoreboard run` runs: the `Board` loop (frame(), sleep_until pacing, screens, sounds, journal), the
real `Links` with the serial reader on a `FakeBox` pty in events mode (HELLO, PING/PONG clock mapping, ARM and lamps),
and the links' `Inbox`. The simulated players press the fake box's buttons, so each press reaches the engine stamped
with the box's own time; the simulated host's commands go on the inbox as the OSC server would put them. Where no pty
can be opened (not Linux), the players press through the inbox as keys do, and the demo says so.

The engine clock is a `DemoClock`: wall time × `--speed`, held at the next simulated move or deadline, so the story
is the same at any speed. Headless (no display, e.g. CI) it runs at 400× on SDL's dummy driver, prints the game's
progress and writes one PNG per scene to ./out/demo/ with the game's journal. With a display it opens a window and
plays in real time × `--speed`.

`play()` in demo_game.py is the engine-only driver (no board, no links, no clock): the scene tests use
it to get every snapshot of a game in a fraction of a second.
"""
from __future__ import annotations

import os
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from scoreboard.demo.simulated import DemoClock, Director, Step
from scoreboard.display.screens import Screen, ScreenSpec, headless, use_dummy_drivers

HEADLESS_SPEED = 400.0    # engine seconds per wall second without a display: a ~600 s game in a few seconds
HEADLESS_FPS = 500        # frames a second the headless loop asks Board.sleep_until for (the clock runs fast)
HOLD_AT_END = 8.0         # engine seconds the last picture (the chart) stays up


import pygame

from scoreboard.app.board import MIN_FRAME_GAP, Board
from scoreboard.app.config import default_config
from scoreboard.app.start import start_links
from scoreboard.demo.game import Narrator
from scoreboard.display.compose import scene_name
from scoreboard.display.theme.load import DEFAULT_THEME, load_theme
from scoreboard.engine.commands import Command, make
from scoreboard.links.serial.fake_box import FakeBox
from scoreboard.session import Session


# --- the demo on the board's real path -----------------------------------------------------------------------
class InboxTap:
    """Counts what the board drains from the links' inbox, by source (`serial` is the box, `demo-host` the host),
    and keeps every press with its stamp: the demo's proof that the presses came through the box."""

    def __init__(self, inbox):
        self.inner = inbox.drain
        self.sources: Counter = Counter()
        self.presses: list[tuple[str, float, int]] = []   # (source, engine time, seat)
        inbox.drain = self.drain

    def drain(self):
        items = self.inner()
        for item in items:
            self.sources[item.source] += 1
            if item.cmd.address == "/sg/button":
                self.presses.append((item.source, item.cmd.at, item.cmd.args[0]))
        return items


class FrameSaver:
    """Wraps the audience screen's `render`: one PNG per scene, taken a second (engine time) into it so fades have
    finished, or its last frame if it ends sooner. The clock stands still while a PNG is written."""

    def __init__(self, screen, out_dir: Path, clock: DemoClock):
        self.scene_name, self.screen, self.out_dir, self.clock = scene_name, screen, out_dir, clock
        self.inner = screen.render
        self.saved: list[Path] = []
        self.current: str | None = None
        self.since = 0.0
        self.copy = None        # the last frame of the scene waiting to be saved
        screen.render = self.render

    @property
    def pending(self) -> bool:
        return self.copy is not None

    def render(self, snapshot, now, *args, **kwargs) -> bool:
        drew = self.inner(snapshot, now, *args, **kwargs)
        name = self.scene_name(snapshot)
        if name != self.current:
            if self.copy is not None:
                self._save(self.copy, self.current)
            self.current, self.since, self.copy = name, now, None
            if any(p.stem.split("-", 1)[1] == name.replace(":", "-") for p in self.saved):
                return drew
            self.copy = self.screen.surface.copy()
        elif self.copy is not None and drew:
            if now - self.since >= 1.0:
                self._save(self.screen.surface, name)
            else:
                self.copy = self.screen.surface.copy()
        return drew

    def flush(self) -> None:
        if self.copy is not None:
            self._save(self.copy, self.current)

    def _save(self, surface, name: str) -> None:
        path = self.out_dir / f"{len(self.saved) + 1:02d}-{name.replace(':', '-')}.png"
        with self.clock.frozen():
            pygame.image.save(surface, str(path))
        self.saved.append(path)
        self.copy = None


class Conductor:
    """Between the board's frames: asks the director for the next move and makes it when its time comes — a press
    on the fake box (or, without a pty, a key press on the inbox), or a host command on the inbox — and holds the
    clock at that moment or at the next deadline, whichever comes first."""

    def __init__(self, board, director: Director, clock: DemoClock, box, narrator: Narrator, out=print,
                 patience: float = 3.0):
        self.board, self.director, self.clock, self.box = board, director, clock, box
        self.patience = patience      # wall seconds a box press may take to reach the board before the inbox is used
        self.narrator, self.out = narrator, out
        self.grace = getattr(board.links, "deadline_grace", 0.0)
        self.pending = list(director.opening())
        self.step: Step | None = None
        self.due = 0.0
        self.decided_rev: int | None = None
        self.waiting = False          # the director has no move: only a running clock changes the game
        self.flight: dict | None = None
        self.tap = InboxTap(board.inbox)
        self.box_presses = 0
        self.host_commands = 0
        self.ignored: list[str] = []
        self.ended_at: float | None = None
        self.made_at = 0.0
        # every move as made: [engine time, address, args, wall seconds a press was in flight (None: host)]
        self.moves: list[list] = []

    def tick(self) -> None:
        session = self.board.session
        rev = session.rev
        if self.flight is not None and not self._landed(rev):
            return
        if self.step is not None and rev != self.decided_rev and not self.pending:
            self.step = None          # a deadline changed the game before the move was due: decide again
        if self.step is None and (not self.waiting or rev != self.decided_rev):
            self.step = self.pending.pop(0) if self.pending else self.director.decide(session.snapshot())
            self.decided_rev, self.waiting = rev, self.step is None
            # from the previous move's own moment, not its press's stamp: a box press is stamped back by the
            # pty's real latency, which a loaded machine stretches, and would shift every later move with it
            self.due = max(session.time, self.made_at) + (self.step.delay if self.step else 0.0)
        deadline = session.next_deadline()
        limits = [deadline + self.grace + 1e-6] if deadline is not None else []
        if self.step is not None and (deadline is None or self.due < deadline):
            limits.append(self.due)
            if self.clock() >= self.due:
                self._make(self.step)
                self.step = None
                if self.flight is not None and (self.flight["kind"] == "host" or self.box is None):
                    # a host command (and a key press) waits out the links' grace before the board applies it
                    limits[-1] = self.made_at + self.grace + 1e-6
        self.clock.hold_at(min(limits) if limits else None)
        if self.step is None and self.waiting and deadline is None and self.flight is None and self.ended_at is None \
                and session.snapshot().get("game_over"):
            self.ended_at = self.clock()

    def _landed(self, rev: int) -> bool:
        """Whether the move in flight has been dealt with (applied, refused or ignored)."""
        flight = self.flight
        if "move" in flight:          # an upper bound on the press's real latency: made to dealt with, wall time
            flight["move"][3] = time.monotonic() - flight["pressed"]
        if rev != flight["rev"]:
            self.flight = None
            return True
        if flight["kind"] == "press":
            settled = len(self.tap.presses) >= flight["count"]
            if not settled and time.monotonic() - flight["wall"] > self.patience:
                self.out(f"demo: the fake box's press did not reach the board in {self.patience:g} s; "
                         f"pressing through the inbox")
                self._press_on_inbox(flight["seat"])
                flight["wall"] = time.monotonic()
            reason = "ignored by the engine"
        else:
            settled = flight["result"] is not None
            reason = (flight["result"] or (True, None))[1] or "ignored by the engine"
        if not settled:
            return False
        self.ignored.append(f"{flight['what']}: {reason}")
        self.flight, self.waiting, self.decided_rev = None, True, rev   # wait for a clock to change the game
        return True

    def _make(self, step: Step) -> None:
        # at its due time, even if the clock ran past it while the previous command waited out the grace
        at = self.made_at = max(self.due, self.board.session.time)
        self.narrator.step(at, step)
        rev = self.board.session.rev
        move = [at, step.address, tuple(step.args), None]
        self.moves.append(move)
        if step.address == "/sg/button":
            seat = step.args[0]
            pressed = time.monotonic()
            if self.box is not None:
                self.box.press(seat)            # EV seq t_us PRESS seat, stamped by the box's own clock
                self.box_presses += 1
            else:
                self._press_on_inbox(seat)
            self.flight = {"kind": "press", "rev": rev, "count": len(self.tap.presses) + 1, "seat": seat,
                           "wall": time.monotonic(), "what": f"press of seat {seat} at {at:.2f}",
                           "move": move, "pressed": pressed}
            return
        flight = {"kind": "host", "rev": rev, "result": None, "what": f"{step.address} {step.args} at {at:.2f}"}

        def on_result(ok, reason):
            flight["result"] = (ok, reason)
            if not ok:
                self.out(f"demo: the board refused the host's {step.address}: {reason}")
        self.board.inbox.put(make(at, step.address, *step.args, data=step.data), "demo-host", on_result)
        self.host_commands += 1
        self.flight = flight

    def _press_on_inbox(self, seat: int) -> None:
        self.board.inbox.put(Command(self.clock(), "/sg/button", (seat,)), "keys")


@dataclass
class DemoResult:
    final: dict
    journal: Path
    box_url: str | None                 # None: no fake box here, presses went through the inbox as keys
    box_presses: int                    # presses the players made on the fake box
    links_presses: int                  # presses the links' serial reader counted
    drained: dict                       # inbox items the board took, by source
    presses: list                       # (source, engine time, seat) of every press the board took
    box_heard: list[str]                # every line the board sent to the box (ARM, LED, PING…)
    frames: list[Path] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    wall: float = 0.0
    status: dict = field(default_factory=dict)
    moves: list = field(default_factory=list)     # Conductor.moves: the story as played


def _open_box(players: int, folder: str, out):
    """A fake box on a pty, else on a loopback TCP port (Windows has no ptys), or None with the reason printed."""
    try:
        return FakeBox(players=players, name="demo-box", link=os.path.join(folder, "box")).start()
    except (AttributeError, OSError) as error:   # no os.openpty (Windows), no free pty
        reason = f"{type(error).__name__}: {error}"
    try:
        return FakeBox(players=players, name="demo-box", tcp_port=0).start()
    except OSError as error:
        out(f"demo: no fake button box here ({reason}; TCP: {error}); "
            f"the players press through the board's inbox as keys instead")
        return None


def play_on_board(regulation: str, stage: str | None, speed: float, screen: Screen, theme, folder: Path,
                  out=print, out_dir: Path | None = None, fps: int = 60, max_wall: float = 300.0,
                  max_frames: int | None = None, watch=None, patience: float = 3.0) -> DemoResult:
    """The whole demo game through the real board loop, links and a fake box; frames to `out_dir` if given,
    `watch(snapshot)` after every frame. pygame must be initialised. The journal is `folder/demo.sqlite` (replaced).
    `patience`: wall seconds a box press may take (the box gets 2 s more to come online) before the players press
    through the inbox instead; tests on a loaded machine give more."""
    director, narrator = Director(regulation, stage), Narrator(out)
    journal = folder / "demo.sqlite"
    for stale in (journal, Path(f"{journal}-wal"), Path(f"{journal}-shm")):
        stale.unlink(missing_ok=True)
    config = default_config()
    config["board"].update(journal=str(journal), fps=fps, sounds=True, confirm_quit=False, regulation=regulation,
                           stage=director.stage)
    config["screens"] = [{"role": screen.spec.role, "display": 0, "size": list(screen.spec.size),
                          "fullscreen": screen.spec.fullscreen}]
    config["osc"].update(enabled=False, advertise=False)   # the host is simulated: its commands go on the inbox
    box = _open_box(director.players, str(folder), out)
    config["buttons"].update(port=box.url if box else "", mode="events")
    clock = DemoClock(speed)
    messages: list[str] = []
    inbox, links = start_links(config, clock, messages.append)
    for message in messages:
        out(message)
    session = Session(journal)
    board = Board(config, session, 0.0, [screen], theme, inbox, links, clock=clock, out=out, journal_path=journal)
    inner_handle = board.handle

    def handle(event) -> None:   # closing the demo's window ends it (a real board asks first)
        if event.type == pygame.QUIT:
            board.running = False
        else:
            inner_handle(event)
    board.handle = handle
    saver = FrameSaver(screen, out_dir, clock) if out_dir is not None else None
    started = time.monotonic()
    try:
        if box is not None and not _box_online(board, links, clock, patience + 2.0):
            out(f"demo: the fake box on {box.url} did not come online in {patience + 2.0:g} s; "
                f"the players press through the inbox")
            box.stop()
            box = None
        conductor = Conductor(board, director, clock, box, narrator, out, patience)
        period = 1.0 / fps
        while board.running:
            frame_start = time.perf_counter()
            board.frame()
            narrator.snapshot(board.now(), board.snapshot)
            if watch is not None:
                watch(board.snapshot)
            conductor.tick()
            if conductor.ended_at is not None and board.now() - conductor.ended_at >= HOLD_AT_END:
                break
            if time.monotonic() - started > max_wall:
                raise RuntimeError(f"the demo game did not end in {max_wall:.0f} s (phase {board.snapshot['phase']})")
            if max_frames is not None:
                max_frames -= 1
                if max_frames <= 0:
                    break
            board.sleep_until(frame_start + period, frame_start + MIN_FRAME_GAP)
        if saver is not None:
            saver.flush()
        status = links.status() if links is not None else {}
        final = session.snapshot()
    finally:
        board.run(frames=0)               # Board.run's shutdown: links, screens, journal
        if box is not None:
            box.stop()
    return DemoResult(final, journal, box.url if box else None, conductor.box_presses, status.get("presses", 0),
                      dict(conductor.tap.sources), list(conductor.tap.presses), list(box.received) if box else [],
                      saver.saved if saver else [], conductor.ignored, time.monotonic() - started, status,
                      conductor.moves)


def _box_online(board, links, clock, wait: float = 5.0) -> bool:
    """Frames until the box said HELLO and answered a PING (its clock is mapped), at most `wait` s; the clock waits."""
    deadline = time.monotonic() + wait
    clock.hold_at(0.0)
    while time.monotonic() < deadline:
        status = links.status() if links is not None else {}
        if status.get("buttons_online") and status.get("pongs", 0) >= 1:
            return True
        board.frame()
        time.sleep(0.005)
    return False


def _summary(result: DemoResult, out) -> None:
    final = result.final
    arms = sum(1 for line in result.box_heard if line == "ARM")
    lamps = sum(1 for line in result.box_heard if line.startswith("LED") and line.endswith(" on"))
    via = (f"{result.box_presses} presses through the fake box on {result.box_url} (the links' serial reader "
           f"counted {result.links_presses}; the board took {result.drained.get('serial', 0)} from it), "
           f"the box was armed {arms} times and lit {lamps} answering lamps" if result.box_url else
           f"{result.drained.get('keys', 0)} presses through the inbox as keys (no fake box)")
    out(f"demo: {via}; {result.drained.get('demo-host', 0)} host commands through the inbox")
    if result.ignored:
        out(f"demo: {len(result.ignored)} move(s) changed nothing: {'; '.join(result.ignored[:3])}")
    out(f"demo: game over after {final['time']:.0f} engine seconds, {final['rev']} events, "
        f"{len(result.frames)} frames written, journal {result.journal}, {result.wall:.1f} s wall time")


def run_headless(regulation: str, stage: str | None, out_dir: Path, size=(1280, 720), theme_name: str | None = None,
                 out=print, speed: float | None = None) -> int:
    use_dummy_drivers()
    pygame.init()
    theme = load_theme(theme_name or DEFAULT_THEME)
    for problem in theme.problems:
        out(f"theme: {problem}")
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("[0-9][0-9]-*.png"):
        old.unlink()
    speed = speed or HEADLESS_SPEED
    director = Director(regulation, stage)
    out(f"demo: {regulation} {director.stage}, {director.players} players, headless (no display) at {speed:g}×: "
        f"the board's loop, links and a fake button box; frames in {out_dir}/")
    screen = Screen(ScreenSpec("audience", size=size), theme, window=False)
    result = play_on_board(regulation, stage, speed, screen, theme, out_dir, out, out_dir, fps=HEADLESS_FPS)
    _summary(result, out)
    return 0 if result.final.get("game_over") else 1


def run_windowed(regulation: str, stage: str | None, speed: float, size=(1280, 720), fullscreen: bool = False,
                 theme_name: str | None = None, out=print, max_frames: int | None = None, fps: int = 60) -> int:
    """Real time × `speed` in a window; Esc or closing the window ends it. The journal goes to a temp folder."""
    pygame.init()
    theme = load_theme(theme_name or DEFAULT_THEME)
    screen = Screen(ScreenSpec("audience", size=size, fullscreen=fullscreen, title="Своя игра — демо"), theme)
    pygame.mouse.set_visible(not fullscreen)
    with tempfile.TemporaryDirectory(prefix="scoreboard-demo-") as folder:
        result = play_on_board(regulation, stage, speed, screen, theme, Path(folder), out, None, fps=fps,
                               max_wall=float("inf"), max_frames=max_frames)
        _summary(result, out)
    return 0 if result.final.get("game_over") else 1


def run(regulation: str, stage: str | None, speed: float | None, windowed: bool, out_dir: Path, theme_name=None,
        size=(1280, 720)) -> int:
    """`speed` None: real time in a window, HEADLESS_SPEED without a display."""
    if headless():
        return run_headless(regulation, stage, out_dir, size, theme_name, speed=speed)
    pygame.display.init()
    if pygame.display.get_driver() in ("offscreen", "dummy"):
        # SDL found no usable display (e.g. DISPLAY names a dead X server) and fell back to drawing nowhere.
        print(f"demo: no usable display (SDL chose {pygame.display.get_driver()!r}); running headless instead")
        pygame.quit()
        return run_headless(regulation, stage, out_dir, size, theme_name, speed=speed)
    try:
        return run_windowed(regulation, stage, speed or 1.0, size, fullscreen=not windowed, theme_name=theme_name)
    except pygame.error as error:   # DISPLAY set but unusable (a dead ssh -X, no permission on the console)
        print(f"demo: cannot open a window ({error}); running headless instead")
        pygame.quit()
        return run_headless(regulation, stage, out_dir, size, theme_name, speed=speed)
