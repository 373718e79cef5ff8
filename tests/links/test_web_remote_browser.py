"""The browser remote end to end: the real `scoreboard run` under Xvfb serving the page, a real Chromium (selenium +
Debian's chromium-driver) at a phone's and a tablet's size tapping it, the board's journal read after every tap."""
from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from webhelp import PASSCODE, PHONE, TABLET, Page, browser, journal_commands, real_board, wait_for


@pytest.fixture
def board(tmp_path):
    """GIVEN the real `scoreboard run` on a real X display, OSC and the page on loopback."""
    with real_board(tmp_path) as (url, osc_port, journal, _):
        yield url, osc_port, journal


def press(osc_port: int, seat: int) -> None:
    """A player's button, sent as the OSC button of a second host session (PROTOCOL.md §1 `/sg/button`)."""
    from scoreboard.links.osc.messages import build
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(30)                 # only bounds a hang
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
        if shots is not None:
            driver.get(url)
            driver.save_screenshot(str(shots / "phone-connect.png"))
        page.connect(url)
        row = page.el('[data-key="n:1"] input')
        row.send_keys("Вера Смирнова-Оболенская")
        page.el('[data-key="n:1"] button').click()
        wait_for(lambda: ("/sg/player/name", (1, "Вера Смирнова-Оболенская")) in journal_commands(journal), 20,
                 "the name in the journal")
        if shots is not None:
            driver.save_screenshot(str(shots / "phone-setup.png"))
        page.tap("start", "/sg/game/start", "начало раунда")
        page.tap("chooser:1", "/sg/chooser", shot="phone-choosing")
        page.tap("select:1:1", "/sg/select", "чтение")
        page.tap("read", "/sg/reading/done", "жмите")
        press(osc_port, 2)
        wait_for(lambda: page.phase().startswith("ответ"), 20, "seat 2 answering")
        page.tap("right", "/sg/judge/right", "ответ показан")
        assert "30" not in page.el('[data-key="p:2"] .score').text and page.el('[data-key="p:2"] .score').text == "10"
        page.tap("select:1:2", "/sg/select", "чтение")
        press(osc_port, 1)
        wait_for(lambda: page.phase().startswith("ответ"), 20, "seat 1 answering")
        page.tap("wrong", "/sg/judge/wrong", "после неверного")
        assert page.el('[data-key="p:1"] .score').text == "-20"
        page.tap("undo", "/sg/undo", "ответ")
        assert page.el('[data-key="p:1"] .score').text == "0"
        page.tap("right", "/sg/judge/right", "ответ показан")
        assert page.el('[data-key="p:1"] .score').text == "20"
        wait_for(lambda: page._enabled("mark_auction"), 20, "mark auction").click()
        page.tap("select:2:1", "/sg/select", "аукцион")
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
        if shots is not None:
            driver.get(url)
            driver.save_screenshot(str(shots / "tablet-connect.png"))
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
            driver.save_screenshot(str(shots / "tablet-setup.png"))
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
            driver.save_screenshot(str(shots / "tablet-reading-pack.png"))
        assert page.fits()
    finally:
        driver.quit()
