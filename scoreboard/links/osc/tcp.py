"""OSC over TCP with OSC 1.1 SLIP framing (PROTOCOL.md §2, optional; `osc.tcp = true`).

Some controllers (Open Stage Control, QLab) prefer a stream. Each TCP client is one peer address
`(ip, port, "tcp")`, treated like a UDP sender: its frames go through the same `handle_datagram` (sessions, passcode, exactly-once ids),
and whatever the server sends to that address goes back SLIP-framed on the connection. Closing the
connection ends its session. The OSC server's thread calls everything here.

Back-pressure: each frame is offered to the server's bounded intake (osc/intake.py, `on_frame` answers QUEUED, FULL
or REFUSED). While a connection's budget is full its frames stay in its buffer and its socket is not read, so the
peer's own TCP window fills and it must wait (`resume` tries again each turn); a frame that can never fit closes it.
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
        self.held = False                   # a frame waits for room in the intake: the socket is not read
        self.lock = threading.Lock()        # acks come from the board's thread, states from the server's


class SlipServer:
    def __init__(self, bind: str, port: int, max_connections: int,
                 on_frame: Callable[[bytes, tuple], object], on_bad: Callable[[tuple], None],
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
        """What to wait on: the listener, and every connection not held back for want of room."""
        return [self.listener, *(sock for sock, addr in self._by_sock.items() if not self.conns[addr].held)]

    def peer_of(self, sock: socket.socket) -> tuple | None:
        return self._by_sock.get(sock)

    def resume(self, room: Callable[[tuple], bool]) -> None:
        """Offer the held connections' waiting frames again (the server's turn), those `room(addr)` has room for."""
        for addr, conn in list(self.conns.items()):
            if conn.held and room(addr):
                conn.held = False
                self._frames(addr, conn)

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
        self._frames(addr, conn)

    def _frames(self, addr: tuple, conn: _Conn) -> None:
        """Hand the buffer's whole frames to the server until one finds no room (then held, unread)."""
        while True:
            end = conn.buffer.find(END)
            if end < 0:
                break
            frame = bytes(conn.buffer[:end])
            if not frame:                    # SLIP allows END before a frame as well as after it
                del conn.buffer[:end + 1]
                continue
            try:
                packet = slip.decode(frame + bytes([END]))
            except slip.ProtocolError:
                del conn.buffer[:end + 1]
                self.on_bad(addr)
                continue
            verdict = self.on_frame(packet, addr)
            if verdict is False:             # FULL: keep it, stop reading this peer until there is room
                conn.held = True
                return
            del conn.buffer[:end + 1]
            if verdict is None:              # REFUSED: more than this peer may ever send at once
                self.on_bad(addr)
                self.close(addr)
                return
        if len(conn.buffer) > MAX_FRAME:
            self.on_bad(addr)
            self.close(addr)

    def _accept(self) -> None:
        try:
            sock, addr = self.listener.accept()
        except OSError:
            return
        if len(self.conns) >= self.max_connections:
            sock.close()
            self.on_bad((addr[0], addr[1], "tcp"))
            return
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        addr = (addr[0], addr[1], "tcp")     # never the same peer as a UDP sender on that port number
        self.conns[addr] = _Conn(sock, time.monotonic())
        self._by_sock[sock] = addr

    def send(self, addr: tuple, dgram: bytes, patient: bool = True) -> bool:
        """Send to a TCP peer; False if `addr` is not one (the caller uses UDP). `patient`: a full send buffer may
        hold the server's thread up to SEND_WAIT (a session's peer); else a peer that does not read is cut at once (a
        stranger that floods without reading must never stall the thread that serves the host)."""
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
                        if not select.select([], [conn.sock], [], SEND_WAIT if patient else 0)[1]:
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
