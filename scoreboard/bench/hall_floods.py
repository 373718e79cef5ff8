"""The strangers of `scoreboard bench hall`: each flood in a process of its own (its own interpreter, its own core when
there is one), aimed at a board on loopback: `python -m scoreboard.bench.hall_floods KIND OSC_PORT WEB_PORT SECONDS`.
It prints one JSON line, what it sent, when it ends. The kinds (issue 24):
- `udp`: datagrams from 64 ports as fast as one process sends them — single hellos, 16 KB bundles of 600 hellos,
  garbage, wrong plain connects, authenticated connects with a forged challenge; `udp-20k`: the same at 20,000
  datagrams a second (about what one Wi-Fi client's airtime allows for small frames);
- `tcp`: 24 SLIP connections that never read, each sending bundles of hellos (4, then 600) as fast as the board
  takes them, reconnecting when closed;
- `ws`: 4 WebSockets sending 16 KB bundles of 666 `/sg/auth/hello` (the issue's attack), reconnecting when closed,
  and 4 more sending single hellos as fast as the board takes them;
- `spoof`: 200 wrong plain connects a second from the host's IP (rotating ports: a spoofer needs no reply);
- `slots`: 40 WebSockets that open and hold the page's slots, reconnecting at once whenever closed.
The WebSocket floods come from the stranger's laptop, 127.0.0.2 (`STRANGER`): the host's own address is its own.
"""
from __future__ import annotations

import asyncio
import json
import random
import socket
import sys
import time

from pythonosc import slip
from pythonosc.osc_bundle_builder import IMMEDIATELY, OscBundleBuilder
from pythonosc.osc_message_builder import OscMessageBuilder

from scoreboard.links.osc.messages import build

HOST = "127.0.0.1"
STRANGER = "127.0.0.2"      # the stranger's laptop: the WebSocket floods come from another address than the host's


def bundle_of(address: str, count: int) -> bytes:
    builder = OscBundleBuilder(IMMEDIATELY)
    message = OscMessageBuilder(address=address).build()
    for _ in range(count):
        builder.add_content(message)
    return builder.build().dgram


def udp(port: int, seconds: float, rate: float | None = None) -> dict:
    rng = random.Random(24)
    packets = [build("/sg/auth/hello"), bundle_of("/sg/auth/hello", 600), rng.randbytes(200),
               build("/sg/connect", "guess", "host"), build("/sg/auth/connect", "host", "1.2.x", "c", "p" * 64)]
    socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(64)]
    for sock in socks:
        sock.setblocking(False)
    sent = n = 0
    start = time.monotonic()
    end = start + seconds
    while time.monotonic() < end:
        if rate is not None:
            time.sleep(max(0.0, start + n / rate - time.monotonic()))
        for _ in range(500 if rate is None else 100):
            try:
                socks[n % 64].sendto(packets[n % len(packets)], (HOST, port))
                sent += 1
            except OSError:                 # our own buffer full: the flood is as fast as the kernel takes it
                pass
            n += 1
    return {"datagrams": sent}


def tcp(port: int, seconds: float) -> dict:
    frames = [slip.encode(bundle_of("/sg/auth/hello", 4)) * 64, slip.encode(bundle_of("/sg/auth/hello", 600))]
    conns: list = [None] * 24
    sent = opened = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for i in range(len(conns)):
            if conns[i] is None:
                try:
                    conns[i] = socket.create_connection((HOST, port), timeout=0.2)
                    conns[i].setblocking(False)
                    opened += 1
                except OSError:
                    continue
            try:
                sent += conns[i].send(frames[0] if sent % 50 else frames[1])
            except BlockingIOError:
                pass                        # the board does not read us: back-pressure
            except OSError:
                conns[i].close()
                conns[i] = None
        time.sleep(0.001)
    return {"bytes": sent, "connections": opened}


async def _ws_loop(url: str, frame: bytes, end: float, counts: dict) -> None:
    import aiohttp  # lazy: the floods of UDP and TCP need no aiohttp
    connector = aiohttp.TCPConnector(local_addr=(STRANGER, 0), limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=None, connect=2.0)) as http:
        while time.monotonic() < end:
            try:
                async with http.ws_connect(url, timeout=2.0) as ws:
                    counts["opened"] += 1
                    while time.monotonic() < end and not ws.closed:
                        await asyncio.wait_for(ws.send_bytes(frame), 2.0)
                        counts["frames"] += 1
            except (aiohttp.ClientError, asyncio.TimeoutError, ConnectionError, RuntimeError):
                counts["refused"] += 1
                await asyncio.sleep(0.01)


async def _hold_slot(url: str, end: float, counts: dict) -> None:
    import aiohttp  # lazy: as above
    connector = aiohttp.TCPConnector(local_addr=(STRANGER, 0), limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=None, connect=2.0)) as http:
        while time.monotonic() < end:
            try:
                async with http.ws_connect(url, timeout=2.0) as ws:
                    counts["opened"] += 1
                    await ws.receive(timeout=max(0.01, end - time.monotonic()))
            except (aiohttp.ClientError, asyncio.TimeoutError, ConnectionError, RuntimeError):
                counts["refused"] += 1
                await asyncio.sleep(0.01)       # and at once again, as a loop in a script would


def ws(web_port: int, seconds: float) -> dict:
    counts = {"opened": 0, "frames": 0, "refused": 0}
    end = time.monotonic() + seconds
    big, small = bundle_of("/sg/auth/hello", 666), build("/sg/auth/hello")

    async def run():
        await asyncio.gather(*(_ws_loop(f"http://{HOST}:{web_port}/osc?peer=flood-{i:04d}-token",
                                        big if i < 4 else small, end, counts) for i in range(8)))
    asyncio.run(run())
    return counts


def slots(web_port: int, seconds: float) -> dict:
    counts = {"opened": 0, "refused": 0}
    end = time.monotonic() + seconds

    async def run():
        await asyncio.gather(*(_hold_slot(f"http://{HOST}:{web_port}/osc?peer=hog-{i:04d}-token", end, counts)
                               for i in range(40)))
    asyncio.run(run())
    return counts


def spoof(port: int, seconds: float) -> dict:
    socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(20)]
    wrong, sent = build("/sg/connect", "guess", "host"), 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        socks[sent % 20].sendto(wrong, (HOST, port))
        sent += 1
        time.sleep(0.005)
    return {"datagrams": sent}


if __name__ == "__main__":
    kind, osc_port, web_port, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    result = {"udp": lambda: udp(osc_port, seconds), "udp-20k": lambda: udp(osc_port, seconds, 20_000),
              "tcp": lambda: tcp(osc_port, seconds),
              "ws": lambda: ws(web_port, seconds), "spoof": lambda: spoof(osc_port, seconds),
              "slots": lambda: slots(web_port, seconds)}[kind]()
    print(json.dumps({kind: result}), flush=True)
