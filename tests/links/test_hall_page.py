"""Hall-proof, the phone page (issue 24 item 5): the page in a real Chromium, signed in by the handshake, takes only
what the board signed — a state, a question or an error injected into its WebSocket (an on-path attacker's) is
dropped and counted — and ends its session by a signed disconnect. The board is the real links and a loop thread on
a real session, in process, on loopback."""
from __future__ import annotations

import json
import time

import pytest

from linkhelp import wait_until
from scoreboard.bench.links import BoardThread
from scoreboard.engine.commands import make
from scoreboard.links import Inbox, Links
from scoreboard.links.osc.messages import build
from scoreboard.session import Session
from webhelp import PASSCODE, PHONE, Page, browser, need

HEARD = "window.heard = []; Link.on('state', (rev, json) => heard.push([rev, json]));"
LAST = "return heard.length ? heard[heard.length - 1] : null"


@pytest.fixture
def page_board():
    need("chromium", "chromium-driver")
    pytest.importorskip("selenium")
    epoch = time.monotonic()
    inbox = Inbox()
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": PASSCODE, "state_interval": 0.5},
                   "remote_web": {"bind": "127.0.0.1", "port": 0}}, inbox, lambda: time.monotonic() - epoch + 1.0)
    links.start()
    session = Session()
    session.submit(make(0.0, "/sg/game/new", "novosibirsk-2007", "1/9", 3, 0))
    board = BoardThread(links, inbox, session).start()
    yield links, board
    board.stop()
    links.stop()


def test_issue24_5_the_page_drops_what_the_board_did_not_sign_and_disconnects_signed(page_board, tmp_path):
    """Issue 24 item 5: GIVEN the page connected by the handshake WHEN frames injected into its WebSocket bring an
    unsigned state with rev 2³¹−1 and scores of 9999, a state whose MAC is wrong, an unsigned question and an unsigned
    error THEN the page counts four forgeries, shows none of them, and still shows the board's next real state; WHEN
    the host disconnects THEN the board ends the session (the page's disconnect is signed). (Today's page showed the
    forged state and hid every real one after it.)"""
    links, board = page_board
    driver = browser(PHONE, tmp_path)
    try:
        page = Page(driver, lambda: [(c.address, c.args) for c in board.applied])
        page.connect(f"http://127.0.0.1:{links.web.port}/")
        (addr,) = [a for a in links.web.peers]
        driver.execute_script(HEARD)                  # what the page's link hands to its screen
        snapshot = board.session.snapshot()
        forged = json.dumps({**snapshot, "players": [{**p, "score": 9999} for p in snapshot["players"]]})
        for packet in (build("/sg/state", 2**31 - 1, forged), build("/sg/state", snapshot["rev"] + 1, forged, b"\0" * 16),
                       build("/sg/host/question", json.dumps({"text": "?", "answer": "FORGED ANSWER"}), 1),
                       build("/sg/error", "/sg/judge/right", "forged refusal")):
            links.web.send(addr, packet)
        assert wait_until(lambda: driver.execute_script("return Link.forged") == 4, 10.0)
        board.inbox.put(make(links.clock(), "/sg/player/name", 2, "Настоящая"), "test")
        assert wait_until(lambda: "Настоящая" in (driver.execute_script(LAST) or [0, ""])[1], 10.0)
        # the scores read from each state (a substring would find 9999 in a clock time such as 2.58105587499994)
        assert all(rev < 2**31 - 1 and all(p["score"] != 9999 for p in json.loads(text)["players"])
                   for rev, text in driver.execute_script("return heard"))
        assert "FORGED" not in driver.page_source
        driver.execute_script("Link.disconnect()")
        assert wait_until(lambda: addr not in links.osc.table.by_addr, 10.0)
    finally:
        driver.quit()
