"""Issue 9 item 4 / issue 13 item 4: the browser remote says the board's refusals in Russian with the very table the
pygame remote uses — checked in a real Chromium, so a pattern JavaScript reads differently from Python fails here."""
from __future__ import annotations

from importlib import metadata

import pytest

from scoreboard.links import words_ru
from tests.conftest import need
from tests.links.test_web_remote import url, web_board  # noqa: F401 (the fixture)
from tests.links.test_web_remote_browser import PHONE, browser
from tests.links.test_words_ru import REASONS


def test_the_page_says_every_board_reason_as_the_python_remote_does(web_board, tmp_path):  # noqa: F811
    """GIVEN the board's page in a real Chromium (its /words.js and strings.js as served)
    WHEN every reason the engine, the session and the links can give (sampled) is put into words by the page
    THEN the page's Russian is exactly the table's, in English mode the board's own words are kept, and a reason the
    table does not know is shown as the board said it; the page shows the board's version (issue 25 item 3)."""
    need("chromium", "chromium-driver")
    pytest.importorskip("selenium")
    links, _, _ = web_board
    samples = [(kind, text) for _, kind, text in REASONS]
    driver = browser(PHONE, tmp_path)
    try:
        driver.get(url(links))
        said = driver.execute_script(
            "return arguments[0].map(([kind, text]) => [boardWords(kind + 's', text, 'ru'),"
            " boardWords(kind + 's', text, 'en')]);", samples)
        unknown = driver.execute_script("return boardWords('refusals', 'a reason nobody wrote', 'ru');")
        shown = driver.execute_script("return document.getElementById('version').textContent;")
    finally:
        driver.quit()
    for (kind, text), (ru, en) in zip(samples, said):
        assert ru == getattr(words_ru, kind)(text), (text, ru)
        assert en == text
    assert unknown == "табло отказало: a reason nobody wrote"
    assert shown == f"svoya-scoreboard {metadata.version('svoya-scoreboard')}"
