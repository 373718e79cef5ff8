"""`scoreboard bench hall`: the board under the strangers of issue 24, beside the same figures with no attack.

The real `scoreboard run` on an Xvfb display (one audience window at 1920×1080, 60 fps, SCOREBOARD_DRAW_EVERY_FRAME=1:
it redraws its whole window every frame whatever happens), OSC over UDP and TCP and the page's WebSocket on
loopback, its frames clocked (`frame_clock.py`). One board for every phase, in this order:
- after 3 s of warm-up, `quiet`, then a flood of each kind (`hall_floods.py`, in a process of its own): `udp` (as fast
  as loopback takes it), `udp-20k` (20,000 datagrams a second), `tcp`, `ws`. During each
  phase a signed host (the project's client, UDP) sends `/sg/player/name` (journaled, drawn) ten times a second,
  waiting for each ack; taken: the host's ack (median, p99), the board's frame interval (median, p99: the time
  between the starts of two main-thread turns, 16.7 ms when it keeps up) and its RSS (at the start, the peak, the
  growth; sampled ten times a second from /proc);
- `lockout`: the time a host's authenticated connect takes, with no attack and while a spoofer sends 200 wrong
  plain connects a second from the host's IP;
- `slots`: the time a host's authenticated connect over the page's WebSocket takes, with no attack and while 40
  sockets hold the page's slots and reconnect in a loop.
Targets (issue 24 item 1): RSS growth ≤ 50 MB, host ack p99 ≤ 50 ms under every flood; the host in within 2 s under
lock-out and slot-hogging. Exit status 1 when a target is missed, 2 when Xvfb is missing.
"""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from pythonosc.osc_message import OscMessage

from scoreboard.bench.figures import percentile, percentiles
from scoreboard.bench.real_board import real_board, signed_host
from scoreboard.bench.xdisplay import NoXvfb
from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.osc.client import NotConnected, OscClient
from scoreboard.links.osc.messages import build_message

PASSCODE = "bench-hall"
TARGETS = {"rss_growth_mb": 50.0, "ack_p99_ms": 50.0, "connect_s": 2.0}
FLOODS = ("udp", "udp-20k", "tcp", "ws")


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class _Rss(threading.Thread):
    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.samples, self.running = pid, [], True

    def run(self) -> None:
        while self.running:
            try:
                self.samples.append(_rss_mb(self.pid))
            except OSError:
                return
            time.sleep(0.1)


def _flood(kind: str, osc_port: int, web_port: int, seconds: float) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "scoreboard.bench.hall_floods", kind, str(osc_port),
                             str(web_port), str(seconds)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _sent(flood: subprocess.Popen) -> dict:
    out, err = flood.communicate(timeout=60)
    try:
        return json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"error": err.strip()[-300:]}


def _phase(real, host: OscClient, kind: str | None, seconds: float) -> dict:
    """One phase: the flood `kind` (None: quiet) while the host commands ten times a second."""
    rss = _Rss(real.process.pid)
    rss.start()
    flood = _flood(kind, real.osc_port, real.web_port, seconds) if kind else None
    started, acks, lost = time.perf_counter(), [], 0
    i = 0
    while time.perf_counter() - started < seconds:
        due = started + i * 0.1
        time.sleep(max(0.0, due - time.perf_counter()))
        sent = time.perf_counter()
        try:
            ok, _ = host.command("/sg/player/name", 1 + i % 3, f"hall-{kind or 'quiet'}-{i}", timeout=5.0)
            acks.append(time.perf_counter() - sent) if ok else None
        except (TimeoutError, NotConnected):
            lost += 1
        i += 1
    ended = time.perf_counter()
    sent_by_flood = _sent(flood) if flood else {}
    rss.running = False
    rss.join()
    first = rss.samples[0] if rss.samples else 0.0
    return {"window": [started, ended], "ack": {**percentiles(acks), "lost": lost}, "flood": sent_by_flood,
            "rss_mb": {"start": round(first, 1), "peak": round(max(rss.samples, default=0.0), 1),
                       "growth": round(max(rss.samples, default=0.0) - first, 1)}}


def _udp_connect_time(port: int, limit: float = 30.0) -> float | None:
    client = OscClient("127.0.0.1", port, PASSCODE, auth="on", bind=("127.0.0.1", 0))
    started = time.perf_counter()
    try:
        client.connect(timeout=limit)
        return time.perf_counter() - started
    except NotConnected:
        return None
    finally:
        client.close()


async def _ws_connect(web_port: int, limit: float = 30.0) -> float | None:
    """A host's authenticated connect over the page's WebSocket (the page's way, in Python); None: not within
    `limit` seconds (refused slots are retried every 0.1 s, as the page's reconnect does at best)."""
    import aiohttp  # lazy: only this phase speaks WebSocket
    handshake, started = osc_auth.ClientHandshake(PASSCODE, "host"), time.perf_counter()
    # every wait bounded: ws_connect's own `timeout` bounds only the close, the session's default is 300 s
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=2.0)) as http:
        while time.perf_counter() - started < limit:
            try:
                async with http.ws_connect(f"http://127.0.0.1:{web_port}/osc?peer=hall-host-{os.getpid()}",
                                           timeout=2.0) as ws:
                    handshake.restart()
                    await ws.send_bytes(build_message(*handshake.message()))
                    while time.perf_counter() - started < limit:
                        message = await ws.receive(timeout=2.0)
                        if message.type != aiohttp.WSMsgType.BINARY:
                            break
                        answer = OscMessage(message.data)
                        if answer.address == "/sg/auth/challenge" and handshake.challenged(*answer.params):
                            await ws.send_bytes(build_message(*handshake.message()))
                        elif answer.address == "/sg/connected":
                            return time.perf_counter() - started
            except (aiohttp.ClientError, asyncio.TimeoutError, ConnectionError, RuntimeError):
                await asyncio.sleep(0.1)
    return None


