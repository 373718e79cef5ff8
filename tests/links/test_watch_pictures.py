"""The question's picture on the hall's phones and the overlay (issue 27 follow-up item 4): the relay serves a
picture only once the hall's screens show it, under a URL minted then, with the view key and a size cap. The real
engine's snapshots (the sample pack: a picture in «Флаги» for 10), the real WatchServer on loopback."""
from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from scoreboard.engine.commands import make
from scoreboard.links.watch.config import WATCH_DEFAULTS
from scoreboard.links.watch.hall_view import hall_view
from scoreboard.links.watch.pictures import PREFIX, Pictures, shown_paths
from scoreboard.links.watch.server import WatchServer
from scoreboard.session import Session

KEY = "pictures-test-view-key-1"
PACK = Path(__file__).resolve().parents[2] / "assets" / "packs" / "sample.toml"


@pytest.fixture
def server():
    watch = WatchServer({**WATCH_DEFAULTS, "bind": "127.0.0.1", "port": 0}, KEY, ":root {}")
    watch.pictures.out = lambda *_: None
    watch.start()
    yield watch
    watch.stop()


def get(server, path: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=10) as answer:
            return answer.status, answer.read(), answer.headers.get("Content-Type")
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers.get("Content-Type")


def game() -> tuple[Session, callable]:
    session, clock = Session(), [0.0]

    def do(*command):
        clock[0] += 0.5
        session.submit(make(clock[0], *command))
        return session.snapshot()
    for command in (("/sg/game/new", "novosibirsk-2007", "1/9", 3, 0), ("/sg/pack/load", str(PACK)),
                    ("/sg/game/start",), ("/sg/chooser", 1)):
        do(*command)
    return session, do


def published(server, snapshot) -> dict:
    view = hall_view(snapshot)
    server.pictures.show(snapshot, view)
    return view


def test_a_picture_is_served_only_once_the_hall_sees_it(server):
    """GIVEN the relay's server and a game of the sample pack WHEN the board shows the choosing board (the picture's
    question not yet opened) THEN no view names a picture and no URL serves it — not its path, not a token-like
    guess, with or without the key; WHEN the question opens (the hall's screen draws its picture) THEN the view
    carries /picture/TOKEN and that URL serves the PNG's bytes with the view key, 403 without it; the same picture
    keeps its URL while it shows; after the reveal (no answer picture in this pack) the view names none."""
    session, do = game()
    choosing = do("/sg/select", 1, 1)
    assert shown_paths(choosing) == {} and "picture" not in (published(server, choosing)["question"] or {})
    for step in (("/sg/reading/done",), ("/sg/button", 2), ("/sg/judge/right",)):
        view = published(server, do(*step))
        assert "picture" not in str(view)
    assert shown_paths(session.snapshot()) == {}       # at the reveal: the flag's question not yet opened
    guesses = [PREFIX + "A" * 22, PREFIX + "flag.png", PREFIX + str(PACK.parent / "sample_media/flag.png")]
    for guess in guesses:
        assert get(server, f"{guess}?k={KEY}")[0] == 404, guess
    opened = do("/sg/select", 2, 1)
    view = published(server, opened)
    url = view["question"]["picture"]
    assert url.startswith(PREFIX) and len(url) > len(PREFIX) + 20 and "flag" not in url
    status, body, kind = get(server, f"{url}?k={KEY}")
    assert (status, kind) == (200, "image/png")
    assert body == Path(shown_paths(opened)["question"]).read_bytes()
    assert get(server, url)[0] == 403 and get(server, f"{url}?k=wrong-key-wrong-key-00")[0] == 403
    assert published(server, do("/sg/reading/done"))["question"]["picture"] == url
    for step in (("/sg/button", 1), ("/sg/judge/right",)):
        view = published(server, do(*step))
    assert view["phase"] == "reveal" and "picture" not in str(view)
    session.close()


def test_a_picture_that_is_not_one_or_too_big_is_never_served(tmp_path):
    """GIVEN pictures the pack names that are an SVG (script inside), a PNG over the relay's byte cap, a missing file
    WHEN the hall's screens would show them THEN no URL is made, each said once, never read again; only the last
    KEEP good pictures stay served. GIVEN a good picture in a state whose phase the hall's screen does not draw it in
    (the auction's bidding, the board, the reveal for the question's own picture) THEN no URL either."""
    said = []
    pictures = Pictures(max_bytes=1000, keep=2, out=said.append)
    png = (PACK.parent / "sample_media" / "flag.png").read_bytes()
    files = {"svg": b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
             "big": png + b"\0" * 1000}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    for name in ("svg", "big", "missing", "svg"):
        view = {"question": {}}
        pictures.show({"phase": "reading", "question": {"media": [{"kind": "image", "path": str(tmp_path / name)}]}},
                      view)
        assert view == {"question": {}}
    assert len(said) == 3 and "over 1000 bytes" in said[1] and "not a file" in said[2], said
    urls = []
    for n in range(3):
        (tmp_path / f"ok{n}.png").write_bytes(png)
        view = {"question": {}}
        image = {"kind": "image", "path": str(tmp_path / f"ok{n}.png")}
        pictures.show({"phase": "reading", "question": {"media": [image]}}, view)
        urls.append(view["question"]["picture"])
    assert pictures.get(urls[0][len(PREFIX):]) is None and pictures.get(urls[2][len(PREFIX):])[1] == "image/png"
    for phase, section, field in (("auction", "question", "media"), ("choosing", "question", "media"),
                                  ("reveal", "question", "media"), ("answering", "last", "answer_media")):
        view = {"question": {}, "last": {}}
        pictures.show({"phase": phase, section: {field: [{"kind": "image", "path": str(tmp_path / "ok0.png")}]}},
                      view)
        assert view == {"question": {}, "last": {}}, phase
    view = {"last": {}}
    pictures.show({"phase": "reveal", "last": {"answer_media": [{"kind": "image", "path": str(tmp_path / "ok1.png")}]}},
                  view)
    assert view["last"]["picture"] == urls[1]
