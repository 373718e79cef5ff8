"""Shared parts of the browser remote's end-to-end tests: the real `scoreboard run` under Xvfb (optionally resuming a
journal a simulation script wrote, so a test starts at the position it is about), Debian's Chromium driven by
selenium with a phone's or a tablet's viewport, the page's buttons, and a second OSC host session for the players'
buttons and for fast-forwarding."""
from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import pytest

from scoreboard.journal import Journal
from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.osc.client import KEEPALIVE
from scoreboard.links.osc.messages import build
from scoreboard.bench.real_board import board_toml, free_port, stop
from tests.conftest import need, xvfb

PASSCODE = "web-e2e-77"
# The board's key (the QR code's link, osc/auth.py): an in-process board that names none has this process's; the
# real `scoreboard run` is given the same, so a page opened at URL#k=KEY connects to either as the host.
KEY = osc_auth.key_text(osc_auth.PROCESS_KEY)
PHONE, TABLET = (390, 844), (1024, 768)
ROOT = Path(__file__).resolve().parents[2]
PACKS = ROOT / "assets" / "packs"          # the shipped sample pack
EXAMPLES = ROOT / "examples"


def wait_for(predicate, timeout=30.0, what=""):
    """Poll until `predicate()` is truthy; the timeout only bounds a failure."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def journal_commands(path: Path) -> list[tuple[str, tuple]]:
    reader = Journal(path, readonly=True)
    try:
        return [(cmd.address, cmd.args) for _, cmd in reader.events() if cmd.address != "/sg/clock"]
    finally:
        reader.close()


def journal_position(path: Path) -> tuple[int, dict]:
    """(rev, state) the journal holds: replayed by a fresh session, as a recovering board would."""
    from scoreboard.session import replay_snapshot
    snapshot = replay_snapshot(path)
    return snapshot["rev"], {k: v for k, v in snapshot.items() if k not in ("time", "status")}


# Real names at the 80-character limit (issue 9 item 4): every label the page draws must still fit.
LONG_NAMES = ("Александра Владимировна Константинопольская-Преображенская, Санкт-Петербург, 1-й",
              "Святослав Всеволодович Долгоруково-Оболенский-Трубецкой, Великий Нижний Новгород",
              "Евангелина Максимилиановна Бонч-Бруевич-Голенищева-Кутузова, Ростов-на-Дону, 2-я")


def scripted_journal(path: Path, script: str, stop_before, names=None) -> Path:
    """Write the journal of `examples/<script>` played up to the first line `stop_before(line)` holds for, the
    players renamed to `names` when given."""
    import dataclasses
    from scoreboard.engine import make
    from scoreboard.script import load_script, run_script
    from scoreboard.session import Session
    lines = load_script(EXAMPLES / script)
    cut = next(i for i, line in enumerate(lines) if line.command is not None and stop_before(line))
    if names:
        lines = [dataclasses.replace(line, command=make(line.at, "/sg/player/name", line.command.args[0],
                                                        names[line.command.args[0] - 1]))
                 if line.command is not None and line.command.address == "/sg/player/name" else line
                 for line in lines]
    session = Session(path)
    run_script(lines[:cut], session)
    session.close()
    return path


@contextmanager
def real_board(folder: Path, journal: Path | None = None, osc_extra: str = "", regulation=("novosibirsk-2007", "1/9"),
               chromium: bool = True):
    """GIVEN the real `scoreboard run` on a real X display, OSC and the page on loopback; with `journal` the board
    resumes that game (paused, as after a power cut). Yields (url, osc_port, journal, process)."""
    need("xvfb")
    if chromium:
        need("chromium", "chromium-driver")
        pytest.importorskip("selenium")
    osc_port, web_port = free_port(), free_port(socket.SOCK_STREAM)
    journal = journal or folder / "game.sqlite"
    config = folder / "scoreboard.toml"
    config.write_text(board_toml(journal=journal, osc_port=osc_port, passcode=PASSCODE, regulation=regulation[0],
                                 stage=regulation[1], size=(640, 360), web_port=web_port,
                                 osc_extra=f'state_interval = 0.5\nkey = "{KEY}"\n' + osc_extra,
                                 extra=f'\n[packs]\ndirs = ["{PACKS}"]\n'), encoding="utf-8")
    with xvfb() as display:
        env = {**os.environ, "DISPLAY": display, "SDL_AUDIODRIVER": "dummy"}
        env.pop("SDL_VIDEODRIVER", None)
        # the board's log to a file, never an undrained pipe: a full pipe blocks the board's next log line
        log = open(folder / "board.log", "w", encoding="utf-8")    # noqa: SIM115 - closed below
        process = subprocess.Popen([sys.executable, "-m", "scoreboard", "run", "--config", str(config)], env=env,
                                   stdout=log, stderr=subprocess.STDOUT, text=True)

        def up():
            assert process.poll() is None, (folder / "board.log").read_text(encoding="utf-8")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/", timeout=2) as r:
                    return r.status == 200
            except OSError:
                return False
        try:
            wait_for(up, 60, "the board's page")
            yield f"http://127.0.0.1:{web_port}/", osc_port, journal, process
        finally:
            stop(process)
            log.close()


def browser(size, folder: Path, scripts: tuple[str, ...] = ()):
    """Chromium with the device's own viewport; `scripts` run in every document before the page's own."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={folder / f'chromium-{size[0]}'}", f"--window-size={size[0]},{size[1]}"):
        options.add_argument(arg)
    # The viewport of the device itself (a headless window is never narrower than 500 px).
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": size[0], "height": size[1],
                                                                          "pixelRatio": 1.0, "touch": True}})
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    for source in scripts:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})
    return driver


