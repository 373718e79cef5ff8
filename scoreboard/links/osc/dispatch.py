"""What each OSC message does on the board (PROTOCOL.md §2): connects, the authenticated handshake, signed and
plain commands onto the inbox, their acks (sent by `feedback.Feedback`). Run on the OSC server's thread.

The routing is an address map (`routes.AddressMap`, python-osc's `Dispatcher.map`), built once below: the connects
and the handshake are open to anyone; every other address passes the session gate first (a sender without a live
session is counted and, at most twice a second, told "not connected"); unsigned commands also pass the signed-only
guard. Nothing from the network is trusted: a sender without a session, a `view` session that commands, an internal
address (`/sg/clock`), a bad signature or bad arguments are counted and answered or dropped, never reaching the game.

No amplification: while the server handles a stranger's datagram (`stranger_replies`), it gets at most one reply,
however many messages it holds. A signed session's own `/sg/disconnect` must be signed (`/sg/sig/disconnect sid id
mac`): an unsigned one from its address is someone else's, and is refused.
"""
from __future__ import annotations

import logging
import threading
from typing import Callable, Optional

from pythonosc.osc_message import OscMessage

from scoreboard.engine.commands import INTERNAL, BadCommand, Command, parse
from scoreboard.links.inbox import Inbox
from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.osc.feedback import Feedback
from scoreboard.links.osc.messages import build, build_doubles
from scoreboard.links.osc.routes import AddressMap
from scoreboard.links.osc.sessions import STALE, Denied, Session, SessionTable
from scoreboard.links.phones import seats as phone_seats

log = logging.getLogger("scoreboard.links.osc")

CMD_PREFIX = "/sg/cmd/"
NOT_CONNECTED_EVERY = 0.5     # seconds between "not connected" replies to one address
UNSIGNED_REQUESTS = frozenset({"/sg/setup/catalog"})    # read-only: a signed session may still send them plainly
SIGNED_SESSION_ADDRESSES = frozenset({"/sg/disconnect"})  # signed, they act on the session, not the game
InSession = Callable[[Session, str, list], None]


