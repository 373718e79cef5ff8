"""`scoreboard bench links --board`: OSC command → ack measured on the real board process.

The real `scoreboard run` on an Xvfb display (one audience window at 1920×1080, 60 fps), OSC on loopback, and
plain UDP host clients (`OscClient`) on this machine:
- steady: 3 clients, each sending `/sg/player/name` (a state change the board journals and draws) at 10 a
  second; command → `/sg/ack` per command (target p99 ≤ 5 ms);
- burst: 1,000 commands sent back to back from one client; first send → last ack (target ≤ 1 s).
Unlike `bench links` (the same OSC path with a loop thread and no display), here every command also costs a
frame of the real board's drawing on this loop. Exit status 1 when a target is missed, 2 when Xvfb is missing.
To see where the board spends its loop, run it under a profiler:
`SCOREBOARD_BENCH_PYTHON_ARGS="-m cProfile -o board.prof" scoreboard bench links --board --quick`.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

from scoreboard.links.bench import percentiles
from scoreboard.links.osc_client import NotConnected, OscClient

TARGETS = {"ack_p99_ms": 5.0, "burst_s": 1.0}
PASSCODE = "bench-board"


def _connect(port: int, board: subprocess.Popen, deadline: float) -> OscClient:
    client = OscClient("127.0.0.1", port, PASSCODE, bind=("127.0.0.1", 0))
    while True:
        if board.poll() is not None:
            client.close()
            raise RuntimeError(f"the board exited: {board.stderr.read()}")
        try:
            client.connect(timeout=2.0)
            return client
        except NotConnected:
            if time.monotonic() > deadline:
                client.close()
                raise RuntimeError("the board did not answer /sg/connect in 60 s") from None


def _steady(client: OscClient, seat: int, count: int, gap: float, samples: list, lost: list) -> None:
    start = time.perf_counter()
    for i in range(count):
        while time.perf_counter() < start + i * gap:
            time.sleep(0.001)
        sent = time.perf_counter()
        try:
            client.command("/sg/player/name", seat, f"bench-{seat}-{i}", timeout=5.0, retry=1.0)
            samples.append(time.perf_counter() - sent)
        except TimeoutError:
            lost.append(i)


def _burst(client: OscClient, count: int) -> dict:
    ids = [client.new_id() for _ in range(count)]
    start = time.perf_counter()
    for i, cid in enumerate(ids):
        client.send_with_id(cid, "/sg/player/name", 1 + i % 3, f"burst-{i}")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        missing = [cid for cid in ids if client.ack(cid) is None]
        if not missing:
            break
        time.sleep(0.002)
    else:
        missing = [cid for cid in ids if client.ack(cid) is None]
    # all acked: first send → last ack; otherwise how long it waited (10 s) with `acked` short of `commands`
    return {"commands": count, "seconds": round(time.perf_counter() - start, 3), "acked": count - len(missing)}


def run(per_client: int = 300, clients: int = 3, burst: int = 1000) -> dict:
    from scoreboard.real_board import real_board
    with real_board(PASSCODE) as real:
        board, port = real.process, real.osc_port
        hosts: list[OscClient] = []
        try:
            deadline = time.monotonic() + 60
            hosts = [_connect(port, board, deadline) for _ in range(clients)]
            samples: list[float] = []
            lost: list[int] = []
            threads = [threading.Thread(target=_steady, args=(c, 1 + n % 3, per_client, 0.1, samples, lost))
                       for n, c in enumerate(hosts)]
            load_before = os.getloadavg()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            burst_figures = _burst(hosts[0], burst)
            load = os.getloadavg()
        finally:
            for c in hosts:
                c.close()
    figures = {"where": "real board under Xvfb (1920×1080 audience window, 60 fps)", "clients": clients,
               "rate_per_client_per_s": 10, "ack": {**percentiles(samples), "lost": len(lost)},
               "burst": burst_figures, "load_average": [round(x, 2) for x in (*load_before, *load)][:3]}
    figures["ok"] = (figures["ack"]["p99_ms"] <= TARGETS["ack_p99_ms"] and not lost
                     and burst_figures["acked"] == burst and burst_figures["seconds"] <= TARGETS["burst_s"])
    return figures


def bench_board(args) -> int:
    import json
    from scoreboard.xdisplay import NoXvfb
    quick = getattr(args, "quick", False)
    try:
        figures = run(per_client=30 if quick else 300, burst=200 if quick else 1000)
    except NoXvfb as error:
        print(f"bench links --board: {error}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        print(json.dumps(figures, ensure_ascii=False, indent=1))
    else:
        a, b = figures["ack"], figures["burst"]
        print(f"links on the {figures['where']}: {figures['clients']} OSC host clients over loopback, "
              f"10 commands/s each (load average {figures['load_average'][0]})")
        print(f"  command → ack: median {a['median_ms']} ms, p99 {a['p99_ms']} ms, max {a['max_ms']} ms "
              f"({a['n']} acks, {a['lost']} lost; target p99 ≤ {TARGETS['ack_p99_ms']:.0f} ms)")
        print(f"  burst of {b['commands']}: {b['acked']} acked in {b['seconds']} s "
              f"(target ≤ {TARGETS['burst_s']:.0f} s)")
        print("  all targets met" if figures["ok"] else "  TARGET MISSED")
    return 0 if figures["ok"] else 1
