"""The hall's phones and the stream's overlay against the real board (issue 27 items 3–4): `scoreboard run` with
`[watch] enabled` starts the relay beside itself; a host plays a question of the sample pack; headless Chromium
opens /overlay (on a transparent default background, as OBS's browser source composites it) and /watch at a phone's
width; a plain WebSocket viewer records every message. Screenshots land in $WATCH_SHOTS when it is set
(docs/streaming/ is made that way)."""
from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import threading
from pathlib import Path

import aiohttp
import pytest

from scoreboard.bench.real_board import free_port, real_board, signed_host
from tests.conftest import need
from tests.links.webhelp import wait_for

PASSCODE = "watch-e2e-5"
VIEW_KEY = "watch-e2e-view-key-0123"
PACK = Path(__file__).resolve().parents[2] / "assets" / "packs" / "sample.toml"


class Viewer(threading.Thread):
    """A plain WebSocket viewer of the relay that keeps every message it is sent."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port, self.messages, self.running = port, [], True

    def run(self) -> None:
        asyncio.run(self._run())

    async def _run(self) -> None:
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(f"http://127.0.0.1:{self.port}/ws?k={VIEW_KEY}") as ws:
                while self.running:
                    try:
                        message = await ws.receive(timeout=0.2)
                    except asyncio.TimeoutError:
                        continue
                    if message.type != aiohttp.WSMsgType.TEXT:
                        return
                    self.messages.append(json.loads(message.data))

    def seqs(self) -> list[int]:
        return [m["seq"] for m in self.messages if m["t"] == "state"]


@pytest.fixture(scope="module")
def relay_board(tmp_path_factory):
    """GIVEN the real board with [watch] enabled (the relay a process of its own) and a tournament file (the 1/9
    final played), and a host at the pack's board."""
    need("xvfb", "chromium", "chromium-driver")
    pytest.importorskip("selenium")
    from scoreboard.demo import tournament as demo
    port = free_port(socket.SOCK_STREAM)
    folder = tmp_path_factory.mktemp("tournament")
    demo.build(folder / "t.sqlite", "novosibirsk-2007", "1/3").close()     # the 1/9 final played, 1/3 drawn
    extra = (f'\n[watch]\nenabled = true\nbind = "127.0.0.1"\nport = {port}\nkey = "{VIEW_KEY}"\n'
             f'\n[tournament]\nfile = "{folder / "t.sqlite"}"\n')
    with real_board(PASSCODE, extra=extra) as board:
        host = signed_host(board, PASSCODE, within=30)
        for command in (("/sg/pack/load", str(PACK)), ("/sg/game/start",), ("/sg/chooser", 1)):
            assert host.command(*command, timeout=5.0)[0], command
        wait_for(lambda: _serves(port), 30, "the relay's page")      # its process starts beside the board's
        yield board, host, port
        host.close()


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={tmp_path_factory.mktemp('chromium')}", "--window-size=1920,1080"):
        options.add_argument(arg)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1920, "height": 1080, "deviceScaleFactor": 1,
                                                             "mobile": False})
    yield d
    d.quit()


def _serves(port: int) -> bool:
    import urllib.request
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/watch", timeout=2) as answer:
            return answer.status == 200
    except OSError:
        return False


def _png(driver) -> bytes:
    return base64.b64decode(driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})["data"])


def _shot(name: str, data: bytes) -> None:
    if os.environ.get("WATCH_SHOTS"):
        Path(os.environ["WATCH_SHOTS"], name).write_bytes(data)


def _alpha(png: bytes, points) -> list[int]:
    import io
    import pygame
    picture = pygame.image.load(io.BytesIO(png), "shot.png")
    return [picture.get_at(p).a for p in points]


def _answers(question: dict | None) -> list[str]:
    question = question or {}
    texts = [question.get("answer") or "", question.get("comment") or "", *(question.get("accepts") or [])]
    return [t for t in texts if isinstance(t, str) and len(t.strip()) >= 3]


