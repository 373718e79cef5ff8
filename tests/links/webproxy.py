"""A man in the middle on the venue's Wi-Fi, for the browser remote's tests: an aiohttp server the page is opened
from, serving the board's files and relaying `/osc` both ways, which swaps the board's first `/sg/ack` of each
command it is told to pick for one with a broken MAC (what a stranger on the Wi-Fi could inject)."""
from __future__ import annotations

import asyncio
import threading

import aiohttp
from aiohttp import web

from scoreboard.links.osc.messages import build
from webhelp import decode, wait_for


class Forger:
    """Relays the page's HTTP and WebSocket to `board_url`; `events` records, in order, ("sent", address, id) for
    every signed command the page sends and ("forged", id) for every ack replaced."""

    def __init__(self, board_url: str, pick: str):
        self.board = board_url.rstrip("/")
        self.pick = pick                    # the signed address whose first ack is forged, e.g. "/sg/sig/select"
        self.events: list[tuple] = []
        self.picked: set[int] = set()
        self.loop = asyncio.new_event_loop()
        self.port = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> "Forger":
        self.thread.start()
        wait_for(lambda: self.port, 30, "the proxy listening")
        return self

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._serve())
        self.loop.run_forever()

    async def _serve(self) -> None:
        self.http = aiohttp.ClientSession()
        app = web.Application()
        app.router.add_get("/osc", self._osc)
        app.router.add_get("/{tail:.*}", self._file)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]

    async def _file(self, request):
        async with self.http.get(self.board + request.path_qs) as got:
            body = await got.read()
            headers = {k: v for k, v in got.headers.items()
                       if k.lower() in ("content-type", "cache-control", "content-security-policy")}
            return web.Response(body=body, status=got.status, headers=headers)

    async def _osc(self, request):
        page = web.WebSocketResponse()
        await page.prepare(request)
        board_ws = self.board.replace("http", "ws", 1) + request.path_qs
        async with self.http.ws_connect(board_ws) as board:
            async def up():
                async for m in page:
                    if m.type == aiohttp.WSMsgType.BINARY:
                        self._seen(m.data)
                        await board.send_bytes(m.data)

            async def down():
                async for m in board:
                    if m.type == aiohttp.WSMsgType.BINARY:
                        await page.send_bytes(self._tamper(m.data))
            tasks = [asyncio.ensure_future(up()), asyncio.ensure_future(down())]
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in tasks:
                task.cancel()
        await page.close()
        return page

    def _seen(self, data: bytes) -> None:
        address, args = decode(data)
        if address.startswith("/sg/sig/"):
            self.events.append(("sent", address, args[1]))
            if address == self.pick:
                self.picked.add(args[1])

    def _tamper(self, data: bytes) -> bytes:
        address, args = decode(data)
        forged = {e[1] for e in self.events if e[0] == "forged"}
        if address != "/sg/ack" or args[0] not in self.picked or args[0] in forged:
            return data
        self.events.append(("forged", args[0]))
        mac = bytes(b ^ 0xFF for b in args[-1])        # «ok» as the board said it, signed by nobody
        return build(address, *args[:-1], mac)
