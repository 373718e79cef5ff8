"""Players' phones on loopback (issue 26 items 1, 3, 5): the board's OSC server and page server on free ports, phones
speaking the seat page's protocol over real WebSockets (bench/phone_sim.py), the attacks a modified page or a
stranger on the Wi-Fi could try. What reaches the game is read off the board's inbox."""
from __future__ import annotations

import asyncio
import time

import pytest

from linkhelp import wait_until
from scoreboard.bench.phone_sim import SimPhone
from scoreboard.links import Inbox, Links
from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.osc.client import OscClient
from scoreboard.links.osc.messages import build_message
from scoreboard.links.phones.clock import MAX_WAIT
from scoreboard.links.phones.seats import PRESSES_PER_SECOND

KEY = osc_auth.parse_key(osc_auth.new_key())


@pytest.fixture(scope="module")
def board():
    """GIVEN the board's links (OSC and the page) on loopback with a key, its clock the engine's (monotonic − epoch)."""
    epoch = time.monotonic() - 5.0
    inbox = Inbox()
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": "host-pass", "key": osc_auth.key_text(KEY),
                           "state_interval": 0.2},
                   "remote_web": {"bind": "127.0.0.1", "port": 0, "connect_within": 2.0}},
                  inbox, lambda: time.monotonic() - epoch)
    links.start()
    links.base = f"http://127.0.0.1:{links.web.port}"
    links.now = lambda: time.monotonic() - epoch
    yield links
    links.stop()


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))


def presses(inbox: Inbox) -> list:
    return [item for item in inbox.drain() if item.cmd.address == "/sg/button"]


def test_item3_a_synced_phone_press_is_stamped_at_its_touch_within_the_clamp(board):
    """GIVEN a phone of seat 1 whose clock is 5,000 s off the board's, synced over loopback
    WHEN it presses for a touch 20 ms before it sends
    THEN the inbox holds `/sg/button 1 phone ms` stamped within a few ms of the touch's board time (20 ms before
    the arrival), never later than the arrival; its ack is signed and says ok once applied."""
    async def scenario():
        phone = await SimPhone(board.base, 1, KEY, skew_ms=-5_000_000.0, rate=50).open()
        try:
            await phone.until_synced()
            touch_board = board.now() - 0.02
            cid = await phone.press(phone.now_ms() - 20)
            wait_until(lambda: len(board.inbox) > 0, 10)
            arrival = board.now()
            [item] = presses(board.inbox)
            item.on_result(True, None)
            assert await phone.ack(cid) == (True, "")
            return item, touch_board, arrival
        finally:
            await phone.close()
    item, touch, arrival = run(scenario())
    assert item.cmd.args[:2] == (1, "phone") and item.source.startswith("phone:")
    assert abs(item.cmd.at - touch) < 0.005 and item.cmd.at <= arrival
    assert 0 < item.cmd.args[2] < 50                              # its error bound: the loopback clock's, in ms


def test_item5_a_phone_presses_only_for_its_seat_and_only_signed(board):
    """GIVEN a phone of seat 2 WHEN its page presses for seat 3, sends an unsigned `/sg/cmd/press`, a press whose MAC
    does not check, and a host's command (`/sg/judge/right`)
    THEN each is refused (acked so, or answered with an error), nothing reaches the inbox, and the phone never gets
    the host's question (the answer)."""
    async def scenario():
        phone = await SimPhone(board.base, 2, KEY, rate=20).open()
        try:
            other = await phone.press(seat=3)
            assert (await phone.ack(other))[0] is False
            await phone._send("/sg/cmd/press", 90, 2, "")
            forged = osc_auth.command_mac(b"\0" * 32, phone.sid, 91, "/sg/press", phone.seen, [2, ""])
            await phone._send("/sg/sig/press", phone.sid, 91, 2, "", forged)
            mac = osc_auth.command_mac(phone.key, phone.sid, 92, "/sg/judge/right", phone.seen, [])
            await phone._send("/sg/sig/judge/right", phone.sid, 92, mac)
            await phone.wait(lambda: 92 in phone.acks, 10, "the refusal of a host's command")
            assert phone.acks[92][0] is False and 90 not in phone.acks and 91 not in phone.acks
            return phone.acks[other]
        finally:
            await phone.close()
    refusal = run(scenario())
    assert "seat 2 only" in refusal[1]
    assert presses(board.inbox) == []
    counts = board.osc.status()
    assert counts["forged"] >= 1 and counts["unsigned_refused"] >= 1


