"""The journal never takes the show down (issue 11 item 1): a full disk (a real RLIMIT_FSIZE in a subprocess), a
vanished folder, a second board on the same journal, a taken OSC port — on the real board loop, real SQLite files,
real UDP. Nothing unconfirmed is shown as done: every refused command is answered as refused, the engine stays as
the journal says, and the host sees the alarm (snapshot `status`)."""
import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from scoreboard.app.board import Board
from scoreboard.app.start import open_session, start_links
from scoreboard.app.config import default_config
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme
from scoreboard.engine.commands import make
from scoreboard.journal import JournalInUse
from scoreboard.session import replay_snapshot
from tests.conftest import xvfb

links_pkg = pytest.importorskip("scoreboard.links")
ROOT = Path(__file__).resolve().parents[2]

DISK_FULL = textwrap.dedent('''
    import json, os, resource, signal, sys
    from scoreboard.engine.commands import make
    from scoreboard.links import Inbox
    from scoreboard.session import Session
    path = sys.argv[1]
    session = Session(path)
    for address, *args in [("/sg/game/new", "novosibirsk-2007", "1/9"), ("/sg/game/start",)]:
        session.submit(make(0, address, *args))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)        # writes past the limit fail with EFBIG, as on a full disk
    biggest = max(os.path.getsize(path + suffix) for suffix in ("", "-wal") if os.path.exists(path + suffix))
    resource.setrlimit(resource.RLIMIT_FSIZE, (biggest, resource.RLIM_INFINITY))
    inbox, acks = Inbox(), []
    batch = [("/sg/chooser", 1), ("/sg/player/name", 1, "Анна"), ("/sg/player/name", 2, "Борис")]
    for i, (address, *args) in enumerate(batch):
        inbox.put(make(1 + i, address, *args), "osc:1", lambda ok, reason, i=i: acks.append([i, ok, reason]))
    results = [[ok, reason] for _, ok, reason in inbox.deliver_all(session)]
    during = {"acks": acks, "results": results, "rev": session.rev, "rows": len(session.journal),
              "status": session.journal_status(), "chooser": session.snapshot()["chooser"]}
    resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    session.submit(make(5, "/sg/chooser", 2))             # the disk has room again: the next command is journaled
    after = {"rev": session.rev, "rows": len(session.journal), "status": session.journal_status()}
    snap = session.snapshot()
    session.close()
    print(json.dumps({"during": during, "after": after, "snapshot": snap}))
''')


