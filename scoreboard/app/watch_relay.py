"""`scoreboard watch-relay`: the hall's phones and the stream's overlay, served by a process of their own.

Theory of operation. The relay follows the board as ONE `view` session (the project's OSC client over UDP, signed:
a forged state is dropped) — the board's drawing process sends it what it sends any extra screen and never learns
how many phones watch. Each new state is cut to the hall's view (links/watch/hall_view.py), given the URL of the
picture the hall's screens show (links/watch/pictures.py: minted then, never before), numbered (`seq`: the
relay's own order, which the pages apply and never go back on), encoded once and handed to the fan-out
(links/watch/server.py), which gives every viewer the latest of it. Once a second a `tick` carries the engine's
clock (for the pages' timers) and whether the board is heard; every few seconds the tournament's bracket and
standings are read from `[tournament] file` (in words: labels.py) and sent when they changed.

`scoreboard run` starts it when `[watch] enabled` (watch_spawn.py: the board's key and the view key come on its
stdin, never on its command line); run by hand beside a board (or on another machine) it reads the same config and
needs `[osc] view_passcode` or `[osc] key`, and `[watch] key` for the QR the board shows to be its own.
"""
from __future__ import annotations

import json
import os
import queue
import sys
import time

from scoreboard.app.follow import ClockEstimate
from scoreboard.app.tournament import TournamentScreens
from scoreboard.display.theme.load import load_theme
from scoreboard.labels import column_name, say, stage_name, text_for
from scoreboard.links.osc.client import OscClient
from scoreboard.links.watch.config import new_view_key, resolve
from scoreboard.links.watch.hall_view import hall_view
from scoreboard.links.watch.server import WatchServer
from scoreboard.packs.pictures import DEFAULT_MAX_PIXELS, set_max_pixels

TICK = 1.0              # seconds between ticks (the pages' clock and «нет связи»)
TOURNAMENT_EVERY = 5.0  # seconds between looks at the tournament file
SAY_EVERY = 60.0        # seconds between the relay's status lines in the board's log (when something changed)
NICE = 10               # the relay's priority below the board's where SCHED_IDLE is not there (Unix `nice`)
COLOR_KEYS = ("background", "panel", "cell", "cell_played", "cell_text", "text", "muted", "accent", "accent_text",
              "right", "wrong", "locked", "timer", "timer_low")


def theme_css(theme) -> tuple[str, dict]:
    """The board's theme as CSS variables (`--sg-accent: #ffd23f`, `--sg-player-1`…) and its font files."""
    def hexed(rgb) -> str:
        return "#%02x%02x%02x" % tuple(rgb)
    lines = [f"  --sg-{key.replace('_', '-')}: {hexed(theme.color(key))};" for key in COLOR_KEYS]
    lines += [f"  --sg-player-{i}: {hexed(c)};" for i, c in enumerate(theme.values["colors"]["players"], 1)]
    fonts = {name: theme.font(name) for name in ("main", "text") if theme.font(name)}
    faces = "".join(f"@font-face {{ font-family: 'sg-{name}'; src: url('/fonts/{name}'); font-display: swap; }}\n"
                    for name in fonts)
    return f"{faces}:root {{\n" + "\n".join(lines) + "\n}\n", fonts


def in_words(view, text=None):
    """A tournament view (data: labels, column codes, stage ids) with its words said, for a page with no catalogue."""
    text = text or text_for("ru")
    if isinstance(view, dict) and isinstance(view.get("key"), str):
        return say(view, text)
    if isinstance(view, dict):
        out = {}
        for key, value in view.items():
            if key == "columns" and isinstance(value, list) and all(isinstance(c, str) for c in value):
                out[key] = [column_name(c, text) for c in value]
            elif key == "title" and isinstance(value, str):
                out[key] = stage_name(value, text)
            else:
                out[key] = in_words(value, text)
        return out
    if isinstance(view, list):
        return [in_words(item, text) for item in view]
    return view


