"""What this machine alone costs an ack, apart from the board (`scoreboard bench links --board`'s floor lines).

- `disk_floor`: one-row SQLite commits (WAL, synchronous=FULL, as the journal) at the steady run's cadence. A virtual
  disk's flush is slower after a pause: on this project's VM 0.3 ms at 5 ms apart, 0.6 ms at 33 ms, 1.3 ms at 100 ms
  (medians, 2026-12-04).
- `bare_server_floor`: a bare Python UDP server in its own process that journals each datagram with one such commit
  and answers it, driven like the steady run (3 clients × 10/s, plain sockets): no OSC, no engine, no drawing, no
  other thread. An ack from the real board can hardly beat it; on the VM its p99 was 3.9–4.4 ms with the journal on
  the disk and 0.6 ms in memory (2026-12-04).
"""
from __future__ import annotations

import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

from scoreboard.bench.figures import percentiles

SEED = 1000   # client k's arrivals use SEED + k: every run sends on the same schedule

SERVER = r'''
import socket, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA synchronous=FULL")
db.execute("CREATE TABLE t (x)")
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1], flush=True)
while True:
    data, addr = s.recvfrom(1000)
    if data == b"quit":
        break
    db.execute("INSERT INTO t VALUES (?)", (data,))
    s.sendto(data, addr)
'''


def arrivals(count: int, gap: float, seed: int | None = None) -> list[float]:
    """When a client sends its `count` commands, in seconds from its start, `gap` apart on average. With a `seed`: as
    an independent remote (Poisson arrivals: exponential gaps from a phase of its own), so clients meet by chance, as
    three real ones do. Without: a beat every client shares from the same instant — all clients' commands within the
    same millisecond, every time (the stress case: each command queues behind the others')."""
    if seed is None:
        return [i * gap for i in range(count)]
    rng = random.Random(seed)
    times, at = [], rng.uniform(0, gap)
    for _ in range(count):
        times.append(at)
        at += rng.expovariate(1 / gap)
    return times


def disk_floor(commits: int = 100, gap: float = 1 / 30, folder: str | None = None) -> dict:
    """One-row commits `gap` apart in a temp folder (in `folder`): what an ack waits for the disk at the least."""
    samples = []
    with tempfile.TemporaryDirectory(prefix="bench-disk-", dir=folder) as tmp:
        db = sqlite3.connect(os.path.join(tmp, "floor.sqlite"), isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE t (x)")
        for i in range(commits):
            start = time.perf_counter()
            db.execute("INSERT INTO t VALUES (?)", (i,))
            samples.append(time.perf_counter() - start)
            time.sleep(gap)
        db.close()
    return {**percentiles(samples), "gap_ms": round(gap * 1000, 1)}


def bare_server_floor(clients: int = 3, per_client: int = 100, folder: str | None = None) -> dict:
    """Send → answer through a bare journaling UDP server (journal in a temp folder in `folder`), `clients` threads
    each sending 10 datagrams a second as independent remotes (`arrivals`, the steady run's schedule)."""
    samples: list[float] = []
    lost: list[int] = []
    with tempfile.TemporaryDirectory(prefix="bench-bare-", dir=folder) as tmp:
        server = subprocess.Popen([sys.executable, "-c", SERVER, os.path.join(tmp, "bare.sqlite")],
                                  stdout=subprocess.PIPE, text=True)
        port = None
        try:
            port = int(server.stdout.readline())

            def client(k: int) -> None:
                with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                    sock.settimeout(2.0)
                    start = time.perf_counter()
                    for i, at in enumerate(arrivals(per_client, 0.1, SEED + k)):
                        time.sleep(max(0.0, start + at - time.perf_counter()))
                        sent = time.perf_counter()
                        sock.sendto(b"%d-%d" % (k, i), ("127.0.0.1", port))
                        try:
                            sock.recvfrom(100)
                            samples.append(time.perf_counter() - sent)
                        except socket.timeout:
                            lost.append(i)

            threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            if port is not None:
                with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                    sock.sendto(b"quit", ("127.0.0.1", port))
            try:
                server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    return {**percentiles(samples), "lost": len(lost)}