def test_item1_a_seat_opens_only_with_its_key(board):
    """GIVEN the board WHEN a page proves seat 1 with seat 2's key, and a plain `/sg/connect` asks for seat 1
    THEN both are denied: a seat's session needs that seat's key, proven by the handshake."""
    async def scenario():
        wrong = SimPhone(board.base, 1, KEY, key=osc_auth.seat_key(KEY, 2))
        with pytest.raises(ConnectionError, match="wrong seat key"):
            await wrong.open(timeout=5)
        await wrong.close()
        plain = SimPhone(board.base, 1, KEY)
        plain.http = __import__("aiohttp").ClientSession()
        plain.ws = await plain.http.ws_connect(board.base.replace("http", "ws") + "/osc?peer=plainplainplain",
                                               headers={"Origin": board.base})
        plain._tasks.append(asyncio.ensure_future(plain._read()))
        await plain.ws.send_bytes(build_message("/sg/connect", ["host-pass", "seat:1"]))
        await plain.wait(lambda: plain.denied is not None, 5, "a refusal")
        await plain.close()
        return plain.denied
    assert "by its link only" in run(scenario())


def test_item1_second_phone_waits_for_the_hosts_tap(board):
    """GIVEN seat 3 held by one phone WHEN a second phone opens seat 3's link and presses, then the host taps
    `/sg/seat/admit 3` THEN the second phone is told it waits, its press is refused, and after the tap it presses."""
    async def scenario():
        first = await SimPhone(board.base, 3, KEY, rate=20).open()
        second = await SimPhone(board.base, 3, KEY, rate=20).open()
        try:
            assert first.seat_state == "holder"
            await second.wait(lambda: second.seat_state is not None, 5, "its seat's word")
            assert second.seat_state == "waiting"
            early = await second.press()
            assert (await second.ack(early))[0] is False
            assert board.osc.phones.status()["seats"][-1]["waiting"]
            host = OscClient("127.0.0.1", board.osc.address[1], "host-pass", auth="on", bind=("127.0.0.1", 0))
            try:                                  # the host's tap, signed, over OSC
                host.connect(timeout=10)
                assert host.command("/sg/seat/admit", 3, timeout=10)[0] is True
                assert host.command("/sg/seat/admit", 3, timeout=10)[0] is False     # no one waits any more
            finally:
                host.close()
            late = await second.press()
            wait_until(lambda: len(board.inbox) > 0, 10)
            [item] = presses(board.inbox)
            item.on_result(True, None)
            assert (await second.ack(late))[0] is True
        finally:
            await first.close()
            await second.close()
    run(scenario())


def test_item5_a_press_flood_is_budgeted(board):
    """GIVEN a phone of seat 4 WHEN its page sends 200 signed presses as fast as the socket takes them
    THEN at most its budget (PRESSES_PER_SECOND a second, plus what the flood's span refills) reaches the inbox, every
    other press is refused in its ack, and the board still answers the phone's clock samples."""
    async def scenario():
        phone = await SimPhone(board.base, 4, KEY, rate=20).open()
        try:
            started = time.monotonic()
            for _ in range(200):             # (fewer than a socket's queue of answers: a page re-sends what it lost)
                await phone.press()
            await phone.wait(lambda: len(phone.acks) + len(board.inbox) >= 200, 15, "an answer to every press")
            span = time.monotonic() - started
            before = len(phone.clock.samples)
            await phone.wait(lambda: len(phone.clock.samples) > before, 5, "a clock sample after the flood")
            return span, sum(1 for ok, _ in phone.acks.values() if not ok)
        finally:
            await phone.close()
    span, refused = run(scenario())
    items = presses(board.inbox)
    assert 1 <= len(items) <= PRESSES_PER_SECOND * (1 + span) + 1
    assert refused == 200 - len(items)
    assert board.osc.phones.status()["over_budget"] >= refused


def test_item3_phones_status_for_the_hosts_screen(board):
    """GIVEN a phone of seat 5 sampling WHEN the board is asked for the phones' status
    THEN seat 5 shows synced with its ± ms and round trip, and the wait is 0 while nothing is armed (MAX_WAIT cap
    reported for the host)."""
    async def scenario():
        phone = await SimPhone(board.base, 5, KEY, rate=50).open()
        try:
            await phone.until_synced()
            wait_until(lambda: any(s["seat"] == 5 and s["state"] == "synced"
                                   for s in board.osc.phones.status()["seats"]), 10)
            return board.osc.phones.status()
        finally:
            await phone.close()
    status = run(scenario())
    seat = next(s for s in status["seats"] if s["seat"] == 5)
    assert seat["error_ms"] is not None and seat["rtt_ms"] is not None
    assert status["wait_ms"] == 0 and status["max_wait_ms"] == round(MAX_WAIT * 1000)


