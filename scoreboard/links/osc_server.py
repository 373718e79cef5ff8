"""The board's OSC server (PROTOCOL.md §2): sessions, commands onto the inbox, acks, state push.

One thread owns the UDP socket: it parses each datagram, checks the sender's session and puts commands on
the inbox. Acks are sent when the board loop reports the result (`on_result`, called on the board's thread),
so an ack means "applied" or "refused", never just "received". `publish` (board thread) stores the state and
wakes the server thread, which pushes it at once, re-sends the latest every `state_interval` seconds and
expires idle sessions. Bundle time tags are ignored (strict timing off): everything is applied as it arrives.

Nothing from the network is trusted: a datagram that does not parse, a sender without a session, a `view`
session that commands, an internal address (`/sg/clock`) or bad arguments are counted and answered or
dropped, and never reach the game. The messages are listed in docs/LINKS.md.
"""
from __future__ import annotations

import hmac
import json
import logging
import select
import socket
import threading
import time
from collections import deque
from typing import Any, Callable, Optional

from pythonosc.osc_message_builder import OscMessageBuilder
from pythonosc.osc_packet import OscPacket

from scoreboard.engine.commands import INTERNAL, BadCommand, Command, parse
from scoreboard.links.inbox import Inbox
from scoreboard.links import osc_auth
from scoreboard.links.sessions import Denied, Session, SessionTable

log = logging.getLogger("scoreboard.links.osc")

CMD_PREFIX = "/sg/cmd/"
# Largest state we try to send in one UDP datagram (IPv4 limit minus headers).
MAX_DATAGRAM = 65_000
NOT_CONNECTED_EVERY = 0.5     # seconds between "not connected" replies to one address
UNSIGNED_REQUESTS = frozenset({"/sg/setup/catalog"})    # read-only: a signed session may still send them plainly
RECEIVE_BUFFER = 2 << 20      # bytes of UDP receive buffer asked for
COUNTERS = ("packets", "bad_packets", "unauthorized", "denied", "bad_commands", "internal_refused",
            "view_refused", "duplicates", "commands", "acks_sent", "states_sent", "send_errors",
            "state_too_big", "forged", "unsigned_refused")


