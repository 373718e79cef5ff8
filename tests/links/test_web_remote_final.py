"""The browser remote through novosibirsk's final round (FN2, FN4): Chromium taps the page of a board whose game was
played up to the final round by the hand-checked example script; the board's record of applied commands is read after every tap (the game in memory: the loop runs on its own thread)."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from scoreboard.links import Inbox, Links
from scoreboard.bench.links import BoardThread
from scoreboard.script import load_script, run_script
from scoreboard.session import Session
from webhelp import PASSCODE, PHONE, Page, browser, wait_for
from tests.conftest import need

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "novosibirsk-2007-1-9.txt"


@pytest.fixture
def final_board(tmp_path):
    """GIVEN a board (OSC + the page on loopback, a loop thread) whose journaled game stands at the final stakes."""
    need("chromium", "chromium-driver")
    pytest.importorskip("selenium")
    lines = load_script(EXAMPLE)
    first_stake = next(i for i, line in enumerate(lines)
                       if line.command is not None and line.command.address == "/sg/final/stake")
    session = Session()
    run_script(lines[:first_stake], session)
    assert session.snapshot()["phase"] == "final_stakes"
    epoch = time.monotonic()
    inbox = Inbox()
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASSCODE, "state_interval": 0.5},
                   "remote_web": {"bind": "127.0.0.1", "port": 0}},
                  inbox, lambda: time.monotonic() - epoch + session.time + 1.0)   # engine time goes on
    links.start()
    board = BoardThread(links, inbox, session).start()
    yield f"http://127.0.0.1:{links.web.port}/", (lambda: [(c.address, c.args) for c in board.applied]), session
    board.stop()
    links.stop()


def test_fn2_fn4_final_round_stakes_typed_unseen_then_judged_and_revealed_one_by_one(final_board, tmp_path):
    """FN2, FN4: GIVEN the final round's stakes being collected and the page at a phone's size
    WHEN the host types each finalist's stake, starts the question, ends the writing, judges and reveals each seat
    THEN each stake is typed into a hidden field and only «ставка ✓» shows, «Старт» is enabled only once every
    stake is in, every tap is applied once, and the game ends with the example's hand-checked scores."""
    url, applied, session = final_board
    driver = browser(PHONE, tmp_path)
    try:
        page = Page(driver, applied)
        page.connect(url)
        wait_for(lambda: page.phase().startswith("ставки"), 20, "the stakes phase")
        assert page.el('[data-key="final_start"]').get_attribute("disabled") is not None
        for seat, stake in ((1, 100), (2, 60), (3, 10)):
            before = len(applied())
            wait_for(lambda: page._enabled(f"stake:{seat}"), 20, f"stake {seat}").click()
            field = page.el("#amount-input")
            assert field.get_attribute("type") == "password"           # FN4: typed unseen
            field.send_keys(str(stake))
            page.el("#amount-ok").click()
            wait_for(lambda: ("/sg/final/stake", (seat, stake)) in applied()[before:], 20,
                     f"stake {seat} in the journal")
            wait_for(lambda: page.el(f'[data-key="stake:{seat}"]').text.endswith("✓"), 20, "stake marked in")
            assert str(stake) not in page.el("#game").text.replace(str(session.snapshot()["players"][seat - 1]["score"]), "")
        page.tap("final_start", "/sg/final/start", "запись ответов")
        wait_for(lambda: page.el("#timer").text.endswith("с"), 20, "the 30 s countdown")
        page.tap("end_writing", "/sg/next", "открытие ответов")
        page.tap("final_right:1", "/sg/final/judge")
        page.tap("final_wrong:2", "/sg/final/judge")
        page.tap("final_right:3", "/sg/final/judge")
        page.tap("final_reveal:3", "/sg/final/reveal")
        page.tap("final_reveal:2", "/sg/final/reveal")
        page.tap("final_reveal:1", "/sg/final/reveal", "игра окончена")
        assert page.fits()
    finally:
        driver.quit()
    final = [(a, args) for a, args in applied()
             if a.startswith("/sg/final/") and a != "/sg/final/topic"]
    assert final == [("/sg/final/stake", (1, 100)), ("/sg/final/stake", (2, 60)), ("/sg/final/stake", (3, 10)),
                     ("/sg/final/start", ()), ("/sg/final/judge", (1, "right")), ("/sg/final/judge", (2, "wrong")),
                     ("/sg/final/judge", (3, "right")), ("/sg/final/reveal", (3,)), ("/sg/final/reveal", (2,)),
                     ("/sg/final/reveal", (1,))]
    snapshot = session.snapshot()
    assert snapshot["game_over"] and snapshot["winner"] == 1