class Relay:
    """The board followed, the fan-out fed. `step(wait)` is one turn (tests drive it); `run()` turns until stopped."""

    def __init__(self, client, server: WatchServer, tournament=None, clock=time.monotonic, out=print):
        self.client, self.server, self.tournament, self.clock, self.out = client, server, tournament, clock, out
        self._said_at, self._said = clock(), None
        self.estimate = ClockEstimate(clock)
        self.seq = 0
        self.sent_revs: list[int] = []          # (bounded) what went out, for the log and the tests
        self._last_rev = None
        self._tick_at = self._tournament_at = -1e9
        self._tournament_sent = None
        self.running = True

    def step(self, wait: float = 0.2) -> None:
        """Every new state the client heard since the last step, in order (none skipped: a fast viewer gets each
        one), then the latest it holds (should its event queue have overflowed), then a tick when due."""
        heard = []
        try:
            heard.append(self.client.events.get(timeout=wait))
            while True:
                heard.append(self.client.events.get_nowait())
        except queue.Empty:
            pass
        for event in heard:
            if event.kind == "state" and isinstance(event.value, dict):
                self._publish(event.extra, event.value)
        rev, snapshot = self.client.latest
        if snapshot is not None:
            self._publish(rev, snapshot)
        now = self.clock()
        if now - self._tick_at >= TICK:
            self._tick_at = now
            self.server.publish("tick", {"now": self.estimate.now(), "seq": self.seq,
                                         "link": "ok" if self.client.connected else "lost"})
        if now - self._said_at >= SAY_EVERY:
            self._said_at = now
            status = self.server.status()
            line = (f"watch-relay: {status['viewers']} viewers, {self.seq} states sent, {status['timed_out']} slow "
                    f"ones closed, refused {status['refused']}")
            if line != self._said:               # the log says what changed, once a minute at most
                self._said = line
                self.out(line)
        if self.tournament is not None and now - self._tournament_at >= TOURNAMENT_EVERY:
            self._tournament_at = now
            views = {}
            for scene in ("bracket", "standings"):
                found = self.tournament(scene)
                if found is not None:
                    kind, view = found
                    said = {"kind": kind, **in_words(view)}
                    if said not in views.values():    # a knockout's standings are its bracket: shown once
                        views[scene] = said
            if views != self._tournament_sent:
                self._tournament_sent = views
                self.server.publish("tournament", {"views": views})

    def _publish(self, rev, snapshot: dict) -> None:
        # the board re-sends its state once a second (the same rev): once is enough. The client hands states over
        # in the order it took them (never an older one of a session); a lower rev is a board started again.
        if rev == self._last_rev:
            return
        self._last_rev = rev
        self.estimate.observe(snapshot)
        self.seq += 1
        self.sent_revs = (self.sent_revs + [rev])[-1000:]
        view = hall_view(snapshot)
        self.server.pictures.show(snapshot, view)   # the picture the hall's screens show, under its URL
        self.server.publish("state", {"seq": self.seq, "rev": rev, "now": self.estimate.now(), "state": view})

    def run(self, parent: int | None = None) -> None:
        while self.running:
            self.step()
            if parent is not None and os.getppid() != parent:   # the board that started us is gone
                return


def yield_to_the_board() -> str:
    """Beside the board on its machine, the relay runs only when the board does not want the core: Linux's
    SCHED_IDLE (a woken board preempts it at once; measured by `bench watch`), else `nice` 10. Returns which."""
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            return "SCHED_IDLE"
        except OSError:
            pass
    if hasattr(os, "nice"):
        os.nice(NICE)
        return f"nice {NICE}"
    return "normal"


def credentials(config: dict, spawned: dict | None) -> tuple[str, str | None, str]:
    """(passcode, board key or None, view key) for the relay: from the board that started it, or from the config."""
    if spawned:
        return "", spawned["board_key"], spawned["view_key"]
    osc, watch = config["osc"], resolve(config.get("watch"))
    view_key = watch["key"] or new_view_key()
    if osc.get("view_passcode"):
        return osc["view_passcode"], None, view_key
    if osc.get("key"):
        return "", osc["key"], view_key
    raise ValueError("watch-relay: needs [osc] view_passcode or [osc] key in the config to follow the board "
                     "(a key the board draws per run is its own: let `scoreboard run` start the relay with "
                     "[watch] enabled = true)")


def board_target(config: dict, given: str | None) -> tuple[str, int]:
    if given:
        host, _, port = given.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"watch-relay: --board expects HOST:PORT, got {given!r}")
        return host, int(port)
    osc = config["osc"]
    bind = osc.get("bind") or "127.0.0.1"
    return ("127.0.0.1" if bind in ("0.0.0.0", "::") else bind), int(osc["port"])


def run(config: dict, board: str | None = None, spawned: dict | None = None, out=None) -> int:
    out = out or (lambda line: print(line, flush=True))     # beside the board's own lines, in its log, at once
    if spawned:
        yield_to_the_board()
    watch = resolve(config.get("watch"))
    if spawned and spawned.get("port") is not None:
        watch["port"] = spawned["port"]
    try:
        passcode, key, view_key = credentials(config, spawned)
        host, port = board_target(config, board)
    except ValueError as error:
        out(str(error))
        return 2
    set_max_pixels((config.get("packs") or {}).get("max_picture_pixels") or DEFAULT_MAX_PIXELS)   # as the board's
    css, fonts = theme_css(load_theme(config["board"].get("theme")))
    server = WatchServer(watch, view_key, css, fonts)
    server.pictures.out = out
    try:
        server.start()
    except OSError as error:
        out(str(error))
        return 2
    client = OscClient(host, port, passcode, role="view", key=key)
    client.connect()                             # retried by the client's thread until the board answers
    path = (config.get("tournament") or {}).get("file")
    relay = Relay(client, server, TournamentScreens(path, out=out) if path else None, out=out)
    if not spawned:
        out(f"watch-relay: following {host}:{port}; the hall's phones: {server.urls[0]}watch#k={view_key}")
        out(f"watch-relay: the stream's overlay: {server.urls[0]}overlay#k={view_key}")
    try:
        relay.run(parent=spawned.get("parent") if spawned else None)
    except KeyboardInterrupt:
        pass
    finally:
        client.close()
        server.stop()
    return 0


def read_spawned(stream=None) -> dict:
    """What `scoreboard run` hands a relay it starts, one JSON line on stdin (secrets never on a command line)."""
    line = (stream or sys.stdin).readline()
    data = json.loads(line)
    if not isinstance(data, dict) or not {"board_key", "view_key"} <= set(data):
        raise ValueError("watch-relay: --spawned expects the board's JSON line on stdin")
    return data
