"""The viewers of `scoreboard bench watch`, in a process of their own: N WebSockets to the watch relay, spread over
loopback addresses 127.0.0.2… (a venue's phones each have their own), each reading every message.

    python -m scoreboard.bench.watch_viewers PORT KEY N SECONDS

Prints one JSON line: how many connected, the states each got (min, max), and messages in all."""
from __future__ import annotations

import asyncio
import json
import os
import sys
import time

import aiohttp

PER_ADDRESS = 10


async def _viewer(port: int, key: str, address: str, until: float, counts: list, connected: list) -> None:
    connector = aiohttp.TCPConnector(local_addr=(address, 0))
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=None)) as http:
        try:
            async with http.ws_connect(f"http://127.0.0.1:{port}/ws?k={key}", timeout=10.0) as ws:
                connected.append(1)
                states = 0
                while time.monotonic() < until:
                    try:
                        message = await ws.receive(timeout=max(0.1, until - time.monotonic()))
                    except asyncio.TimeoutError:
                        break
                    if message.type != aiohttp.WSMsgType.TEXT:
                        break
                    states += message.data.startswith('{"t":"state"')
                counts.append(states)
        except (aiohttp.ClientError, OSError, asyncio.TimeoutError):
            counts.append(-1)


async def main(port: int, key: str, n: int, seconds: float) -> dict:
    until = time.monotonic() + seconds
    counts: list = []
    connected: list = []
    await asyncio.gather(*(_viewer(port, key, f"127.0.0.{2 + i // PER_ADDRESS}", until, counts, connected)
                           for i in range(n)))
    got = [c for c in counts if c >= 0]
    return {"viewers": n, "connected": len(connected), "states_min": min(got, default=0),
            "states_max": max(got, default=0)}


if __name__ == "__main__":
    # The hall's phones are other machines; here they share the board's cores, so they yield to it as the relay does
    # (SCHED_IDLE where there is one: they run only on a core the board leaves idle).
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(10)
    port, key, n, seconds = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    print(json.dumps(asyncio.run(main(port, key, n, seconds))), flush=True)
