"""The board's OSC server (PROTOCOL.md §2): sessions, commands onto the inbox, acks, state push.

One thread owns the UDP socket: it parses each datagram, checks the sender's session and puts commands on
the inbox. Acks are sent when the board loop reports the result (`on_result`, called on the board's thread),
so an ack means "applied" or "refused", never just "received". `publish` (board thread) stores the state and
wakes the server thread, which pushes it at once, re-sends the latest every `state_interval` seconds and
expires idle sessions. Bundle time tags are ignored (strict timing off): everything is applied as it arrives.

Nothing from the network is trusted: a datagram that does not parse, a sender without a session, a `view`
session that commands, an internal address (`/sg/clock`) or bad arguments are counted and answered or
dropped, and never reach the game. The messages are listed in docs/LINKS.md.

Every stranger is budgeted (osc/intake.py): a UDP datagram from a session is handled as it is read; a stranger's
waits in the bounded intake with the TCP and WebSocket packets, sessions' first, a few strangers' messages a turn.
A stranger's packet gets at most STRANGER_MESSAGES messages read and one reply; bad input is logged once a minute
per source with a count (osc/quiet.py), never a line per packet.

The sessions' own port: a UDP flood fills the well-known port's kernel queue, where the host's datagrams would wait
(and be dropped) among the stranger's. So the board also listens on a second UDP port of the system's choosing,
named to each signed session in its `/sg/connected`; the project's client sends there once it knows it, and the
board answers a session from there once that session has spoken on it. Only sessions are read there (a stranger's
datagram is dropped unread); the loop reads it first every turn.
"""
from __future__ import annotations

import logging
import select
import socket
import threading
import time
from typing import Callable, Optional

from pythonosc.osc_packet import OscPacket

from scoreboard.links.inbox import Inbox
from scoreboard.links.osc.dispatch import BoardDispatch
from scoreboard.links.osc.feedback import Feedback
from scoreboard.links.osc.intake import FULL, PEER, QUEUED, REFUSED, STRANGER_MESSAGES, Intake, elements
from scoreboard.links.osc.quiet import QuietLog
from scoreboard.links.osc.rxstamp import ReceiveStamps
from scoreboard.links.osc.sessions import SessionTable
from scoreboard.links.osc import tcp as osc_tcp
from scoreboard.links.osc.tcp import SlipServer

log = logging.getLogger("scoreboard.links.osc")

RECEIVE_BUFFER = 2 << 20      # bytes of UDP receive buffer asked for
ANY_PORT_TRIES = 20           # UDP numbers tried, asked for any port, before one's TCP twin is free too
COUNTERS = ("packets", "bad_packets", "unauthorized", "denied", "bad_commands", "internal_refused",
            "view_refused", "duplicates", "commands", "acks_sent", "states_sent", "send_errors",
            "state_too_big", "forged", "unsigned_refused", "state_shortened", "stale", "replies_withheld",
            "over_budget", "intake_full")


