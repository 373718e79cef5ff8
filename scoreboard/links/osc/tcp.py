"""OSC over TCP with OSC 1.1 SLIP framing (PROTOCOL.md §2, optional; `osc.tcp = true`).

Some controllers (Open Stage Control, QLab) prefer a stream. Each TCP client is one peer address
`(ip, port, "tcp")`, treated like a UDP sender: its frames go through the same `handle_datagram` (sessions, passcode, exactly-once ids),
and whatever the server sends to that address goes back SLIP-framed on the connection. Closing the
connection ends its session. The OSC server's thread calls everything here.
"""
from __future__ import annotations

import logging
import select
import socket
import threading
import time
from typing import Callable

from pythonosc import slip

log = logging.getLogger("scoreboard.links.osc")

END = 0xC0
CONNECT_WITHIN = 10.0      # seconds a TCP client may stay connected without a session
MAX_FRAME = 65_536          # a client that sends more than this without a frame end is cut off
SEND_WAIT = 0.05            # seconds a full send buffer may hold us before the connection is dropped


class _Conn:
    def __init__(self, sock: socket.socket, opened: float):
        self.sock = sock
        self.opened = opened
        self.buffer = bytearray()
        self.lock = threading.Lock()        # acks come from the board's thread, states from the server's


class SlipServer:
    def __init__(self, bind: str, port: int, max_connections: int,
                 on_frame: Callable[[bytes, tuple], None], on_bad: Callable[[], None],
                 on_closed: Callable[[tuple], None]):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.listener.bind((bind, port))
            self.listener.listen(8)
        except OSError as error:
            self.listener.close()
            raise OSError(f"osc: cannot listen on tcp {bind}:{port}: {error.strerror or error}") from None
        self.listener.setblocking(False)
        self.max_connections = max_connections
        self.on_frame, self.on_bad, self.on_closed = on_frame, on_bad, on_closed
        self.conns: dict[tuple, _Conn] = {}
        self._by_sock: dict[socket.socket, tuple] = {}

    def sockets(self) -> list[socket.socket]:
        return [self.listener, *self._by_sock]

    def readable(self, sock: socket.socket) -> None:
        if sock is self.listener:
            self._accept()
            return
        addr = self._by_sock.get(sock)
        if addr is None:
            return
        try:
            data = sock.recv(65_536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.close(addr)
            return
        conn = self.conns[addr]
        conn.buffer += data
        while True:
            end = conn.buffer.find(END)
            if end < 0:
                break
            frame = bytes(conn.buffer[:end])
            del conn.buffer[:end + 1]
            if not frame:                    # SLIP allows END before a frame as well as after it
                continue
            try:
                packet = slip.decode(frame + bytes([END]))
            except slip.ProtocolError:
                self.on_bad()
                continue
            self.on_frame(packet, addr)
        if len(conn.buffer) > MAX_FRAME:
            self.on_bad()
            self.close(addr)

    def _accept(self) -> None:
        try:
            sock, addr = self.listener.accept()
        except OSError:
            return
        if len(self.conns) >= self.max_connections:
            sock.close()
            self.on_bad()
            return
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        addr = (addr[0], addr[1], "tcp")     # never the same peer as a UDP sender on that port number
        self.conns[addr] = _Conn(sock, time.monotonic())
        self._by_sock[sock] = addr

    def send(self, addr: tuple, dgram: bytes) -> bool:
        """Send to a TCP peer; False if `addr` is not one (the caller uses UDP)."""
        conn = self.conns.get(addr)
        if conn is None:
            return False
        data = memoryview(slip.encode(dgram))
        with conn.lock:
            try:
                while data:
                    try:
                        sent = conn.sock.send(data)
                        data = data[sent:]
                    except BlockingIOError:
                        # A client that stops reading must not hold the board: wait a little, then give up.
                        if not select.select([], [conn.sock], [], SEND_WAIT)[1]:
                            raise OSError("client is not reading")
            except OSError as error:
                log.info("OSC tcp client %s:%d dropped: %s", addr[0], addr[1], error)
                try:
                    conn.sock.shutdown(socket.SHUT_RDWR)   # the server thread then sees the end and closes
                except OSError:
                    pass
        return True

    def close(self, addr: tuple) -> None:
        conn = self.conns.pop(addr, None)
        if conn is None:
            return
        self._by_sock.pop(conn.sock, None)
        conn.sock.close()
        self.on_closed(addr)

    def close_idle(self, has_session: Callable[[tuple], bool], within: float, now: float | None = None) -> None:
        """Close every connection that has had no session for `within` seconds since it opened: an idle stranger
        must not hold one of the connection slots."""
        now = time.monotonic() if now is None else now
        for addr, conn in list(self.conns.items()):
            if now - conn.opened >= within and not has_session(addr):
                log.info("OSC tcp client %s:%d closed: no session within %.0f s", addr[0], addr[1], within)
                self.close(addr)

    def close_all(self) -> None:
        for addr in list(self.conns):
            self.close(addr)
        self.listener.close()
