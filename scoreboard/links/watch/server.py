"""The relay's web server: the hall's phones (`/watch`), the stream's overlay (`/overlay`) and their WebSocket.

aiohttp on a thread of its own (the relay's process, never the board's). What it serves:
- `GET /watch`, `GET /overlay` and their files (`pages/` beside this module: a fixed list read at start), the board's
  theme as CSS variables (`/theme.css`) and the theme's two fonts (`/fonts/main`, `/fonts/text`): no CDN, nothing
  of the game in them;
- `GET /ws?k=VIEWKEY`: a WebSocket of JSON text messages to the viewer (`{"t": "state"|"tournament"|"tick", …}`,
  docs/PROTOCOL.md "The hall's viewers"). The viewer sends nothing (a message from it is counted and dropped);
- `GET /picture/TOKEN?k=VIEWKEY`: the question's (or the answer's) picture once the hall's screens show it
  (pictures.py: a token minted then, a size cap, the view key).

Nothing from the network is trusted: every TCP connection passes the door (links/web/guard.py: per address and in
all, idle ones timed out); a socket needs the view key (compared in constant time) and a page of this server
(Origin), and is refused past `max_viewers`; what each viewer waits for is its slot in the hub (fanout.py: the
latest message of each kind, never a queue) and a socket slower than `send_timeout` per message is closed.
`publish` may be called from any thread: it encodes once and hands the text to the loop.
"""
from __future__ import annotations

import asyncio
import hmac
import json
from pathlib import Path

from aiohttp import WSMsgType, web

from scoreboard.links.watch.fanout import Hub, Viewer
from scoreboard.links.watch.pictures import PREFIX, Pictures
from scoreboard.links.web import guard
from scoreboard.links.web.served import Served
from scoreboard.links.web.server import board_names, board_urls


PAGES = Path(__file__).resolve().parent / "pages"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8"}
ROUTES = {"/": "watch.html", "/watch": "watch.html", "/overlay": "overlay.html"}
CHUNK = 64 * 1024             # bytes of a picture written at a time (each waits for the socket to take it)
MAX_IN = 1024                 # bytes: a viewer has nothing to say; anything longer closes its socket
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "font-src 'self'; script-src 'self'; frame-ancestors 'none'",
}


def encode(message: dict) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), default=str)


