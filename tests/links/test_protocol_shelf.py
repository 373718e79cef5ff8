"""Issue 27 item 1: the page server's shelf for the protocol — an unguessable link that expires, a bounded shelf."""
from __future__ import annotations

from scoreboard.links.web.shelf import KEEP, PREFIX, TTL, Shelf


def test_item1_a_shelved_page_lives_ttl_seconds_and_the_shelf_is_bounded():
    """GIVEN the shelf on a clock the test moves WHEN pages are put THEN each link is /protocol/ and a 32-character
    token, its page is there until TTL seconds pass, then gone; past KEEP pages the oldest goes first."""
    now = [0.0]
    shelf = Shelf(clock=lambda: now[0])
    path = shelf.put("<p>один</p>")
    token = path[len(PREFIX):]
    assert path.startswith(PREFIX) and len(token) == 32 and shelf.get(token) == "<p>один</p>".encode()
    assert shelf.get("x" * 32) is None
    now[0] = TTL - 0.01
    assert shelf.get(token) is not None
    now[0] = TTL
    assert shelf.get(token) is None
    tokens = [shelf.put(f"<p>{k}</p>")[len(PREFIX):] for k in range(KEEP + 3)]
    assert [shelf.get(t) is not None for t in tokens] == [False] * 3 + [True] * KEEP
    assert len(set(tokens)) == len(tokens)