class _QuietPythonOsc(logging.Filter):
    """python-osc warns on the root logger for every unknown type tag it meets: a stranger spraying
    garbage must not be able to flood the board's log. We count those packets instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name == "root" and "pythonosc" in record.pathname.replace("\\", "/"))


_QUIET = _QuietPythonOsc()


class OscServer:
    """The loop and its transports (UDP, and the TCP and WebSocket streams that feed it) and the counters, composed
    with the session table (`sessions.SessionTable`), the address map and its handlers (`dispatch.BoardDispatch`)
    and the acks and state push (`feedback.Feedback`)."""

    def __init__(self, osc_config: dict, inbox: Inbox, clock: Callable[[], float],
                 monotonic: Callable[[], float] = time.monotonic):
        self.config = osc_config
        self.inbox = inbox
        self.clock = clock                  # engine seconds: the stamp of every command
        self.monotonic = monotonic          # session idle timers
        self.table = SessionTable(osc_config["passcode"], osc_config["view_passcode"], osc_config["allow"],
                                  float(osc_config["idle_timeout"]), int(osc_config["max_sessions"]))
        self.counts = dict.fromkeys(COUNTERS, 0)
        self._lock = threading.Lock()        # sessions, counters and the latest state
        self.feedback = Feedback(self.table, self._lock, self._send, self._count)
        self.quiet = QuietLog(log)
        self.dispatch = BoardDispatch(osc_config, self.table, self._lock, inbox, clock, monotonic, self.feedback,
                                      self._count, self.quiet.note)
        self._wake_r = self._wake_w = None
        self._tcp = None                    # SlipServer when osc.tcp: SLIP-framed clients on the same port
        # Other stream transports (the web remote's WebSockets): each has send(addr, dgram) -> bool and feeds
        # its frames through feed(), so they are handled on this server's thread like UDP and TCP.
        self._streams: list = []
        self.intake = Intake()              # what waits for this thread: streams' packets, UDP strangers'
        self._intake_due = float("inf")     # seconds until strangers' packets may be taken again
        self._sock: Optional[socket.socket] = None
        self._sessions_sock: Optional[socket.socket] = None     # the sessions' own port (above)
        self._thread: Optional[threading.Thread] = None
        self._running = False

    @property
    def setup(self):
        """The board's SetupDesk (app/setup_desk.py), which answers /sg/setup/* (ext); None: not offered."""
        return self.dispatch.setup

    @setup.setter
    def setup(self, desk) -> None:
        self.dispatch.setup = desk

    @property
    def phones(self):
        """The players' phones (links/phones/seats.py `Phones`): their seats, clocks and the arbitration's wait."""
        return self.dispatch.phones

    # --- lifecycle ----------------------------------------------------------------------------------
    def start(self) -> None:
        if _QUIET not in logging.getLogger().filters:
            logging.getLogger().addFilter(_QUIET)
        sock, self._tcp = self._listen()
        # Non-blocking: an ack or a state that does not fit the send buffer is dropped (the client retries,
        # the state is re-sent), never a stall of the board's frame loop that sent it.
        sock.setblocking(False)
        try:   # room for a controller's burst (1,000 commands ≈ 1 MB of kernel buffers); capped by rmem_max
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
        except OSError:
            pass
        self._sock = sock
        self._stamps = ReceiveStamps(sock, self.clock)      # commands stamped when they reached the machine
        try:
            self._sessions_sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            self._sessions_sock.bind((self.config["bind"], 0))
            self._sessions_sock.setblocking(False)
            self.dispatch.session_port = self._sessions_sock.getsockname()[1]
            self._sessions_stamps = ReceiveStamps(self._sessions_sock, self.clock, floor=self._stamps.floor)
        except OSError as error:         # the well-known port alone then: the clients fall back to it
            log.warning("osc: no port of the sessions' own: %s", error)
            self._sessions_sock = None
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._running = True
        self._thread = threading.Thread(target=self._serve, name="osc-server", daemon=True)
        self._thread.start()
        log.info("OSC server on udp %s:%d", *self.address)

    def _listen(self):
        """The UDP socket and, with `osc.tcp`, the SLIP listener on the same number. Asked for any port (0), a
        number whose TCP twin another program holds is given back and another taken (the kernel picks the UDP
        number alone)."""
        tries_left = ANY_PORT_TRIES if int(self.config["port"]) == 0 else 1
        while True:
            tries_left -= 1
            sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            try:
                sock.bind((self.config["bind"], int(self.config["port"])))
            except OSError as error:
                sock.close()
                raise OSError(f"osc: cannot listen on udp {self.config['bind']}:{self.config['port']}: "
                              f"{error.strerror or error}") from None
            if not self.config.get("tcp"):
                return sock, None
            try:
                return sock, SlipServer(self.config["bind"], sock.getsockname()[1],
                                        2 * int(self.config["max_sessions"]), self.feed,
                                        lambda addr: self._bad(addr, "a broken SLIP frame"), self._tcp_closed)
            except OSError:
                sock.close()
                if not tries_left:
                    raise

    def stop(self) -> None:
        self._running = False
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=2)
        for sock in (self._sock, self._sessions_sock, self._wake_r, self._wake_w):
            if sock is not None:
                sock.close()
        if self._tcp is not None:
            self._tcp.close_all()
        self._thread = self._sock = self._sessions_sock = self._wake_r = self._wake_w = self._tcp = None

    @property
    def started(self) -> bool:
        """Between start() and stop(): the links' watchdog looks after the thread."""
        return self._thread is not None

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def address(self) -> tuple[str, int]:
        assert self._sock is not None, "server not started"
        return self._sock.getsockname()

    def _wake(self) -> None:
        try:
            if self._wake_w is not None:
                self._wake_w.send(b"!")
        except OSError:             # already awake (buffer full) or closing
            pass

    def _serve(self) -> None:
        interval = float(self.config["state_interval"])
        next_push = self.monotonic() + interval
        while self._running:
            timeout = min(0.1, max(0.0, next_push - self.monotonic()), self._intake_due)
            try:
                streams = self._tcp.sockets() if self._tcp is not None else []
                ours = [self._sessions_sock] if self._sessions_sock is not None else []
                readable, _, _ = select.select([*ours, self._sock, self._wake_r, *streams], [], [], timeout)
            except (OSError, ValueError):
                return
            if self._wake_r in readable:
                try:
                    while self._wake_r.recv(4096):
                        pass
                except OSError:
                    pass
                if self.feedback.take_dirty():
                    self.feedback.push_all()
            if ours and ours[0] in readable:
                self._receive_sessions()
            if self._sock in readable:
                self._receive_some()
            for stream in readable:
                if stream not in (self._sock, self._wake_r, self._sessions_sock):
                    try:
                        self._tcp.readable(stream)
                    except Exception as error:  # as for datagrams: a bug must not end the server
                        self.quiet.crash(str(self._tcp.peer_of(stream)), "tcp data", error)
                        self._count("bad_packets")
            self._handle_fed()
            if self._tcp is not None:
                self._tcp.resume(self.room)     # streams held back for want of room, read again once there is
            now = self.monotonic()
            if now >= next_push:
                next_push = now + interval
                with self._lock:
                    for session in self.table.expire(now):
                        log.info("OSC session %d (%s) expired", session.sid, session.role)
                if self._tcp is not None:
                    self._tcp.close_idle(self.has_session, osc_tcp.CONNECT_WITHIN)   # read now: tests shorten it
                self.feedback.push_all()

    def _receive_some(self, limit: int = 256) -> None:
        """Read what is queued (up to `limit` datagrams, so pushes and expiry still get their turn): a session's
        datagram is handled at once, a stranger's waits its turn in the intake (dropped when there is no room: the
        cheapest path of all, for a flood's sake)."""
        sessions, intake, dropped = self.table.by_addr, self.intake, 0
        try:
            for _ in range(limit):
                try:
                    data, addr, at = self._stamps.recvfrom(65_535)
                except BlockingIOError:
                    return
                except OSError:
                    return    # e.g. ICMP port unreachable surfacing on some platforms: keep serving
                if addr in sessions:
                    self._handle_safely(data, addr, at)
                elif intake.strangers_full or intake.offer(data, addr, False) is not QUEUED:
                    dropped += 1
        finally:
            if dropped:                 # read, counted, dropped: no room for strangers now
                with self._lock:
                    self.counts["packets"] += dropped
                    self.counts["intake_full"] += dropped

    def _receive_sessions(self, limit: int = 256) -> None:
        """The sessions' own port: a session's datagram is handled (and its answers now leave from here); anyone
        else's is dropped unread."""
        for _ in range(limit):
            try:
                data, addr, at = self._sessions_stamps.recvfrom(65_535)
            except OSError:
                return
            session = self.table.by_addr.get(addr)
            if session is None:
                self._count("unauthorized")
                continue
            session.via_sessions_port = True
            self._handle_safely(data, addr, at)

    def _handle_safely(self, data: bytes, addr: tuple, at: Optional[float] = None) -> None:
        try:
            self.handle_datagram(data, addr, at)
        except Exception as error:          # a bug here must never take the board's remote control down
            self.quiet.crash(addr[0], "a packet", error)
            self._count("bad_packets")

    # --- other transports ---------------------------------------------------------------------------
    def attach_stream(self, stream) -> None:
        """A transport whose peers are addresses of its own (e.g. `(ip, n, "ws")`): `stream.send(addr, dgram)`
        returns True when `addr` is its peer. Its frames come in through `feed`."""
        self._streams.append(stream)

    def feed(self, data: bytes, addr: tuple):
        """A packet from a stream peer (any thread), handled on the server thread in its turn (osc/intake.py):
        QUEUED (True); FULL (False: this peer's budget is full now — stop reading it and offer it again later);
        REFUSED (None: more than its whole budget — close the stream)."""
        trusted = self._has_session(addr)
        if not trusted and self.intake.strangers_full:
            self._count("intake_full")
            return FULL                         # the cheapest answer to a flood: nothing decoded, nothing counted
        count = elements(data, PEER[trusted])
        if not trusted and count > STRANGER_MESSAGES:
            self._count("over_budget")
            self.quiet.note(str(addr[0]), "packets of more messages than a stranger may send")
            return REFUSED
        verdict = self.intake.offer(data, addr, trusted, count)
        if verdict is QUEUED:
            self._wake()
        elif verdict is FULL:
            self._count("intake_full")
        else:
            self._count("over_budget")
        return verdict

    def room(self, addr: tuple) -> bool:
        """Would a one-message packet of `addr` be queued now (a stream's back-pressure)?"""
        return self.intake.room(addr, self._has_session(addr))

    def allowed(self, ip: str) -> bool:
        """May this address try to connect at all (the `allow` list)?"""
        return self.table.allowed(ip)

    def has_session(self, addr: tuple) -> bool:
        with self._lock:
            return self.table.lookup(addr, self.monotonic()) is not None

    def _has_session(self, addr: tuple) -> bool:
        """A look without refreshing the session's idle timer (the intake's sorting). No lock: one dict look-up is
        atomic, and a session opened or ended meanwhile only sorts this one packet to the other queue."""
        return addr in self.table.by_addr

    def count_bad(self, source: str = "?") -> None:
        """A transport dropped something that was not an OSC packet (counted like a bad datagram)."""
        self._bad((source,), "a packet that is not OSC")

    def _bad(self, addr: tuple, what: str) -> None:
        self._count("bad_packets")
        self.quiet.note(str(addr[0]), what)

    def _handle_fed(self) -> None:
        for data, addr in self.intake.take():
            self._handle_safely(data, addr)
        sessions, strangers_in = self.intake.waiting()
        if sessions:
            self._wake()                        # more than one turn's worth: come back after the others
        self._intake_due = strangers_in         # strangers wait for their share of the next second

    # --- receiving ----------------------------------------------------------------------------------
    def handle_datagram(self, data: bytes, addr: tuple[str, int], at: Optional[float] = None) -> None:
        """Parse and act on one datagram from `addr` that reached the machine `at` (None: now) (the server thread,
        or a test in-process)."""
        self._count("packets")
        if not self.table.allowed(addr[0]):
            self._count("unauthorized")
            return
        stranger = not self._has_session(addr)
        if stranger and elements(data, STRANGER_MESSAGES) > STRANGER_MESSAGES:
            self._count("over_budget")          # a stranger needs one message at a time: no fan-out of work
            self.quiet.note(str(addr[0]), "packets of more messages than a stranger may send")
            return
        try:
            messages = [timed.message for timed in OscPacket(data).messages]
        except Exception:
            self._bad(addr, "packets that do not parse")
            return
        # No amplification: one short reply at most to a stranger's packet, whatever it holds (a spoofed source).
        self.dispatch.stranger_replies(1 if stranger else None)
        self.dispatch.received_at = at
        try:
            for message in messages:
                self.dispatch.handle(message, addr)
        finally:
            self.dispatch.stranger_replies(None)
            self.dispatch.received_at = None

    # --- state ------------------------------------------------------------------------------------
    def publish(self, snapshot: dict, host_question: Optional[dict]) -> None:
        """Remember the latest state; the server thread pushes it to every session at once (any thread)."""
        self.feedback.publish(snapshot, host_question)
        self._wake()                    # the server thread sends it: the board's thread does no state I/O

    # --- plumbing -----------------------------------------------------------------------------------
    def _tcp_closed(self, addr: tuple[str, int]) -> None:
        with self._lock:
            self.table.drop(addr)           # a stream's session ends with its connection

    def _send(self, dgram: bytes, addr: tuple[str, int]) -> None:
        sock = self._sock
        if sock is None:
            return
        tcp = self._tcp
        if tcp is not None and tcp.send(addr, dgram, self._has_session(addr)):
            return
        for stream in self._streams:
            if stream.send(addr, dgram):
                return
        if len(addr) != 2:
            return                              # a stream peer that has gone: never a UDP address
        session = self.table.by_addr.get(addr)
        if session is not None and session.via_sessions_port and self._sessions_sock is not None:
            sock = self._sessions_sock          # the flow the client now uses, both ways
        try:
            sock.sendto(dgram, addr)
        except OSError:
            self._count("send_errors")

    def _count(self, name: str) -> None:
        with self._lock:
            self.counts[name] += 1

    def status(self) -> dict:
        with self._lock:
            counts = dict(self.counts)
            counts["sessions"] = len(self.table.by_addr)
            counts["host_sessions"] = sum(1 for s in self.table.by_addr.values() if s.is_host)
        counts["waiting"] = self.intake.held()
        counts["shortened"] = self.feedback.shortened   # "" or what the UDP remotes get shortened (host's screen)
        return counts
