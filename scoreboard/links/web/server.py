"""The host's remote in a phone's browser: the board serves one page and carries its OSC over WebSocket.

`[remote_web]` in the config (docs/LINKS.md). aiohttp serves, on its own thread and event loop:
- `GET /` and the page's own files (`scoreboard/links/web/`, beside this module; a fixed list read at start: no other path, no listing);
- `GET /osc?peer=TOKEN`, a WebSocket whose binary messages are OSC packets, exactly the datagrams of the UDP
  transport (PROTOCOL.md §2): `/sg/connect`, `/sg/cmd/... id`, `/sg/ack`, `/sg/state`, `/sg/host/question`.

Every frame goes through the OSC server's own `handle_datagram` on its thread (`OscServer.feed`), so passcodes,
roles, exactly-once ids and state pushes are the OSC server's, one session table for both. A WebSocket peer is the
address `(ip, TOKEN, "ws")`: the page draws TOKEN at random once and keeps it across reconnects, so a phone that
drops off the Wi-Fi and comes back finds its session (and its acknowledged ids) again, and a command re-sent after
the drop is applied once. The session then ends as a UDP one does: by `/sg/disconnect` or the idle timeout.

Nothing from the network is trusted: a text message, an oversized message or a packet that does not parse is
dropped and counted as a bad packet; connections are counted and timed by the door (web/guard.py: per address and
in total, a header deadline); a WebSocket must come from a page the board served (Origin), and one without a session
is a stranger, budgeted per address and in total and closed when it has no session `connect_within` seconds on; a
second connection with the same token replaces the first.
"""
from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import socket
import threading
from pathlib import Path

from aiohttp import WSMsgType, web

from scoreboard import DISTRIBUTION, version
from scoreboard.links import words_ru
from scoreboard.links.web import guard
from scoreboard.links.web.served import Served
from scoreboard.links.web.shelf import PAGE_HEADERS, PREFIX, Shelf

log = logging.getLogger("scoreboard.links.web")

PAGE_DIR = Path(__file__).resolve().parent       # the page's files sit beside this module (package data)
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
         ".json": "application/json", ".webmanifest": "application/manifest+json"}
VENDOR = ("vendor/noble-hashes",)    # the audited library keys.js imports (its LICENSE and VENDORED.md there)
MAX_MESSAGE = 16_384          # bytes: the longest command a page sends (a pack path and its topics) is far below
CLOSE_WAIT = 2.0              # seconds a socket the board closes waits for the peer's answer (a stranger may not give one)
QUEUE = 256                   # messages waiting for a slow client; past it new ones are dropped (acks are retried)
QUEUE_BYTES = 2 * 1024 * 1024   # and bytes: a session that stops reading holds at most this (some 30 whole states)
STALLED = 5.0                 # seconds a peer's packet may wait for room in the OSC server's intake before it is closed
TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")
HEADERS = {
    "Cache-Control": "no-store",          # nothing of the game, answers least of all, stays in a browser's cache
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                               "style-src 'self'; script-src 'self'; frame-ancestors 'none'",
}

WORDS_JS = f"// The board's words in Russian (scoreboard/links/words_ru.py).\nconst BOARD_WORDS = " \
           f"{json.dumps(words_ru.for_the_page(), ensure_ascii=False)};\n" \
           f"// The board's version (issue 25 item 3), shown under the connect form.\n" \
           f"document.addEventListener('DOMContentLoaded', () => {{ document.getElementById('version').textContent = " \
           f"{json.dumps(f'{DISTRIBUTION} {version()}')}; }});\n"


def page_files() -> dict[str, Path]:
    """URL path → file: the page's folder and the vendored libraries' folders (VENDOR), their files only (no other
    sub-folder, no hidden file)."""
    files = {}
    for folder in (PAGE_DIR, *(PAGE_DIR / name for name in VENDOR)):
        for path in sorted(folder.iterdir()):
            if path.is_file() and not path.name.startswith(".") and path.suffix in TYPES:
                files["/" + path.relative_to(PAGE_DIR).as_posix()] = path
    files["/"] = PAGE_DIR / "index.html"
    return files


def board_urls(bind: str, port: int) -> list[str]:
    """Where a phone on the venue's network opens the page: the bound address, or this machine's addresses."""
    if bind not in ("0.0.0.0", "", "::"):
        return [f"http://{bind}:{port}/"]
    addresses = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = info[4][0]
            if not address.startswith("127.") and address not in addresses:
                addresses.append(address)
    except OSError:
        pass
    return [f"http://{a}:{port}/" for a in addresses] or [f"http://{socket.gethostname()}:{port}/"]


