"""`scoreboard follow BOARD:PORT --role audience`: a screen on another machine that draws the board's OSC state.

A follower connects as a `view` session (host screens connect as `host` to get the question text), and draws each
snapshot it receives. It has no engine clock of its own: when a new rev arrives, the board's clock was at the
snapshot's `time` a network hop ago, so `engine now ≈ local now + offset`, the offset kept from the freshest rev.
"""
from __future__ import annotations

import time

import pygame

from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.snapshot_check import check_snapshot


class ClockEstimate:
    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.offset: float | None = None
        self.rev = None

    def observe(self, snapshot: dict) -> None:
        if snapshot.get("rev") != self.rev and snapshot.get("time") is not None:
            self.rev = snapshot.get("rev")
            offset = float(snapshot["time"]) - self.clock()
            # Later events can only move the estimate forward (a re-sent old rev says nothing new).
            self.offset = offset if self.offset is None else max(self.offset, offset)

    def now(self) -> float:
        return self.clock() + (self.offset or 0.0)


class Follower:
    """Draws what an OSC client last received; `step()` once per frame. A snapshot that fails the check is refused
    (reported once) and the last good one stays on screen."""

    def __init__(self, client, screen: Screen, clock=time.monotonic, out=print):
        self.client, self.screen, self.out = client, screen, out
        self.clock = ClockEstimate(clock)
        self.rev = None
        self.good: dict | None = None
        self.refused: list[str] = []
        self._seen = None

    def step(self) -> bool:
        rev, snapshot = self.client.state
        if snapshot is not None and rev != self._seen:
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
        return self.screen.render(self.good, self.clock.now(), host_question=question)


def parse_target(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"expected BOARD:PORT (e.g. 192.168.1.20:9000), got {text!r}")
    return host, int(port)


def run(target: str, role: str, passcode: str, theme_name: str | None, size, fullscreen: bool, out=print) -> int:
    try:
        from scoreboard.links.osc_client import NotConnected, OscClient
    except ImportError as error:
        out(f"follow: the OSC client is not available in this build ({error})")
        return 2
    from scoreboard.display.theme import load_theme
    host, port = parse_target(target)
    client = OscClient(host, port, passcode, role="host" if role == "host" else "view")
    try:
        client.connect()
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
