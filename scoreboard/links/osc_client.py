"""A small OSC client of the board (PROTOCOL.md §2): connect, send commands exactly once, follow state.

Used by followers (`scoreboard follow`), the tests and the benchmarks; the host remote may reuse it. One
receiver thread collects what the board sends; `command()` retries the same (session, id) until the board
acks, so a lost datagram in either direction can neither lose nor double a command.

    client = OscClient("192.168.1.20", 9000, passcode="1234", role="host")
    client.connect()
    ok, reason = client.command("/sg/judge/right")
    rev, snapshot = client.state
"""
from __future__ import annotations

import json
import secrets
import socket
import threading
import time
from typing import Any, Callable, Optional

from pythonosc.osc_packet import OscPacket

from scoreboard.links.osc_server import build


class NotConnected(Exception):
    """The board did not answer /sg/connect, or refused it (str(e) says which)."""


class OscClient:
    def __init__(self, host: str, port: int, passcode: str, role: str = "host",
                 bind: tuple[str, int] = ("0.0.0.0", 0), keepalive: float = 5.0, reconnect_after: float = 3.5):
        self.board = (host, port)
        self.passcode, self.role = passcode, role
        self.keepalive = keepalive
        # Once connected, a board silent this long (restarted, or our session expired) is asked again.
        # A new session does not know the old one's ids: only use command() again after a reconnect if
        # a repeat of an unacked command is harmless (followers only read state).
        self.reconnect_after = reconnect_after
        self._joined = False
        self._last_heard = self._last_try = 0.0
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(bind)
        self.sock.settimeout(0.05)
        self.session: Optional[int] = None
        self.denied: Optional[str] = None
        self.state: tuple[int, Optional[dict]] = (-1, None)      # (rev, snapshot), the newest rev wins
        self.question: Optional[dict] = None
        self._question_rev = -1
        self.errors: list[tuple[str, str]] = []                  # /sg/error address reason (plain commands)
        self.on_state: Optional[Callable[[int, dict], None]] = None
        self._acks: dict[int, tuple[bool, Optional[str]]] = {}
        self._next_id = secrets.randbelow(2**30) + 1
        self._cond = threading.Condition()
        self._running = True
        self._last_sent = 0.0
        self._thread = threading.Thread(target=self._receive, name="osc-client", daemon=True)
        self._thread.start()

    # --- sending ------------------------------------------------------------------------------------
    def _send(self, address: str, *args: Any) -> None:
        self.sock.sendto(build(address, *args), self.board)
        self._last_sent = time.monotonic()

    def connect(self, timeout: float = 3.0, retry: float = 0.2) -> int:
        """Open a session; returns its id. Retries the connect until answered (the board keeps one session
        per address, so a repeated connect is harmless)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            self.session, self.denied = None, None
        while True:
            self._send("/sg/connect", self.passcode, self.role)
            with self._cond:
                self._cond.wait_for(lambda: self.session is not None or self.denied is not None,
                                    timeout=min(retry, max(0.0, deadline - time.monotonic())))
                if self.session is not None:
                    self._joined = True
                    return self.session
                if self.denied is not None:
                    raise NotConnected(self.denied)
            if time.monotonic() >= deadline:
                raise NotConnected(f"no answer from {self.board[0]}:{self.board[1]} within {timeout} s")

    def send(self, address: str, *args: Any) -> None:
        """A plain command (applied as it comes, no ack; refusals come back as /sg/error)."""
        self._send(address, *args)

    def new_id(self) -> int:
        with self._cond:
            self._next_id += 1
            return self._next_id

    def send_with_id(self, cid: int, address: str, *args: Any) -> None:
        """One copy of the exactly-once form `/sg/cmd/<address without /sg> id args…`."""
        if not address.startswith("/sg/"):
            raise ValueError(f"not a board address: {address!r}")
        self._send("/sg/cmd/" + address[4:], cid, *args)

    def ack(self, cid: int) -> Optional[tuple[bool, Optional[str]]]:
        with self._cond:
            return self._acks.get(cid)

    def command(self, address: str, *args: Any, timeout: float = 5.0,
                retry: float = 0.25) -> tuple[bool, Optional[str]]:
        """Send until acked: (True, None) applied, (False, reason) refused. Raises TimeoutError."""
        cid = self.new_id()
        deadline = time.monotonic() + timeout
        while True:
            self.send_with_id(cid, address, *args)
            with self._cond:
                self._cond.wait_for(lambda: cid in self._acks,
                                    timeout=min(retry, max(0.0, deadline - time.monotonic())))
                if cid in self._acks:
                    return self._acks.pop(cid)
            if time.monotonic() >= deadline:
                raise TimeoutError(f"no ack for {address} (id {cid}) within {timeout} s")

    def wait_state(self, predicate: Callable[[dict], bool], timeout: float = 3.0) -> dict:
        """Block until a received snapshot satisfies `predicate`; returns it (TimeoutError otherwise)."""
        with self._cond:
            ok = self._cond.wait_for(lambda: self.state[1] is not None and predicate(self.state[1]),
                                     timeout=timeout)
            if not ok:
                raise TimeoutError("the board's state did not reach the expected condition")
            return self.state[1]

    def close(self) -> None:
        self._joined = False
        if self.session is not None:
            try:
                self._send("/sg/disconnect")
            except OSError:
                pass
        self._running = False
        self._thread.join(timeout=1)
        self.sock.close()

    # --- receiving ----------------------------------------------------------------------------------
    def _receive(self) -> None:
        while self._running:
            try:
                data, _ = self.sock.recvfrom(65_535)
            except socket.timeout:
                data = None
            except OSError:
                data = None
                if not self._running:
                    return
            now = time.monotonic()
            if data is not None:
                self._last_heard = now
                self._handle(data)
            try:
                if (self._joined and self.reconnect_after and now - self._last_try > 1.0
                        and (self.session is None or now - self._last_heard > self.reconnect_after)):
                    self._last_try = now
                    self._send("/sg/connect", self.passcode, self.role)
                elif self.session is not None and self.keepalive and now - self._last_sent > self.keepalive:
                    self._send("/sg/ping")
            except OSError:
                pass                        # no route right now: try again on the next turn

    def _handle(self, data: bytes) -> None:
        try:
            messages = [timed.message for timed in OscPacket(data).messages]
        except Exception:
            return
        for message in messages:
            address, params = message.address, list(message.params)
            with self._cond:
                if address == "/sg/connected" and params:
                    if params[0] != self.session:
                        # A new session may be a restarted board whose revisions start again: the
                        # next state is taken whatever its rev.
                        self.state = (-1, self.state[1])
                        self._question_rev = -1
                    self.session = params[0]
                elif address == "/sg/denied" and params:
                    self.denied = str(params[0])
                    if self.session is not None and params[0].startswith("not connected"):
                        self.session = None             # expired on the board: connect() again
                elif address == "/sg/ack" and len(params) >= 2:
                    self._acks[params[0]] = (params[1] == "ok", None if params[1] == "ok" else
                                             (params[2] if len(params) > 2 else "refused"))
                elif address == "/sg/state" and len(params) == 2:
                    rev = params[0]
                    if rev >= self.state[0]:
                        try:
                            self.state = (rev, json.loads(params[1]))
                        except (ValueError, RecursionError):   # deeply nested JSON from a hostile datagram
                            pass
                elif address == "/sg/host/question" and params:
                    rev = params[1] if len(params) > 1 and isinstance(params[1], int) else self._question_rev
                    if rev >= self._question_rev:
                        try:
                            self.question, self._question_rev = json.loads(params[0]), rev
                        except (ValueError, RecursionError):
                            pass
                elif address == "/sg/error" and len(params) >= 2:
                    self.errors.append((str(params[0]), str(params[1])))
                self._cond.notify_all()
            if address == "/sg/state" and self.on_state is not None and self.state[1] is not None:
                self.on_state(*self.state)
