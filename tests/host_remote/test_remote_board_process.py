"""End to end across three processes (issue item 7): the board process (the display's board loop with links, dummy
video), the fake button box (`scoreboard fake-box`) on a pty, and the remote's client over real UDP, through one
whole question: start → chooser → select → reading done → a press on the box → right → the score changed.

`scoreboard run` itself refuses to start without a display (scoreboard/display/screens.py `headless()`), so the board
process is started as `python -c` calling `scoreboard.app.start.run(config)` — the same function `scoreboard run`
calls after that check — with SDL's dummy video driver.
"""
import os
import signal
import subprocess
import sys
import time

import pytest

from scoreboard.journal import Journal
from scoreboard.bench.real_board import board_toml, free_port, stop
from scoreboard.session import replay_snapshot

from scoreboard.links.osc.client import OscClient

PASSCODE = "e2e-4321"
BOARD = ("import sys; from scoreboard.app.config import load_config; from scoreboard.app import start; "
         "config, problems = load_config(sys.argv[1]); "
         "sys.exit(print(*problems, file=sys.stderr) or 2) if problems else sys.exit(start.run(config))")
DUMMY = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


@pytest.fixture
def processes(tmp_path):
    link = tmp_path / "box"
    box = subprocess.Popen([sys.executable, "-m", "scoreboard", "fake-box", "--pty", str(link), "--players", "3"],
                           stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           env=DUMMY)
    deadline = time.monotonic() + 60             # only bounds a hang
    while not link.exists():
        assert box.poll() is None and time.monotonic() < deadline, "the fake box did not open its pty"
        time.sleep(0.02)
    port = free_port()
    journal = tmp_path / "game.sqlite"
    config = tmp_path / "scoreboard.toml"
    config.write_text(board_toml(journal=journal, osc_port=port, passcode=PASSCODE, size=(640, 360), fps=60,
                                 extra=f'\n[buttons]\nport = "{link}"\nplayers = 3\n'), encoding="utf-8")
    board = subprocess.Popen([sys.executable, "-c", BOARD, str(config)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=DUMMY)
    yield box, board, port, journal
    for process in (board, box):
        stop(process)


def test_whole_question_across_board_box_and_remote_processes(processes):
    """G5, G6, BZ1–BZ3: GIVEN the board process, the fake box process on a pty, and the remote connected over UDP
    WHEN the remote starts the game, names seat 1 chooser, opens Горы·30, marks reading done, seat 2 presses on the
    box, and the remote judges right THEN the remote shows seat 2 at +30 holding the choice on the board's rev,
    and the board's journal (read after the board stopped) holds each of those commands once."""
    box, board, port, journal = processes
    client = OscClient("127.0.0.1", port, passcode=PASSCODE)
    try:
        client.connect()
        assert client.wait_for(lambda: client.state == "connected" and client.snapshot is not None, 30), (
            client.state, board.poll(), board.stderr.read() if board.poll() is not None else "")

        def host(address, *args):
            command_id = client.send(address, *args)
            assert client.wait_for(lambda: client.last_ack is not None and client.last_ack.id == command_id, 30)
            assert client.last_ack.ok, f"{address}: {client.last_ack.reason}"

        host("/sg/game/start")
        host("/sg/chooser", 1)
        host("/sg/select", 2, 3)
        host("/sg/reading/done")
        assert client.wait_for(lambda: client.snapshot["phase"] == "buzz_window", 30)
        # The box's handshake with the board may still be under way: press again until the press lands
        # (a second press by the same seat while it is answering changes nothing).
        deadline = time.monotonic() + 60              # only bounds a hang
        while time.monotonic() < deadline:
            box.stdin.write("2\n")
            box.stdin.flush()
            if client.wait_for(lambda: client.snapshot["phase"] == "answering", 0.5):
                break
        assert client.snapshot["phase"] == "answering" and client.snapshot["answering"] == 2
        host("/sg/judge/right")
        assert client.wait_for(lambda: client.snapshot["phase"] == "reveal", 30)
        assert {p["seat"]: p["score"] for p in client.snapshot["players"]} == {1: 0, 2: 30, 3: 0}
        assert client.snapshot["chooser"] == 2
        shown_rev = client.rev
    finally:
        client.close()
    board.send_signal(signal.SIGINT)
    board.wait(timeout=60)
    final = replay_snapshot(journal)
    assert final["rev"] >= shown_rev
    assert {p["seat"]: p["score"] for p in final["players"]} == {1: 0, 2: 30, 3: 0}
    assert final["round"]["topics"][1]["cells"][2]["played"]
    reader = Journal(journal, readonly=True)
    try:
        played = [cmd.address for _, cmd in reader.events() if cmd.address not in ("/sg/clock", "/sg/game/new")]
    finally:
        reader.close()
    assert played == ["/sg/game/start", "/sg/chooser", "/sg/select", "/sg/reading/done", "/sg/button",
                      "/sg/judge/right"]
