"""What each OSC message does on the board (PROTOCOL.md §2): connects, the authenticated handshake, signed and
plain commands onto the inbox, their acks (a mixin of `OscServer`, run on its server thread).

Nothing from the network is trusted: a sender without a session, a `view` session that commands, an internal
address (`/sg/clock`), a bad signature or bad arguments are counted and answered or dropped, never reaching the game.
"""
from __future__ import annotations

import hmac
import logging
from typing import Optional

from scoreboard.engine.commands import INTERNAL, BadCommand, Command, parse
from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.osc.messages import build
from scoreboard.links.osc.sessions import Denied, Session, SessionTable

log = logging.getLogger("scoreboard.links.osc")

CMD_PREFIX = "/sg/cmd/"
NOT_CONNECTED_EVERY = 0.5     # seconds between "not connected" replies to one address
UNSIGNED_REQUESTS = frozenset({"/sg/setup/catalog"})    # read-only: a signed session may still send them plainly


class Dispatch:
    """The messages of one datagram, once parsed: needs the server's table, lock, inbox, clocks, `_send`,
    `_send_state` and `_count`."""

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
