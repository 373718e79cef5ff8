"""A minimal board side of PROTOCOL.md §2, for the client's unit tests ONLY.

The fault and end-to-end tests use the real server (scoreboard.links); this double exists so that the client's own
behaviour (retries, backoff, stale states, denial, reconnect) can be pinned down with a board that can be told to
drop the first N copies of a command or to fall silent. It does not know the authenticated mode (osc/auth.py), as a
board before it did not. It applies `/sg/cmd/score/adjust seat delta` to a score table
so that "applied once" is observable.
"""
from __future__ import annotations

import json
import socket
import threading

from pythonosc.osc_message import OscMessage
from pythonosc.osc_message_builder import OscMessageBuilder


def build(address, *args):
    builder = OscMessageBuilder(address=address)
    for arg in args:
        builder.add_arg(arg)
    return builder.build().dgram


class BoardDouble:
    def __init__(self, passcode="1234"):
        self.passcode = passcode
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.05)
        self.address = self.sock.getsockname()
        self.sessions: dict = {}         # client address -> session id
        self.applied: dict = {}          # (session, id) -> ack args
        self.scores = {1: 0, 2: 0, 3: 0}
        self.rev = 0
        self.copies: dict = {}           # command id -> copies received
        self.drop_first = 0              # ignore the first N copies of every command
        self.silent = False              # receive but answer nothing
        self.session_counter = 0
        self.received = []
        self._running = True
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def snapshot(self):
        return {"rev": self.rev, "phase": "choosing", "order": "choice",
                "players": [{"seat": s, "name": f"P{s}", "score": v} for s, v in self.scores.items()]}

    def send_state(self, to, rev=None, snapshot=None):
        snapshot = snapshot or self.snapshot()
        self.sock.sendto(build("/sg/state", self.rev if rev is None else rev, json.dumps(snapshot)), to)

    def _serve(self):
        while self._running:
            try:
                data, sender = self.sock.recvfrom(65535)
            except (socket.timeout, OSError):
                continue
            message = OscMessage(data)
            self.received.append((message.address, list(message.params)))
            if self.silent:
                continue
            self._handle(message.address, list(message.params), sender)

    def _handle(self, address, args, sender):
        if address == "/sg/connect":
            if args[:1] != [self.passcode]:
                self.sock.sendto(build("/sg/denied", "wrong passcode"), sender)
                return
            if sender not in self.sessions:
                self.session_counter += 1
                self.sessions[sender] = f"s{self.session_counter}"
            self.sock.sendto(build("/sg/connected", self.sessions[sender]), sender)
            self.send_state(sender)
            self.sock.sendto(build("/sg/host/question", json.dumps({"text": "Q", "answer": "A"})), sender)
            return
        session = self.sessions.get(sender)
        if session is None and address.startswith("/sg/"):
            # What the real board answers a sender without a session; a board that predates the authenticated
            # mode answers /sg/auth/hello so too (the client then falls back to the plain connect).
            self.sock.sendto(build("/sg/denied", "not connected: send /sg/connect passcode [host|view]"), sender)
            return
        if session is None or not address.startswith("/sg/cmd/"):
            return
        command_id = args[0]
        self.copies[command_id] = self.copies.get(command_id, 0) + 1
        if self.copies[command_id] <= self.drop_first:
            return
        key = (session, command_id)
        if key not in self.applied:
            if address == "/sg/cmd/score/adjust" and args[1] in self.scores:
                self.scores[args[1]] += args[2]
                self.rev += 1
                self.applied[key] = ["ok"]
            else:
                self.applied[key] = ["error", f"{address[7:]} does not fit now"]
        self.sock.sendto(build("/sg/ack", command_id, *self.applied[key]), sender)
        self.send_state(sender)

    def forget_sessions(self):
        """The board restarted: every session is gone, new ones get new ids."""
        self.sessions.clear()

    def close(self):
        self._running = False
        self._thread.join(timeout=1)
        self.sock.close()