class _QuietPythonOsc(logging.Filter):
    """python-osc warns on the root logger for every unknown type tag it meets: a stranger spraying
    garbage must not be able to flood the board's log. We count those packets instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name == "root" and "pythonosc" in record.pathname.replace("\\", "/"))


_QUIET = _QuietPythonOsc()


def build(address: str, *args: Any) -> bytes:
    """One OSC message as bytes (ints as int32 when they fit, strings, floats)."""
    builder = OscMessageBuilder(address=address)
    for arg in args:
        builder.add_arg(arg)
    return builder.build().dgram


class OscServer:
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
        # Pushes run on the server thread (publish only wakes it); the lock keeps a test or a future caller
        # on another thread from interleaving an older state after a newer one.
        self._push_lock = threading.RLock()
        self._told: dict[tuple[str, int], float] = {}   # when each stranger was last told "not connected"
        self._dirty = False
        self._wake_r = self._wake_w = None
        self._tcp = None                    # SlipServer when osc.tcp: SLIP-framed clients on the same port
        # Other stream transports (the web remote's WebSockets): each has send(addr, dgram) -> bool and feeds
        # its frames through feed(), so they are handled on this server's thread like UDP and TCP.
        self._streams: list = []
        self._fed: deque = deque()
        self._challenger = osc_auth.Challenger(monotonic)
        self._state: Optional[bytes] = None
        self._question: Optional[bytes] = None
        self._sock: Optional[socket.socket] = None
        self._thread: Optional[threading.Thread] = None
        self._running = False
        self.setup = None                   # the board's SetupDesk (links/setup_desk.py): /sg/setup/* (ext)

    # --- lifecycle ----------------------------------------------------------------------------------
    def start(self) -> None:
        if _QUIET not in logging.getLogger().filters:
            logging.getLogger().addFilter(_QUIET)
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            sock.bind((self.config["bind"], int(self.config["port"])))
        except OSError as error:
            sock.close()
            raise OSError(f"osc: cannot listen on udp {self.config['bind']}:{self.config['port']}: "
                          f"{error.strerror or error}") from None
        # Non-blocking: an ack or a state that does not fit the send buffer is dropped (the client retries,
        # the state is re-sent), never a stall of the board's frame loop that sent it.
        sock.setblocking(False)
        try:   # room for a controller's burst (1,000 commands ≈ 1 MB of kernel buffers); capped by rmem_max
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
        except OSError:
            pass
        self._sock = sock
        if self.config.get("tcp"):
            from scoreboard.links.osc_tcp import SlipServer
            try:
                self._tcp = SlipServer(self.config["bind"], sock.getsockname()[1],
                                       2 * int(self.config["max_sessions"]), self.handle_datagram,
                                       lambda: self._count("bad_packets"), self._tcp_closed)
            except OSError:
                sock.close()
                raise
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._running = True
        self._thread = threading.Thread(target=self._serve, name="osc-server", daemon=True)
        self._thread.start()
        log.info("OSC server on udp %s:%d", *self.address)

    def stop(self) -> None:
        self._running = False
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=2)
        for sock in (self._sock, self._wake_r, self._wake_w):
            if sock is not None:
                sock.close()
        if self._tcp is not None:
            self._tcp.close_all()
        self._thread = self._sock = self._wake_r = self._wake_w = self._tcp = None

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
            timeout = min(0.1, max(0.0, next_push - self.monotonic()))
            try:
                streams = self._tcp.sockets() if self._tcp is not None else []
                readable, _, _ = select.select([self._sock, self._wake_r, *streams], [], [], timeout)
            except (OSError, ValueError):
                return
            if self._wake_r in readable:
                try:
                    while self._wake_r.recv(4096):
                        pass
                except OSError:
                    pass
                if self._dirty:
                    self._dirty = False
                    self._push_all()
            if self._sock in readable:
                self._receive_some()
            self._handle_fed()
            for stream in readable:
                if stream not in (self._sock, self._wake_r):
                    try:
                        self._tcp.readable(stream)
                    except Exception:           # as for datagrams: a bug must not end the server
                        log.exception("OSC tcp data crashed the handler")
                        self._count("bad_packets")
            now = self.monotonic()
            if now >= next_push:
                next_push = now + interval
                with self._lock:
                    for session in self.table.expire(now):
                        log.info("OSC session %d (%s) expired", session.sid, session.role)
                if self._tcp is not None:
                    from scoreboard.links.osc_tcp import CONNECT_WITHIN
                    self._tcp.close_idle(self.has_session, CONNECT_WITHIN)
                self._push_all()

    def _receive_some(self, limit: int = 256) -> None:
        """Handle what is queued (up to `limit` datagrams, so pushes and expiry still get their turn)."""
        for _ in range(limit):
            try:
                data, addr = self._sock.recvfrom(65_535)
            except BlockingIOError:
                return
            except OSError:
                return        # e.g. ICMP port unreachable surfacing on some platforms: keep serving
            try:
                self.handle_datagram(data, addr)
            except Exception:                   # a bug here must never take the board's remote control down
                log.exception("OSC datagram from %s crashed the handler", addr)
                self._count("bad_packets")

    # --- other transports ---------------------------------------------------------------------------
    def attach_stream(self, stream) -> None:
        """A transport whose peers are addresses of its own (e.g. `(ip, n, "ws")`): `stream.send(addr, dgram)`
        returns True when `addr` is its peer. Its frames come in through `feed`."""
        self._streams.append(stream)

    def feed(self, data: bytes, addr: tuple) -> None:
        """A frame from a stream peer (any thread): handled on the server thread, in arrival order."""
        self._fed.append((data, addr))
        self._wake()

    def stream_closed(self, addr: tuple) -> None:
        """A stream peer went away (any thread): its session ends, as a TCP client's does."""
        self._fed.append((None, addr))
        self._wake()

    def allowed(self, ip: str) -> bool:
        """May this address try to connect at all (the `allow` list)?"""
        return self.table.allowed(ip)

    def has_session(self, addr: tuple) -> bool:
        with self._lock:
            return self.table.lookup(addr, self.monotonic()) is not None

    def count_bad(self) -> None:
        """A transport dropped something that was not an OSC packet (counted like a bad datagram)."""
        self._count("bad_packets")

    def _handle_fed(self, limit: int = 256) -> None:
        for _ in range(limit):
            try:
                data, addr = self._fed.popleft()
            except IndexError:
                return
            if data is None:
                self._tcp_closed(addr)
                continue
            try:
                self.handle_datagram(data, addr)
            except Exception:                   # as for datagrams: a bug must not end the server
                log.exception("OSC frame from %s crashed the handler", addr)
                self._count("bad_packets")
        if self._fed:
            self._wake()                        # more than one turn's worth: come back after the others

    # --- receiving ----------------------------------------------------------------------------------
    def handle_datagram(self, data: bytes, addr: tuple[str, int]) -> None:
        """Parse and act on one datagram from `addr` (the server thread, or a test in-process)."""
        self._count("packets")
        if not self.table.allowed(addr[0]):
            self._count("unauthorized")
            return
        try:
            messages = [timed.message for timed in OscPacket(data).messages]
        except Exception:
            self._count("bad_packets")
            return
        for message in messages:
            try:
                address, params = message.address, list(message.params)
            except Exception:
                self._count("bad_packets")
                continue
            self._handle_message(address, params, addr)

    def _handle_message(self, address: str, params: list, addr: tuple[str, int]) -> None:
        now = self.monotonic()
        if address == "/sg/connect":
            self._connect(params, addr, now)
            return
        if address == "/sg/auth/hello":
            peer = osc_auth.peer_text(addr)
            self._send(build("/sg/auth/challenge", self._challenger.issue(peer), peer), addr)
            return
        if address == "/sg/auth/connect":
            self._auth_connect(params, addr, now)
            return
        with self._lock:
            session = self.table.lookup(addr, now)
        if session is None:
            self._count("unauthorized")
            # Tell a client whose session expired, but at most twice a second per address: a stranger
            # spraying packets (or spoofing someone else's address) gets no stream of replies.
            if address.startswith("/sg/") and now - self._told.get(addr, -1e9) >= NOT_CONNECTED_EVERY:
                if len(self._told) > 1024:
                    self._told.clear()
                self._told[addr] = now
                self._send(build("/sg/denied", "not connected: send /sg/connect passcode [host|view]"), addr)
            return
        if address == "/sg/ping":
            self._send(build("/sg/pong"), addr)
        elif address == "/sg/sync":
            self._send_state(session)
        elif address == "/sg/disconnect":
            with self._lock:
                self.table.drop(addr)
        elif address.startswith(osc_auth.SIG_PREFIX):
            self._signed_command("/sg/" + address[len(osc_auth.SIG_PREFIX):], params, session, addr)
        elif session.is_host and (session.key is not None or self.config.get("require_auth")) \
                and address not in UNSIGNED_REQUESTS:
            # A signed session's address sending unsigned commands is someone else using it (a spoofed
            # datagram, a sniffed WebSocket token): only the read-only requests go unsigned.
            self._count("unsigned_refused")
            self._send(build("/sg/error", address, "this board takes signed commands only (/sg/sig/...)"), addr)
        elif address.startswith(CMD_PREFIX):
            self._command_with_id("/sg/" + address[len(CMD_PREFIX):], params, session)
        else:
            self._plain_command(address, params, session)

    def _auth_connect(self, params: list, addr: tuple, now: float) -> None:
        """The authenticated connect (osc_auth): the passcode is proven, never sent; the session gets a key."""
        if len(params) != 4 or not all(isinstance(p, str) for p in params):
            self._count("denied")
            self._send(build("/sg/denied", "usage: /sg/auth/connect role bnonce cnonce proof"), addr)
            return
        role, bnonce, cnonce, proof = params
        peer = osc_auth.peer_text(addr)
        if not self._challenger.fresh(bnonce, peer):
            self._count("denied")
            self._send(build("/sg/denied", "stale or foreign challenge: send /sg/auth/hello again"), addr)
            return
        # Which passcode the proof shows knowledge of; none: the table counts a wrong passcode (throttling).
        candidates = [self.config["passcode"]] + ([self.config["view_passcode"]] if role == "view" else [])
        proven = next((code for code in candidates if code and hmac.compare_digest(
            proof, osc_auth.connect_proof(code, role, bnonce, cnonce, peer))), None)
        self._connect([proven if proven is not None else "\x00not the passcode", role], addr, now,
                      auth=(cnonce, proven))

    def _signed_command(self, address: str, params: list, session: Session, addr: tuple) -> None:
        """`/sg/sig/<address> sid id args… mac`: applied (once per id) only when the MAC checks with this
        session's key; a forged, altered or other-session datagram is refused and counted."""
        if (session.key is None or len(params) < 3 or params[0] != session.sid
                or not isinstance(params[1], int) or isinstance(params[1], bool)
                or not osc_auth.same(params[-1], osc_auth.command_mac(session.key, session.sid, params[1], address,
                                                                    osc_auth.peer_text(addr), params[2:-1]))):
            self._count("forged")
            self._send(build("/sg/error", address, "bad signature"), addr)
            return
        self._command_with_id(address, [params[1], *params[2:-1]], session)

    def _connect(self, params: list, addr: tuple[str, int], now: float, auth: tuple | None = None) -> None:
        passcode = params[0] if params else None
        role = params[1] if len(params) > 1 else "host"
        try:
            if auth is None and role == "host" and self.config.get("require_auth"):
                raise Denied("this board takes the authenticated connect only (/sg/auth/hello)")
            if len(params) > 2:
                raise Denied("usage: /sg/connect passcode [host|view]")
            with self._lock:
                session = self.table.connect(addr, passcode, role, now)
        except Denied as refusal:
            self._count("denied")
            self._send(build("/sg/denied", str(refusal)), addr)
            return
        log.info("OSC session %d (%s) for %s:%s", session.sid, session.role, addr[0], addr[1])
        if auth is not None:
            with self._lock:
                if session.nonces is not None and session.nonces[0] == auth[0]:
                    snonce = session.nonces[1]      # the client's retry of the same connect: the same key
                else:
                    snonce = osc_auth.new_nonce()
                    session.key = osc_auth.session_key(auth[1], session.sid, snonce, auth[0])
                    session.nonces = (auth[0], snonce)
            self._send(build("/sg/connected", session.sid, snonce), addr)
        else:
            self._send(build("/sg/connected", session.sid), addr)
        self._send_state(session)

    def _check(self, address: str, params: list, session: Session) -> Command:
        """The stamped command, or BadCommand/PermissionError with the reason."""
        if address in INTERNAL:
            self._count("internal_refused")
            raise PermissionError(f"{address} is internal to the board")
        if not session.is_host:
            self._count("view_refused")
            raise PermissionError("a view session may not send commands")
        try:
            args = parse(address, params)
        except BadCommand:
            self._count("bad_commands")
            raise
        return Command(self.clock(), address, args)

    def _setup(self, address: str, params: list, session: Session, result) -> bool:
        """`/sg/setup/*` goes to the set-up desk, which answers this session alone; False: not a set-up address."""
        if self.setup is None or not self.setup.handles(address):
            return False
        self._count("commands")
        self.setup.handle(address, params, session.is_host,
                          lambda text: self._send(build("/sg/setup/catalog", text), session.addr), result)
        return True

    def _plain_command(self, address: str, params: list, session: Session) -> None:
        if self._setup(address, params, session, lambda ok, reason: ok or self._send(
                build("/sg/error", address, reason or "refused"), session.addr)):
            return
        try:
            cmd = self._check(address, params, session)
        except (BadCommand, PermissionError) as refusal:
            self._send(build("/sg/error", address, str(refusal)), session.addr)
            return

        def on_result(ok: bool, reason: Optional[str]) -> None:
            if not ok:
                self._send(build("/sg/error", address, reason or "refused"), session.addr)

        self._count("commands")
        self.inbox.put(cmd, f"osc:{session.sid}", on_result)

    def _command_with_id(self, address: str, params: list, session: Session) -> None:
        if not params or not isinstance(params[0], int) or isinstance(params[0], bool):
            self._count("bad_commands")
            self._send(build("/sg/error", address, "the first argument of /sg/cmd/... must be an int id"),
                       session.addr)
            return
        cid, params = params[0], params[1:]
        with self._lock:
            first, result = SessionTable.first_copy(session, cid)
        if not first:
            self._count("duplicates")
            if result is not None:              # answer every copy; a pending one is answered on resolution
                self._ack(session, cid, *result)
            return
        if self._setup(address, params, session, lambda ok, reason: self._resolve(session, cid, ok, reason)):
            return
        try:
            cmd = self._check(address, params, session)
        except (BadCommand, PermissionError) as refusal:
            self._resolve(session, cid, False, str(refusal))
            return

        def on_result(ok: bool, reason: Optional[str]) -> None:
            self._resolve(session, cid, ok, reason)

        self._count("commands")
        self.inbox.put(cmd, f"osc:{session.sid}", on_result)

    def _resolve(self, session: Session, cid: int, ok: bool, reason: Optional[str]) -> None:
        with self._lock:
            SessionTable.resolve(session, cid, ok, reason)
        self._ack(session, cid, ok, reason)

    def _ack(self, session: Session, cid: int, ok: bool, reason: Optional[str]) -> None:
        if session.key is not None:         # signed, so a forged "ok" cannot mislead the host
            mac = osc_auth.ack_mac(session.key, session.sid, cid, ok, "" if ok else reason or "refused")
            message = (build("/sg/ack", cid, "ok", mac) if ok else
                       build("/sg/ack", cid, "error", reason or "refused", mac))
        else:
            message = build("/sg/ack", cid, "ok") if ok else build("/sg/ack", cid, "error", reason or "refused")
        self._count("acks_sent")
        self._send(message, session.addr)

    # --- state --------------------------------------------------------------------------------------
    def publish(self, snapshot: dict, host_question: Optional[dict]) -> None:
        """Remember the latest state; the server thread pushes it to every session at once (any thread)."""
        rev = int(snapshot.get("rev", 0))
        # default=str: a value JSON cannot carry (a Path in a question's media) is sent as text rather than
        # raising into the board's frame loop.
        encode = lambda value: json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)  # noqa
        state = build("/sg/state", rev, encode(snapshot))
        question = build("/sg/host/question", encode(host_question), rev)
        with self._lock:
            self._state, self._question = state, question
            self._dirty = True
        self._wake()                    # the server thread sends it: the board's thread does no state I/O

    def _push_all(self) -> None:
        with self._push_lock:
            with self._lock:
                sessions = self.table.sessions()
            for session in sessions:
                self._send_state(session)

    def _send_state(self, session: Session) -> None:
        with self._push_lock:
            with self._lock:
                state, question = self._state, self._question
            if state is None:
                return
            if len(state) > MAX_DATAGRAM:
                self._count("state_too_big")
                return
            self._count("states_sent")
            self._send(state, session.addr)
            if session.is_host and question is not None and len(question) <= MAX_DATAGRAM:
                self._send(question, session.addr)

    # --- plumbing -----------------------------------------------------------------------------------
    def _tcp_closed(self, addr: tuple[str, int]) -> None:
        with self._lock:
            self.table.drop(addr)           # a stream's session ends with its connection

    def _send(self, dgram: bytes, addr: tuple[str, int]) -> None:
        sock = self._sock
        if sock is None:
            return
        tcp = self._tcp
        if tcp is not None and tcp.send(addr, dgram):
            return
        for stream in self._streams:
            if stream.send(addr, dgram):
                return
        if len(addr) != 2:
            return                              # a stream peer that has gone: never a UDP address
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
        return counts