def resize(driver, size) -> None:
    """The same page at another device's size (portrait phone, landscape tablet)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": size[0], "height": size[1],
                                                                   "deviceScaleFactor": 1, "mobile": True})


class Page:
    """The page in Chromium; `commands()` lists what the board applied (its journal, or the loop's record)."""

    def __init__(self, driver, journal, shots: Path | None = None):
        self.d, self.shots = driver, shots
        self.commands = journal if callable(journal) else (lambda: journal_commands(journal))

    def el(self, css):
        from selenium.webdriver.common.by import By
        return self.d.find_element(By.CSS_SELECTOR, css)

    def connect(self, url, passcode=None):
        """As the host: from the QR code's link (URL#k=KEY), or by typing `passcode` into the page's form."""
        if passcode is None:
            self.d.get(f"{url}#k={KEY}")
        else:
            self.d.get(url)
            self.el("#passcode").send_keys(passcode)
            self.el("#connect-form button").click()
        wait_for(lambda: self.el("#game").is_displayed() and self.el("#conn").text == "на связи", 30, "connected")

    def phase(self) -> str:
        return self.el("#phase").text

    def tap(self, key, expect_address, phase_word=None, shot=None):
        """Tap the button `key` once it is enabled; THEN the journal gains `expect_address` and the page shows
        `phase_word`."""
        before = len(self.commands())
        button = wait_for(lambda: self._enabled(key), 20, f"{key} enabled")
        self.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)   # clear of the sticky bar
        button.click()
        wait_for(lambda: any(a == expect_address for a, _ in self.commands()[before:]), 20,
                 f"{expect_address} in the journal")
        if phase_word is not None:
            wait_for(lambda: self.phase().startswith(phase_word), 20, f"phase {phase_word} (shows {self.phase()})")
        if shot and self.shots is not None:
            self.d.save_screenshot(str(self.shots / f"{shot}.png"))

    def amount(self, key, value, expect_address):
        """Tap `key`, type `value` into the page's amount dialog and OK it; THEN the journal gains the command."""
        before = len(self.commands())
        button = wait_for(lambda: self._enabled(key), 20, f"{key} enabled")
        self.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        wait_for(lambda: self.el("#amount").is_displayed(), 10, "the amount dialog")
        self.el("#amount-input").send_keys(str(value))
        self.el("#amount-ok").click()
        return wait_for(lambda: next((args for a, args in self.commands()[before:] if a == expect_address), None),
                        20, f"{expect_address} in the journal")

    def _enabled(self, key):
        from selenium.common.exceptions import NoSuchElementException
        try:
            button = self.el(f'[data-key="{key}"]')
        except NoSuchElementException:
            return None
        return button if button.is_enabled() and button.is_displayed() else None

    def fits(self) -> bool:
        return self.d.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


