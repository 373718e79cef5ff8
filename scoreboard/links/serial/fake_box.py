"""A button box in software: speaks PROTOCOL.md §5 on a pty (with a stable symlink) or a TCP port.

The demo, the tests and the benchmarks press its buttons; a club can use it to rehearse without hardware.
It answers HELLO? and PING like the reference sketch in firmware/, records ARM/DISARM and LED lines, and can
be unplugged and plugged back in (a new pty behind the same symlink, or the TCP listener closed and reopened).

    box = FakeBox(players=4, link="/tmp/box")      # or FakeBox(tcp_port=7000)
    box.start();  config["buttons"]["port"] = box.url
    box.press(2)                                    # now, or box.press(2, t_us=123456) at an exact box time

`press` returns False when no board is known to be listening (the press is then lost: pyserial flushes a
port's input when the board opens it, and a TCP box has nobody to send to). `first_contact_us` is the box
time when a board first showed up (its first `HELLO?`; a one-digit box on TCP: the first connection), the
zero of `scoreboard fake-box --script`.
"""
from __future__ import annotations

import os
import select
import socket
import threading
import time
from typing import Callable, Optional

U32 = 2**32


class FakeBox:
    def __init__(self, players: int = 4, name: str = "fakebox", link: Optional[str] = None,
                 tcp_port: Optional[int] = None, host: str = "127.0.0.1", digits: bool = False,
                 t0_us: int = 0, drift_ppm: float = 0.0, answer_pings: bool = True):
        if (link is None) == (tcp_port is None):
            raise ValueError("give exactly one of link (pty symlink path) or tcp_port")
        self.players, self.name, self.link, self.tcp_port, self.host = players, name, link, tcp_port, host
        self.digits, self.t0_us, self.drift = digits, t0_us, 1 + drift_ppm * 1e-6
        self.answer_pings = answer_pings
        self.armed = False
        self.leds: dict[int, str] = {}
        self.received: list[str] = []          # every line the board sent, in order
        self.seq = 0
        self.first_contact_us: Optional[int] = None   # box time of the board's first HELLO? (see above)
        self._greeted = False                  # a HELLO? came since this pty was made
        self._start = time.monotonic()
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()
        self._master: Optional[int] = None     # pty master fd
        self._slave: Optional[int] = None
        self._listener: Optional[socket.socket] = None
        self._conn: Optional[socket.socket] = None
        self._thread: Optional[threading.Thread] = None
        self._running = False
        self._buffer = b""

    # --- plugging -----------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        """What to put in buttons.port."""
        return self.link if self.link is not None else f"socket://{self.host}:{self.tcp_port}"

    def start(self) -> "FakeBox":
        self._running = True
        self.plug()
        self._thread = threading.Thread(target=self._serve, name="fake-box", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._running = False
        if self._thread is not None:
            self._thread.join(timeout=2)
        self.unplug()

    def plug(self) -> None:
        """Power up: a fresh pty behind the symlink (or a listening socket), then HELLO."""
        if self.link is not None:
            try:
                import tty  # lazy: Unix-only: a pty box needs it; a TCP box works everywhere
            except ImportError:
                raise OSError("no pseudo-terminals on this system: use a TCP box (fake-box --tcp PORT)") from None
            master, slave = os.openpty()
            tty.setraw(slave)                   # no echo, no line discipline: bytes pass as they are
            temp = f"{self.link}.{os.getpid()}.tmp"
            if os.path.lexists(temp):
                os.unlink(temp)
            os.symlink(os.ttyname(slave), temp)
            os.replace(temp, self.link)         # atomic: the board never sees a half-made link
            self._master, self._slave = master, slave
        else:
            listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind((self.host, self.tcp_port))
            listener.listen(1)
            if self.tcp_port == 0:
                self.tcp_port = listener.getsockname()[1]
            self._listener = listener
        self.seq = 0
        self._buffer = b""
        self._greeted = False
        self._hello()

    def unplug(self) -> None:
        """Pull the cable: the board's reads fail and the port cannot be reopened until plug()."""
        with self._write_lock:
            if self.link is not None and os.path.islink(self.link):
                os.unlink(self.link)
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None
            for sock in (self._conn, self._listener):
                if sock is not None:
                    sock.close()
            self._conn = self._listener = None

    @property
    def connected(self) -> bool:
        """A board is known to be listening: a TCP peer is connected, or (pty) the board has sent HELLO?
        since this pty was made. A pty cannot show that the board closed it again, and a one-digit box is
        never spoken to, so a plugged-in digit pty counts as connected."""
        if self.link is None:
            return self._conn is not None
        return self._master is not None and (self.digits or self._greeted)

    # --- the box's clock and buttons ----------------------------------------------------------------
    def now_us(self) -> int:
        return int(self.t0_us + (time.monotonic() - self._start) * 1e6 * self.drift) % U32

    def press(self, seat: int, t_us: Optional[int] = None) -> bool:
        """Report a press of `seat` (at box time t_us, default now); False if no board got it (`connected`)."""
        listening = self.connected
        if self.digits:
            return self.send_raw(str(seat).encode("ascii")) and listening
        self.seq = (self.seq + 1) % U32
        stamp = self.now_us() if t_us is None else t_us % U32
        return self.send_raw(f"EV {self.seq} {stamp} PRESS {seat}\n".encode("ascii")) and listening

    def press_many(self, presses: list[tuple[int, int]]) -> None:
        """Several presses [(seat, t_us)] reported in one burst, in the order given (a box that scans its
        buttons may report two presses of one scan in button order rather than time order)."""
        lines = []
        for seat, t_us in presses:
            self.seq = (self.seq + 1) % U32
            lines.append(f"EV {self.seq} {t_us % U32} PRESS {seat}\n")
        self.send_raw("".join(lines).encode("ascii"))

    def send_raw(self, data: bytes) -> bool:
        """Bytes to the board as they are (tests send garbage this way); False if nobody is connected."""
        with self._write_lock:
            try:
                if self._master is not None:
                    os.write(self._master, data)
                elif self._conn is not None:
                    self._conn.sendall(data)
                else:
                    return False
            except OSError:
                return False
        return True

    def _hello(self) -> None:
        if not self.digits:
            self.send_raw(f"HELLO {self.name} proto=1 players={self.players}\n".encode("ascii"))

    # --- what the board says ------------------------------------------------------------------------
    def wait_for(self, predicate: Callable[["FakeBox"], bool], timeout: float = 2.0) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self), timeout)

    def _serve(self) -> None:
        while self._running:
            if self._listener is not None and self._conn is None:
                readable, _, _ = select.select([self._listener], [], [], 0.05)
                if readable:
                    try:
                        self._conn, _ = self._listener.accept()
                        self._conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    except OSError:
                        continue
                    if self.digits:                 # a digit box is never spoken to: the connection is all
                        self._first_contact()
                    self._hello()
                continue
            source = self._master if self._master is not None else self._conn
            if source is None:
                time.sleep(0.02)
                continue
            try:
                readable, _, _ = select.select([source], [], [], 0.05)
                if not readable:
                    continue
                data = os.read(source, 4096) if isinstance(source, int) else source.recv(4096)
            except (OSError, ValueError):
                data = b""
                time.sleep(0.01)
                if isinstance(source, int):
                    continue
            if not data and not isinstance(source, int):
                with self._write_lock:            # the board hung up: wait for it to connect again
                    if self._conn is source:
                        self._conn.close()
                        self._conn = None
                continue
            self._buffer += data
            while b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                self._answer(line.decode("ascii", "replace").strip())

    def _first_contact(self) -> None:
        with self._cond:
            if self.first_contact_us is None:
                self.first_contact_us = self.now_us()
                self._cond.notify_all()

    def _answer(self, line: str) -> None:
        words = line.split(" ")
        if words[0] == "HELLO?":
            self._greeted = True
            self._first_contact()
            self._hello()
        elif words[0] == "PING" and len(words) == 2 and self.answer_pings:
            self.send_raw(f"PONG {words[1]} {self.now_us()}\n".encode("ascii"))
        with self._cond:
            self.received.append(line)
            if words[0] in ("ARM", "DISARM"):
                self.armed = words[0] == "ARM"
            elif words[0] == "LED" and len(words) == 3 and words[1].isdigit():
                self.leds[int(words[1])] = words[2]
            self._cond.notify_all()
