"""The browser remote end to end: the real `scoreboard run` under Xvfb serving the page, a real Chromium (selenium +
Debian's chromium-driver) at a phone's and a tablet's size tapping it, the board's journal read after every tap."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from scoreboard.journal import Journal
from tests.conftest import need, xvfb

PASSCODE = "web-e2e-77"
PHONE, TABLET = (390, 844), (1024, 768)
PACKS = Path(__file__).resolve().parents[2] / "assets" / "packs"      # the shipped sample pack


def free_port(kind=socket.SOCK_DGRAM) -> int:
    with socket.socket(socket.AF_INET, kind) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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


@pytest.fixture
def board(tmp_path):
    """GIVEN the real `scoreboard run` on a real X display, OSC and the page on loopback."""
    need("xvfb", "chromium", "chromium-driver")
    pytest.importorskip("selenium")
    osc_port, web_port = free_port(), free_port(socket.SOCK_STREAM)
    journal = tmp_path / "game.sqlite"
    config = tmp_path / "scoreboard.toml"
    config.write_text(f'''
[board]
regulation = "novosibirsk-2007"
stage = "1/9"
journal = "{journal}"
sounds = false
confirm_quit = false

[[screens]]
role = "audience"
size = [640, 360]
fullscreen = false

[osc]
bind = "127.0.0.1"
port = {osc_port}
passcode = "{PASSCODE}"

[remote_web]
bind = "127.0.0.1"
port = {web_port}

[packs]
dirs = ["{PACKS}"]
''', encoding="utf-8")
    with xvfb() as display:
        env = {**os.environ, "DISPLAY": display, "SDL_AUDIODRIVER": "dummy"}
        env.pop("SDL_VIDEODRIVER", None)
        process = subprocess.Popen([sys.executable, "-m", "scoreboard", "run", "--config", str(config)], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

        def up():
            assert process.poll() is None, process.stdout.read()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/", timeout=2) as r:
                    return r.status == 200
            except OSError:
                return False
        wait_for(up, 60, "the board's page")
        try:
            yield f"http://127.0.0.1:{web_port}/", osc_port, journal
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def browser(size, tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={tmp_path / f'chromium-{size[0]}'}", f"--window-size={size[0]},{size[1]}"):
        options.add_argument(arg)
    # The viewport of the device itself (a headless window is never narrower than 500 px).
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": size[0], "height": size[1],
                                                                          "pixelRatio": 1.0, "touch": True}})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Page:
    """The page in Chromium; `commands()` lists what the board applied (its journal, or the loop's record)."""

    def __init__(self, driver, journal, shots: Path | None):
        self.d, self.shots = driver, shots
        self.commands = journal if callable(journal) else (lambda: journal_commands(journal))

    def el(self, css):
        from selenium.webdriver.common.by import By
        return self.d.find_element(By.CSS_SELECTOR, css)

    def connect(self, url):
        self.d.get(url)
        self.el("#passcode").send_keys(PASSCODE)
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
            self.d.save_screenshot(str(self.shots / f"remote-web-{shot}.png"))

    def _enabled(self, key):
        from selenium.common.exceptions import NoSuchElementException
        try:
            button = self.el(f'[data-key="{key}"]')
        except NoSuchElementException:
            return None
        return button if button.is_enabled() and button.is_displayed() else None

    def fits(self) -> bool:
        return self.d.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def press(osc_port: int, seat: int) -> None:
    """A player's button, sent as the OSC button of a second host session (PROTOCOL.md §1 `/sg/button`)."""
    from scoreboard.links.osc_server import build
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(5)
        sock.sendto(build("/sg/connect", PASSCODE, "host"), ("127.0.0.1", osc_port))
        while True:
            data, _ = sock.recvfrom(65535)
            if data.startswith(b"/sg/connected"):
                break
        sock.sendto(build("/sg/button", seat), ("127.0.0.1", osc_port))


def test_g6_au4_phone_sets_up_and_plays_right_wrong_undo_and_an_auction(board, tmp_path):
    """G5, G6, BZ2, AU1, AU4, AU6, undo: GIVEN the real board and the page in Chromium at a phone's size (390×844)
    WHEN the host connects, names seat 1, starts, names the chooser, plays a question right, one wrong, undoes the
    wrong verdict, judges it right instead, marks and plays an auction all-in, and puts the scores on the hall's screen
    THEN after every tap the board's journal holds that command once and the page shows the phase it led to,
    and nothing on the page is wider than the phone."""
    url, osc_port, journal = board
    shots = Path(os.environ["SG_SCREENSHOTS"]) if os.environ.get("SG_SCREENSHOTS") else None
    driver = browser(PHONE, tmp_path)
    try:
        page = Page(driver, journal, shots)
        page.connect(url)
        row = page.el('[data-key="n:1"] input')
        row.send_keys("Вера Смирнова-Оболенская")
        page.el('[data-key="n:1"] button').click()
        wait_for(lambda: ("/sg/player/name", (1, "Вера Смирнова-Оболенская")) in journal_commands(journal), 20,
                 "the name in the journal")
        if shots is not None:
            driver.save_screenshot(str(shots / "remote-web-setup.png"))
        page.tap("start", "/sg/game/start", "начало раунда")
        page.tap("chooser:1", "/sg/chooser", shot="choosing")
        page.tap("select:1:1", "/sg/select", "чтение", shot="reading")
        page.tap("read", "/sg/reading/done", "жмите")
        press(osc_port, 2)
        wait_for(lambda: page.phase().startswith("ответ"), 20, "seat 2 answering")
        page.tap("right", "/sg/judge/right", "ответ показан", shot="reveal")
        assert "30" not in page.el('[data-key="p:2"] .score').text and page.el('[data-key="p:2"] .score').text == "10"
        page.tap("select:1:2", "/sg/select", "чтение")
        press(osc_port, 1)
        wait_for(lambda: page.phase().startswith("ответ"), 20, "seat 1 answering")
        page.tap("wrong", "/sg/judge/wrong", "после неверного", shot="after-wrong")
        assert page.el('[data-key="p:1"] .score').text == "-20"
        page.tap("undo", "/sg/undo", "ответ")
        assert page.el('[data-key="p:1"] .score').text == "0"
        page.tap("right", "/sg/judge/right", "ответ показан")
        assert page.el('[data-key="p:1"] .score').text == "20"
        wait_for(lambda: page._enabled("mark_auction"), 20, "mark auction").click()
        page.tap("select:2:1", "/sg/select", "аукцион", shot="auction")
        page.tap("allin:1", "/sg/auction/allin", "ответ аукциона")
        page.tap("right", "/sg/judge/right", "ответ показан")
        assert page.el('[data-key="p:1"] .score').text == "40"
        from selenium.webdriver.support.ui import Select
        Select(page.el("#scene")).select_by_value("scores")
        page.tap("show_scene", "/sg/screen")
        assert ("/sg/screen", ("scores",)) in journal_commands(journal)
        assert page.fits()
    finally:
        driver.quit()
    played = [a for a, _ in journal_commands(journal) if a not in ("/sg/game/new", "/sg/button")]
    assert played == ["/sg/player/name", "/sg/game/start", "/sg/chooser", "/sg/select", "/sg/reading/done",
                      "/sg/judge/right", "/sg/select", "/sg/judge/wrong", "/sg/undo", "/sg/judge/right",
                      "/sg/select", "/sg/auction/allin", "/sg/judge/right", "/sg/screen"], played
    selects = [args for a, args in journal_commands(journal) if a == "/sg/select"]
    assert selects[-1] == (2, 1, "auction")


def test_p3_g3_tablet_sets_up_regulation_names_and_a_pack_from_the_list(board, tmp_path):
    """G1, G3, P1, P3: GIVEN the real board with the sample pack in its pack folder, and the page at a tablet's size
    (1024×768, landscape) WHEN the host picks samara-2003 / cup with 3 seats, then the pack from the list, names seat
    2 and starts THEN the journal holds the new game, the pack load and the name, the page lists the pack's topics
    on the board grid and the host's card shows the question and its answer, and nothing overflows the screen."""
    from selenium.webdriver.support.ui import Select
    url, _, journal = board
    driver = browser(TABLET, tmp_path)
    try:
        shots = Path(os.environ["SG_SCREENSHOTS"]) if os.environ.get("SG_SCREENSHOTS") else None
        page = Page(driver, journal, shots)
        page.connect(url)
        wait_for(lambda: any(o.text.startswith("Пример пакета") for o in Select(page.el("#pack")).options), 30,
                 "the sample pack in the list")
        assert "без пакета" in page.el("#pack-info").text          # P3: said before the start
        Select(page.el("#reg")).select_by_value("samara-2003")
        Select(page.el("#stage")).select_by_value("cup")
        Select(page.el("#seats-count")).select_by_value("3")
        page.el("#newgame").click()
        wait_for(lambda: ("/sg/game/new", ("samara-2003", "cup", 3)) in
                 [(a, args[:3]) for a, args in journal_commands(journal)], 20, "the new game in the journal")
        wait_for(lambda: "Самара" in page.el("#reg").find_element("css selector", "option:checked").text
                 or Select(page.el("#reg")).first_selected_option.get_attribute("value") == "samara-2003", 20,
                 "samara selected")
        pack = next(o for o in Select(page.el("#pack")).options if o.text.startswith("Пример пакета"))
        Select(page.el("#pack")).select_by_value(pack.get_attribute("value"))
        assert "Пример пакета" in page.el("#pack-info").text
        if shots is not None:
            driver.save_screenshot(str(shots / "remote-web-tablet-setup.png"))
        page.el("#loadpack").click()
        wait_for(lambda: any(a == "/sg/pack/load" for a, _ in journal_commands(journal)), 20, "the pack load")
        row = wait_for(lambda: driver.find_elements("css selector", '[data-key="n:2"] input'), 20, "seat 2 row")[0]
        row.send_keys("Константин Константинопольский-Задунайский")
        page.el('[data-key="n:2"] button').click()
        wait_for(lambda: ("/sg/player/name", (2, "Константин Константинопольский-Задунайский"))
                 in journal_commands(journal), 20, "the name")
        page.tap("start", "/sg/game/start")
        wait_for(lambda: "Реки" in page.el("#grid").text, 20, "the pack's topics on the grid")
        wait_for(lambda: page._enabled("select:1:1"), 20, "the lot's chooser can select")   # G5: samara draws lots
        page.tap("select:1:1", "/sg/select", "чтение")
        wait_for(lambda: "Волга" in page.el("#q-answer").text, 20, "the answer on the host's card")
        if shots is not None:
            driver.save_screenshot(str(shots / "remote-web-tablet-reading.png"))
        assert page.fits()
    finally:
        driver.quit()
