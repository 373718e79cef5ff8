"""Issue 27 item 1 on the real board: the disputed game played through `scoreboard run` under Xvfb — the host over
OSC, the players' presses from the fake box on a pty — then the host asks for the protocol at game over, opens the
link the board gives, and prints it in headless Chromium: checked line by line against the board's journal, the
PDF's pages counted, a view session and a stranger refused."""
from __future__ import annotations

import base64
import sqlite3
import subprocess
import urllib.error
import urllib.request

import pytest

from scoreboard.bench.real_board import VIEW_PASSCODE, real_board
from scoreboard.links.osc.client import OscClient
from scoreboard.links.serial.fake_box import FakeBox
from scoreboard.protocol import build, render
from tests.conftest import need
from tests.links.webhelp import KEY
from tests.protocol import disputed
from tests.protocol.check import all_lines, check_against_journal, wait_until

PASSCODE = "protocol-e2e"


def _rows(journal) -> int:
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        return db.execute("SELECT (SELECT COUNT(*) FROM events) + (SELECT COUNT(*) FROM ignored)").fetchone()[0]


def _runs(commands: list[tuple]) -> list[list[tuple]]:
    """The script cut where a press comes from the box (each alone) and after the game's start (the early ask)."""
    runs: list[list[tuple]] = []
    for command in commands:
        if command[0] == "box" or not runs or runs[-1][0][0] == "box" or runs[-1][-1][0] == "/sg/game/start":
            runs.append([command])
        else:
            runs[-1].append(command)
    return runs


def _pipelined(host, run: list[tuple]) -> None:
    """The host's commands sent one after another without waiting (as a quick host taps), each acked applied."""
    ids = [(host.send(*command), command) for command in run]
    for cid, command in ids:
        assert host.wait_for(lambda cid=cid: host.ack(cid) is not None, 30), command
        ack = host.ack(cid)
        assert ack.ok, (command, ack.reason)


def _chromium() -> bool:
    try:
        need("chromium", "chromium-driver")
        import selenium  # noqa: F401  (the browser test says what is missing)
    except (pytest.skip.Exception, ImportError):
        return False
    return True


def _on_the_page(port: int, folder) -> dict:
    """The host's phone at game over: «Протокол», then the link the board put under it, opened."""
    from tests.links.webhelp import KEY as _key, PHONE, browser   # lazy: only with Chromium
    from selenium.webdriver.common.by import By
    driver = browser(PHONE, folder)
    try:
        driver.get(f"http://127.0.0.1:{port}/#k={_key}")
        button = _wait(lambda: next((b for b in driver.find_elements(By.CSS_SELECTOR, '[data-key="protocol"]')
                                     if b.is_displayed() and b.is_enabled()), None))
        shown_before = driver.find_element(By.ID, "protocol").is_displayed()
        button.click()
        link = _wait(lambda: next((a for a in driver.find_elements(By.ID, "protocol-link") if a.is_displayed()),
                                  None))
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
        driver.save_screenshot(str(folder / "host-game-over.png"))
        href, label = link.get_attribute("href"), link.text
        driver.get(href)
        # printed as the host's browser prints it (its own @page size and margins), to look at and count
        pdf = folder / "protocol.pdf"
        pdf.write_bytes(base64.b64decode(driver.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True})["data"]))
        return {"before": shown_before, "label": label, "href": href, "title": driver.title,
                "text": driver.find_element(By.TAG_NAME, "body").text, "pdf": pdf}
    finally:
        driver.quit()


def _wait(find, timeout: float = 30.0):
    found = []
    assert wait_until(lambda: found.append(find()) or found[-1] is not None, timeout)
    return found[-1]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The disputed game on the real board; yields what the host got at game over and the journal's copy."""
    need("xvfb")
    folder = tmp_path_factory.mktemp("board")
    box = FakeBox(players=3, link=str(folder / "box")).start()
    try:
        with real_board(PASSCODE, web=True, box=box.url, osc_extra=f'key = "{KEY}"') as board:
            journal = board.folder / "bench.sqlite"
            host = OscClient("127.0.0.1", board.osc_port, PASSCODE, bind=("127.0.0.1", 0))
            viewer = OscClient("127.0.0.1", board.osc_port, VIEW_PASSCODE, role="view", bind=("127.0.0.1", 0))
            try:
                host.connect(timeout=60)
                viewer.connect(timeout=30)
                assert wait_until(lambda: box.connected, timeout=30)
                early = None
                for run in _runs(disputed.commands()):
                    if run[0][0] == "box":
                        before = _rows(journal)
                        assert box.press(run[0][1])
                        assert wait_until(lambda before=before: _rows(journal) > before, timeout=30), run
                        continue
                    _pipelined(host, run)
                    if run[-1][0] == "/sg/game/start":
                        early = host.command("/sg/protocol", timeout=30)
                state = host.wait_state(lambda s: s["game_over"], timeout=30)
                browser_flow = _on_the_page(board.web_port, folder) if _chromium() else None
                got = {"browser": browser_flow, "early": early, "state": state, "view": viewer.command("/sg/protocol", timeout=30)}
                got["ack"] = host.command("/sg/protocol", timeout=60)
                link = None
                while link is None:
                    event = host.events.get(timeout=30)
                    link = event.value if event.kind == "protocol" else None
                path, port = link
                assert port == board.web_port
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as answer:
                    got["page"], got["headers"] = answer.read().decode("utf-8"), dict(answer.headers)
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/protocol/{'x' * 32}", timeout=30)
                    got["guessed"] = 200
                except urllib.error.HTTPError as error:
                    got["guessed"] = error.code
            finally:
                host.close()
                viewer.close()
            copy = folder / "copy" / journal.name
            copy.parent.mkdir()
            with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as source, sqlite3.connect(copy) as target:
                source.backup(target)
    finally:
        box.stop()
    yield got, copy


