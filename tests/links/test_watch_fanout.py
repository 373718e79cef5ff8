"""The relay's fan-out under the venue's strangers (issue 27 item 4): the real WatchServer (aiohttp, the door) on
loopback, fed directly, real sockets for its viewers. Many viewers all get the latest state; a viewer that never
reads holds a bounded amount and is closed; a socket without the view key is refused; and the hub's latest-wins
slots, unit by unit."""
from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time

import aiohttp
import pytest

from scoreboard.links.watch.config import WATCH_DEFAULTS, check
from scoreboard.links.watch.fanout import KEEP_STATES, Hub, Viewer
from scoreboard.links.watch.server import WatchServer
from tests.links.webhelp import wait_for

KEY = "fanout-test-view-key-01"


@pytest.fixture
def server():
    section = {**WATCH_DEFAULTS, "bind": "127.0.0.1", "port": 0, "send_timeout": 1.0, "per_address": 200,
               "max_viewers": 120}
    watch = WatchServer(section, KEY, ":root {}")
    watch.start()
    yield watch
    watch.stop()


async def _viewers(port: int, count: int, until_seq: int, publish) -> list[list[int]]:
    """`count` viewers connect; `publish()` then runs; each keeps the seqs it got until it has `until_seq`."""
    async with aiohttp.ClientSession() as http:
        sockets = [await http.ws_connect(f"http://127.0.0.1:{port}/ws?k={KEY}") for _ in range(count)]
        await asyncio.get_running_loop().run_in_executor(None, publish)

        async def read(ws) -> list[int]:
            got = []
            while not got or got[-1] < until_seq:
                message = await ws.receive(timeout=10)
                data = json.loads(message.data)
                if data["t"] == "state":
                    got.append(data["seq"])
            return got
        out = await asyncio.gather(*(read(ws) for ws in sockets))
        for ws in sockets:
            await ws.close()
        return out


def test_issue27_4_a_hundred_viewers_each_get_every_state_in_order(server):
    """GIVEN 100 viewers of the relay WHEN 50 states are published THEN every viewer receives them in order, the
    50th last (each may skip none here: they read as fast as they come; a slow one would skip to the latest)."""
    def publish():
        wait_for(lambda: server.hub.status()["viewers"] == 100, 10, "100 viewers")
        for seq in range(1, 51):
            server.publish("state", {"seq": seq, "state": {"phase": "choosing"}})
    got = asyncio.run(_viewers(server.port, 100, 50, publish))
    for seqs in got:
        assert seqs == sorted(set(seqs)) and seqs[-1] == 50


def test_issue27_4_a_viewer_that_never_reads_holds_little_and_is_closed(server):
    """GIVEN a viewer that opens the WebSocket and never reads another byte WHEN 400 states of 20 KB each are
    published (8 MB) THEN the relay holds at most KEEP_STATES states for it plus its socket's buffer (under 1 MB), closes it (its socket held bytes past the send timeout, or its pong never came), and a reading viewer beside it still gets the last state."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)    # before the connect: a small window from the start
    raw.connect(("127.0.0.1", server.port))
    nonce = base64.b64encode(os.urandom(16)).decode()
    raw.sendall((f"GET /ws?k={KEY} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {nonce}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    wait_for(lambda: server.hub.status()["viewers"] == 1, 10, "the silent viewer in")
    worst = {"waiting": 0, "buffered": 0}

    def publish():
        for seq in range(1, 401):
            server.publish("state", {"seq": seq, "state": {"pad": "x" * 20_000}})
            if seq % 20 == 0:
                status = server.status()
                worst["waiting"] = max(worst["waiting"], status["most_waiting_bytes"])
                worst["buffered"] = max(worst["buffered"], status["most_buffered_bytes"])
    try:
        got = asyncio.run(_viewers(server.port, 1, 400, publish))
        assert got[0][-1] == 400
        assert worst["waiting"] <= KEEP_STATES * 20_100, worst    # a few states in its slot, never a queue
        assert worst["buffered"] <= 1_000_000, worst     # its socket's buffer: a few states of 8 MB sent
        wait_for(lambda: server.hub.status()["viewers"] == 0, 10, "the silent viewer closed")
    finally:
        raw.close()


def test_issue27_4_no_key_no_socket_and_a_viewer_has_nothing_to_say(server):
    """GIVEN the relay WHEN a socket comes without the view key or with a wrong one THEN it is refused with 403
    before any upgrade; WHEN a viewer sends a message THEN it is counted and nothing else happens."""
    async def tries():
        async with aiohttp.ClientSession() as http:
            statuses = []
            for query in ("", "?k=", "?k=" + KEY[:-1] + "x"):
                try:
                    async with http.ws_connect(f"http://127.0.0.1:{server.port}/ws{query}"):
                        statuses.append(101)
                except aiohttp.WSServerHandshakeError as error:
                    statuses.append(error.status)
            async with http.ws_connect(f"http://127.0.0.1:{server.port}/ws?k={KEY}") as ws:
                await ws.send_str("hello")
                await asyncio.sleep(0)
            return statuses
    assert asyncio.run(tries()) == [403, 403, 403]
    wait_for(lambda: server.refused["spoke"] == 1, 5, "the viewer's word counted")
    assert server.refused["key"] == 3


def test_issue27_4_the_hub_keeps_the_latest_of_each_kind_for_a_slow_viewer():
    """GIVEN a viewer whose socket has not taken anything yet (the hub keeping two states a viewer) WHEN three states
    and two ticks are published THEN its slot holds the last two states and the last tick, in the order published;
    a viewer that joins later gets the latest of each kind; the writer sends the slot in order."""
    async def run():
        hub = Hub(send_timeout=0.5, keep={"state": 2})
        sent: list = []

        async def send(text):
            sent.append(text)
        slow = Viewer(send, lambda: asyncio.sleep(0))
        hub.join(slow)
        for text in ("s1", "t1", "s2", "s3", "t2"):
            hub.publish("state" if text[0] == "s" else "tick", text)
        assert list(slow.slot) == [("state", "s2"), ("state", "s3"), ("tick", "t2")] and hub.replaced == 2
        late = Viewer(send, lambda: asyncio.sleep(0))
        hub.join(late)
        assert dict(late.slot) == {"state": "s3", "tick": "t2"}
        writer = asyncio.create_task(hub.write(slow))
        await asyncio.sleep(0.01)
        hub.leave(slow)
        slow.wake.set()
        await writer
        assert sent == ["s2", "s3", "t2"]
    asyncio.run(run())


@pytest.mark.parametrize("section, problem", [
    ({"port": 70000}, "watch.port"), ({"key": "short"}, "watch.key"), ({"enabled": "yes"}, "watch.enabled"),
    ({"send_timeout": 0}, "watch.send_timeout"), ({"colour": 1}, "watch.colour"), ({"bind": "here"}, "watch.bind"),
])
def test_issue27_watch_config_names_the_bad_key(section, problem):
    """GIVEN a [watch] section with one bad key THEN the check names it (and only it)."""
    found = check({**section})
    assert len(found) == 1 and found[0].startswith(problem + ":"), found
