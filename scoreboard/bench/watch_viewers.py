"""The viewers of `scoreboard bench watch`, in a process of their own: N WebSockets to the watch relay, spread over
loopback addresses 127.0.0.2… (a venue's phones each have their own), each reading every byte it is sent.

    python -m scoreboard.bench.watch_viewers PORT KEY N SECONDS

The hall's phones are other machines; here they share the board's two cores, so they cost as little as a client can:
plain sockets and one selector (the handshake by hand, the relay's frames read whole and counted, not parsed: an
aiohttp client per socket took a tenth of a core for 300 of them), at SCHED_IDLE as the relay. Prints one JSON line:
how many connected, the states each got (min, max)."""
from __future__ import annotations

import base64
import json
import os
import selectors
import socket
import sys
import time

PER_ADDRESS = 10
STATE = b'{"t":"state"'


def _open(port: int, key: str, address: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", port))
    nonce = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws?k={key} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {nonce}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    sock.setblocking(False)
    return sock


def main(port: int, key: str, n: int, seconds: float) -> dict:
    selector = selectors.DefaultSelector()
    counts, upgraded, tails = {}, set(), {}
    for i in range(n):
        sock = _open(port, key, f"127.0.0.{2 + i // PER_ADDRESS}")
        counts[sock] = 0
        tails[sock] = b""
        selector.register(sock, selectors.EVENT_READ)
    until = time.monotonic() + seconds
    while time.monotonic() < until and selector.get_map():
        for selected, _ in selector.select(timeout=max(0.0, until - time.monotonic())):
            sock = selected.fileobj
            try:
                data = sock.recv(262_144)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                data = b""
            if not data:
                selector.unregister(sock)
                continue
            if sock not in upgraded and b" 101 " in data.split(b"\r\n", 1)[0]:
                upgraded.add(sock)
            seen = tails[sock] + data
            counts[sock] += seen.count(STATE) - tails[sock].count(STATE)
            tails[sock] = seen[-len(STATE):]
    for sock in counts:
        sock.close()
    got = [counts[s] for s in upgraded]
    return {"viewers": n, "connected": len(upgraded), "states_min": min(got, default=0),
            "states_max": max(got, default=0)}


if __name__ == "__main__":
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(10)
    port, key, n, seconds = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    print(json.dumps(main(port, key, n, seconds)), flush=True)
