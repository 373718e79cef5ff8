"""`scoreboard run` with `[watch] enabled`: the relay (watch_relay.py) started beside the board, as a process of its
own, so hundreds of viewers never touch the board's drawing process.

The board hands the relay its key and the view key on stdin (one JSON line: never on a command line, which `ps`
shows), and the port to listen on. A relay that dies is started again after RESTART_AFTER seconds, at most
MAX_RESTARTS times; it ends itself when the board is gone (it watches its parent). `link` is what the hall's screen
shows between games: the watch page's address with the view key after `#`.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading

from scoreboard.app.status import reachable_address
from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.watch.config import new_view_key, resolve

RESTART_AFTER = 1.0
MAX_RESTARTS = 5


def _free_port(bind: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((bind if bind not in ("", "0.0.0.0") else "127.0.0.1", 0))
        return probe.getsockname()[1]


class RelayProcess:
    def __init__(self, config: dict, out=print):
        watch = resolve(config.get("watch"))
        self.config, self.out = config, out
        self.view_key = watch["key"] or new_view_key()
        self.port = int(watch["port"]) or _free_port(watch["bind"])
        address = reachable_address(watch["bind"])
        self.link = {"url": f"http://{address}:{self.port}/watch",
                     "qr": f"http://{address}:{self.port}/watch#k={self.view_key}"}
        self.process: subprocess.Popen | None = None
        self._stopping = threading.Event()
        self._keeper: threading.Thread | None = None

    def _spawn(self) -> subprocess.Popen:
        osc = self.config["osc"]
        line = json.dumps({"board_key": osc_auth.key_text(osc_auth.board_key(osc.get("key", ""))),
                           "view_key": self.view_key, "port": self.port, "parent": os.getpid(),
                           "config": self.config})
        process = subprocess.Popen([sys.executable, "-m", "scoreboard", "watch-relay", "--spawned"],
                                   stdin=subprocess.PIPE, text=True)   # its log beside the board's
        process.stdin.write(line + "\n")
        process.stdin.close()
        return process

    def start(self) -> "RelayProcess":
        self.process = self._spawn()
        self._keeper = threading.Thread(target=self._keep, name="watch-relay-keeper", daemon=True)
        self._keeper.start()
        self.out(f"board: the hall's phones at {self.link['url']} (watch relay, pid {self.process.pid})")
        return self

    def _keep(self) -> None:
        restarts = 0
        while not self._stopping.is_set():
            code = self.process.wait()
            if self._stopping.is_set():
                return
            if restarts >= MAX_RESTARTS:
                self.out(f"board: the watch relay ended ({code}) {restarts} times: not started again")
                return
            self.out(f"board: the watch relay ended ({code}); starting it again")
            if self._stopping.wait(RESTART_AFTER):
                return
            restarts += 1
            self.process = self._spawn()

    def stop(self) -> None:
        self._stopping.set()
        process = self.process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def start_relay(config: dict, out=print) -> RelayProcess | None:
    """The relay when `[watch] enabled` (None otherwise, or when it cannot start: the show goes on without it)."""
    if not resolve(config.get("watch")).get("enabled"):
        return None
    if not (config.get("osc") or {}).get("enabled", True):
        out("board: [watch] enabled but [osc] is not: the watch relay follows the board over OSC; not started")
        return None
    try:
        return RelayProcess(config, out).start()
    except OSError as error:
        out(f"board: the watch relay did not start: {error}")
        return None
