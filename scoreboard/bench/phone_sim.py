"""A simulated player's phone: the seat page's exact protocol (seat.js with link.js) in Python, for `bench phones`
(200 pairs of presses are too many for Chromium on two cores) and the phones' loopback tests. The browser tests
prove the page itself speaks it.

    phone = SimPhone(base_url, seat, board_key, skew_ms=123456.0)
    await phone.open(); await phone.until_synced()
    await phone.press(phone.now_ms())            # the touch, on the phone's own clock

Its clock is its own: `now_ms()` is the process's monotonic clock in ms plus `skew_ms` (and `drift`), so the board
learns nothing from sharing the machine. It samples `/sg/phone/time` every `1/rate` seconds (10 a second while the
page is armed, as seat.js), fits with `ClockFit`, and maps a touch onto the board's clock as the page does.
"""
from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Callable, Optional

import aiohttp
from pythonosc.osc_message import OscMessage

from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.osc.messages import build_message
from scoreboard.links.phones.clock import SYNCED_AFTER, ClockFit
from scoreboard.links.osc.auth import seat_key


class SimPhone:
    def __init__(self, base_url: str, seat: int, board_key: bytes, skew_ms: float = 0.0, drift: float = 0.0,
                 rate: float = 10.0, token: str | None = None, key: bytes | None = None):
        self.base, self.seat, self.rate = base_url.rstrip("/"), seat, rate
        self.secret = key if key is not None else seat_key(board_key, seat)
        self.skew_ms, self.drift = skew_ms, drift
        self.token = token or osc_auth.new_nonce()[:16]
        self.clock = ClockFit()
        self.http: Optional[aiohttp.ClientSession] = None
        self.ws = None
        self.sid = self.key = self.seen = None
        self.seat_state: Optional[str] = None           # "holder" or "waiting" (/sg/phone/seat)
        self.denied: Optional[str] = None
        self.state: dict = {}
        self.states: list[tuple[float, dict]] = []      # (monotonic when read, state) of every state with a change
        self.acks: dict[int, tuple] = {}
        self.heard: set[str] = set()                     # every address the board sent this phone
        self.sent_at: dict[int, float] = {}              # press id -> monotonic when it left the phone
        self.next_id = 1
        self._asked: dict[int, float] = {}
        self._n, self._prev, self._heard = 0, -1, 0.0
        self._tasks: list[asyncio.Task] = []
        self.signs = True                                # its clock samples signed (a test turns it off: the old page)
        self._waiters: list[tuple[Callable[[], bool], asyncio.Future]] = []

    # --- the phone's own clock ----------------------------------------------------------------------
    def now_ms(self, at: float | None = None) -> float:
        t = time.monotonic() if at is None else at
        return t * 1000 * (1 + self.drift) + self.skew_ms

    # --- the link -----------------------------------------------------------------------------------
    async def open(self, timeout: float = 10.0) -> "SimPhone":
        self.http = aiohttp.ClientSession()
        url = self.base.replace("http", "ws", 1) + f"/osc?peer={self.token}"
        self.ws = await self.http.ws_connect(url, headers={"Origin": self.base}, max_msg_size=0)
        self._tasks.append(asyncio.ensure_future(self._read()))
        await self._send("/sg/auth/hello")
        await self.wait(lambda: self.sid is not None or self.denied is not None, timeout, "the seat's session")
        if self.sid is None:
            raise ConnectionError(f"seat {self.seat}: {self.denied}")
        self._tasks.append(asyncio.ensure_future(self._sample()))
        return self

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self.ws is not None:
            await self.ws.close()
        if self.http is not None:
            await self.http.close()

    async def _send(self, address: str, *args: Any) -> None:
        await self.ws.send_bytes(build_message(address, args))

    async def wait(self, predicate: Callable[[], bool], timeout: float, what: str) -> None:
        if predicate():
            return
        future = asyncio.get_running_loop().create_future()
        self._waiters.append((predicate, future))
        try:
            await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            raise TimeoutError(f"seat {self.seat}: no {what} within {timeout} s") from None

    async def until_synced(self, timeout: float = 15.0) -> None:
        """Synced on both sides: the board measures a round trip from the phone's second request on."""
        await self.wait(lambda: self.clock.synced and len(self.clock.samples) > SYNCED_AFTER + 1, timeout,
                        "clock sync")

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.BINARY:
                break
            t3 = self.now_ms()
            try:
                parsed = OscMessage(message.data)
            except Exception:           # not the board's: ignore, as the page does
                continue
            self.heard.add(parsed.address)
            self._handle(parsed.address, list(parsed.params), t3)
            for predicate, future in list(self._waiters):
                if not future.done() and predicate():
                    future.set_result(True)
                    self._waiters.remove((predicate, future))

    def _handle(self, address: str, args: list, t3: float) -> None:
        if address == "/sg/phone/time" and len(args) == 3:
            t0 = self._asked.pop(args[0], None)
            if t0 is not None:
                self.clock.add(t0 / 1000, args[1], args[2], t3 / 1000)
                self._prev, self._heard = args[0], t3
        elif address == "/sg/auth/challenge":
            bnonce, self.seen, salt = args[0], args[1], args[2]
            self._cnonce = osc_auth.new_nonce()
            proof = osc_auth.connect_proof(self.secret, f"seat:{self.seat}", bnonce, self._cnonce, self.seen)
            asyncio.ensure_future(self._send("/sg/auth/connect", f"seat:{self.seat}", bnonce, self._cnonce, proof,
                                             salt))
        elif address == "/sg/connected":
            key = osc_auth.session_key(self.secret, args[0], args[1], self._cnonce)
            if osc_auth.same(args[-1], osc_auth.connected_mac(key, args[0], args[1])):
                self.sid, self.key = args[0], key
        elif address == "/sg/denied":
            self.denied = str(args[0])
        elif address == "/sg/phone/seat":
            self.seat_state = args[1]
        elif address == "/sg/state" and self.key is not None:
            if osc_auth.same(args[-1], osc_auth.state_mac(self.key, self.sid, args[0], args[1])):
                state = json.loads(args[1])
                if (state.get("answering"), state.get("phase")) != (self.state.get("answering"),
                                                                       self.state.get("phase")):
                    self.states.append((time.monotonic(), state))
                self.state = state
        elif address == "/sg/ack" and self.key is not None:
            reason = args[2] if len(args) > 3 else ""
            if osc_auth.same(args[-1], osc_auth.ack_mac(self.key, self.sid, args[0], args[1] == "ok", reason)):
                self.acks[args[0]] = (args[1] == "ok", reason)

    async def _sample(self) -> None:
        while True:
            await asyncio.sleep(1 / self.rate)
            self._n += 1
            now = self.now_ms()
            self._asked[self._n] = now
            if len(self._asked) > 64:
                self._asked.pop(next(iter(self._asked)))
            hold = max(0, round((now - self._heard) * 1000)) if self._prev >= 0 else 0
            sent = self.touch_text(now)                 # when it leaves, on the board's clock (empty: not synced)
            mac = osc_auth.time_mac(self.key, self.sid, self._n, self._prev, hold, sent) if self.signs else b""
            try:
                await self._send("/sg/phone/time", self._n, self._prev, hold, sent, mac)
            except (ConnectionError, RuntimeError):
                return

    # --- presses ------------------------------------------------------------------------------------
    def touch_text(self, touch_ms: float) -> str:
        board = self.clock.board_time(touch_ms / 1000)
        return "" if board is None else f"{board:.6f}"

    async def press(self, touch_ms: float | None = None, seat: int | None = None, touch: str | None = None) -> int:
        """A signed `/sg/press` of the touch at `touch_ms` (the phone's clock; default now), as seat.js sends it;
        `seat` and `touch` forge what a modified page could. The command's id."""
        cid, self.next_id = self.next_id, self.next_id + 1
        args = [self.seat if seat is None else seat,
                touch if touch is not None else self.touch_text(self.now_ms() if touch_ms is None else touch_ms)]
        mac = osc_auth.command_mac(self.key, self.sid, cid, "/sg/press", self.seen, args)
        self.sent_at[cid] = time.monotonic()
        await self._send("/sg/sig/press", self.sid, cid, *args, mac)
        return cid

    async def ack(self, cid: int, timeout: float = 5.0) -> tuple:
        await self.wait(lambda: cid in self.acks, timeout, f"ack of #{cid}")
        return self.acks[cid]