class WatchServer(Served):
    """`section`: the resolved `[watch]`; `key`: the view key; `theme_css`: the theme's variables; `fonts`:
    {"main": path, "text": path} (missing ones are not served)."""
    label, thread_name = "watch", "watch-relay"

    def __init__(self, section: dict, key: str, theme_css: str = "", fonts: dict | None = None):
        super().__init__(section, guard.Door(total=int(section["max_viewers"]) + 64,
                                             per_address=int(section["per_address"])))
        self.key = key
        self.theme_css = theme_css
        self.fonts = {name: Path(path) for name, path in (fonts or {}).items() if path and Path(path).is_file()}
        self.files = {f"/{p.name}": p for p in sorted(PAGES.iterdir()) if p.suffix in TYPES}
        self.hub = Hub(float(section["send_timeout"]))
        self.names = board_names(section.get("names", []))
        self.refused = {"key": 0, "origin": 0, "crowded": 0, "spoke": 0}
        self.pictures = Pictures()      # the question's picture once the hall's screens show it (pictures.py)

    @property
    def urls(self) -> list[str]:
        return board_urls(self.config["bind"], self.port or int(self.config["port"]))

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_IN, middlewares=[self.door.middleware])
        app.router.add_get("/ws", self._websocket)
        app.router.add_get(PREFIX + "{token}", self._picture)
        app.router.add_get("/{tail:.*}", self._file)
        return app

    async def sweeping(self) -> None:
        """The door's idle connections and the hub's stuck viewers, every half second."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(0.5)
            self.door.sweep()
            await self.hub.sweep(loop.time())

    # --- publishing (any thread) ----------------------------------------------------------------------------
    def publish(self, kind: str, message: dict) -> None:
        text = encode({"t": kind, **message}).encode("utf-8")     # once for every viewer
        loop = self._loop
        if loop is not None:
            loop.call_soon_threadsafe(self.hub.publish, kind, text)

    # --- HTTP -----------------------------------------------------------------------------------------------
    async def _file(self, request):
        path = request.path
        if path == "/theme.css":
            return web.Response(text=self.theme_css, headers={**HEADERS, "Content-Type": TYPES[".css"]})
        if path.startswith("/fonts/") and path[7:] in self.fonts:
            # a font is no game data: cached, so 300 phones do not fetch it on every reconnect
            return web.Response(body=self.fonts[path[7:]].read_bytes(),
                                headers={**HEADERS, "Content-Type": "font/ttf", "Cache-Control": "max-age=86400"})
        file = PAGES / ROUTES[path] if path in ROUTES else self.files.get(path)
        if file is None:
            return web.Response(status=404, text="not found", headers=HEADERS)
        return web.Response(body=file.read_bytes(), headers={**HEADERS, "Content-Type": TYPES[file.suffix]})

    async def _picture(self, request):
        """`GET /picture/TOKEN?k=VIEWKEY`: a picture the hall's screens show (or showed a moment ago). An unknown
        token is 404 whatever the key (nothing says which tokens exist); sent in chunks, so a slow phone holds one
        chunk of the relay's memory, not the picture."""
        if not hmac.compare_digest(request.query.get("k", "").encode("utf-8", "replace"), self.key.encode()):
            self.refused["key"] += 1
            return web.Response(status=403, text="no view key", headers=HEADERS)
        found = self.pictures.get(request.match_info["token"])
        if found is None:
            return web.Response(status=404, text="not found", headers=HEADERS)
        data, kind = found
        # its URL is its own and never reused: a phone that reconnects need not fetch it again
        response = web.StreamResponse(headers={**HEADERS, "Content-Type": kind, "Content-Length": str(len(data)),
                                               "Cache-Control": "private, max-age=3600"})
        await response.prepare(request)
        view = memoryview(data)
        for start in range(0, len(data), CHUNK):
            await response.write(view[start:start + CHUNK])
        await response.write_eof()
        return response

    # --- WebSocket ------------------------------------------------------------------------------------------
    async def _websocket(self, request):
        if not hmac.compare_digest(request.query.get("k", "").encode("utf-8", "replace"), self.key.encode()):
            self.refused["key"] += 1
            return web.Response(status=403, text="no view key", headers=HEADERS)
        if not guard.origin_allowed(request.headers.get("Origin"), request.headers.get("Host"), self.names):
            self.refused["origin"] += 1
            return web.Response(status=403, text="not this relay's page", headers=HEADERS)
        if len(self.hub.viewers) >= int(self.config["max_viewers"]):
            self.refused["crowded"] += 1
            return web.Response(status=503, text="busy", headers=HEADERS)
        # a ping every send_timeout, its pong due within half of it: a viewer whose kernel buffers swallowed what
        # it never read (the hub sees no backlog then) is closed by its silence
        ws = web.WebSocketResponse(max_msg_size=MAX_IN, heartbeat=max(1.0, self.hub.send_timeout), timeout=2.0,
                                   compress=False)    # one encoded frame for all: no per-viewer deflate
        try:
            await ws.prepare(request)
        except ConnectionError:
            return web.Response(status=400, text="gone", headers=HEADERS)

        async def close() -> None:
            if request.transport is not None:
                request.transport.abort()      # a socket that takes nothing would not take a close frame either

        transport = request.transport
        viewer = Viewer(lambda data: ws.send_frame(data, WSMsgType.TEXT), close, request.remote or "?",
                        lambda: transport.get_write_buffer_size() if transport is not None else 0)
        self.hub.join(viewer)
        writer = asyncio.create_task(self.hub.write(viewer))
        try:
            async for message in ws:
                if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    self.refused["spoke"] += 1       # a viewer has nothing to say
                else:
                    break
        finally:
            self.hub.leave(viewer)
            viewer.wake.set()
            writer.cancel()
        return ws

    def status(self) -> dict:
        """Counters for the relay's log and the tests (from any thread: plain reads)."""
        hub = self.hub.status()
        buffered = 0
        for member in list(self.door.members.values()):
            transport = member.key
            try:
                buffered = max(buffered, transport.get_write_buffer_size())
            except Exception:               # a transport closing meanwhile
                continue
        return {**hub, "most_buffered_bytes": buffered, "refused": dict(self.refused), "http": self.door.status()}
