"""Players' phones in real browsers (issue 26 "Tests and proof"; items 1–4; RULES BZ3, BZ7, BZ11): the real
`scoreboard run` under Xvfb with the fake button box, a key seat and two headless Chromium pages as phones, each
through a delaying TCP proxy (bench/netem.py) — one fast, one 100 ± 10 ms each way. Touches are dispatched into the
pages at known instants (CDP `Input.dispatchTouchEvent`: trusted events, their own timeStamps); the earlier touch
must win though it arrives later. One board, one pair of browsers for the module."""
from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from scoreboard.bench.netem import Link, Proxy
from scoreboard.bench.real_board import board_toml, free_port, stop
from scoreboard.links.osc.client import OscClient
from scoreboard.links.serial.fake_box import FakeBox
from tests.conftest import need, xvfb
from webhelp import KEY, PASSCODE, browser, journal_commands, wait_for

VIBRATE = "window.vibrated = []; navigator.vibrate = (p) => { window.vibrated.push(p); return true; };"
SLOW, FAST = 3, 1               # the seats of the slow and the fast phone; seat 2 is a key, seat 1 also the box
TOUCH = "Input.dispatchTouchEvent"


def key_press(display: str, key: str) -> None:
    """Press and release `key` on X display `display` through XTest (the keyboard a venue's operator would use)."""
    x11, xtst = ctypes.CDLL("libX11.so.6"), ctypes.CDLL("libXtst.so.6")
    x11.XOpenDisplay.restype, x11.XOpenDisplay.argtypes = ctypes.c_void_p, [ctypes.c_char_p]
    x11.XStringToKeysym.restype, x11.XStringToKeysym.argtypes = ctypes.c_ulong, [ctypes.c_char_p]
    x11.XKeysymToKeycode.restype, x11.XKeysymToKeycode.argtypes = ctypes.c_ubyte, [ctypes.c_void_p, ctypes.c_ulong]
    xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
    xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_ulong]
    x11.XSync.argtypes, x11.XCloseDisplay.argtypes = [ctypes.c_void_p, ctypes.c_int], [ctypes.c_void_p]
    dpy = x11.XOpenDisplay(display.encode())
    assert dpy, f"cannot open X display {display}"
    try:
        xtst.XTestFakeMotionEvent(dpy, -1, 100, 100, 0)          # over the board's window: it has the focus
        code = x11.XKeysymToKeycode(dpy, x11.XStringToKeysym(key.encode()))
        xtst.XTestFakeKeyEvent(dpy, code, True, 0)
        xtst.XTestFakeKeyEvent(dpy, code, False, 0)
        x11.XSync(dpy, False)
    finally:
        x11.XCloseDisplay(dpy)


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    """GIVEN the real board (novosibirsk 1/9, 3 seats) with the fake box on a pty (seat 1), key `j` for seat 2, the
    page on loopback; two phones' proxies (seat 1 fast, seat 3 +100 ± 10 ms each way); a Chromium per phone opened
    at the seat's link that `scoreboard seats` prints; the host on OSC."""
    need("xvfb")
    need("chromium", "chromium-driver")
    pytest.importorskip("selenium")
    folder = tmp_path_factory.mktemp("phones")
    box = FakeBox(players=3, link=str(folder / "box")).start()
    osc_port, web_port = free_port(), free_port(__import__("socket").SOCK_STREAM)
    journal = folder / "game.sqlite"
    config = folder / "scoreboard.toml"
    config.write_text(board_toml(journal=journal, osc_port=osc_port, passcode=PASSCODE, size=(640, 360),
                                 web_port=web_port, osc_extra=f'state_interval = 0.5\nkey = "{KEY}"\nadvertise = false\n',
                                 extra=f'\n[buttons]\nport = "{box.url}"\nmode = "events"\nkeys = {{ j = 2 }}\n'),
                      encoding="utf-8")
    seats = subprocess.run([sys.executable, "-m", "scoreboard", "seats", "--config", str(config)], check=True,
                           capture_output=True, text=True).stdout.split()
    links = dict(zip(map(int, seats[0::2]), seats[1::2]))
    drivers, proxies, process = [], [], None
    with xvfb() as display:
        env = {**os.environ, "DISPLAY": display, "SDL_AUDIODRIVER": "dummy"}
        env.pop("SDL_VIDEODRIVER", None)
        log = open(folder / "board.log", "w", encoding="utf-8")    # noqa: SIM115 - closed below
        process = subprocess.Popen([sys.executable, "-m", "scoreboard", "run", "--config", str(config)], env=env,
                                   stdout=log, stderr=subprocess.STDOUT, text=True)
        try:
            def up():
                assert process.poll() is None, (folder / "board.log").read_text()
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/seat.html", timeout=2) as r:
                        return r.status == 200
                except OSError:
                    return False
            wait_for(up, 60, "the board's page")
            host = OscClient("127.0.0.1", osc_port, PASSCODE, bind=("127.0.0.1", 0))
            host.connect(timeout=30)
            pages = {}
            for seat, link, size in ((FAST, Link(), (320, 568)), (SLOW, Link(latency=0.1, jitter=0.01), (360, 640))):
                proxy = Proxy(web_port, link, seed=seat).start()
                proxies.append(proxy)
                driver = browser(size, folder / f"seat{seat}", (VIBRATE,))
                drivers.append(driver)
                driver.get(links[seat].replace(f"http://127.0.0.1:{web_port}/", proxy.url))
                pages[seat] = driver
            assert wait_for(lambda: box.connected, 30, "the box")
            yield {"host": host, "pages": pages, "box": box, "journal": journal, "display": display,
                   "links": links, "web_port": web_port, "proxies": dict(zip((FAST, SLOW), proxies))}
            host.close()
        finally:
            for driver in drivers:
                driver.quit()
            for proxy in proxies:
                proxy.stop()
            stop(process)
            log.close()
            box.stop()