class BoardDispatch:
    """The board's address map and its handlers. A handler gets the sender (`needs_reply_address`), the address and
    the arguments; behind the session gate, the session, the address and the arguments."""

    def __init__(self, config: dict, table: SessionTable, lock: threading.Lock, inbox: Inbox,
                 clock: Callable[[], float], monotonic: Callable[[], float], feedback: Feedback,
                 count: Callable[[str], None], note: Callable[[str, str], object] = lambda source, what: None):
        self.config = config
        self.table = table
        self._lock = lock                   # the server's: the session table and its sessions' records
        self.inbox = inbox
        self.clock = clock                  # engine seconds: the stamp of every command
        self.monotonic = monotonic          # session idle timers, challenge ages
        self.feedback = feedback
        self._count = count
        self._note = note                   # osc/quiet.py: bad input logged once a minute per source and kind
        self.replies_left: Optional[int] = None    # while a stranger's datagram is handled: replies it may still get
        self.session_port: Optional[int] = None    # the sessions' own UDP port (osc/server.py), told signed sessions
        self.received_at: Optional[float] = None   # while a datagram is handled: when it reached the machine (rxstamp)
        self._challenger = osc_auth.Challenger(monotonic)
        self.verifier = osc_auth.Verifier(config["passcode"], config["view_passcode"],
                                          osc_auth.board_key(config.get("key", "")))
        self._told: dict[tuple, float] = {}     # when each stranger was last told "not connected"
        self.setup = None                   # the board's SetupDesk (app/setup_desk.py): /sg/setup/* (ext)
        # players' phones (docs/PHONE_BUTTONS.md): a list() of the table's values is taken whole under the GIL
        self.phones = phone_seats.Phones(clock, lambda sid: any(s.sid == sid for s in list(table.by_addr.values())),
                                         self.verifier.key)
        self.routes = AddressMap()
        for address, handler in (("/sg/connect", self._plain_connect), ("/sg/auth/hello", self._hello),
                                 ("/sg/auth/connect", self._auth_connect)):
            self.routes.map(address, handler, needs_reply_address=True)
        for address, in_session in (("/sg/ping", self._ping), ("/sg/sync", self._sync),
                                    ("/sg/phone/time", self._phone_time), ("/sg/host/seats", self._host_seats),
                                    ("/sg/disconnect", self._disconnect), (osc_auth.SIG_PREFIX + "*", self._signed),
                                    (CMD_PREFIX + "*", self._signed_only(self._with_id))):
            self.routes.map(address, self._gate(in_session), needs_reply_address=True)
        self.routes.set_default_handler(self._gate(self._signed_only(self._plain_command)), needs_reply_address=True)

    def handle(self, message: OscMessage, sender: tuple) -> None:
        """One message of a datagram from `sender`, already parsed."""
        self.routes.handler_for(message.address).invoke(sender, message)

    def stranger_replies(self, replies: Optional[int]) -> None:
        """The server's thread, around a stranger's datagram: at most `replies` answers to it (None: no limit)."""
        self.replies_left = replies

    def _send(self, dgram: bytes, addr: tuple) -> None:
        if self.replies_left is not None:
            if self.replies_left <= 0:
                self._count("replies_withheld")
                return
            self.replies_left -= 1
        self.feedback.send(dgram, addr)

    # --- the gates ----------------------------------------------------------------------------------
    def _gate(self, handler: InSession) -> Callable:
        """Only a live session's messages reach `handler`."""
        def gated(sender: tuple, address: str, *params) -> None:
            now = self.monotonic()
            with self._lock:
                session = self.table.lookup(sender, now)
            if session is None:
                self._stranger(sender, address, now)
                return
            handler(session, address, list(params))
        return gated

    def _stranger(self, sender: tuple, address: str, now: float) -> None:
        self._count("unauthorized")
        # Tell a client whose session expired, but at most twice a second per address: a stranger
        # spraying packets (or spoofing someone else's address) gets no stream of replies.
        if address.startswith("/sg/") and now - self._told.get(sender, -1e9) >= NOT_CONNECTED_EVERY:
            if len(self._told) > 1024:
                self._told.clear()
            self._told[sender] = now
            self._send(build("/sg/denied", "not connected: send /sg/connect passcode [host|view]"), sender)

    def _signed_only(self, handler: InSession) -> InSession:
        """A signed session's address sending unsigned commands is someone else using it (a spoofed datagram, a
        sniffed WebSocket token): only the read-only requests go unsigned."""
        def guarded(session: Session, address: str, params: list) -> None:
            if (session.seat is not None or session.is_host and (session.key is not None or self.config.get(
                    "require_auth"))) and address not in UNSIGNED_REQUESTS:
                self._count("unsigned_refused")
                self.feedback.error(session, address, "this board takes signed commands only (/sg/sig/...)")
                return
            handler(session, address, params)
        return guarded

    # --- open to anyone -----------------------------------------------------------------------------
    def _plain_connect(self, sender: tuple, address: str, *params) -> None:
        self._connect(list(params), sender, self.monotonic())

    def _hello(self, sender: tuple, address: str, *params) -> None:
        peer = osc_auth.peer_text(sender)
        self._send(build("/sg/auth/challenge", *self.verifier.challenge(self._challenger.issue(peer), peer)), sender)

    def _auth_connect(self, addr: tuple, address: str, *params) -> None:
        """The authenticated connect (osc_auth): the key or the stretched passcode is proven, never sent; the session
        gets a key. Four arguments are the older handshake, which a sniffer could turn into the passcode: refused."""
        if len(params) != 5 or not all(isinstance(p, str) for p in params):
            self._count("denied")
            self._send(build("/sg/denied", "usage: /sg/auth/connect role bnonce cnonce proof salt (a remote older "
                             "than this board's authenticated mode: update it)"), addr)
            return
        role, bnonce, cnonce, proof, salt = params
        peer = osc_auth.peer_text(addr)
        if not self._challenger.fresh(bnonce, peer) or salt != self.verifier.salt_text:
            self._count("denied")
            self._send(build("/sg/denied", "stale or foreign challenge: send /sg/auth/hello again", cnonce), addr)
            return
        # The challenge made its round trip: this sender is at `addr`, so from here a wrong proof counts against it
        # (the authenticated brake, never braked by plain connects anyone can spoof). Which secret the proof shows
        # knowledge of (the board's key or a stretched passcode); none: the table counts a wrong passcode.
        proven = self.verifier.proven(role, bnonce, cnonce, peer, proof)
        self._connect([proven[0] if proven is not None else "\x00not the passcode", role], addr, self.monotonic(),
                      auth=(cnonce, proven[1] if proven is not None else None))

    def _host_seats(self, session: Session, address: str, params: list) -> None:
        """`/sg/host/seats`: the seats' links and QR codes and the phones' state, to a host over a stream (a UDP
        datagram would not hold them), signed like its states."""
        if not session.is_host or len(session.addr) == 2:
            self._count("view_refused")
            return
        text = phone_seats.host_view(self.phones)
        mac = (osc_auth.seats_mac(session.key, session.sid, text),) if session.key is not None else ()
        self._send(build("/sg/host/seats", text, *mac), session.addr)

    def _phone_time(self, session: Session, address: str, params: list) -> None:
        """`/sg/phone/time n prev hold_us sent mac`, a seat's phone sampling the board's clock, signed with its session's
        key: answered at once with the board's receive and send stamps, as doubles (docs/PHONE_BUTTONS.md). Unsigned,
        forged or replayed, it is dropped and counted: it would change the link the board measures for that phone."""
        t1 = self.arrival()
        try:
            if len(params) != 5:                # the old unsigned form among them: a sniffer's
                self._count("unsigned_refused")
                return
            n, prev, hold_us, sent, mac = params
            if session.key is None or not osc_auth.same(mac, osc_auth.time_mac(
                    session.key, session.sid, n, prev, hold_us, sent if isinstance(sent, str) else "\x00")):
                self._count("forged")
                self._note(str(session.addr[0]), "clock samples whose MAC does not check")
                return
            n, _ = self.phones.time(session.sid, n, prev, hold_us, t1, sent, session.key)
        except phone_seats.Refused:
            self._count("bad_commands")
            return
        t2 = self.clock()
        self._send(build_doubles("/sg/phone/time", n, t1, t2), session.addr)
        self.phones.replied(session.sid, n, t2)

    # --- behind the session gate -------------------------------------------------------------------
    def _ping(self, session: Session, address: str, params: list) -> None:
        nonce = params[0] if len(params) == 1 and isinstance(params[0], str) and len(params[0]) <= 32 else None
        if session.key is not None and nonce is not None:    # signed: the client trusts no other pong
            self._send(build("/sg/pong", nonce, osc_auth.pong_mac(session.key, session.sid, nonce)), session.addr)
        else:
            self._send(build("/sg/pong"), session.addr)

    def _sync(self, session: Session, address: str, params: list) -> None:
        self.feedback.send_state(session)

    def _disconnect(self, session: Session, address: str, params: list) -> None:
        if session.key is not None:             # a signed session ends by its signed disconnect only
            self._count("unsigned_refused")
            return
        with self._lock:
            self.table.drop(session.addr)

    def _signed(self, session: Session, address: str, params: list) -> None:
        """`/sg/sig/<address> sid id args… mac`: applied (once per id) only when the MAC checks with this
        session's key; a forged, altered or other-session datagram is refused and counted."""
        addr, address = session.addr, "/sg/" + address[len(osc_auth.SIG_PREFIX):]
        if (session.key is None or len(params) < 3 or params[0] != session.sid
                or not isinstance(params[1], int) or isinstance(params[1], bool)
                or not osc_auth.same(params[-1], osc_auth.command_mac(session.key, session.sid, params[1], address,
                                                                    osc_auth.peer_text(addr), params[2:-1]))):
            self._count("forged")
            self._note(str(addr[0]), "signed messages whose MAC does not check")
            self.feedback.error(session, address, "bad signature")
            return
        if address in SIGNED_SESSION_ADDRESSES:
            with self._lock:
                first, _ = SessionTable.first_copy(session, params[1])
                if first:                       # a replayed disconnect of this session ends nothing
                    self.table.drop(addr)
            return
        self._exactly_once(session, address, [params[1], *params[2:-1]])

    def _connect(self, params: list, addr: tuple[str, int], now: float, auth: tuple | None = None) -> None:
        passcode = params[0] if params else None
        role = params[1] if len(params) > 1 else "host"
        try:
            if auth is None and role == "host" and self.config.get("require_auth"):
                raise Denied("this board takes the authenticated connect only (/sg/auth/hello)")
            if len(params) > 2:
                raise Denied("usage: /sg/connect passcode [host|view]")
            with self._lock:
                session = self.table.connect(addr, passcode, role, now, "plain" if auth is None else "auth",
                                             seat_proven=auth is not None and auth[1] is not None)
        except Denied as refusal:
            self._count("denied")
            self._note(str(addr[0]), f"connects refused ({str(refusal).split(':')[0]})")
            # The authenticated connect's refusal names its cnonce: a client ignores a spoofed «wrong passcode».
            self._send(build("/sg/denied", str(refusal), *([auth[0]] if auth is not None else [])), addr)
            return
        self.replies_left = None                # a session now: its answer and state are not a stranger's
        log.info("OSC session %d (%s) for %s:%s", session.sid, session.role, addr[0], addr[1])
        if auth is not None:
            with self._lock:
                if session.nonces is not None and session.nonces[0] == auth[0]:
                    snonce = session.nonces[1]      # the client's retry of the same connect: the same key
                else:
                    snonce = osc_auth.new_nonce()
                    session.key = osc_auth.session_key(auth[1], session.sid, snonce, auth[0])   # auth[1]: the secret
                    session.nonces = (auth[0], snonce)
                    # A new key: nothing signed with the old one checks any more, so the stale-id floor starts again
                    # (a restarted remote at the same address counts its ids from a new start).
                    session.floor = -2**63
                # A UDP session is told the sessions' own port, under the MAC (a forged port would lose its commands).
                port = (self.session_port,) if self.session_port and len(addr) == 2 else ()
                mac = osc_auth.connected_mac(session.key, session.sid, snonce, *port)
            self._send(build("/sg/connected", session.sid, snonce, *port, mac), addr)
        else:
            self._send(build("/sg/connected", session.sid), addr)
        if session.seat is not None:            # a player's phone: the seat is its, or waits for the host's tap
            self._send(build("/sg/phone/seat", session.seat, self.phones.joined(session.sid, session.seat)), addr)
        self.feedback.send_state(session)

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
        return Command(self.arrival(), address, args)

    def arrival(self) -> float:
        """The stamp of what is being handled: when its datagram reached the machine (the kernel's stamp, osc/rxstamp.py),
        else now (a stream's packet, a platform without receive stamps)."""
        return self.received_at if self.received_at is not None else self.clock()

    def _setup(self, address: str, params: list, session: Session, result) -> bool:
        """`/sg/setup/*` goes to the set-up desk, which answers this session alone; False: not a set-up address."""
        if self.setup is None or not self.setup.handles(address):
            return False
        self._count("commands")
        self.setup.handle(address, params, session.is_host,
                          lambda *args, address="/sg/setup/catalog": self.feedback.send(build(address, *args),
                                                                                        session.addr), result)
        return True

    def _phone(self, address: str, params: list, session: Session, cid: int) -> bool:
        """A phone's press (`/sg/press seat touch`, its seat's session only) onto the inbox, stamped and clamped; the
        host's tap letting a second phone take a seat (`/sg/seat/admit seat`). False: neither."""
        if address not in ("/sg/press", "/sg/seat/admit"):
            return session.seat is not None and self._refuse(session, cid, "a phone sends its press only")
        try:
            if address == "/sg/seat/admit":
                if not session.is_host:
                    raise phone_seats.Refused("only the host admits a phone")
                if len(params) != 1 or not isinstance(params[0], int) or isinstance(params[0], bool):
                    raise phone_seats.Refused("usage: /sg/seat/admit seat")
                self._resolve(session, cid, True, self.phones.admit(params[0]) and None)
                return True
            if session.seat is None:
                raise phone_seats.Refused("only a seat's phone presses (/sg/button for a remote)")
            cmd = self.phones.press(session.sid, session.seat, params, self.arrival())
        except phone_seats.Refused as refusal:
            self._count("view_refused")
            return self._refuse(session, cid, str(refusal))
        self._count("commands")
        self.inbox.put(cmd, f"phone:{session.sid}", lambda ok, reason: self._resolve(session, cid, ok, reason))
        return True

    def _refuse(self, session: Session, cid: int, reason: str) -> bool:
        self._resolve(session, cid, False, reason)
        return True

    def _plain_command(self, session: Session, address: str, params: list) -> None:
        if self._setup(address, params, session, lambda ok, reason: ok or self.feedback.error(
                session, address, reason or "refused")):
            return
        try:
            cmd = self._check(address, params, session)
        except (BadCommand, PermissionError) as refusal:
            self.feedback.error(session, address, str(refusal))
            return

        def on_result(ok: bool, reason: Optional[str]) -> None:
            if not ok:
                self.feedback.error(session, address, reason or "refused")

        self._count("commands")
        self.inbox.put(cmd, f"osc:{session.sid}", on_result)

    def _with_id(self, session: Session, address: str, params: list) -> None:
        """`/sg/cmd/<address> id args…`: the unsigned exactly-once form."""
        self._exactly_once(session, "/sg/" + address[len(CMD_PREFIX):], params)

    def _exactly_once(self, session: Session, address: str, params: list) -> None:
        """`id args…` of `address`, unsigned or its signature checked: applied once per (session, id), every copy
        acked."""
        if not params or not isinstance(params[0], int) or isinstance(params[0], bool):
            self._count("bad_commands")
            self.feedback.error(session, address, "the first argument of /sg/cmd/... must be an int id")
            return
        cid, params = params[0], params[1:]
        with self._lock:
            first, result = SessionTable.first_copy(session, cid)
        if not first:
            self._count("stale" if result is STALE else "duplicates")
            if result is not None:              # answer every copy; a pending one is answered on resolution
                self.feedback.ack(session, cid, *result)
            return
        if self._setup(address, params, session, lambda ok, reason: self._resolve(session, cid, ok, reason)):
            return
        if self._phone(address, params, session, cid):
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
        self.feedback.ack(session, cid, ok, reason)