async def _bounded(trial, limit: float):
    try:
        return await asyncio.wait_for(trial, limit)
    except asyncio.TimeoutError:
        return None


def _connects(real, kind: str | None, trials: int, over_ws: bool) -> dict:
    flood = _flood(kind, real.osc_port, real.web_port, 8.0 + trials * 3.0) if kind else None
    times = []
    try:
        if flood:
            time.sleep(2.0)             # the attack is in full swing (the brake on, the slots taken)
        for _ in range(trials):
            took = asyncio.run(_bounded(_ws_connect(real.web_port), 35.0)) if over_ws \
                else _udp_connect_time(real.osc_port)
            times.append(took)
    finally:
        if flood:
            flood.terminate()
            flood.wait()
    done = [t for t in times if t is not None]
    return {"trials": trials, "connected": len(done), "median_s": round(percentile(done, 0.5), 3) if done else None,
            "max_s": round(max(done), 3) if done else None}


def _frames(starts: list[float], window: list[float]) -> dict:
    inside = [t for t in starts if window[0] <= t <= window[1]]
    gaps = [b - a for a, b in zip(inside, inside[1:])]
    return percentiles(gaps) if gaps else {"n": 0}


def measure(seconds: float, trials: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-hall-") as tmp:
        frames_file = Path(tmp) / "frames.json"
        phases, connects = {}, {}
        with real_board(PASSCODE, web=True, env={"SCOREBOARD_DRAW_EVERY_FRAME": "1"}, osc_extra="tcp = true",
                        wrap=["-m", "scoreboard.bench.frame_clock", str(frames_file)]) as real:
            host = signed_host(real, PASSCODE)
            try:
                host.command("/sg/game/start", timeout=5.0)
                _phase(real, host, None, 3.0)          # warm-up (fonts, the first frames): not reported
                for kind in (None, *FLOODS):
                    phases[kind or "quiet"] = _phase(real, host, kind, seconds)
                    phases[kind or "quiet"]["host_on_sessions_port"] = host.on_sessions_port   # (links/osc/client.py)
            finally:
                host.close()
            for name, kind, over_ws in (("lockout_quiet", None, False), ("lockout", "spoof", False),
                                        ("slots_quiet", None, True), ("slots", "slots", True)):
                connects[name] = _connects(real, kind, trials, over_ws)
        starts = json.loads(frames_file.read_text()) if frames_file.exists() else []
    for phase in phases.values():
        phase["frame"] = _frames(starts, phase.pop("window"))
    return {"phases": phases, "connects": connects, "load_average": [round(x, 2) for x in os.getloadavg()]}


def missed(figures: dict) -> list[str]:
    out = []
    for name, phase in figures["phases"].items():
        if phase["rss_mb"]["growth"] > TARGETS["rss_growth_mb"]:
            out.append(f"{name}: RSS grew {phase['rss_mb']['growth']} MB")
        if phase["ack"].get("p99_ms", 1e9) > TARGETS["ack_p99_ms"] or phase["ack"]["lost"]:
            out.append(f"{name}: host ack p99 {phase['ack'].get('p99_ms')} ms, {phase['ack']['lost']} lost")
    for name, result in figures["connects"].items():
        if result["connected"] < result["trials"] or (result["max_s"] or 1e9) > TARGETS["connect_s"]:
            out.append(f"{name}: the host connected {result['connected']}/{result['trials']}, "
                       f"at worst in {result['max_s']} s")
    return out


def bench(args) -> int:
    seconds, trials = (3.0, 2) if args.quick else (10.0, 5)
    try:
        figures = measure(seconds, trials)
    except NoXvfb as error:
        print(f"bench hall: {error}", file=sys.stderr)
        return 2
    figures["missed"] = missed(figures)
    if args.json:
        print(json.dumps(figures, ensure_ascii=False, indent=1))
    else:
        print(f"{'phase':8} {'ack med/p99 ms':>16} {'lost':>5} {'frame med/p99 ms':>18} {'RSS start→peak MB':>19}  "
              "what the flood sent")
        for name, p in figures["phases"].items():
            print(f"{name:8} {p['ack'].get('median_ms', '-'):>7}/{p['ack'].get('p99_ms', '-'):<8} "
                  f"{p['ack']['lost']:>5} {p['frame'].get('median_ms', '-'):>8}/{p['frame'].get('p99_ms', '-'):<9} "
                  f"{p['rss_mb']['start']:>8}→{p['rss_mb']['peak']:<9} {json.dumps(p['flood'])}")
        for name, c in figures["connects"].items():
            print(f"connect {name:14} {c['connected']}/{c['trials']} in, median {c['median_s']} s, max {c['max_s']} s")
        print(f"load average {figures['load_average']}; targets {TARGETS}")
        for line in figures["missed"]:
            print(f"MISSED {line}")
    return 1 if figures["missed"] else 0