def test_issue27_3_overlay_is_transparent_in_order_and_never_shows_an_answer(relay_board, driver):
    """GIVEN the relay following the real board, a plain viewer and the overlay in Chromium (transparent default
    background) WHEN the host plays a question of the pack (open, reading done, a press, the verdict)
    THEN no message any viewer got and no text the overlay showed holds the question's answer, accepted answers or
    comment; the overlay applied the states in the relay's order, the latest last; its background is transparent
    (alpha 0 away from its panels), its panels opaque and in the board's theme's colours and font (items 3, 4;
    FN4-like: the hall never sees an answer)."""
    board, host, port = relay_board
    viewer = Viewer(port)
    viewer.start()
    driver.get(f"http://127.0.0.1:{port}/overlay?parts=scores,question,timer,answerer&pos=bottom&scale=1#k={VIEW_KEY}")
    driver.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
    wait_for(lambda: viewer.messages and driver.execute_script("return HALL.seq") > 0, 20, "the first state")
    secrets, shown = [], []
    steps = ((("/sg/select", 1, 1), "reading"), (("/sg/reading/done",), "buzz_window"), (("/sg/button", 2), "answering"),
             (("/sg/judge/right",), "reveal"))
    for command, phase in steps:
        assert host.command(*command, timeout=5.0)[0], command
        wait_for(lambda: host.question is not None or command[0] != "/sg/select", 10, "the host's card")
        secrets += _answers(host.question)
        wait_for(lambda: [m for m in viewer.messages if m["t"] == "state"][-1]["state"]["phase"] == phase, 10,
                 f"the relay's {phase}")
        last = viewer.seqs()[-1]
        wait_for(lambda: driver.execute_script("return HALL.seq") >= last, 10, "the overlay")
        shown.append(driver.execute_script("return document.body.innerText"))
        if command[0] == "/sg/button":
            answering = _png(driver)
            _shot("overlay.png", answering)
    assert secrets, "the pack's question had an answer to hide"
    for message in viewer.messages:
        text = json.dumps(message, ensure_ascii=False)
        assert not any(s in text for s in secrets), (message, secrets)
    assert not any(s in text for s in secrets for text in shown)
    assert "Отвечает Игрок 2" in shown[2] and "\n10\n" in shown[3].split("Игрок 2", 1)[1][:5]
    seen = driver.execute_script("return HALL.seen")
    assert seen == sorted(set(seen)), "applied in order, never twice"
    assert seen[-1] == viewer.seqs()[-1] and set(seen) <= set(viewer.seqs())
    assert seen == [s for s in viewer.seqs() if s >= seen[0]], "no state the relay sent was skipped"
    alpha = _alpha(answering, [(5, 5), (1915, 5), (960, 300), (5, 1075)])
    assert alpha == [0, 0, 0, 0], alpha
    from scoreboard.display.theme.load import load_theme
    panel = "rgb(%d, %d, %d)" % load_theme("classic").color("panel")     # the board's theme, as CSS variables
    assert driver.execute_script("return getComputedStyle(document.getElementById('scores')).backgroundColor") == panel
    assert "sg-main" in driver.execute_script("return getComputedStyle(document.body).fontFamily")
    card = driver.execute_script("const r = document.querySelector('.seat').getBoundingClientRect();"
                                 "return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]")
    assert _alpha(answering, [tuple(card)]) == [255]
    viewer.running = False


