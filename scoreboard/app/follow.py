"""`scoreboard follow BOARD:PORT --role audience`: a screen on another machine that draws the board's OSC state.

A follower connects as a `view` session (host screens connect as `host` to get the question text), and draws each
snapshot it receives. It has no engine clock of its own: when a new rev arrives, the board's clock was at the
snapshot's `time` a network hop ago, so `engine now ≈ local now + offset`, the offset kept from the freshest rev.
It re-syncs on every new state: the offset can move back (a restarted board continues from its journal's last
event, behind where the follower's clock had run on). When no state has come for `SILENT_AFTER` seconds (the board
re-sends once a second) the screen says «нет связи» over the last picture, and draws the board's state again as
soon as one arrives.
"""
from __future__ import annotations

import time

import pygame

from scoreboard.display.render.canvas import Canvas
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme
from scoreboard.links.osc.client import NotConnected, OscClient
from scoreboard.snapshot_check import check_snapshot

SILENT_AFTER = 3.5     # seconds without a state before the screen says «нет связи» (the board re-sends every 1 s)
RESYNC = 0.25          # a new rev putting the board's clock this much behind the estimate is believed


class ClockEstimate:
    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.offset: float | None = None
        self.rev = None

    def observe(self, snapshot: dict) -> None:
        if snapshot.get("rev") != self.rev and snapshot.get("time") is not None:
            self.rev = snapshot.get("rev")
            offset = float(snapshot["time"]) - self.clock()
            # A new rev re-syncs: forward always; back when it is clearly behind (a restarted board), not for
            # the few milliseconds a state spends on the way (a re-sent old rev says nothing new at all).
            if self.offset is None or offset > self.offset or offset < self.offset - RESYNC:
                self.offset = offset

    def now(self) -> float:
        return self.clock() + (self.offset or 0.0)


class Follower:
    """Draws what an OSC client last received; `step()` once per frame. A snapshot that fails the check is refused
    (reported once) and the last good one stays on screen."""

    def __init__(self, client, screen: Screen, clock=time.monotonic, out=print):
        self.client, self.screen, self.out = client, screen, out
        self.local = clock
        self.clock = ClockEstimate(clock)
        self._heard_state = None        # the client's last (rev, snapshot) pair: a new one means the board spoke
        self.heard_at = clock()
        self.silent = False
        self.overlay_log: list = []     # what the «нет связи» overlay drew last (for tests and diagnostics)
        self._no_link = lambda surface: setattr(self, "overlay_log", _no_link(surface, self.screen.theme))
        self.rev = None
        self.good: dict | None = None
        self.refused: list[str] = []
        self._seen = None
        self._seen_snapshot = None

    def step(self) -> bool:
        state = self.client.latest
        rev, snapshot = state
        if state is not self._heard_state:      # every received /sg/state replaces the pair, re-sends too
            self._heard_state, self.heard_at = state, self.local()
        self.silent = self.local() - self.heard_at > SILENT_AFTER
        if snapshot is not None and (rev != self._seen or snapshot is not self._seen_snapshot):
            self._seen_snapshot = snapshot
            self._seen = rev
            problems = check_snapshot(snapshot)
            if problems:
                self.refused = problems
                self.out(f"follow: state rev {rev} refused: {'; '.join(problems[:3])}")
            else:
                self.good, self.rev = snapshot, rev
                self.clock.observe(snapshot)
        if self.good is None:
            return False
        question = self.client.question if isinstance(self.client.question, dict) else None
        overlay = self._no_link if self.silent else None
        drew = self.screen.render(self.good, self.clock.now(), host_question=question, overlay=overlay)
        self.screen.settle()   # after the flip, as the board does
        return drew


def _no_link(surface, theme) -> list:
    """«нет связи» over the last picture: the board has gone quiet (its clocks here would be guesses)."""
    canvas = Canvas(surface, theme, record=True)
    canvas.dim(170)
    canvas.text(pygame.Rect(0, canvas.h // 3, canvas.w, canvas.h // 3), "нет связи", "title",
                canvas.theme.color("wrong"), tag="follow:no_link")
    return canvas.log


def parse_target(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"expected BOARD:PORT (e.g. 192.168.1.20:9000), got {text!r}")
    return host, int(port)


def run(target: str, role: str, passcode: str, theme_name: str | None, size, fullscreen: bool, out=print) -> int:
    host, port = parse_target(target)
    client = OscClient(host, port, passcode, role="host" if role == "host" else "view")
    try:
        client.connect(timeout=3.0)
    except NotConnected as error:
        out(f"follow: {host}:{port}: {error}")
        client.close()
        return 1
    pygame.init()
    theme = load_theme(theme_name)
    screen = Screen(ScreenSpec(role, 0, size, fullscreen, f"Своя игра — {role} ({target})"), theme)
    pygame.mouse.set_visible(not fullscreen)
    follower, tick = Follower(client, screen), pygame.time.Clock()
    try:
        while True:
            for event in pygame.event.get():
                if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                    return 0
                if event.type in (pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED):
                    screen.resized()
            follower.step()
            tick.tick(30)
    finally:
        screen.close()
        client.close()
