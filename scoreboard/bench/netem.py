"""A delaying TCP proxy: a phone's Wi-Fi in front of the board, for `bench phones` and the phones' browser tests.

Each direction of each connection is delayed by `latency` plus a uniform `± jitter`, kept in order (TCP's): a chunk
is delivered no earlier than the one before it. `bursts`: the share of the time the radio sleeps, in stretches of
`burst` seconds (a power-saving phone); what is sent meanwhile leaves when the stretch ends. `loss`: the share of
chunks held back one TCP retransmission (`RTO`) more. Runs its own asyncio loop on a thread; `url` is what a phone
opens in place of the board's.
"""
from __future__ import annotations

import asyncio
import random
import threading
import time
from collections import deque
from dataclasses import dataclass

RTO = 0.2           # seconds: Linux's minimum retransmission timeout, what one lost segment costs


@dataclass(frozen=True)
class Link:
    latency: float = 0.0        # seconds each way
    jitter: float = 0.0         # ± seconds, uniform
    bursts: float = 0.0         # share of the time asleep
    burst: float = 0.15         # seconds a sleep lasts
    loss: float = 0.0           # share of chunks retransmitted

    def describe(self) -> str:
        text = f"+{self.latency * 1000:.0f}"
        if self.jitter:
            text += f"±{self.jitter * 1000:.0f}"
        text += " ms"
        if self.bursts:
            text += f", {self.bursts:.0%} of {self.burst * 1000:.0f} ms bursts"
        if self.loss:
            text += f", {self.loss:.0%} loss"
        return text


class Proxy:
    def __init__(self, target_port: int, link: Link, seed: int = 0, target_host: str = "127.0.0.1"):
        self.target = (target_host, target_port)
        self.link = link
        self.random = random.Random(seed)
        self.port: int | None = None
        self.loop = asyncio.new_event_loop()
        self._server = None
        self._sleeps: list[tuple[float, float]] = []      # (start, end) of the radio's sleeps, as time goes on
        # (read, delivered) of the phone's chunks toward the board, monotonic: when a message sent at t reached the board
        self.upstream: deque = deque(maxlen=10_000)
        self._thread = threading.Thread(target=self._run, name=f"netem-{target_port}", daemon=True)
        self._ready = threading.Event()
        self._writers: set = set()          # the open connections' writers (drop() cuts them: the Wi-Fi lost)

    def start(self) -> "Proxy":
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("netem proxy did not start")
        return self

    def stop(self) -> None:
        async def close():
            self._server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        try:
            asyncio.run_coroutine_threadsafe(close(), self.loop).result(5)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(5)

    def arrival(self, sent: float) -> float | None:
        """When the message a phone sent at monotonic `sent` reached the board: the first chunk read from then on."""
        for read, delivered in list(self.upstream):
            if read >= sent:
                return delivered
        return None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self._server = self.loop.run_until_complete(asyncio.start_server(self._client, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            self.loop.run_forever()
        finally:
            self._server.close()
            self.loop.close()           # its selector and self-pipe: a test process runs many proxies

    def _awake_at(self, t: float) -> float:
        """When the radio, asked to send at `t`, sends: `t`, or the end of the sleep `t` falls in."""
        link = self.link
        if not link.bursts:
            return t
        if not self._sleeps or self._sleeps[-1][1] < t - 60:
            self._sleeps = [(t, t)]
        while self._sleeps[-1][1] < t + 1:      # draw sleeps ahead: exponential gaps with the asked share asleep
            gap = self.random.expovariate(link.bursts / (link.burst * (1 - link.bursts)))
            start = self._sleeps[-1][1] + gap
            self._sleeps.append((start, start + link.burst))
        for start, end in self._sleeps:
            if start <= t < end:
                return end
        return t

    def _delay(self) -> float:
        link = self.link
        extra = RTO if link.loss and self.random.random() < link.loss else 0.0
        return max(0.0, link.latency + self.random.uniform(-link.jitter, link.jitter) + extra)

    def drop(self) -> None:
        """Cut every open connection (a phone walking out of the Wi-Fi's reach); new ones are relayed as before."""
        def cut():
            for writer in list(self._writers):
                writer.transport.abort()
        self.loop.call_soon_threadsafe(cut)

    async def _client(self, reader, writer) -> None:
        try:
            board_reader, board_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, board_writer}
        await asyncio.gather(self._pump(reader, board_writer, True), self._pump(board_reader, writer, False),
                             return_exceptions=True)

    async def _pump(self, reader, writer, upstream: bool) -> None:
        queue: asyncio.Queue = asyncio.Queue()
        last = 0.0

        async def deliver():
            while True:
                due, read, data = await queue.get()
                if data is None:
                    break
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(data)
                if upstream:
                    self.upstream.append((read, time.monotonic()))
                await writer.drain()
        sender = asyncio.ensure_future(deliver())
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                now = time.monotonic()
                last = max(last, self._awake_at(now) + self._delay())
                queue.put_nowait((last, now, data))
        except (ConnectionError, OSError):
            pass
        finally:
            queue.put_nowait((0.0, 0.0, None))
            try:
                await sender
            except (ConnectionError, OSError, asyncio.CancelledError):
                sender.cancel()
            try:
                writer.close()
            except (ConnectionError, OSError, RuntimeError):
                pass