def test_issue27_4_watch_page_on_a_phone_and_the_key_it_needs(relay_board, driver):
    """GIVEN the relay WHEN the watch page opens at 390 px wide from the QR's link THEN it shows the scores, the
    chart, the topic and the tournament's bracket (in words), and fits the screen; WHEN opened without the key, or a socket asks without it or from a
    page elsewhere THEN it is refused (403) and the page says it needs the QR (item 4)."""
    board, host, port = relay_board
    driver.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride", {})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1,
                                                                  "mobile": True})
    try:
        driver.get(f"http://127.0.0.1:{port}/watch#k={VIEW_KEY}")
        assert driver.execute_script("return window.innerWidth") == 390, driver.execute_script("return window.innerWidth")
        wait_for(lambda: driver.execute_script("return document.querySelectorAll('#scores .seat').length") == 3,
                 20, "the scores")
        assert driver.execute_script("return document.querySelectorAll('#chart polyline').length") == 3
        wait_for(lambda: driver.execute_script("return document.querySelectorAll('#tournament .game').length") == 13,
                 10, "the bracket: nine 1/9 games, three of the 1/3, the final")
        bracket = driver.execute_script("return document.getElementById('tournament').innerText")
        assert "Чемпионат Новосибирска" in bracket and "1/9 финала" in bracket and "1/3 финала" in bracket
        assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        assert "на связи" in driver.execute_script("return document.getElementById('link').textContent")
        _shot("watch-390.png", _png(driver))
        if os.environ.get("WATCH_SHOTS"):
            _shot("watch-390-tournament.png", base64.b64decode(driver.execute_cdp_cmd(
                "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]))
        driver.execute_script("sessionStorage.clear()")
        driver.get(f"http://127.0.0.1:{port}/watch")
        wait_for(lambda: "QR" in driver.execute_script("return document.getElementById('link').textContent"), 10,
                 "the page saying it needs the key")
    finally:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1920, "height": 1080,
                                                                      "deviceScaleFactor": 1, "mobile": False})

    async def tries():
        async with aiohttp.ClientSession() as http:
            out = []
            for url, headers in ((f"http://127.0.0.1:{port}/ws", {}), (f"http://127.0.0.1:{port}/ws?k=wrong", {}),
                                 (f"http://127.0.0.1:{port}/ws?k={VIEW_KEY}", {"Origin": "http://evil.example"})):
                try:
                    async with http.ws_connect(url, headers=headers):
                        out.append(101)
                except aiohttp.WSServerHandshakeError as error:
                    out.append(error.status)
            return out
    assert asyncio.run(tries()) == [403, 403, 403]


def _relay_pid(board) -> int | None:
    from scoreboard.bench.watch import children_of
    found = children_of(board.process.pid)
    return found[0] if found else None


def test_issue27_4_a_relay_that_dies_is_started_again_and_the_overlay_follows(relay_board, driver):
    """GIVEN the overlay open on the relay, laid out by its query (scores only, top right, half size) THEN it is laid
    out so; WHEN the relay process is killed THEN the board starts it again and the
    page reconnects by itself: a name the host changes afterwards reaches the overlay (the new relay counts its
    states from 1 again; the page takes the first state of a new connection as the latest)."""
    import signal
    board, host, port = relay_board
    driver.get(f"http://127.0.0.1:{port}/overlay?parts=scores&pos=top-right&scale=0.5#k={VIEW_KEY}")
    wait_for(lambda: driver.execute_script("return HALL.seq") > 1, 10, "the overlay's states")
    def layout():       # drawn on the animation frame after a state: waited for, not read at once
        return driver.execute_script("const o = document.getElementById('overlay'); return [o.className,"
                                     " o.style.transform, document.getElementById('question').hidden,"
                                     " document.getElementById('scores').hidden]")
    want = ["top right", "scale(0.5)", True, False]                        # the query's parts, position and scale
    wait_for(lambda: layout() == want, 10, f"the overlay laid out as its query says (last: {layout()})")
    old = _relay_pid(board)
    os.kill(old, signal.SIGKILL)
    wait_for(lambda: (_relay_pid(board) or old) != old, 10, "a new relay")
    assert host.command("/sg/player/name", 3, "Вернулся", timeout=5.0)[0]
    wait_for(lambda: "Вернулся" in driver.execute_script("return document.body.innerText"), 15,
             "the overlay after the relay came back")
    assert board.process.poll() is None, "the board went on"


def test_followup_4_the_questions_picture_on_the_overlay_and_the_phone_once_the_hall_sees_it(relay_board, driver):
    """GIVEN the overlay (its default parts) and the watch page on the relay, the board between questions WHEN the
    host opens the pack's question with a picture (the flag) THEN both pages show it — the PNG, loaded from the
    relay's /picture/TOKEN with the view key — and not before (no picture while the board is chosen from); WHEN the
    question is answered and revealed (no answer picture in this pack) THEN the picture is gone (follow-up item 4)."""
    board, host, port = relay_board
    driver.get(f"http://127.0.0.1:{port}/overlay#k={VIEW_KEY}")
    wait_for(lambda: driver.execute_script("return document.querySelectorAll('.seat').length") == 3, 10,
             "the overlay's first state drawn")     # the scores and the picture are drawn in one go
    picture = ("const i = document.getElementById('picture'); return [i.hidden, i.getAttribute('src') || '',"
               " i.complete ? i.naturalWidth : 0]")
    assert driver.execute_script(picture)[:2] == [True, ""], "no picture before its question opens"
    assert host.command("/sg/select", 2, 1, timeout=5.0)[0]
    wait_for(lambda: driver.execute_script(picture)[2] > 0, 10, "the flag on the overlay")
    hidden, src, width = driver.execute_script(picture)
    assert not hidden and src.startswith("/picture/") and f"?k={VIEW_KEY}" in src and "flag" not in src
    assert width.to_bytes(4, "big") == (PACK.parent / "sample_media" / "flag.png").read_bytes()[16:20]   # IHDR
    _shot("overlay-picture.png", _png(driver))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1,
                                                                  "mobile": True})
    try:
        driver.get(f"http://127.0.0.1:{port}/watch#k={VIEW_KEY}")
        wait_for(lambda: driver.execute_script(picture)[2] > 0, 10, "the flag on the phone")
        assert driver.execute_script(picture)[1] == src, "the same picture, the same URL"
        _shot("watch-390-picture.png", _png(driver))
        for command in (("/sg/reading/done",), ("/sg/button", 1), ("/sg/judge/right",)):
            assert host.command(*command, timeout=5.0)[0], command
        wait_for(lambda: driver.execute_script(picture)[:2] == [True, ""], 10, "the picture gone at the reveal")
    finally:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1920, "height": 1080,
                                                                      "deviceScaleFactor": 1, "mobile": False})
