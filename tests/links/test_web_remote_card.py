"""The browser remote's question card for SIGame's special questions (issue 10 item 1 P1, issue 13 item 3) and the
page's signed acks (issue 13 item 5): Chromium on a board (OSC + the page on loopback, its loop on a thread, signing
required) playing a .siq the test writes with a cat in the bag, a select question and a cat with no question."""
from __future__ import annotations

import base64
import json
import os
import time
from pathlib import Path

import pytest

from scoreboard.engine.commands import make
from scoreboard.links import Inbox, Links
from scoreboard.bench.links import BoardThread
from scoreboard.session import Session
from tests.conftest import need
from tests.packs.siqbuild import NS5, write_siq
from webhelp import PASSCODE, PHONE, TABLET, Page, browser, decode, resize, wait_for
from webproxy import Forger

SHOTS = Path(os.environ["SG_SCREENSHOTS"]) if os.environ.get("SG_SCREENSHOTS") else None
OPTIONS = ["A. Вариант 1", "B. Вариант 2", "C. Вариант 3", "D. Вариант 4"]


def question(params: str, price: int, qtype: str = "", answers=("Ответ",), wrong=()) -> str:
    kind = f' type="{qtype}"' if qtype else ""
    right = "".join(f"<answer>{a}</answer>" for a in answers)
    bad = f"<wrong>{''.join(f'<answer>{a}</answer>' for a in wrong)}</wrong>" if wrong else ""
    return f'<question price="{price}"{kind}><params>{params}</params><right>{right}</right>{bad}</question>'


def text(t: str) -> str:
    return f'<param name="question" type="content"><item>{t}</item></param>'


def price(lo: int, hi: int, step: int) -> str:
    return f'<param name="price" type="numberSet"><numberSet minimum="{lo}" maximum="{hi}" step="{step}" /></param>'


def special_pack(path: Path) -> str:
    """A v5 package as SIQuester writes it: topic 1 opens with a cat in the bag (own topic «Кошки», a price of
    100…500 by 100, a wrong answer), topic 2 with a select question (A–D, «C» right), topic 3 with a cat in the bag
    with no question (SIGame just gives 300)."""
    cat = question('<param name="theme">Кошки</param>' + price(100, 500, 100) + text("Кто мурлычет?"), 100,
                   "secret", answers=("Кошка",), wrong=("Собака",))
    options = "".join(f'<param name="{k}" type="content"><item>Вариант {n}</item></param>'
                      for n, k in enumerate("ABCD", 1))
    select = question(text("Выберите третий") + '<param name="answerType">select</param>'
                      f'<param name="answerOptions" type="group">{options}</param>', 100, answers=("C",))
    blind = question(price(300, 300, 0), 100, "secretNoQuestion", answers=("",))
    firsts = {"Звери": cat, "Выбор": select, "Мешок": blind}

    def topic(name):
        rest = "".join(question(text(f"{name} {n}"), 100 * n, answers=(f"Ответ {name} {n}",)) for n in range(2, 6))
        return f'<theme name="{name}"><questions>{firsts.get(name, question(text(name), 100))}{rest}</questions></theme>'
    themes = "".join(topic(n) for n in ("Звери", "Выбор", "Мешок", "Реки"))
    rounds = "".join(f'<round name="Раунд {r}"><themes>{themes}</themes></round>' for r in (1, 2))
    xml = (f'<?xml version="1.0" encoding="utf-8"?><package name="Особые" version="5" id="x" xmlns="{NS5}">'
           f'<rounds>{rounds}</rounds></package>').encode()
    return str(write_siq(path, content=xml))


@pytest.fixture
def pack_board(tmp_path):
    """GIVEN a board (signing required) whose game plays the special pack, the chooser named, at the round's board."""
    need("chromium", "chromium-driver")
    pytest.importorskip("selenium")
    session, t = Session(), 0.0
    for command in (("/sg/game/new", "novosibirsk-2007", "1/9", "3"), ("/sg/pack/load", special_pack(tmp_path / "p.siq")),
                    ("/sg/game/start",), ("/sg/chooser", "1"), ("/sg/next",)):
        t += 1
        session.submit(make(t, *command))
    assert session.snapshot()["phase"] == "choosing"
    epoch = time.monotonic()
    inbox = Inbox()
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASSCODE, "state_interval": 0.5,
                           "require_auth": True},
                   "remote_web": {"bind": "127.0.0.1", "port": 0}},
                  inbox, lambda: time.monotonic() - epoch + session.time + 1.0)
    links.start()
    board = BoardThread(links, inbox, session).start()
    yield f"http://127.0.0.1:{links.web.port}/", (lambda: [(c.address, c.args) for c in board.applied]), session
    board.stop()
    links.stop()


def received(driver) -> list[tuple[str, list]]:
    """Every binary WebSocket frame the page received, decoded, from the browser's network log."""
    frames = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.webSocketFrameReceived" and message["params"]["response"]["opcode"] == 2:
            frames.append(decode(base64.b64decode(message["params"]["response"]["payloadData"])))
    return frames


def shoot(page: Page, name: str) -> None:
    if SHOTS is None:
        return
    for size, (w, h) in (("tablet", TABLET), ("phone", PHONE)):
        resize(page.d, (w, h))
        page.d.execute_script("window.scrollTo(0, 0)")      # the card, under the bar
        page.d.save_screenshot(str(SHOTS / f"{size}-{name}.png"))


