"""The OSC client's one thread: it reads the client's UDP socket and gives its protocol the timer's turns.

Model: pyserial's `serial.threaded.ReaderThread`. The protocol (the client) says how long the thread may sleep
(`due()`: re-sends, keep-alives, the connection state) and takes each datagram (`datagram_received`). Every exception
the protocol raises ends the thread and is reported through `protocol.connection_lost(error)`, with `error` None
when the owner stopped it: a reader never dies in silence, so "connected" can follow it. The owner decides what
next (the client reports the loss and connects again only when asked).
"""
from __future__ import annotations

import logging
import select
import socket
import threading
from typing import Optional, Protocol

log = logging.getLogger("scoreboard.links.osc")

MAX_DATAGRAM = 65507


class DatagramProtocol(Protocol):
    def due(self) -> float: ...
    def datagram_received(self, data: bytes, sender: tuple) -> None: ...
    def connection_lost(self, error: Optional[BaseException]) -> None: ...


class DatagramReader:
    def __init__(self, sock: socket.socket, protocol: DatagramProtocol, name: str = "osc-client"):
        self.sock = sock
        self.protocol = protocol
        self.error: Optional[BaseException] = None      # why the thread ended, if not stopped by its owner
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def stop(self, timeout: float = 2.0) -> None:
        """Ask the thread to leave and wait for it (never from the thread itself)."""
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _run(self) -> None:
        error: Optional[BaseException] = None
        try:
            self._loop()
        except Exception as caught:         # the protocol's bug, or the socket gone under it: report, never hide
            error = caught
            log.exception("the OSC client's reader stopped")
        self.error = error
        self.protocol.connection_lost(error)

    def _loop(self) -> None:
        while not self._stop.is_set():
            timeout = self.protocol.due()
            try:
                readable, _, _ = select.select([self.sock], [], [], timeout)
            except (OSError, ValueError):
                if self._stop.is_set():
                    return                  # the owner closed the socket: close() is on its way
                raise
            while readable and not self._stop.is_set():
                try:
                    data, sender = self.sock.recvfrom(MAX_DATAGRAM)
                except OSError:
                    break  # nothing more, or ICMP port unreachable (the board is down) on some systems
                self.protocol.datagram_received(data, sender)