def test_item1_host_remote_gets_the_seats_codes_signed_and_a_phone_does_not(board):
    """GIVEN a host's signed session over the page's WebSocket and a phone of seat 6
    WHEN each asks `/sg/host/seats` THEN the host gets every seat's link (its seat key) with a QR code, signed with
    its session's key; the phone gets nothing (a phone never learns another seat's key)."""
    import json

    import aiohttp
    from pythonosc.osc_message import OscMessage
    from scoreboard.links.phones.seats import seat_link

    async def scenario():
        handshake = osc_auth.ClientHandshake("host-pass", "host")
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(board.base.replace("http", "ws") + "/osc?peer=hostseatsview1",
                                       headers={"Origin": board.base}) as ws:
                await ws.send_bytes(build_message(*handshake.message()))
                got = None
                while got is None:
                    message = OscMessage((await ws.receive(timeout=10)).data)
                    if message.address == "/sg/auth/challenge" and handshake.challenged(*message.params):
                        await ws.send_bytes(build_message(*handshake.message()))
                    elif message.address == "/sg/connected":
                        sid, snonce = message.params[:2]
                        key = handshake.key(sid, snonce)
                        await ws.send_bytes(build_message("/sg/host/seats", []))
                    elif message.address == "/sg/host/seats":
                        got = message.params
        phone = await SimPhone(board.base, 6, KEY, rate=20).open()
        try:
            await phone._send("/sg/host/seats")
            await phone.wait(lambda: len(phone.clock.samples) > 3, 5, "a few samples meanwhile")
        finally:
            await phone.close()
        assert "/sg/host/seats" not in phone.heard and "/sg/host/question" not in phone.heard
        return got, key, sid
    (text, mac), key, sid = run(scenario())
    assert osc_auth.same(mac, osc_auth.seats_mac(key, sid, text))
    view = json.loads(text)
    assert [s["seat"] for s in view["seats"]] == list(range(1, 10))
    assert view["seats"][5]["link"] == seat_link(board.web.urls[0], KEY, 6)
    assert all(s["qr"].startswith("data:image/svg+xml") for s in view["seats"])


def test_item1_scoreboard_seats_prints_each_seats_link_or_says_why_not(tmp_path, capsys):
    """GIVEN a config with the board's key and the page on 127.0.0.1:8123, and one without a key
    WHEN `scoreboard seats --count 4` runs on each
    THEN the first prints four `SEAT LINK` lines, each the seat's page with that seat's key; the second exits 1 and
    says the board draws its key each run (the host's screen shows the codes then)."""
    from scoreboard.cli import main
    from scoreboard.links.phones.seats import seat_link
    key = osc_auth.new_key()
    good, bare = tmp_path / "good.toml", tmp_path / "bare.toml"
    web = '[remote_web]\nbind = "127.0.0.1"\nport = 8123\n'
    good.write_text(f'[osc]\npasscode = "x"\nkey = "{key}"\n{web}', encoding="utf-8")
    bare.write_text(f'[osc]\npasscode = "x"\n{web}', encoding="utf-8")
    assert main(["seats", "--config", str(good), "--count", "4"]) == 0
    lines = capsys.readouterr().out.split("\n")
    assert lines[:4] == [f"{seat} {seat_link('http://127.0.0.1:8123/', osc_auth.parse_key(key), seat)}"
                         for seat in range(1, 5)]
    assert main(["seats", "--config", str(bare)]) == 1
    assert "no [osc] key" in capsys.readouterr().err


def test_issue26_item3_a_sniffer_with_the_phones_token_cannot_inflate_its_bound(board):
    """GIVEN a synced phone of seat 8 (its delivery bound a loopback's: well under 300 ms) and a sniffer on the Wi-Fi
    who learned its WebSocket token WHEN the sniffer opens a socket with that token and sends clock samples unsigned
    (the old form) and with a MAC that does not check, holding the board's reply 300 ms to fake a slow link
    THEN none is taken: no reply, no round trip; seat 8's bound is unchanged and the board counts them refused."""
    import aiohttp  # lazy: the page server's client, for a raw socket

    async def scenario():
        phone = await SimPhone(board.base, 8, KEY, rate=20).open()
        try:
            await phone.until_synced()
            refused = lambda: board.osc.status()["forged"] + board.osc.status()["unsigned_refused"]  # noqa: E731
            before = refused()
            async with aiohttp.ClientSession() as http:
                url = board.base.replace("http", "ws", 1) + f"/osc?peer={phone.token}"
                sniffer = await http.ws_connect(url, headers={"Origin": board.base})
                bad_mac = b"\0" * 16
                await sniffer.send_bytes(build_message("/sg/phone/time", [9000, -1, 0]))
                await sniffer.send_bytes(build_message("/sg/phone/time", [9001, -1, 0, "", bad_mac]))
                wait_until(lambda: refused() >= before + 2, 3)     # (the old board answered them instead)
                await asyncio.sleep(0.3)            # the attack itself: a 300 ms "round trip" for the replies above
                await sniffer.send_bytes(build_message("/sg/phone/time", [9002, 9000, 0]))
                await sniffer.send_bytes(build_message("/sg/phone/time", [9003, 9001, 0, "", bad_mac]))
                wait_until(lambda: refused() >= before + 4 or seat8()["bound_ms"] >= 300, 10)
                await sniffer.close()
            return seat8(), refused() - before
        finally:
            await phone.close()

    def seat8() -> dict:
        return next(s for s in board.osc.phones.status()["seats"] if s["seat"] == 8)
    seat, refused = run(scenario())
    assert seat["bound_ms"] < 300, seat          # the attack's 300 ms round trip would make it 340 ms and more
    assert refused >= 4