def card(page: Page) -> dict:
    return {part: page.el(f"#q-{part}").text for part in ("head", "special", "text", "answer", "more")} | \
        {"options": [li.text for li in page.d.find_elements("css selector", "#q-options li")]}


def test_p1_card_shows_cat_in_the_bag_select_options_wrong_answers_and_kind_note(pack_board, tmp_path):
    """Issue 10 item 1 (P1), issue 13 item 3: GIVEN the special pack on a board and the page at a phone's size
    WHEN the host opens the cat in the bag, then the select question, then the cat with no question
    THEN the card says the cat's own topic and price, the answer and the pack's wrong answer (in English too when
    picked); the select question's options one per line apart from its text; the cat with no question tells the
    host to award its price by a correction; and no /sg/state frame the page received carries an answer or a wrong
    answer while /sg/state carries the cat's topic and the options the hall sees."""
    url, applied, session = pack_board
    driver = browser(PHONE, tmp_path)
    try:
        page = Page(driver, applied)
        page.connect(url)
        page.tap("select:1:1", "/sg/select", "чтение")
        got = wait_for(lambda: (c := card(page))["special"] and c, 20, "the cat's card")
        assert got["special"] == "Кот в мешке: тема «Кошки», цена в пакете 100…500, шаг 100"
        assert got["text"] == "Кто мурлычет?" and got["answer"] == "Ответ: Кошка"
        assert "Неверные: Собака" in got["more"].splitlines()
        assert got["options"] == []
        page.el("#lang").click()
        wait_for(lambda: page.el("#q-special").text == "Cat in the bag: topic «Кошки», pack price 100…500, step 100",
                 10, "the English card")
        assert "Wrong answers: Собака" in page.el("#q-more").text
        page.el("#lang").click()
        wait_for(lambda: page.el("#q-special").text.startswith("Кот в мешке"), 10, "back in Russian")
        assert page.fits()
        shoot(page, "cat-in-the-bag")
        page.tap("time", "/sg/time", "ответ показан")
        page.tap("select:2:1", "/sg/select", "чтение")
        got = wait_for(lambda: (c := card(page))["options"] and c, 20, "the select question's card")
        assert got["options"] == OPTIONS and got["text"] == "Выберите третий"
        assert got["answer"] == "Ответ: C. Вариант 3" and got["special"] == ""
        assert page.fits()
        shoot(page, "select-options")
        page.tap("time", "/sg/time", "ответ показан")
        page.tap("select:3:1", "/sg/select", "чтение")
        wait_for(lambda: page.el("#q-special").text, 20, "the blind cat's card")
        assert page.el("#q-special").text.splitlines() == ["Кот в мешке: цена в пакете 300",
                                                           "кот в мешке без вопроса: начислите цену поправкой"]
        assert page.fits()
        shoot(page, "cat-no-question")
        frames = received(driver)
    finally:
        driver.quit()
    states = [json.loads(args[1]) for address, args in frames if address == "/sg/state"]
    hosts = [args[0] for address, args in frames if address == "/sg/host/question"]
    assert any("Кошка" in h and "Собака" in h for h in hosts)            # the answers did reach the host's card
    assert any((s.get("question") or {}).get("secret", {}) and s["question"]["secret"]["topic"] == "Кошки"
               for s in states)
    assert any((s.get("question") or {}).get("options") == OPTIONS for s in states)
    for s in states:
        shown = json.dumps(s, ensure_ascii=False)
        assert "Кошка" not in shown and "Собака" not in shown and "Ответ " not in shown
    assert [a for a, _ in applied()].count("/sg/select") == 3


def test_proto2_forged_ack_is_ignored_the_command_is_resent_and_applied_once(pack_board, tmp_path):
    """PROTOCOL.md §2 ext (signed acks), issue 13 item 5: GIVEN the page opened through a man in the middle on the
    Wi-Fi that replaces the board's ack of the host's cell choice with an «ok» whose MAC is not the session's
    WHEN the host taps the cell THEN the page counts the forged ack, keeps the command pending and sends the same id
    again after it, the board answers that from its record, and the choice is applied exactly once."""
    url, applied, session = pack_board
    proxy = Forger(url, "/sg/sig/select").start()
    driver = browser(PHONE, tmp_path)
    try:
        page = Page(driver, applied)
        page.connect(proxy.url)
        wait_for(lambda: driver.execute_script("return Link.signed"), 20, "a signed session")
        page.tap("select:1:1", "/sg/select", "чтение")
        wait_for(lambda: page.el("#status").text.endswith("Сделано"), 20, "the real ack")
        assert driver.execute_script("return [Link.forged, Link.pending]") == [1, 0]
    finally:
        driver.quit()
        proxy.stop()
    (forged_id,) = [e[1] for e in proxy.events if e[0] == "forged"]
    after = proxy.events[proxy.events.index(("forged", forged_id)) + 1:]
    assert ("sent", "/sg/sig/select", forged_id) in after                 # re-sent after the forged «ok»
    assert [c for c in applied() if c[0] == "/sg/select"] == [("/sg/select", (1, 1))]
    assert session.snapshot()["question"]["secret"]["topic"] == "Кошки"
