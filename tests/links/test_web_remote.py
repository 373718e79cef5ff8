"""The browser remote's server (links/web/server.py): its page over real HTTP and OSC over a real WebSocket on
127.0.0.1, with a real session behind the board's inbox. The same session rules as UDP (PROTOCOL.md §2)."""
from __future__ import annotations

import asyncio
import json
import random
import time

import aiohttp
import pytest

from linkhelp import wait_until
from scoreboard.engine.commands import make
from scoreboard.links import Inbox, Links
from scoreboard.bench.links import BoardThread
from scoreboard.links.osc.messages import build
from scoreboard.session import Session

PASS = "s3cret"


@pytest.fixture
def web_board():
    """GIVEN a board: OSC + the web remote on free ports, a loop thread on a real session (novosibirsk 1/9)."""
    epoch = time.monotonic()
    inbox = Inbox()
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASS, "view_passcode": "look",
                           "state_interval": 0.2},
                   "remote_web": {"bind": "127.0.0.1", "port": 0, "connect_within": 1.0}},
                  inbox, lambda: time.monotonic() - epoch + 1.0)
    links.start()
    session = Session()
    session.submit(make(0.0, "/sg/game/new", "novosibirsk-2007", "1/9", 3, 0))
    board = BoardThread(links, inbox, session).start()
    yield links, board, session
    board.stop()
    links.stop()


def url(links, path="/") -> str:
    return f"http://127.0.0.1:{links.web.port}{path}"


def decode(data: bytes) -> tuple[str, list]:
    from pythonosc.osc_message import OscMessage
    message = OscMessage(data)
    return message.address, list(message.params)


class Peer:
    """One phone: a WebSocket with a peer token, reading every OSC message the board sends."""

    def __init__(self, links, token="phone-token-0001"):
        self.links, self.token = links, token
        self.http = self.ws = None
        self.got: list[tuple[str, list]] = []

    async def open(self):
        self.http = aiohttp.ClientSession()
        self.ws = await self.http.ws_connect(url(self.links, f"/osc?peer={self.token}"))
        return self

    async def send(self, address, *args):
        await self.ws.send_bytes(build(address, *args))

    async def until(self, predicate, timeout=20.0):
        """Read until `predicate(self.got)` holds; a failure only, never a wait, takes the timeout."""
        deadline = time.monotonic() + timeout
        while not predicate(self.got):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out; got {[a for a, _ in self.got]}")
            try:
                message = await self.ws.receive(timeout=left)
            except asyncio.TimeoutError:
                continue
            if message.type != aiohttp.WSMsgType.BINARY:
                raise AssertionError(f"connection ended: {message.type}")
            self.got.append(decode(message.data))
        return self.got

    def of(self, address):
        return [params for a, params in self.got if a == address]

    async def close(self):
        if self.ws is not None:
            await self.ws.close()
        if self.http is not None:
            await self.http.close()


async def connected(links, role="host", passcode=PASS, token="phone-token-0001") -> Peer:
    peer = await Peer(links, token).open()
    await peer.send("/sg/connect", passcode, role)
    await peer.until(lambda got: any(a == "/sg/connected" for a, _ in got) and any(a == "/sg/state" for a, _ in got))
    return peer


def test_web_serves_the_page_and_nothing_else(web_board):
    """GIVEN the board's web remote
    WHEN a browser asks for the page, its scripts, paths outside the page's folder and a folder
    THEN only the page's own files are served (no listing, no traversal), never to be cached."""
    links, _, _ = web_board

    async def run():
        async with aiohttp.ClientSession() as http:
            async with http.get(url(links)) as r:
                page = await r.text()
                assert r.status == 200 and "text/html" in r.headers["Content-Type"]
                assert r.headers["Cache-Control"] == "no-store"
                assert "/osc.js" in page and "default-src 'self'" in r.headers["Content-Security-Policy"]
            async with http.get(url(links, "/link.js")) as r:
                assert r.status == 200 and "javascript" in r.headers["Content-Type"]
            for path in ("/../pyproject.toml", "/%2e%2e/pyproject.toml", "/web/", "/scoreboard/links/web/server.py",
                         "/..%2f..%2fpyproject.toml", "/ui.js/../../config.py", "/.hidden", "/osc.js%00.html",
                         "/server.py", "/__init__.py", "/__pycache__/"):     # the server's own module sits beside
                async with http.get(url(links, path)) as r:
                    assert r.status == 404, (path, r.status)
    asyncio.run(run())


def test_proto2_web_command_is_applied_acked_and_state_pushed(web_board):
    """GIVEN a phone connected over the WebSocket with the passcode
    WHEN it names seat 1 with an 80-character-class real name by a command with an id
    THEN the board applies it, acks the id ok, and the next pushed state and host question reach the phone."""
    links, board, session = web_board

    async def run():
        peer = await connected(links)
        await peer.send("/sg/cmd/player/name", 7, 1, "Вера Смирнова-Оболенская")
        await peer.until(lambda got: [7, "ok"] in peer.of("/sg/ack"))
        await peer.until(lambda got: any(json.loads(p[1])["players"][0]["name"] == "Вера Смирнова-Оболенская"
                                         for p in peer.of("/sg/state")))
        assert peer.of("/sg/host/question"), "a host session gets the host's question"
        await peer.close()
    asyncio.run(run())
    assert session.snapshot()["players"][0]["name"] == "Вера Смирнова-Оболенская"


