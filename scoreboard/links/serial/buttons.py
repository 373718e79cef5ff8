"""The serial button box (PROTOCOL.md §5): one thread that owns the port.

It opens the port with `serial_for_url` (a device, `hwgrep://VID:PID`, `socket://host:port`, a pty,
`loop://`), shakes hands, parses lines, stamps each press with the box's own time mapped onto the board's
clock, and puts `/sg/button seat box bound_ms` on the inbox (the bound: how far the stamp may be from the press,
for the host's photo finish, BZ11). It also sends what the board asks the box to show (ARM/DISARM,
the answering player's lamp) and PINGs once a second. An unplugged or silent box is closed and reopened every
`reopen_interval` while `status()` says the buttons are offline. In one-digit mode it stamps arrival time.

Why stamps and not arrival order: the board picks the first press by `cmd.at`, so USB buffering and frame
timing cannot reorder two presses the box saw 0.1 ms apart.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Optional

import serial

from scoreboard.engine.commands import Command
from scoreboard.links.serial import protocol as bp
from scoreboard.links.serial.clockmap import BoxClock
from scoreboard.links.inbox import Inbox

log = logging.getLogger("scoreboard.links.serial")

HELLO_RETRY = 1.0        # seconds between HELLO? while the box has not introduced itself
PING_TIMEOUT = 5.0       # a PING unanswered this long is forgotten
# A press stamped by its arrival (one-digit mode, or before the clock map converged) is late by the serial latency:
# ~0.1 ms on a pty, 1–16 ms through a USB serial adapter (its latency timer), never early (docs/LINKS.md).
ARRIVAL_BOUND_MS = 16


def bound_ms(clock: BoxClock) -> int:
    """The press's error bound in whole ms (rounded up): the converged map's `error_bound`, else the arrival's."""
    bound = clock.error_bound
    return ARRIVAL_BOUND_MS if bound is None or not clock.converged else max(1, -int(-bound * 1000 // 1))


class SerialButtons:
    def __init__(self, cfg: dict, inbox: Inbox, clock: Callable[[], float],
                 monotonic: Callable[[], float] = time.monotonic):
        self.cfg = cfg
        self.url: str = cfg["port"]
        self.digits = cfg["mode"] == "digits"
        self.inbox, self.clock, self.monotonic = inbox, clock, monotonic
        self.box_clock = BoxClock()
        self.counts = {"presses": 0, "bad_lines": 0, "seq_gaps": 0, "opens": 0, "closes": 0, "pongs": 0,
                       "stale_pongs": 0, "hellos": 0, "write_errors": 0}
        self.box_name: Optional[str] = None
        self.box_players = 0
        self.last_error: Optional[str] = None
        self._port = None
        self._lock = threading.Lock()
        self._want: tuple[bool, Optional[int]] = (False, None)   # (armed, answering) the board shows
        self._sent: Optional[tuple[bool, Optional[int]]] = None  # what the box was last told
        self._thread: Optional[threading.Thread] = None
        self._stop = threading.Event()
        self._online = False
        self._last_heard = 0.0            # monotonic time of the last HELLO, PONG or press: the box is alive
        self.offline_since: Optional[float] = time.time()   # Unix time the box stopped being online
        self.crashes = 0                  # unexpected exceptions the reader survived
        self._reset_link()

    # --- board side (main thread) -------------------------------------------------------------------
    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="button-box", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._close("stopped")

    def show(self, armed: bool, answering: Optional[int]) -> None:
        """What the box should show; the serial thread sends only the changes."""
        with self._lock:
            self._want = (armed, answering if isinstance(answering, int) else None)

    @property
    def started(self) -> bool:
        """start() was called: the links' watchdog looks after the thread from then on."""
        return self._thread is not None

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def online(self) -> bool:
        """The reader is running and the box spoke lately (a PONG, a press; digits: the port is open)."""
        if not (self._online and self.alive):
            return False
        return self.digits or self.monotonic() - self._last_heard <= float(self.cfg["offline_after"])

    def box_status(self) -> dict:
        """`status.box` of the board's snapshot."""
        if self.online:
            return {"state": "online", "since": None, "detail": self.box_name or self.url}
        opened = self._port is not None and self.alive
        return {"state": "reconnecting" if opened else "offline", "since": self.offline_since,
                "detail": self.last_error or ("waiting for HELLO" if opened else "no box")}

    def status(self) -> dict:
        with self._lock:
            counts = dict(self.counts)
        return {"buttons_online": self.online, "buttons_port": self.url,
                "buttons_mode": "digits" if self.digits else "events",
                "box_name": self.box_name, "box_players": self.box_players,
                "box_drift_ppm": round((self.box_clock.drift - 1) * 1e6, 1),
                "box_rtt_ms": None if self.box_clock.best_rtt is None else round(self.box_clock.best_rtt * 1e3, 3),
                "buttons_error": self.last_error, **counts}

    # --- the thread ---------------------------------------------------------------------------------
    def _run(self) -> None:
        interval = float(self.cfg["reopen_interval"])
        while not self._stop.is_set():
            try:
                if self._port is None and not self._open():
                    self._stop.wait(interval)
                    continue
                self._service()
            except (serial.SerialException, OSError, ValueError, TypeError) as error:
                # TypeError/ValueError: pyserial's socket backend after the peer vanished
                self._close(f"{type(error).__name__}: {error}")
                self._stop.wait(interval)          # a failing box is retried, not hammered
            except Exception as error:   # a bug or a backend's surprise must not end the reader: reopen
                self.crashes += 1
                log.exception("button box %s: reader error (port closed, reopening)", self.url)
                try:
                    self._close(f"reader error: {type(error).__name__}: {error}")
                except Exception:
                    self._port = None
                self._stop.wait(interval)

    def _open(self) -> bool:
        try:
            port = serial.serial_for_url(self.url, baudrate=int(self.cfg["baud"]), timeout=0.01,
                                         write_timeout=0.5)
        except (serial.SerialException, OSError, ValueError) as error:
            if self.last_error != str(error):
                log.warning("button box %s: %s", self.url, error)
            self.last_error = str(error)
            return False
        self._port = port
        self._reset_link()
        self._bump("opens")
        self.last_error = None
        now = self.monotonic()
        self._last_line = now
        if self.digits:
            self._set_online(now)
        else:
            self._write(bp.hello_query())
            self._hello_sent = now
        log.info("button box %s opened", self.url)
        return True

    def _close(self, reason: str) -> None:
        port, self._port = self._port, None
        was_online, self._online = self._online, False
        if was_online:
            self.offline_since = time.time()
        if port is not None:
            self._bump("closes")
            self.last_error = reason
            if was_online and reason != "stopped":
                log.warning("button box %s lost: %s", self.url, reason)
            try:
                port.close()
            except Exception:               # closing a dead port may fail in backend-specific ways
                pass

    def _reset_link(self) -> None:
        """A new open: no partial line, and nothing known about the box at the other end."""
        self._buffer = bytearray()
        self._skipping = False
        self._hello_sent = 0.0
        self._reset_box()

    def _reset_box(self) -> None:
        """The box (re)started: its clock, seq and lamps mean nothing any more; the read buffer stays
        (lines after its HELLO in the same read are still to be parsed)."""
        self.box_clock.reset()
        self._pings: dict[int, float] = {}
        self._nonce = 0
        self._next_ping = 0.0
        self._last_seq: Optional[int] = None
        self._last_press: Optional[tuple[int, float]] = None     # (unwrapped box µs, engine seconds)
        with self._lock:
            self._sent = None

    def _service(self) -> None:
        port = self._port
        data = port.read(max(1, port.in_waiting))
        now = self.monotonic()
        if data:
            self._last_line = now
            self.feed(data, now)
        if self.digits:
            return
        if self.box_name is None or not self._online:
            if now - self._hello_sent >= HELLO_RETRY:
                self._hello_sent = now
                self._write(bp.hello_query())
        else:
            self._sync_lamps()
            if now >= self._next_ping:
                self._next_ping = now + float(self.cfg["ping_interval"])
                self._nonce = (self._nonce + 1) % bp.U32
                self._pings = {n: t for n, t in self._pings.items() if now - t < PING_TIMEOUT}
                self._pings[self._nonce] = self.monotonic()
                self._write(bp.ping(self._nonce))
        if now - self._last_line > float(self.cfg["offline_after"]):
            raise serial.SerialException(f"no line from the box for {self.cfg['offline_after']} s")

    # --- parsing ------------------------------------------------------------------------------------
    def feed(self, data: bytes, now: Optional[float] = None) -> None:
        """Bytes as read from the port (the thread calls this; fault tests call it directly, portless)."""
        if self.digits:
            self._digits(data)
        else:
            self._feed(data, self.monotonic() if now is None else now)

    def _feed(self, data: bytes, now: float) -> None:
        self._presses: list = []
        try:
            self._lines(data, now)
        finally:
            self.inbox.put_many(self._presses)    # every press of this read reaches the board together

    def _lines(self, data: bytes, now: float) -> None:
        self._buffer += data
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) >= bp.MAX_LINE:      # a line that will be too long: drop it now
                    self._bad("line longer than 80 bytes")
                    self._buffer.clear()
                    self._skipping = True
                return
            line = bytes(self._buffer[:end])
            del self._buffer[:end + 1]
            if self._skipping:                             # the tail of an over-long line
                self._skipping = False
                continue
            self._line(line, now)

    def _line(self, raw: bytes, now: float) -> None:
        limit = self.cfg["players"] or self.box_players or 99
        try:
            event = bp.parse_line(raw, max_seat=limit)
        except bp.BadLine as error:
            self._bad(str(error))
            return
        if isinstance(event, bp.Press):
            self._press(event, now)
        elif isinstance(event, bp.Pong):
            sent = self._pings.pop(event.nonce, None)
            if sent is None:
                self._bump("stale_pongs")
            else:
                self.box_clock.add_sample(sent, now, event.t_us)
                self._last_heard = now
                self._bump("pongs")
        else:
            self._hello(event)

    def _hello(self, hello: bp.Hello) -> None:
        # A HELLO after the first one means the box restarted: its counters start again.
        self._bump("hellos")
        if self._online:
            log.info("button box %s said HELLO again (reset)", hello.name)
        self._reset_box()
        self.box_name, self.box_players = hello.name, hello.players
        self._set_online(self.monotonic())
        self._next_ping = 0.0
        log.info("button box %s online: %d players", hello.name, hello.players)

    def _set_online(self, now: float) -> None:
        self._online, self._last_heard, self.offline_since = True, now, None

    def _press(self, press: bp.Press, now: float) -> None:
        self._last_heard = now
        if self._last_seq is not None and press.seq != (self._last_seq + 1) % bp.U32:
            self._bump("seq_gaps")
            log.warning("button box: seq %d after %d (events lost or repeated)", press.seq, self._last_seq)
        self._last_seq = press.seq
        ext = self.box_clock.unwrap(press.t_us)
        self.box_clock.anchor(ext, now)
        # Until the map has converged its line may run early (first PONGs after a reconnect): stamp by
        # arrival, late by the serial latency but never early. Presses of one burst keep their spacing below.
        pressed = self.box_clock.to_board(ext) if self.box_clock.converged else now
        mono_now, engine_now = self.monotonic(), self.clock()
        at = engine_now - max(0.0, mono_now - pressed)     # never in the future
        if self._last_press is not None:
            last_ext, last_at = self._last_press
            if abs(ext - last_ext) < 1_000_000:
                # Presses of one burst keep the box's own spacing: a new PONG or the clamp above may move
                # the mapping between them, but their order and gaps as the box saw them must survive.
                chained = last_at + (ext - last_ext) / 1e6 * self.box_clock.drift
                wrong_order = (ext > last_ext) != (at > last_at) or (ext == last_ext) != (at == last_at)
                if wrong_order or abs(at - chained) < 0.002:
                    at = chained
        self._last_press = (ext, at)
        self._bump("presses")
        self._presses.append((Command(at, "/sg/button", (press.seat, "box", bound_ms(self.box_clock))), "serial"))

    def _digits(self, data: bytes) -> None:
        at = self.clock()
        limit = self.cfg["players"] or 9
        presses = []
        for byte in data:
            try:
                seat = bp.parse_digit(byte)
            except bp.BadLine as error:
                self._bad(str(error))
                continue
            if seat is None:
                continue
            if seat > limit:
                self._bad(f"seat {seat} above buttons.players={limit}")
                continue
            self._bump("presses")
            presses.append(seat)
        # Digits read together arrived together: the byte order is the only order there is, so each is stamped
        # 1 µs before the next (never after the arrival) rather than all with one stamp, a tie the engine
        # would have to break.
        last = len(presses) - 1
        self.inbox.put_many([(Command(at - (last - i) * 1e-6, "/sg/button", (seat, "box", ARRIVAL_BOUND_MS)),
                              "digits") for i, seat in enumerate(presses)])

    # --- writing ------------------------------------------------------------------------------------
    def _sync_lamps(self) -> None:
        with self._lock:
            want, sent = self._want, self._sent
        if want == sent:
            return
        armed, answering = want
        lines = []
        if sent is None or sent[0] != armed:
            lines.append(bp.arm(armed))
        if sent is None:
            lines += [bp.led(seat, "on" if seat == answering else "off")
                      for seat in range(1, self.box_players + 1)]
        elif sent[1] != answering:
            if sent[1] is not None:
                lines.append(bp.led(sent[1], "off"))
            if answering is not None:
                lines.append(bp.led(answering, "on"))
        self._write(b"".join(lines))
        with self._lock:
            self._sent = want

    def _write(self, data: bytes) -> None:
        if data and self._port is not None:
            try:
                self._port.write(data)
            except serial.SerialTimeoutException:
                self._bump("write_errors")        # the box is not reading; liveness will tell
                raise

    def _bad(self, reason: str) -> None:
        self._bump("bad_lines")
        log.debug("button box: bad line: %s", reason)

    def _bump(self, name: str) -> None:
        with self._lock:
            self.counts[name] += 1