def test_item1_real_board_game_protocol_line_by_line(played):
    """GIVEN the disputed game played on the real board (presses from the box) WHEN the host asks for the protocol
    before the game is over THEN it is refused; at game over the board's page serves it at the link it gave that
    session alone, and it is the protocol of the journal — checked line by line against it: the box's presses and
    the false starts with their times after the window, the ignored press, the auction, the correction, the undo,
    the final's stakes; a view session is refused and a guessed link is not found."""
    got, journal = played
    assert got["early"][0] is False and "over" in got["early"][1]
    assert got["view"][0] is False and "view" in got["view"][1]
    assert got["ack"] == (True, None) and got["guessed"] == 404
    assert "'unsafe-inline'" in got["headers"]["Content-Security-Policy"]
    assert "script-src" not in got["headers"]["Content-Security-Policy"]
    model = build(journal)
    assert model["journal"]["games"] == 2          # the board's own new game, then the script's: the last one
    assert got["page"] == render(model, "html")
    check_against_journal(model, journal)
    lines = all_lines(model)
    starts = [x for x in lines if x["what"] == "false_start"]
    assert [x["seat"] for x in starts] == [1, 1] and all(x["ms"] < 0 for x in starts)
    assert [x["seat"] for x in lines if x["what"] == "ignored"] == [1]
    presses = [x for x in lines if x["what"] == "press"]
    assert all(0 <= x["ms"] < 30_000 for x in presses) and any(x.get("source") == "phone" for x in presses)
    assert [x["what"] for x in lines if x["what"] in ("bid", "auction_won", "adjust", "rejudge", "undo")] == [
        "bid", "bid", "auction_won", "rejudge", "adjust", "undo"]
    assert [(x["seat"], x["amount"]) for x in lines if x["what"] == "reveal"] == [(1, 30), (2, 20), (3, 5)]
    assert model["result"]["winner"] == got["state"]["winner"] == 2


def test_item1_real_board_protocol_prints_on_a4(played):
    """GIVEN the protocol the host opened from the board's link WHEN headless Chromium prints it to PDF THEN it has 6
    A4 pages: the header, the result and round 1 from the first page, round 2 from a page of its own, the final on
    the last; no question is split across two pages; the table's head is on every page; the names print as text."""
    need("chromium", "chromium-driver", "poppler-utils")
    pytest.importorskip("selenium")
    got, _ = played
    pdf = got["browser"]["pdf"]
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True, timeout=60).stdout
    assert "Pages:           6" in info and "(A4)" in info, info
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, timeout=60
                          ).stdout.decode("utf-8")
    pages = [p for p in text.split("\f") if p.strip()]
    assert len(pages) == 6
    assert "Протокол боя" in pages[0] and "Итог" in pages[0] and "Раунд 1" in pages[0]
    assert "Раунд 2" in pages[3] and "Финал" in pages[5] and "вскрытие" in pages[5]
    for k, p in enumerate(pages):
        assert "Протокол боя · Этап 1/9" in p or k == 0      # the table's head repeated on every page
        heads = p.count("Вопрос ") + p.count("Начало раунда")
        assert heads == p.count("Счёт после вопроса"), (k, p)   # every question whole on its page
    assert '<b>Ёж</b> & "Ко" <script>x</script>' in " ".join(pages[0].split())


def test_item1_the_host_s_page_offers_the_protocol_at_game_over(played):
    """GIVEN the host's phone page on the real board at game over WHEN the host taps «Протокол» THEN a link «Открыть
    протокол боя» appears under it (it was not there before) and opens the game's protocol from the board."""
    need("chromium", "chromium-driver")
    pytest.importorskip("selenium")
    got, _ = played
    flow = got["browser"]
    assert flow["before"] is False and flow["label"] == "Открыть протокол боя"
    assert flow["href"].startswith("http://127.0.0.1:") and "/protocol/" in flow["href"]
    assert flow["title"].startswith("Протокол боя") and "Итог" in flow["text"] and "вскрытие" in flow["text"]