LAYOUT_JS = """
const rects = {}, overflow = [];
for (const el of document.querySelectorAll("button[data-key]")) {
  if (!el.offsetParent) continue;
  const r = el.getBoundingClientRect();
  rects[el.dataset.key] = [r.left, r.top + window.scrollY, r.width, r.height].map((x) => Math.round(x * 2) / 2);
}
for (const el of document.querySelectorAll("#bar, #bar *, #game, #game *, dialog[open] *")) {
  if (!el.getClientRects().length || !el.textContent.trim() || ["INPUT", "SELECT", "OPTION"].includes(el.tagName)) continue;
  const cs = getComputedStyle(el);
  if (cs.display === "inline" || cs.display === "contents" || cs.visibility === "hidden") continue;
  const r = el.getBoundingClientRect();
  const what = `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${el.dataset.key ? "[" + el.dataset.key + "]" : ""}` +
               `.${el.className || ""} «${el.textContent.trim().slice(0, 40)}»`;
  const ellipsis = cs.textOverflow === "ellipsis" || cs.webkitLineClamp !== "none";
  if (el.scrollWidth > el.clientWidth + 1 && !(ellipsis && cs.overflowX === "hidden")) overflow.push(`${what}: ${el.scrollWidth} > ${el.clientWidth} px wide`);
  if (el.scrollHeight > el.clientHeight + 1 && cs.overflowY === "hidden" && !ellipsis) overflow.push(`${what}: cut at ${el.clientHeight} px, no ellipsis`);
  if (r.right > window.innerWidth + 1 || r.left < -1) overflow.push(`${what}: outside the screen (${r.left}..${r.right})`);
}
return {rects, overflow, width: window.innerWidth};
"""


def layout(driver) -> dict:
    """Every visible action button's rectangle (document coordinates) and every text that leaves its element."""
    return driver.execute_script(LAYOUT_JS)


def assert_fixed(checkpoints: list[tuple[str, dict]], keys) -> None:
    """THEN every button whose key starts with one of `keys` is present, and in the same rectangle, at every
    checkpoint of the phase (and no such slot appears or disappears)."""
    def picked(rects):
        return {k: v for k, v in rects.items() if k.startswith(tuple(keys))}
    first_name, first = checkpoints[0]
    want = picked(first["rects"])
    assert want, f"no slot {keys} at {first_name}"
    for name, point in checkpoints[1:]:
        got = picked(point["rects"])
        assert got == want, (f"slots moved between {first_name} and {name} at {point['width']} px: " +
                             str({k: (want.get(k), got.get(k)) for k in set(want) | set(got)
                                  if want.get(k) != got.get(k)}))