def test_g_disk_full_refuses_each_command_answers_the_whole_batch_and_writing_resumes(tmp_path):
    """GIVEN a board session whose disk fills up (RLIMIT_FSIZE in a subprocess: writes fail with EFBIG)
    WHEN a batch of three host commands is drained THEN none raises: each is answered, the ones not journaled as
    refused with the reason, the engine keeps exactly what the journal has, the alarm is up with a time;
    WHEN the disk has room again THEN the next command is journaled, the alarm clears, and the journal replays to
    the engine's snapshot."""
    path = tmp_path / "full.sqlite"
    result = subprocess.run([sys.executable, "-c", DISK_FULL, str(path)], capture_output=True, text=True, cwd=ROOT,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    during, after = out["during"], out["after"]
    assert len(during["acks"]) == 3 and len(during["results"]) == 3
    refused = [reason for _, ok, reason in during["acks"] if not ok]
    assert refused and all("not journaled" in reason for reason in refused)
    assert during["rev"] == during["rows"]            # nothing done that the journal does not have
    assert during["status"]["ok"] is False and "cannot append" in during["status"]["error"] and len(refused) == 3
    assert isinstance(during["status"]["since"], float)
    assert after["status"] == {"ok": True, "error": None, "since": None} and after["rev"] == after["rows"]
    assert replay_snapshot(path) == out["snapshot"]


@pytest.fixture
def board(tmp_path):
    config = default_config()
    config["board"].update(journal=str(tmp_path / "games" / "g.sqlite"), sounds=False)
    session, path, start = open_session(config["board"], out=lambda *_: None)
    theme = load_theme("classic")
    clock = [1000.0]
    from scoreboard.links import Inbox
    b = Board(config, session, clock[0] - start, [Screen(ScreenSpec("host", size=(640, 360)), theme, window=False)],
              theme, Inbox(), None, clock=lambda: clock[0], out=lambda *_: None, journal_path=path)
    b.fake_clock = clock
    yield b
    session.close()


def tick(board, dt=0.6):
    board.fake_clock[0] += dt
    board.frame()


def test_g_vanished_journal_folder_refuses_alarms_the_host_and_is_written_again_when_back(board):
    """GIVEN a board playing WHEN its journal's folder vanishes (a pulled stick) THEN host commands are refused
    "not journaled", the rest of the batch is still answered, the snapshot's status.journal says why and the host's
    screen shows the alarm; WHEN the folder is back THEN the next command is done, the journal is written again
    from memory and replays to the board's game."""
    acks = []
    put = lambda address, *args: board.inbox.put(make(board.now(), address, *args), "osc:1",   # noqa: E731
                                                 lambda ok, reason: acks.append((address, ok, reason)))
    put("/sg/game/start")
    tick(board)
    folder = board.journal_path.parent
    shutil.rmtree(folder)
    put("/sg/chooser", 1)
    put("/sg/player/name", 2, "Вера")
    tick(board)
    assert [(a, ok) for a, ok, _ in acks] == [("/sg/game/start", True), ("/sg/chooser", False),
                                               ("/sg/player/name", False)]
    assert "not journaled" in acks[1][2] and "folder is gone" in acks[1][2]
    assert board.snapshot["status"]["journal"]["ok"] is False and board.snapshot["chooser"] is None
    drawn = [d.text for d in board.screens[0].last_log if d.tag.startswith("host:alarm:") and d.tag != "host:alarm:back"]
    assert drawn and drawn[0].startswith("ЖУРНАЛ НЕ ПИШЕТСЯ")
    folder.mkdir()
    put("/sg/chooser", 1)
    tick(board)
    assert acks[-1] == ("/sg/chooser", True, None)
    assert board.snapshot["status"]["journal"]["ok"] is True
    assert not [d for d in board.screens[0].last_log if d.tag.startswith("host:alarm:") and d.tag != "host:alarm:back"]
    assert replay_snapshot(board.journal_path)["chooser"] == 1 == board.session.snapshot()["chooser"]


HOLDER = textwrap.dedent('''
    import sys
    from scoreboard.session import Session
    session = Session(sys.argv[1])
    print("ready", flush=True)
    sys.stdin.read()
''')


def test_g_second_board_on_the_same_journal_refuses_to_start_naming_the_holder(tmp_path):
    """GIVEN a board process holding a journal WHEN a second board starts on the same journal (`open_session`, and
    the real `scoreboard run`) THEN it refuses, naming the first one's pid and host, and the journal is untouched;
    WHEN the first board ends THEN the journal can be recovered."""
    path = tmp_path / "g.sqlite"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, cwd=ROOT)
    try:
        assert holder.stdout.readline().strip() == "ready"
        config = default_config()
        config["board"].update(journal=str(path))
        with pytest.raises(JournalInUse, match=f"pid {holder.pid} on {socket.gethostname()}"):
            open_session(config["board"], out=lambda *_: None)
        cfg = tmp_path / "board.toml"
        cfg.write_text(f'[board]\njournal = "{path}"\n[osc]\nenabled = false\n', encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "SDL_AUDIODRIVER")}
        with xvfb() as display:
            run = subprocess.run([sys.executable, "-m", "scoreboard", "run", "--config", str(cfg), "--windowed"],
                                 capture_output=True, text=True, cwd=ROOT, timeout=60,
                                 env={**env, "DISPLAY": display, "SDL_AUDIODRIVER": "dummy"})
        assert run.returncode == 2 and f"pid {holder.pid}" in run.stdout + run.stderr
    finally:
        holder.communicate("", timeout=60)
    session, _, _ = open_session({"journal": str(path)}, out=lambda *_: None)
    session.close()


def test_g_taken_osc_port_is_retried_and_reported_until_bound(tmp_path):
    """GIVEN the OSC port held by another program WHEN the board starts THEN it runs (links up without OSC),
    status.links says osc is retrying with the reason; WHEN the port is freed THEN the board binds it and a client
    on real UDP gets the state."""
    blocker = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    blocker.bind(("127.0.0.1", 0))
    port = blocker.getsockname()[1]
    config = default_config()
    config["board"].update(journal=str(tmp_path / "g.sqlite"), sounds=False)
    config["osc"].update(bind="127.0.0.1", port=port, passcode="1234", advertise=False)
    session, _, start = open_session(config["board"], out=lambda *_: None)
    clock = [1000.0]
    inbox, links = start_links(config, lambda: clock[0] - (clock[0] - start), out=lambda *_: None)
    theme = load_theme("classic")
    board = Board(config, session, clock[0] - start, [], theme, inbox, links, clock=lambda: clock[0],
                  out=lambda *_: None)
    try:
        assert links is not None and links.osc is None
        board.frame()
        entry = [e for e in board.snapshot["status"]["links"] if e["name"] == "osc"]
        assert entry and entry[0]["state"] == "retrying" and str(port) in entry[0]["detail"]
        blocker.close()
        clock[0] += 2.5
        board.frame()
        assert links.osc is not None and links.osc.address[1] == port
        from scoreboard.links.osc.client import OscClient
        client = OscClient("127.0.0.1", port, "1234")
        try:
            client.connect(timeout=30)
            board.frame()
            snap = client.wait_state(lambda s: "status" in s, timeout=20)
            assert [e["state"] for e in snap["status"]["links"] if e["name"] == "osc"] == ["ok"]
        finally:
            client.close()
    finally:
        blocker.close()
        if links is not None:
            links.stop()
        session.close()
