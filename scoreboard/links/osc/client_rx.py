"""What the board's datagrams do to the OSC client (osc/client.py): connect answers, acks, state, errors.

Runs on the client's reader thread (osc/reader.py). An address map (`routes.AddressMap`, python-osc's `Dispatcher.map`)
sends each answer to its handler; a handler returns False for an answer it cannot take. Only the board's address
and port are heard; anything else, and anything malformed,
forged (a signed session's ack without the board's MAC) or of the wrong shape (`scoreboard/snapshot_check.py`), is
counted in `ignored` and dropped. Of the states the highest rev wins (datagrams may be reordered); a new session
may count revisions from scratch, so its first state is taken whatever its rev; a rev more than REV_JUMP past the
current one is refused (a forged 2³¹−1 would hide every real state after it).

A signed session (osc/auth.py) trusts nothing unsigned: `/sg/connected` must carry the board's MAC (it shows the
board knew the passcode), and so must every state, question, ack and error; one without it, or with a wrong one, is
dropped. An unsigned «not connected» (the board cannot sign for a session it lost, so anyone can send it) only
makes the client ask: without a signed answer within DOUBT_FOR it connects again. A wrong-passcode answer to the
authenticated connect counts only when it names this client's cnonce (a blind spoofer cannot).
"""
from __future__ import annotations

import json
import queue
import re
import secrets

from pythonosc.osc_message import OscMessage, ParseError

from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.osc.messages import Ack, Event, build_message
from scoreboard.links.osc.routes import AddressMap
from scoreboard.snapshot_check import check_host_question, check_snapshot

SYNC_AFTER = 0.15       # no new state this long after an ok ack: ask for it
EVENTS_KEPT = 1000      # a user that never drains `events` (a follower) keeps only the newest
ACKS_KEPT = 4096        # answers remembered for ack(id) / command()
PROTOCOL_PATH = re.compile(r"/protocol/[A-Za-z0-9_-]{16,64}")   # links/web/shelf.py's paths
REV_JUMP = 100_000      # a state this many revisions past the current one is not the board's (a real game: ≈ 2,000)