class Osc:
    """A second host session over UDP: the players' buttons (`/sg/button`) and fast-forward commands with ids."""

    def __init__(self, osc_port: int, passcode: str = PASSCODE):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.settimeout(0.5)
        self.to = ("127.0.0.1", osc_port)
        self.next_id = 1
        self.send("/sg/auth/hello")
        bnonce, seen, salt, _ = self.expect("/sg/auth/challenge")
        cnonce, secret = osc_auth.new_nonce(), osc_auth.stretch(passcode, bytes.fromhex(salt))
        self.seen = seen
        self.send("/sg/auth/connect", "host", bnonce, cnonce,
                  osc_auth.connect_proof(secret, "host", bnonce, cnonce, seen), salt)
        self.sid, snonce = self.expect("/sg/connected")[:2]
        self.key = osc_auth.session_key(secret, self.sid, snonce, cnonce)
        # ping as the real client does (osc_client.KEEPALIVE): the board drops a session idle for 30 s, and a test
        # may spend that long in the browser before its first press
        self.closed = threading.Event()
        self.keepalive = threading.Thread(target=self._ping, daemon=True, name="osc-keepalive")
        self.keepalive.start()

    def _ping(self) -> None:
        while not self.closed.wait(KEEPALIVE):
            try:
                self.send("/sg/ping")
            except OSError:
                return

    def send(self, address, *args):
        self.sock.sendto(build(address, *args), self.to)

    def expect(self, address, match=lambda args: True):
        from pythonosc.osc_message import OscMessage
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                data, _ = self.sock.recvfrom(65535)
            except socket.timeout:
                continue
            message = OscMessage(data)
            if message.address == address and match(list(message.params)):
                return list(message.params)
        raise AssertionError(f"no {address} from the board")

    def drain(self) -> None:
        """Drop what queued while the test was busy in the browser: the board pushes every state to this session, and
        a full receive buffer would drop the next ack."""
        self.sock.setblocking(False)
        try:
            while True:
                self.sock.recv(65535)
        except BlockingIOError:
            pass
        finally:
            self.sock.settimeout(0.5)

    def command(self, address, *args) -> None:
        """A signed command, resent with the same id until acked as the real client does (osc_client: UDP may drop
        the ack; the board answers every copy and applies one); THEN the board acks it ok (the refusal's reason
        otherwise fails the test)."""
        from pythonosc.osc_message import OscMessage
        cid, self.next_id = self.next_id, self.next_id + 1
        mac = osc_auth.command_mac(self.key, self.sid, cid, address, self.seen, args)
        packet = build("/sg/sig/" + address[len("/sg/"):], self.sid, cid, *args, mac)
        self.drain()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            self.sock.sendto(packet, self.to)
            resend = time.monotonic() + 1.0
            while time.monotonic() < min(resend, deadline):
                try:
                    message = OscMessage(self.sock.recv(65535))
                except socket.timeout:
                    break
                ack = list(message.params)
                if message.address == "/sg/ack" and ack[0] == cid:
                    assert ack[1] == "ok", (address, args, ack)
                    return
        raise AssertionError(f"no /sg/ack of {address} {args} (id {cid}) from the board")

    def press(self, seat: int) -> None:
        self.command("/sg/button", seat)

    def close(self) -> None:
        self.closed.set()
        self.keepalive.join(timeout=KEEPALIVE)
        self.sock.close()


def decode(data: bytes) -> tuple[str, list]:
    from pythonosc.osc_message import OscMessage
    message = OscMessage(data)
    return message.address, list(message.params)


class Socket:
    """One WebSocket to the board's /osc, with the authenticated host connect when asked."""

    def __init__(self, http, base, token):
        self.http, self.base, self.token = http, base, token
        self.ws = None
        self.sid = self.key = self.seen = None
        self.next_id = 1

    async def open(self):
        self.ws = await self.http.ws_connect(f"{self.base}osc?peer={self.token}".replace("http", "ws", 1))
        return self

    async def send(self, address, *args):
        await self.ws.send_bytes(build(address, *args))

    async def until(self, address, match=lambda args: True, timeout=30.0):
        """The next `address` whose args `match`; the timeout only bounds a hang."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                message = await self.ws.receive(timeout=max(0.1, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if message.type != aiohttp.WSMsgType.BINARY:
                raise AssertionError(f"the board closed the host's socket: {message.type}")
            got, args = decode(message.data)
            if got == address and match(args):
                return args
        raise AssertionError(f"no {address} from the board")

    async def host(self):
        """The authenticated host connect (docs/LINKS.md), as the page does it."""
        await self.send("/sg/auth/hello")
        bnonce, self.seen, salt, _ = await self.until("/sg/auth/challenge")
        cnonce, secret = osc_auth.new_nonce(), osc_auth.stretch(PASSCODE, bytes.fromhex(salt))
        await self.send("/sg/auth/connect", "host", bnonce, cnonce,
                        osc_auth.connect_proof(secret, "host", bnonce, cnonce, self.seen), salt)
        self.sid, snonce = (await self.until("/sg/connected"))[:2]
        self.key = osc_auth.session_key(secret, self.sid, snonce, cnonce)
        return self

    async def command(self, address, *args):
        cid, self.next_id = self.next_id, self.next_id + 1
        mac = osc_auth.command_mac(self.key, self.sid, cid, address, self.seen, args)
        await self.send("/sg/sig/" + address[len("/sg/"):], self.sid, cid, *args, mac)
        return await self.until("/sg/ack", lambda a: a[0] == cid)
