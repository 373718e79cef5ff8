"""The page in the board's authenticated OSC mode (issue 13 item 6; docs/LINKS.md "Authenticated mode"): its own
HMAC-SHA256 for pages opened from a LAN address (no crypto.subtle outside a secure context), checked against
RFC 4231 in the real browser; with `[osc] require_auth = true` the page's signed commands are applied and a
sniffed WebSocket frame replayed, altered or sent unsigned is not."""
from __future__ import annotations

import asyncio
import base64
import json

import aiohttp
import pytest

from scoreboard.links.osc.messages import build
from webhelp import PASSCODE, PHONE, Page, Socket, browser, journal_commands, real_board, wait_for

# What a page opened at http://192.168.x.y:8080/ sees: no crypto.subtle (not a secure context). Loopback is a
# secure context, so the test takes it away before the page's scripts run.
NO_SUBTLE = "Object.defineProperty(Crypto.prototype, 'subtle', {get() { return undefined; }, configurable: true});"

# RFC 4231 §4.2–4.8: (key hex, data hex, HMAC-SHA-256 hex; case 5 is truncated to 128 bits).
RFC4231 = [
    ("0b" * 20, b"Hi There".hex(), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    (b"Jefe".hex(), b"what do ya want for nothing?".hex(),
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    ("aa" * 20, "dd" * 50, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    (bytes(range(1, 26)).hex(), "cd" * 50, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
    ("0c" * 20, b"Test With Truncation".hex(), "a3b6167473100ee06e0c796c2955552b"),
    ("aa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First".hex(),
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ("aa" * 131, b"This is a test using a larger than block-size key and a larger than block-size data. The key "
                 b"needs to be hashed before being used by the HMAC algorithm.".hex(),
     "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
]

RUN_VECTORS = """
const done = arguments[arguments.length - 1];
const bytes = (h) => new Uint8Array(h.match(/../g).map((x) => parseInt(x, 16)));
(async () => {
  const out = arguments[0].map(([key, data, want]) => Keys.hex(Keys.hmac(bytes(key), bytes(data))).slice(0, want.length));
  const t = performance.now();
  const stretched = Keys.hex(await Keys.stretch(arguments[1], arguments[2]));
  done({subtle: !!(window.crypto && crypto.subtle), out, stretched, stretch_ms: performance.now() - t,
        abc: Keys.hex(Keys.sha256(new TextEncoder().encode("abc"))), empty: Keys.hex(Keys.sha256(new Uint8Array(0)))});
})();
"""


@pytest.fixture
def auth_board(tmp_path):
    with real_board(tmp_path, osc_extra="require_auth = true") as board:
        yield board


def sniffed(driver) -> tuple[list[bytes], list[str]]:
    """The binary WebSocket frames the page sent and the sockets' addresses, as the browser's network log shows
    them: what a sniffer on the Wi-Fi sees of plain ws://."""
    frames, urls = [], []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.webSocketCreated":
            urls.append(message["params"]["url"])
        if message["method"] == "Network.webSocketFrameSent" and message["params"]["response"]["opcode"] == 2:
            frames.append(base64.b64decode(message["params"]["response"]["payloadData"]))
    return frames, urls


def test_proto2_page_hmac_passes_rfc4231_and_stretches_as_the_board_in_the_real_browser(auth_board, tmp_path):
    """PROTOCOL.md §2 ext, issue 24 item 6: GIVEN the page in Chromium with crypto.subtle absent (as on http:// from
    a LAN address) WHEN the page's HMAC (noble-hashes, keys.js) runs RFC 4231's test cases 1–7, SHA-256 runs FIPS
    180's "abc" and "", and the page stretches a passcode with a salt THEN every output is the published one, and
    the stretch is the board's own (Python's hashlib.scrypt, osc/auth.py) byte for byte."""
    from scoreboard.links.osc import auth as osc_auth
    url = auth_board[0]
    salt = "5a" * 16
    driver = browser(PHONE, tmp_path, scripts=(NO_SUBTLE,))
    try:
        driver.get(url)
        got = driver.execute_async_script(RUN_VECTORS, [list(v) for v in RFC4231], "пароль-77", salt)
    finally:
        driver.quit()
    assert got["subtle"] is False                                 # nothing of the browser's own crypto ran
    assert got["out"] == [want for _, _, want in RFC4231]
    assert got["abc"] == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert got["empty"] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert got["stretched"] == osc_auth.stretch("пароль-77", bytes.fromhex(salt)).hex()


def test_proto2_require_auth_page_commands_applied_and_a_sniffed_frame_replayed_is_not(auth_board, tmp_path):
    """PROTOCOL.md §2 ext, issue 13 item 6: GIVEN the real board with `[osc] require_auth = true` and the page in
    Chromium without crypto.subtle WHEN the host connects, names seat 1, starts the game and corrects seat 1's
    score by +10 THEN all three are applied (signed by the page's own HMAC) and the passcode is in no frame the
    page sent; WHEN a sniffer replays the correction's frame from its own connection, and with the page's peer
    token (as it was, altered to +500, and re-sent unsigned) THEN the correction is applied once only: the replay
    is answered from the board's record and not applied again, the altered frame is refused as a bad signature,
    the unsigned ones as unsigned, and the stranger is not connected."""
    from pythonosc.osc_message import OscMessage
    url, _, journal, _ = auth_board
    driver = browser(PHONE, tmp_path, scripts=(NO_SUBTLE,))
    try:
        page = Page(driver, journal)
        page.connect(url, PASSCODE)                 # typed: stretched in the page, never sent
        assert driver.execute_script("return [!!crypto.subtle, Link.signed]") == [False, True]
        page.el('[data-key="n:1"] input').send_keys("Вера")
        page.el('[data-key="n:1"] button').click()
        wait_for(lambda: ("/sg/player/name", (1, "Вера")) in journal_commands(journal), 20, "the signed name")
        page.tap("start", "/sg/game/start", "начало раунда")
        assert page.amount("adjust:1", 10, "/sg/score/adjust") == (1, 10)
        frames, urls = sniffed(driver)
    finally:
        driver.quit()                     # the page is gone; its session lives on until the idle timeout
    peer = urls[-1].split("peer=")[1]
    assert not any(PASSCODE.encode() in frame for frame in frames)
    signed = next(f for f in frames if f.startswith(b"/sg/sig/score/adjust"))
    sid, cid, seat, amount, mac = OscMessage(signed).params
    altered = build("/sg/sig/score/adjust", sid, cid, seat, 500, mac)

    async def sniff():
        async with aiohttp.ClientSession() as http:
            stranger = await Socket(http, url, "a-stranger-token").open()
            await stranger.ws.send_bytes(signed)
            denied = await stranger.until("/sg/denied")
            thief = await Socket(http, url, peer).open()              # the page's token, read off the air
            await thief.ws.send_bytes(signed)                          # replayed as it was
            ack = await thief.until("/sg/ack")
            await thief.ws.send_bytes(altered)
            bad = await thief.until("/sg/error")
            await thief.send("/sg/cmd/score/adjust", cid + 100, 1, 500)                       # unsigned
            unsigned = await thief.until("/sg/error")
            await thief.send("/sg/score/adjust", 1, 500)                                      # unsigned, no id
            plain = await thief.until("/sg/error")
            return denied, ack, bad, unsigned, plain
    denied, ack, bad, unsigned, plain = asyncio.run(sniff())
    assert denied[0].startswith("not connected")
    assert ack[:2] == [cid, "ok"]             # the copy of an id it applied is answered, never applied again
    assert bad[:2] == ["/sg/score/adjust", "bad signature"]     # signed with the session's key (issue 24 item 5)
    assert unsigned[1].startswith("this board takes signed commands only")
    assert plain[1].startswith("this board takes signed commands only")
    assert [args for a, args in journal_commands(journal) if a == "/sg/score/adjust"] == [(1, 10)]


def test_proto2_view_link_and_a_wrong_passcode_through_the_pages_authenticated_connect(tmp_path):
    """PROTOCOL.md §2, issue 13 item 5: GIVEN a board with a host and a view passcode (links and a loop thread on
    loopback) WHEN the page opened as `/?view` proves the view passcode, and then the page proves a wrong one
    THEN the first is a signed view session that never shows the host's card, the second is denied with the
    reason in the operator's language, and no passcode was sent."""
    import time
    from tests.conftest import need
    need("chromium", "chromium-driver")
    pytest.importorskip("selenium")
    from scoreboard.engine.commands import make
    from scoreboard.links import Inbox, Links
    from scoreboard.bench.links import BoardThread
    from scoreboard.session import Session
    epoch, inbox = time.monotonic(), Inbox()
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": "main-code", "view_passcode": "look"},
                   "remote_web": {"bind": "127.0.0.1", "port": 0}}, inbox, lambda: time.monotonic() - epoch + 1.0)
    links.start()
    session = Session()
    session.submit(make(0.0, "/sg/game/new", "novosibirsk-2007", "1/9", 3, 0))
    board = BoardThread(links, inbox, session).start()
    driver = browser(PHONE, tmp_path)
    try:
        url = f"http://127.0.0.1:{links.web.port}/"
        driver.get(url + "?view")
        driver.find_element("id", "passcode").send_keys("look")
        driver.find_element("css selector", "#connect-form button").click()
        wait_for(lambda: driver.execute_script("return Link.session !== null && Link.online()"), 20, "view session")
        assert driver.execute_script("return [Link.role, Link.signed]") == ["view", True]
        assert not driver.find_element("id", "question").is_displayed()
        driver.get(url)
        driver.find_element("id", "passcode").send_keys("wrong")
        driver.find_element("css selector", "#connect-form button").click()
        wait_for(lambda: driver.find_element("id", "connect-error").text, 20, "the denial")
        assert driver.find_element("id", "connect-error").text == "Отказ: неверный код доступа"
        frames, _ = sniffed(driver)
    finally:
        driver.quit()
        board.stop()
        links.stop()
    assert frames and not any(code in frame for frame in frames for code in (b"look", b"wrong", b"main-code"))
