"""Links: the board's connections to the outside — the button box, OSC remotes, keys — and the inbox.

    links = Links(config, inbox, clock)   # config: the [osc] and [buttons] sections (see links.config)
    links.start()
    ...each frame: items = inbox.drain(); submit each; item.on_result(ok, reason)
    ...when rev changes: links.publish(session.snapshot(), session.host_question())
    links.status()   # {"buttons_online": bool, ...counters}
    links.stop()

Every link runs on its own thread, only parses and stamps, and puts `Command`s on the inbox; only the board's
main thread touches the session. docs/LINKS.md documents the protocols and config keys.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Optional

from scoreboard.links.advertise import Advertiser
from scoreboard.links.config import resolve, validate
from scoreboard.links.inbox import Inbox, Item

__all__ = ["Links", "Inbox", "Item", "validate", "resolve"]

log = logging.getLogger("scoreboard.links")


class Links:
    def __init__(self, config: dict, inbox: Inbox, clock: Callable[[], float],
                 monotonic: Callable[[], float] = time.monotonic):
        # monotonic: what the box reader times PINGs and silences with. Tests that run the firmware in simavr
        # give both clocks the simulated box's time, so a slow host slows the board and the box alike.
        errors = validate(config)
        if errors:
            raise ValueError("config: " + "; ".join(errors))
        self.config = resolve(config)
        # The page is served when the board's config has the section (its defaults include it); a caller that
        # passes only [osc] and [buttons] (tests, benches) gets no HTTP server.
        self._web_wanted = "remote_web" in config
        self.inbox = inbox
        self.clock, self.monotonic = clock, monotonic
        self.osc = None
        self.buttons = None
        self.advertiser = None
        self.web = None
        self.web_error: Optional[str] = None    # why the page is not served (its port was taken)
        self.osc_error: Optional[str] = None    # why OSC is not listening (its port was taken; the board retries)
        self._restarts: dict[str, int] = {}
        self._lock = threading.Lock()

    def start(self) -> None:
        """OSC, then the box. Raises OSError if the OSC port cannot be bound (the box is then not started:
        the board calls `start_buttons()` and retries `start_osc()`)."""
        self.start_osc()
        self.start_buttons()

    def start_osc(self) -> None:
        osc = self.config["osc"]
        if osc["enabled"] and self.osc is None:
            # Every `scoreboard` command imports this package; only a board serves OSC.
            # lazy: the server with python-osc (its Dispatcher loads asyncio) costs ~50 ms at start-up
            from scoreboard.links.osc.server import OscServer
            server = OscServer(osc, self.inbox, self.clock)
            server.start()
            self.osc = server
            if osc["advertise"]:
                self.advertiser = Advertiser(osc["name"], osc["bind"], self.osc.address[1])
                self.advertiser.start()
            web = self.config["remote_web"]
            if web["enabled"] and self._web_wanted:
                from scoreboard.links.web.server import WebRemote  # lazy: aiohttp costs ~300 ms; only the board serves
                self.web = WebRemote(web, self.osc)
                try:
                    self.web.start()
                    server.phones.base_url = self.web.urls[0]      # the seats' links (links/phones/seats.py)
                except OSError as error:         # the page's port is taken: OSC and the buttons go on
                    log.warning("%s", error)
                    self.web_error, self.web = str(error), None

    def start_buttons(self) -> None:
        buttons = self.config["buttons"]
        if buttons["port"] and self.buttons is None:
            from scoreboard.links.serial.buttons import SerialButtons  # lazy: pyserial ~20 ms, only with a box
            self.buttons = SerialButtons(buttons, self.inbox, self.clock, self.monotonic)
            self.buttons.start()

    def watch(self) -> list[dict]:
        """The watchdog's turn (the board calls it twice a second): a link thread that died is logged,
        restarted, and reported `down` with the reason until it runs again. Returns `status.links` entries."""
        entries = []
        for name, link, thread_name in (("osc", self.osc, "osc-server"), ("buttons", self.buttons, "button-box")):
            if link is None or not link.started:
                continue
            restarts = self._restarts.get(name, 0)
            if not link.alive:
                restarts = self._restarts[name] = restarts + 1
                log.error("links: the %s thread (%s) died; restarting it (restart %d)", name, thread_name, restarts)
                try:
                    if name == "osc":
                        link.stop()
                    link.start()
                except Exception as error:   # e.g. the port was taken meanwhile: try again next turn
                    entries.append({"name": name, "state": "down", "detail": f"{thread_name} died; restart "
                                    f"failed: {error}"})
                    continue
            detail = f"{thread_name} restarted {restarts}×" if restarts else thread_name
            entries.append({"name": name, "state": "ok", "detail": detail})
        shortened = self.osc.feedback.shortened if self.osc is not None else ""
        if shortened:       # the UDP remotes get the state shortened: the host must know (issue 24 item 8)
            entries.append({"name": "osc", "state": "warning", "detail": shortened})
        return entries

    def stop(self) -> None:
        for link in (self.advertiser, self.web, self.osc, self.buttons):
            if link is not None:
                link.stop()

    @property
    def deadline_grace(self) -> float:
        """Seconds the board should let its deadlines lag (`session.advance(now - grace)`): a press stamped
        by the box before a deadline but delivered after it (USB adapters buffer up to ~16 ms) then still
        counts, instead of being refused as older than the deadline. 0 without an event box."""
        buttons = self.config["buttons"]
        return float(buttons["grace"]) if buttons["port"] and buttons["mode"] == "events" else 0.0

    def phone_wait(self) -> float:
        """Seconds the arbitration waits for the players' phones (links/phones/seats.py): 0 without any."""
        return self.osc.phones.wait() if self.osc is not None else 0.0

    def publish(self, snapshot: dict, host_question: Optional[dict]) -> None:
        """The board's state changed: push it to remotes and drive the box's ARM and lamps."""
        if self.osc is not None:
            self.osc.phones.armed_by(snapshot)
            self.osc.publish(snapshot, host_question)
        if self.buttons is not None:
            self.buttons.show(bool(snapshot.get("buttons_live")), snapshot.get("answering"))

    def box_status(self) -> dict:
        """`status.box` of the board's snapshot (docs/ENGINE_API.md)."""
        if self.buttons is None:
            return {"state": "none", "since": None, "detail": "no button box configured"}
        return self.buttons.box_status()

    def status(self) -> dict:
        status: dict = {"buttons_online": False, "buttons_configured": self.buttons is not None}
        if self.buttons is not None:
            status.update(self.buttons.status())
        if self.osc is not None:
            status["osc"] = self.osc.status()
            status["osc_address"] = list(self.osc.address)
            status["phones"] = self.osc.phones.status()
        if self.web is not None:
            status["remote_web"] = self.web.status()
        elif self.web_error:
            status["remote_web_error"] = self.web_error
        if self.advertiser is not None:
            status["osc_advertised"] = self.advertiser.announced
            status["osc_advertise_error"] = self.advertiser.error
        return status