def test_proto2_web_drop_mid_command_reconnect_applies_once(web_board):
    """GIVEN a phone that sent a command and lost its WebSocket before the ack came back
    WHEN it reconnects with the same peer token and re-sends the same id
    THEN the board keeps its session, answers the copy with the first result and applies the command once."""
    links, board, session = web_board

    async def run():
        first = await connected(links, token="dropping-phone-01")
        sid = first.of("/sg/connected")[0][0]
        await first.send("/sg/cmd/player/name", 41, 2, "Пётр")
        await first.close()                                  # dropped off the Wi-Fi mid-command
        again = await connected(links, token="dropping-phone-01")
        assert again.of("/sg/connected")[0][0] == sid        # the same session: its ids are remembered
        await again.send("/sg/cmd/player/name", 41, 2, "Пётр")
        await again.until(lambda got: [41, "ok"] in again.of("/sg/ack"))
        await again.close()
    asyncio.run(run())

    def names():        # the loop thread records a command just after its ack goes out
        return [c for c in board.applied if c.address == "/sg/player/name" and c.args == (2, "Пётр")]
    assert wait_until(lambda: names()) and len(names()) == 1, board.applied


def test_proto2_web_view_session_gets_state_but_no_answers_and_no_commands(web_board):
    """GIVEN a second person's view-only link
    WHEN it connects with the view passcode and tries a command
    THEN it gets the state but never the host's question, and the command is refused, changing nothing."""
    links, board, session = web_board
    rev = session.rev

    async def run():
        peer = await connected(links, role="view", passcode="look", token="viewer-token-01")
        await peer.send("/sg/cmd/player/name", 1, 1, "Взлом")
        await peer.until(lambda got: any(p[0] == 1 and p[1] == "error" for p in peer.of("/sg/ack")))
        assert not peer.of("/sg/host/question")
        await peer.close()
    asyncio.run(run())
    assert session.rev == rev


def test_proto2_web_wrong_passcode_is_denied_and_sessionless_socket_closed(web_board):
    """GIVEN a stranger on the venue's Wi-Fi
    WHEN it opens the WebSocket with a wrong passcode and stays
    THEN it is denied and the board closes the connection after connect_within seconds."""
    links, _, session = web_board
    rev = session.rev

    async def run():
        peer = await Peer(links, "stranger-token-1").open()
        await peer.send("/sg/connect", "guess", "host")
        await peer.until(lambda got: peer.of("/sg/denied"))
        message = await peer.ws.receive(timeout=20)
        assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
        await peer.close()
    asyncio.run(run())
    assert session.rev == rev


def test_proto2_web_fuzz_leaves_the_game_unchanged(web_board):
    """GIVEN a connected host phone and several other connections
    WHEN 10,000 random messages arrive over them (random bytes, truncated OSC, text frames, oversized messages,
    unknown addresses, commands with bad arguments)
    THEN the game is unchanged, bad packets are counted, the server still answers the host."""
    links, board, session = web_board
    rng = random.Random(13)
    rev = session.rev
    before = links.osc.status()["bad_packets"]

    def junk() -> bytes:
        kind = rng.randrange(5)
        if kind == 0:
            return rng.randbytes(rng.randrange(1, 200))
        if kind == 1:
            return build("/sg/cmd/player/name", rng.randrange(1, 10**6), rng.choice([0, 9, -1]), "x")[:-rng.randrange(1, 8)]
        if kind == 2:
            return build(rng.choice(["/sg/nonsense", "/sg/cmd/select", "/sg/clock", "/x"]), rng.random())
        if kind == 3:
            return build("/sg/cmd/select", rng.randrange(10**6), "a", "b")
        return build("/sg/connect", rng.randbytes(4).hex(), rng.choice(["host", "view", "root"]))

    async def run():
        host = await connected(links, token="real-host-token")
        others = [await Peer(links, f"fuzzer-token-{i:03d}").open() for i in range(4)]
        for n in range(10_000):
            peer = others[n % len(others)]
            if n % 1000 == 999:
                await peer.ws.send_str("not osc")
            elif n % 2500 == 2499:
                try:
                    await peer.ws.send_bytes(b"\0" * 20_000)          # over MAX_MESSAGE: that connection is cut
                except ConnectionError:
                    pass
                others[n % len(others)] = await Peer(links, f"fuzzer-token-r{n}").open()
                await peer.close()
            else:
                try:
                    await peer.ws.send_bytes(junk())
                except ConnectionError:
                    others[n % len(others)] = await Peer(links, f"fuzzer-token-s{n}").open()
        await host.send("/sg/cmd/sync", 99)
        await host.send("/sg/ping")
        await host.until(lambda got: host.of("/sg/pong"))
        for peer in others:
            await peer.close()
        await host.close()
    asyncio.run(run())
    assert wait_until(lambda: links.osc.status()["bad_packets"] > before + 1000, timeout=20)
    assert session.rev == rev
    assert links.web.alive