def touch(driver, x: int = 160, y: int = 300) -> None:
    driver.execute_cdp_cmd(TOUCH, {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    driver.execute_cdp_cmd(TOUCH, {"type": "touchEnd", "touchPoints": []})


def at(instant: float, job) -> threading.Thread:
    """Run `job` at perf_counter `instant` on a thread of its own (the two phones' touches are independent)."""
    def run():
        while time.perf_counter() < instant:
            time.sleep(min(0.001, max(0.0, instant - time.perf_counter())))
        job()
    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_item2_page_takes_the_seat_syncs_and_reconnects(hall):
    """GIVEN each phone's page opened at its seat's link (item 1: `scoreboard seats`) through its proxy, one phone
    320 px wide WHEN the pages have run a moment, then the fast phone's connection is cut (out of the Wi-Fi's reach)
    THEN each is connected and synced, the key has left the address bar, the button fills the phone's width; the cut
    phone reconnects by itself as the same phone (its seat, not a second phone waiting) (item 2)."""
    for seat, driver in hall["pages"].items():
        wait_for(lambda: driver.execute_script("return window.Seat && window.Seat.synced"), 30, f"seat {seat} synced")
        assert "k=" not in driver.current_url
        assert driver.execute_script("return document.getElementById('link').textContent") == "на связи"
        width, inner = driver.execute_script("return [document.getElementById('press').getBoundingClientRect().width,"
                                             " window.innerWidth]")
        assert inner - 30 <= width <= inner and inner in (320, 360)
    page = hall["pages"][FAST]
    session = page.execute_script("return Link.session")
    hall["proxies"][FAST].drop()
    wait_for(lambda: not page.execute_script("return Link.online()"), 10, "the page noticing the cut")
    wait_for(lambda: page.execute_script("return Link.online() && document.body.className !== 'waiting'"), 20,
             "the page back on its seat")
    assert page.execute_script("return Link.session") == session       # the board kept its session


def test_item4_earlier_touch_wins_though_it_arrives_later(hall):
    """GIVEN the question live (buzz window), both phones synced; seat 3's link 100 ± 10 ms each way, seat 1's none
    WHEN seat 3's page is touched at T and seat 1's at T + 40 ms (seat 1's press arrives ~60 ms before seat 3's)
    THEN seat 3 answers (BZ3 on the touch's stamp), its page turns to «you answer», and the journal holds each press
    once (the loser's, ignored by the rules, is not kept), with its error bound (BZ11)."""
    host, pages = hall["host"], hall["pages"]
    for address, *args in [("/sg/game/new", "novosibirsk-2007", "1/9", 3, 0),
                           ("/sg/topics", "Реки", "Горы", "Птицы", "Кино"), ("/sg/game/start",),
                           ("/sg/chooser", 1), ("/sg/select", 1, 1), ("/sg/reading/done",)]:
        assert host.command(address, *args, timeout=30)[0], address
    host.wait_state(lambda s: s["phase"] == "buzz_window", timeout=30)
    for seat, driver in pages.items():
        wait_for(lambda: driver.execute_script("return window.Seat.synced && document.body.className === 'armed'"),
                 30, f"seat {seat} armed and synced")
    # the board's own round trips of the slow phone, 10 a second while armed, fill its window (a burst-free second)
    taken = pages[SLOW].execute_script("return window.Seat.samples")
    wait_for(lambda: pages[SLOW].execute_script("return window.Seat.samples") >= taken + 10, 10, "a second of samples")
    start = time.perf_counter() + 0.2
    threads = [at(start, lambda: touch(pages[SLOW])), at(start + 0.04, lambda: touch(pages[FAST]))]
    for thread in threads:
        thread.join()
    state = host.wait_state(lambda s: s["answering"] is not None, timeout=30)
    assert state["answering"] == SLOW
    wait_for(lambda: pages[SLOW].execute_script("return document.body.className") == "won", 10, "the winner's page")
    assert pages[SLOW].execute_script("return window.vibrated.length") == 1
    assert pages[FAST].execute_script("return window.vibrated.length") == 0
    wait_for(lambda: pages[FAST].execute_script("return Link.pending === 0"), 10, "the loser's press answered")
    # the loser's press is ignored by the rules (BZ8: a player answers already), which the journal does not keep
    presses = [args for a, args in journal_commands(hall["journal"]) if a == "/sg/button"]
    assert [p[:2] for p in presses] == [(SLOW, "phone")] and 0 < presses[0][2] < 400


def test_mixed_game_box_key_and_phone_each_press_journaled_once(hall):
    """GIVEN seat 3 answering (the phones' race above) WHEN the host judges wrong, seat 1's phone is touched before
    the host resumes (a false start, BZ7), seat 2 presses its key on the board's keyboard; wrong again, resumed, once
    seat 1's lockout is over it presses the box; the host judges right
    THEN seat 1's page shows the lockout counting down; seats 2 and 1 answered in turn and the journal holds every
    press that counted exactly once — the phone's, the false start's, the key's, the box's (issue 26 "Mixed game"),
    though a phone's page re-sends a press until its ack."""
    host, box, fast = hall["host"], hall["box"], hall["pages"][FAST]
    assert host.command("/sg/judge/wrong", timeout=30)[0]
    host.wait_state(lambda s: s["phase"] == "after_wrong", timeout=30)
    touch(fast)
    wait_for(lambda: fast.execute_script("return document.body.className") == "locked", 10, "the lockout shown")
    left = fast.execute_script("return document.getElementById('lock').textContent")
    assert left.endswith(" с") and 0 < float(left.split()[0]) <= 2.0
    assert host.command("/sg/resume", timeout=30)[0]
    host.wait_state(lambda s: s["phase"] in ("buzz_window", "reading"), timeout=30)
    key_press(hall["display"], "j")
    assert host.wait_state(lambda s: s["answering"] is not None, timeout=30)["answering"] == 2
    assert host.command("/sg/judge/wrong", timeout=30)[0]
    assert host.command("/sg/resume", timeout=30)[0]
    host.wait_state(lambda s: s["phase"] in ("buzz_window", "reading"), timeout=30)
    assert box.wait_for(lambda b: b.armed, timeout=30)
    wait_for(lambda: fast.execute_script("return document.body.className") == "armed", 10, "seat 1's lockout over")
    box.press(1)
    assert host.wait_state(lambda s: s["answering"] is not None, timeout=30)["answering"] == 1
    assert host.command("/sg/judge/right", timeout=30)[0]
    host.wait_state(lambda s: s["phase"] == "reveal", timeout=30)
    presses = [args for a, args in journal_commands(hall["journal"]) if a == "/sg/button"]
    assert [p[:2] for p in presses] == [(SLOW, "phone"), (FAST, "phone"), (2, "key"), (1, "box")]   # each its source


def webkit(display: str):
    """WebKitGTK (WebKit and JavaScriptCore, Safari's engine) driven by Debian's WebKitWebDriver, its MiniBrowser on
    the X display `display`; None (skipped) when the package is absent."""
    import glob
    need("webkit2gtk-driver")
    from selenium import webdriver
    browsers = sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser"))
    assert browsers, "webkit2gtk-driver is installed but no MiniBrowser (libwebkit2gtk-4.1-0) was found"
    options = webdriver.WebKitGTKOptions()
    options.binary_location = browsers[-1]
    options.add_argument("--automation")
    service = webdriver.WebKitGTKService("/usr/bin/WebKitWebDriver", env={**os.environ, "DISPLAY": display})
    return webdriver.WebKitGTK(options=options, service=service)


def test_item2_webkit_page_syncs_and_a_pointerdown_is_judged(hall):
    """GIVEN the board after the mixed game and the next question being read (the phones sample 10 a second), seat 2's
    link opened in WebKitGTK (the engine of iOS Safari, which cannot run here) WHEN the page has synced, the buttons
    go live and the pointer goes down on the button — and stays down (no click ever happens)
    THEN the page loaded, signed in as seat 2 and synced its clock (its signed samples answered), the press registered
    on pointerdown, was stamped and judged: seat 2 answers, its page turns «you answer», the journal holds the press
    as a phone's with its error bound (item 2: Android Chrome and iOS Safari)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    host = hall["host"]
    assert host.command("/sg/select", 1, 2, timeout=30)[0]
    host.wait_state(lambda s: s["phase"] == "reading", timeout=30)
    driver = webkit(hall["display"])
    try:
        driver.set_window_size(390, 844)
        driver.get(hall["links"][2])
        wait_for(lambda: driver.execute_script("return !!window.Seat && window.Seat.synced"), 20, "WebKit synced")
        assert "k=" not in driver.current_url and driver.execute_script("return Link.signed")
        assert host.command("/sg/reading/done", timeout=30)[0]
        wait_for(lambda: driver.execute_script("return document.body.className") == "armed", 10, "WebKit armed")
        ActionChains(driver).move_to_element(driver.find_element(By.ID, "press")).click_and_hold().perform()
        assert host.wait_state(lambda s: s["answering"] is not None, timeout=10)["answering"] == 2
        wait_for(lambda: driver.execute_script("return document.body.className") == "won", 10, "WebKit's win shown")
    finally:
        driver.quit()
    presses = [args for a, args in journal_commands(hall["journal"]) if a == "/sg/button"]
    assert presses[-1][:2] == (2, "phone") and 0 < presses[-1][2] < 400
