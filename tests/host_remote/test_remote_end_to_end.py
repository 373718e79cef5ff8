"""End to end (issue item 7): the fake button box as its own process on a pty (`scoreboard fake-box`), the board's
links (real serial reader + real OSC server) feeding a real Session, and the remote's client over real UDP,
through one whole question: select → reading done → a press on the box → judge right → the score changed.

The board runs in-process here (scoreboard/bench/remote_harness.py BoardLoop: the board loop of docs/LINKS.md on one
thread), not as a `scoreboard run` process.
"""
import os
import subprocess
import sys
import time

import pytest

from scoreboard.engine.commands import make
from scoreboard.session import Session

from scoreboard.links.osc.client import OscClient
from scoreboard.bench.remote_harness import PASSCODE, BoardLoop


@pytest.fixture
def fake_box(tmp_path):
    link = tmp_path / "box"
    process = subprocess.Popen([sys.executable, "-m", "scoreboard", "fake-box", "--pty", str(link), "--players", "3"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    deadline = time.monotonic() + 60             # only bounds a hang
    while not link.exists():
        assert process.poll() is None, process.stderr.read()
        assert time.monotonic() < deadline, "the fake box did not open its pty"
        time.sleep(0.02)
    yield process, str(link)
    process.stdin.close()
    process.terminate()
    process.wait(timeout=60)


def test_whole_question_box_on_pty_board_and_remote_over_udp(fake_box):
    """G6, BZ1–BZ3: GIVEN a started novosibirsk game, the fake box on a pty and the remote connected over UDP
    WHEN the remote selects Горы·30 and marks reading done, seat 2 presses on the box, and the remote judges right
    THEN the remote sees seat 2 answering after the press, then seat 2 at +30 holding the choice, on the board's rev;
    the press reached the game through the box's serial protocol (the board shook hands with the fake box)."""
    process, link = fake_box
    session = Session()
    for address, *args in (("/sg/game/new", "novosibirsk-2007", "1/9", 3, 0), ("/sg/topics", "Реки", "Горы", "Птицы", "Кино"),
                           ("/sg/game/start",), ("/sg/chooser", 1)):
        session.submit(make(0, address, *args))
    board = BoardLoop(session, buttons={"port": link, "players": 3}).start()
    client = OscClient(*board.address, passcode=PASSCODE)
    try:
        client.connect()
        assert client.wait_for(lambda: board.links.status()["buttons_online"], 30), board.links.status()
        assert client.wait_for(lambda: client.state == "connected" and client.snapshot is not None, 30)
        assert board.links.status()["box_name"] == "fakebox"

        def host(address, *args):
            command_id = client.send(address, *args)
            assert client.wait_for(lambda: client.last_ack is not None and client.last_ack.id == command_id, 30)
            assert client.last_ack.ok, f"{address}: {client.last_ack.reason}"

        host("/sg/select", 2, 3)
        assert client.wait_for(lambda: client.snapshot["phase"] == "reading", 30)
        host("/sg/reading/done")
        assert client.wait_for(lambda: client.snapshot["phase"] == "buzz_window" and client.snapshot["buttons_live"], 30)
        process.stdin.write("2\n")
        process.stdin.flush()
        assert client.wait_for(lambda: client.snapshot["phase"] == "answering", 30), client.snapshot["phase"]
        assert client.snapshot["answering"] == 2
        host("/sg/judge/right")
        assert client.wait_for(lambda: client.snapshot["phase"] == "reveal", 30)
        assert client.wait_for(lambda: client.rev == board.published_rev, 30)
        players = {p["seat"]: p["score"] for p in client.snapshot["players"]}
        assert players == {1: 0, 2: 30, 3: 0}
        assert client.snapshot["chooser"] == 2
        press = next(c for c in board.applied if c.address == "/sg/button")
        assert press.args[:2] == (2, "box")   # the box says it is the box (BZ11)
        assert [c.address for c in board.applied] == ["/sg/select", "/sg/reading/done", "/sg/button", "/sg/judge/right"]
    finally:
        client.close()
        board.stop()