def board_names(extra) -> set[str]:
    """The names a page may be loaded under and open the WebSocket (guard.origin_allowed): this machine's, its mDNS
    one, and `[remote_web] names`."""
    host = socket.gethostname().lower()
    return {host, f"{host}.local", *(str(n).lower().rstrip(".") for n in extra)}


class _Peer:
    def __init__(self, ws, loop: asyncio.AbstractEventLoop, ip: str):
        self.ws = ws
        self.loop = loop
        self.queue: asyncio.Queue = asyncio.Queue(QUEUE)
        self.ip = ip
        self.seated = False                 # the board answered /sg/connected and has not since said "not connected"
        self.stranger_since = loop.time()
        self.leaving = False                # closed for a newcomer (guard.room_for)
        self.queued = 0                     # bytes waiting in `queue` (QUEUE_BYTES)


class WebRemote(Served):
    """The page's HTTP and WebSocket server, feeding an `OscServer` (which must be started first)."""
    label, thread_name = "remote_web", "remote-web"

    def __init__(self, section: dict, osc):
        super().__init__(section, guard.Door())   # links.config's resolved [remote_web]
        self.osc = osc
        self.files = page_files()
        self.names = board_names(section.get("names", []))
        self.refused = {"origin": 0, "crowded": 0}
        self.peers: dict[tuple, _Peer] = {}
        self.dropped = 0
        self._lock = threading.Lock()
        self.shelf = Shelf()            # pages handed to one host session: the game's protocol (shelf.py)

    # --- lifecycle ----------------------------------------------------------------------------------
    def start(self) -> None:
        super().start()
        self.osc.attach_stream(self)
        log.info("web remote on %s", ", ".join(self.urls))

    @property
    def urls(self) -> list[str]:
        return board_urls(self.config["bind"], self.port or int(self.config["port"]))

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_MESSAGE, middlewares=[self.door.middleware])
        app.router.add_get("/osc", self._websocket)
        app.router.add_get(PREFIX + "{token}", self._shelved)
        app.router.add_get("/{tail:.*}", self._file)
        return app

    # --- HTTP ---------------------------------------------------------------------------------------
    async def _file(self, request):
        if request.path == "/words.js":         # the board's refusals in Russian, from the one table
            return web.Response(text=WORDS_JS, headers={**HEADERS, "Content-Type": TYPES[".js"]})
        path = self.files.get(request.path)
        if path is None:
            return web.Response(status=404, text="not found", headers=HEADERS)
        return web.Response(body=path.read_bytes(), headers={**HEADERS, "Content-Type": TYPES[path.suffix]})

    async def _shelved(self, request):
        """A page the board handed to a host session (the protocol, shelf.py); 404 for any other token."""
        page = self.shelf.get(request.match_info.get("token", ""))
        if page is None:
            return web.Response(status=404, text="not found", headers=HEADERS)
        return web.Response(body=page, headers={**HEADERS, **PAGE_HEADERS})

    # --- WebSocket ----------------------------------------------------------------------------------
    async def _websocket(self, request):
        if not guard.origin_allowed(request.headers.get("Origin"), request.headers.get("Host"), self.names):
            self.refused["origin"] += 1             # a page elsewhere (or a rebound DNS name): never the board's
            self.osc.count_bad()
            return web.Response(status=403, text="not this board's page", headers=HEADERS)
        token = request.query.get("peer", "")
        if not TOKEN.fullmatch(token):
            token = secrets.token_urlsafe(12)      # a page without one gets a session for this connection only
        ip = request.remote or "?"
        if not self.osc.allowed(ip) or not self._room_for(ip):
            self.osc.count_bad()
            return web.Response(status=503, text="busy", headers=HEADERS)
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=10.0, timeout=CLOSE_WAIT)
        try:
            await ws.prepare(request)
        except ConnectionError:                     # gone (or pushed out by the door) before its upgrade was sent:
            self.osc.count_bad()                    # a stranger's churn, never a traceback a time (issue 24 item 9)
            return web.Response(status=400, text="gone", headers=HEADERS)   # aiohttp drops it quietly
        addr = (ip, token, "ws")
        peer = _Peer(ws, asyncio.get_running_loop(), ip)
        with self._lock:
            old = self.peers.get(addr)
            self.peers[addr] = peer
        if old is not None:
            await old.ws.close(message=b"replaced")
        writer = asyncio.create_task(self._write(peer))
        watchdog = asyncio.create_task(self._close_without_session(peer, addr))
        refused = False
        try:
            async for message in ws:
                if message.type == WSMsgType.BINARY:
                    if not await self._hand_over(bytes(message.data), addr):
                        refused = True
                        break
                elif message.type == WSMsgType.ERROR:
                    self.osc.count_bad()              # e.g. a message over MAX_MESSAGE: aiohttp closes with 1009
                    break
                else:
                    self.osc.count_bad()              # text frames are not OSC
        finally:
            writer.cancel()
            watchdog.cancel()
            with self._lock:
                if self.peers.get(addr) is peer:
                    del self.peers[addr]
            if ws.exception() is not None or ws.close_code == 1009:
                self.osc.count_bad()
            if refused and request.transport is not None:
                # Cut at once: a polite close would wait for the flooder's close frame while reading its data.
                request.transport.abort()
        return ws

    def _room_for(self, ip: str) -> bool:
        """A stranger's socket from `ip` fits the budget (guard.room_for), the strangers it displaces closing."""
        with self._lock:
            strangers = [guard.Member(p.ip, p.stranger_since, True, key=p)
                         for p in self.peers.values() if not p.seated and not p.leaving]
            victims = guard.room_for(strangers, ip, guard.STRANGERS_PER_ADDRESS, guard.STRANGERS)
            for victim in victims or ():
                victim.key.leaving = True
        if victims is None:
            self.refused["crowded"] += 1
            return False
        for victim in victims:
            self.refused["crowded"] += 1
            asyncio.ensure_future(victim.key.ws.close(code=1013, message=b"crowded: try again"))
        return True

    async def _hand_over(self, data: bytes, addr: tuple) -> bool:
        """Give one packet to the OSC server (osc/intake.py); False: close this socket. While this peer's budget is
        full the socket is not read (aiohttp then stops reading the connection: back-pressure) — past STALLED
        seconds, or for a packet larger than the peer may ever send, it is closed."""
        waited = 0.0
        while True:
            verdict = self.osc.feed(data, addr)
            if verdict is True:
                return True
            if verdict is None or waited >= STALLED:
                return False
            await asyncio.sleep(0.01)
            waited += 0.01

    async def _close_without_session(self, peer: _Peer, addr: tuple) -> None:
        """Close the socket once it has been without a session for `connect_within` seconds (the OSC server's
        table has the last word: a session whose answer `send` did not recognise seats the socket too)."""
        within = float(self.config["connect_within"])
        while not peer.ws.closed:
            await asyncio.sleep(min(within / 2, 1.0))
            if not peer.seated and peer.loop.time() - peer.stranger_since >= within:
                if self.osc.has_session(addr):
                    peer.seated = True
                    continue
                await peer.ws.close(message=b"no session")
                return

    async def _write(self, peer: _Peer) -> None:
        while True:
            data = await peer.queue.get()
            peer.queued -= len(data)
            try:
                await peer.ws.send_bytes(data)
            except (ConnectionError, RuntimeError):
                return

    def send(self, addr: tuple, dgram: bytes) -> bool:
        """From the OSC server's thread: queue `dgram` for the WebSocket peer `addr` (True if it is one of ours)."""
        if len(addr) != 3 or addr[2] != "ws":
            return False
        with self._lock:
            peer = self.peers.get(addr)
            if peer is not None:            # a session's answers seat the socket: it is no stranger then
                if dgram.startswith(b"/sg/connected\0"):
                    peer.seated = True
                elif peer.seated and dgram.startswith(b"/sg/denied\0"):
                    peer.seated, peer.stranger_since = False, peer.loop.time()
        if peer is not None:
            peer.loop.call_soon_threadsafe(self._enqueue, peer, dgram)
        return True                     # a peer that has gone gets nothing; never a UDP datagram

    def _enqueue(self, peer: _Peer, dgram: bytes) -> None:
        if peer.queued + len(dgram) > QUEUE_BYTES:
            self.dropped += 1           # a phone that stops reading: the state is re-sent, commands retried
            return
        try:
            peer.queue.put_nowait(dgram)
        except asyncio.QueueFull:
            self.dropped += 1
            return
        peer.queued += len(dgram)

    def status(self) -> dict:
        with self._lock:
            return {"urls": self.urls, "connections": len(self.peers), "dropped": self.dropped,
                    "most_queued_bytes": max((p.queued for p in self.peers.values()), default=0),
                    "refused": dict(self.refused), "http": self.door.status()}