class Receiver:
    """The receiving half of OscClient (one class in two files: it reads and writes the client's fields under its
    lock); the client holds the address map `_answers()` builds."""

    def _answers(self) -> AddressMap:
        answers = AddressMap()
        for address, handler in (("/sg/connected", self._on_connected), ("/sg/denied", self._on_denied),
                                 ("/sg/auth/challenge", self._on_challenge), ("/sg/ack", self._on_ack),
                                 ("/sg/state", self._on_state), ("/sg/host/question", self._on_question),
                                 ("/sg/error", self._on_error), ("/sg/pong", self._on_pong),
                                 ("/sg/setup/catalog", self._on_catalog),
                                 ("/sg/protocol/link", self._on_protocol_link)):
            answers.map(address, handler)
        answers.set_default_handler(lambda address, *args: False)      # not an answer the board gives
        return answers

    def datagram_received(self, data: bytes, sender: tuple) -> None:
        """The reader's call for each datagram."""
        # Only the board may steer the client: a datagram from anyone else is dropped. The board's second port
        # (the sessions' own, osc/client.py) counts once told; its first answer means the path works both ways.
        if (sender[0], sender[1]) != self.board:
            if self._port is None or (sender[0], sender[1]) != (self.board[0], self._port):
                self._ignore()
                return
            self._use_port = True
        try:
            message = OscMessage(data)
        except (ParseError, IndexError, ValueError, TypeError, UnicodeDecodeError):
            self._ignore()
            return
        if not self._routes.handler_for(message.address).invoke(sender, message):
            self._ignore()

    def _ignore(self) -> None:
        with self._lock:
            self.ignored += 1

    def _emit(self, event: Event) -> None:
        while True:
            try:
                self.events.put_nowait(event)
                return
            except queue.Full:
                try:
                    self.events.get_nowait()        # nobody drains: keep the newest
                except queue.Empty:
                    pass

    def _heard(self) -> None:
        """Caller holds the lock."""
        self._last_heard = self._clock()
        if self._state == "retrying":
            self._set_state("connected")
        self._lock.notify_all()

    def _on_challenge(self, address: str, *args) -> bool:
        with self._lock:
            if self._plain or self._state not in ("connecting", "lost"):
                return True             # a duplicate, or an answer to a hello we no longer need
            if len(args) != 4 or not self._handshake.challenged(*args):
                return len(args) == 4   # one is kept per handshake; an older board's (no salt) is not taken
            self._auth_known = True
            self._connect_delay, self._connect_next = self.first_retry, self._clock()
        return True

    def _on_connected(self, address: str, *args) -> bool:
        if not args or not isinstance(args[0], (int, str)):
            return False
        sid, unknown, resend = args[0], [], []
        with self._lock:
            if self._state not in ("connecting", "lost"):
                if sid != self.session:
                    return False
                self._heard()
                return True         # a duplicate of the answer we already have
            key = port = None
            if not self._plain:
                key = self._handshake.key(sid, args[1] if len(args) > 1 else None)
                port = args[2] if len(args) == 4 and isinstance(args[2], int) and 0 < args[2] < 65536 else None
                if key is None or len(args) < 3 or not osc_auth.same(args[-1], osc_auth.connected_mac(
                        key, sid, args[1], port)):
                    return False    # not the answer to our handshake, or not from a board that knows the passcode
                if port != self._port:
                    self._port, self._use_port = port, False
                if port is not None and not self._use_port:
                    try:
                        nonce = secrets.token_hex(8)    # the probe: its signed pong is read after this
                        self._pings = [*self._pings[-3:], nonce]
                        self._sock.sendto(build_message("/sg/ping", (nonce,)), (self.board[0], port))
                    except OSError:
                        pass                # no route to it: the well-known port it stays
            if self.session is not None and sid != self.session:
                # A new session cannot tell us what the old one applied: hand those back to the user.
                unknown = list(self._pending.values())
                self._pending.clear()
                self._unknown.update(item.id for item in unknown)
                self.rev = self._question_rev = -1     # a restarted board may count revisions from scratch
                self.latest = (-1, self.latest[1])
            self.session, self._key = sid, key
            self._gen += 1
            self._last_heard = self._clock()
            self._set_state("connected")
            resend = [self._packet(item) for item in self._pending.values()]
        for item in unknown:
            self._emit(Event("unknown", item.id, item.address))
        for packet in resend:
            self._transmit(packet)
        return True

    def _on_denied(self, address: str, *args) -> bool:
        reason = str(args[0]) if args else "denied"
        with self._lock:
            now = self._clock()
            if self._state in ("connected", "retrying"):
                if self._key is None:
                    self._lose(now)     # a live session the board no longer knows (restarted, expired): again
                elif self._doubt is None:
                    # Unsigned, so perhaps not the board's: ask it; no signed answer within DOUBT_FOR, connect again.
                    self._doubt = now
                    self._transmit(build_message("/sg/sync", ()))
                return True
            elif self._state not in ("connecting", "lost"):
                return True
            elif not self._plain and not reason.startswith("not connected") and (
                    len(args) < 2 or args[1] != self._handshake.cnonce):
                return False            # an answer to someone else's connect (or a spoofer's): not ours
            elif reason.startswith("not connected"):
                # The answer to a hello from a board that does not know the authenticated mode (auto: go plain),
                # or to a ping sent before the loss: keep connecting.
                # Twice in a row: one stray «not connected» (the answer to another datagram from this address,
                # late) must not turn a board that knows the mode into a plain connect it refuses.
                if self.auth == "auto" and not self._auth_known and not self._plain and not self._keyed:
                    self._hello_refusals += 1
                    self._plain = self._hello_refusals >= 2
                    self._connect_next = now
            elif reason.startswith("stale or foreign challenge"):
                self._handshake.restart()
                self._connect_next = now
            elif reason.startswith("too many wrong passcodes"):
                self._connect_next = max(self._connect_next, now + 1.0)     # a brake, not a verdict (osc/sessions.py)
            else:
                self.denied_reason = reason
                self._set_state("denied")
        return True

    def _on_ack(self, address: str, *args) -> bool:
        if len(args) < 2 or not isinstance(args[0], int) or args[1] not in ("ok", "error"):
            return False
        cid, ok, rest = args[0], args[1] == "ok", args[2:]
        with self._lock:
            if self._key is not None:
                # A signed session's acks carry the board's MAC over the answer: a forged «ok» is dropped.
                reason = "" if ok else " ".join(str(a) for a in rest[:-1]) or "refused"
                if not rest or not osc_auth.same(rest[-1], osc_auth.ack_mac(self._key, self.session, cid, ok, reason)):
                    return False
                rest = rest[:-1]
            self._doubt = None
            self._heard()
            item = self._pending.pop(cid, None)
            if item is None:
                return True   # a duplicate ack of a command already settled (or not ours)
            now = self._clock()
            ack = Ack(item.id, item.address, ok, "" if ok else " ".join(str(a) for a in rest),
                      item.first_sent, now, item.attempts)
            self.last_ack = self._acks[cid] = ack
            while len(self._acks) > ACKS_KEPT:
                self._acks.popitem(last=False)
            if ok:
                # At most 3 asks: if the new state overtook this ack, rev is already the new one.
                self._sync = [self.rev, now + SYNC_AFTER, SYNC_AFTER, 3]
        self._emit(Event("ack", ack))
        return True

    def _on_state(self, address: str, *args) -> bool:
        if len(args) < 2 or not isinstance(args[0], int) or not isinstance(args[1], str):
            return False
        with self._lock:
            if not self._trusted(args[2] if len(args) > 2 else None, osc_auth.state_mac, args[0], args[1]):
                return False
            if self.rev >= 0 and args[0] > self.rev + REV_JUMP:
                return False    # beyond reason: not the board's (a signed one cannot be forged at all)
        try:
            snapshot = json.loads(args[1])
        except (ValueError, RecursionError):   # deeply nested JSON from a hostile datagram
            return False
        found = check_snapshot(snapshot) if self.check else []
        if found:
            # Keep the last good state and say why this one was refused.
            self._emit(Event("error", ("/sg/state", "; ".join(found))))
            return False
        with self._lock:
            self._heard()
            if args[0] < self.rev:
                return True   # a reordered, older state: the newer one is already here
            fresh = args[0] > self.rev or self.snapshot is None
            self.rev, self.snapshot = args[0], snapshot
            self.latest = (args[0], snapshot)
        if fresh:
            self._emit(Event("state", snapshot, args[0]))
        return True

    def _trusted(self, mac, sign, rev, text: str) -> bool:
        """Caller holds the lock. A plain session takes what comes; a signed one only what its key signed (and a
        verified word from the board ends a doubt)."""
        if self._key is None:
            return True
        if rev is None or not osc_auth.same(mac, sign(self._key, self.session, rev, text)):
            return False
        self._doubt = None
        return True

    def _on_question(self, address: str, *args) -> bool:
        # `/sg/host/question json [rev] [mac]`: the rev lets a reordered old one be dropped.
        if not args or not isinstance(args[0], str):
            return False
        try:
            question = json.loads(args[0])
        except (ValueError, RecursionError):
            return False
        found = check_host_question(question) if self.check else []
        if found:
            self._emit(Event("error", ("/sg/host/question", "; ".join(found))))
            return False
        rev = args[1] if len(args) > 1 and isinstance(args[1], int) else None
        with self._lock:
            if not self._trusted(args[2] if len(args) > 2 else None, osc_auth.question_mac, rev, args[0]):
                return False
            self._heard()
            if rev is not None:
                if rev < self._question_rev:
                    return True
                self._question_rev = rev
            changed = question != self.question
            self.question = question
        if changed:
            self._emit(Event("question", question))
        return True

    def _on_error(self, address: str, *args) -> bool:
        if len(args) < 2:
            return False
        with self._lock:
            if self._key is not None:
                # Signed: `/sg/error address reason mac`. An unsigned «bad signature» may still be the board's (our
                # key is not its own after a crossed re-handshake): a hint, acted on only as below.
                mac_ok = len(args) >= 3 and osc_auth.same(args[-1], osc_auth.error_mac(
                    self._key, self.session, str(args[0]), " ".join(str(a) for a in args[1:-1])))
                if mac_ok:
                    args = args[:-1]
                elif str(args[1]) != "bad signature":
                    return False
                else:
                    args = args[:2]         # its MAC (under the board's key, not ours) cannot be checked
        error = (str(args[0]), " ".join(str(a) for a in args[1:]))
        with self._lock:
            self._heard()
            if error[1] == "bad signature" and self._key is not None:
                # Our key may not be the board's (a crossed re-handshake): when our own commands go unacked, a new
                # handshake re-signs what waits. Else it answers someone's forgery from our address: ignore it.
                if any(item.attempts >= 3 for item in self._pending.values()):
                    self._lose(self._clock())
                return True
            self.errors.append(error)
            del self.errors[:-20]
        self._emit(Event("error", error))
        return True

    def _on_catalog(self, address: str, *args) -> bool:
        # `/sg/setup/catalog json` (ext): the set-up catalogue, parsed by its user (host_remote.setup_model).
        if len(args) != 1 or not isinstance(args[0], str):
            return False
        with self._lock:
            self._heard()
        self._emit(Event("catalog", args[0]))
        return True

    def _on_protocol_link(self, address: str, *args) -> bool:
        # `/sg/protocol/link PATH PORT` (issue 27 item 1): the game's protocol on the board's page server. Only a
        # path the board's shelf makes is taken (never a link elsewhere), so a forged datagram opens nothing else.
        if len(args) != 2 or not isinstance(args[0], str) or not PROTOCOL_PATH.fullmatch(args[0]) \
                or not isinstance(args[1], int) or not 0 < args[1] < 65536:
            return False
        with self._lock:
            self._heard()
        self._emit(Event("protocol", (args[0], args[1])))
        return True

    def _on_pong(self, address: str, *args) -> bool:
        with self._lock:
            if self._key is not None and not (len(args) == 2 and args[0] in self._pings and osc_auth.same(
                    args[1], osc_auth.pong_mac(self._key, self.session, args[0]))):
                return False        # unsigned, or not an answer to one of our pings: proves nothing
            if self._key is not None:
                self._pings.remove(args[0])     # once: a sniffed pong played again proves nothing either
            self._heard()
        return True
