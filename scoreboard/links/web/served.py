"""An aiohttp application served from its own thread and event loop behind the door (guard.py): the board's page
server (server.py) and the watch relay's (links/watch/server.py) start, listen and stop the same way.

A subclass gives `app()` (its routes and middlewares) and may give `sweeping()` (what its loop tidies up
periodically; the door's idle connections by default). `start` returns once the port is bound, or raises OSError
naming `label`, the address and why; `stop` ends the loop and closes every connection.
"""
from __future__ import annotations

import asyncio
import logging
import threading

from aiohttp import web

from scoreboard.links.web import guard

log = logging.getLogger(__name__)


class Served:
    label = "web"           # the config section, in errors and logs
    thread_name = "web"

    def __init__(self, section: dict, door: guard.Door):
        self.config, self.door = section, door        # the resolved section: `bind`, `port`
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner = self._server = self._sweeper = None
        self._error: BaseException | None = None
        self.port: int | None = None

    def app(self) -> web.Application:
        raise NotImplementedError

    async def sweeping(self) -> None:
        await self.door.sweeping()

    # --- lifecycle (any thread) --------------------------------------------------------------------------------
    def start(self) -> None:
        ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, args=(ready,), name=self.thread_name, daemon=True)
        self._thread.start()
        ready.wait(20)
        if self._error is not None:
            error, self._error = self._error, None
            self._thread.join(timeout=5)
            raise OSError(f"{self.label}: cannot listen on {self.config['bind']}:{self.config['port']}: "
                          f"{getattr(error, 'strerror', None) or error}")

    def stop(self) -> None:
        loop = self._loop
        if loop is not None and self._thread is not None:
            loop.call_soon_threadsafe(loop.stop)
            self._thread.join(timeout=5)
        self._thread = self._loop = None

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # --- the loop's thread -----------------------------------------------------------------------------------
    def _run(self, ready: threading.Event) -> None:
        loop = self._loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._listen())
        except BaseException as error:   # noqa: BLE001 - the port is taken or the address is wrong: say so
            self._error = error
            ready.set()
            loop.close()
            return
        ready.set()
        try:
            loop.run_forever()
        finally:
            try:
                self._sweeper.cancel()
                self._server.close()
                loop.run_until_complete(self._runner.cleanup())
            except Exception:               # closing down: nothing left to tell
                log.debug("%s cleanup", self.label, exc_info=True)
            loop.close()

    async def _listen(self) -> None:
        # aiohttp's own timers bound a keep-alive and an unread body the same as the door's sweep does
        self._runner = web.AppRunner(self.app(), access_log=None, handle_signals=False,
                                     keepalive_timeout=guard.HEADER_TIMEOUT, lingering_time=guard.HEADER_TIMEOUT)
        await self._runner.setup()
        loop, handler = asyncio.get_running_loop(), self._runner.server
        self._server = await loop.create_server(lambda: self.door.protocol(handler()), self.config["bind"] or None,
                                                int(self.config["port"]), reuse_address=True,
                                                backlog=self.door.total)    # a burst waits in the kernel, not in files
        self._sweeper = loop.create_task(self.sweeping())
        self.port = self._server.sockets[0].getsockname()[1]
