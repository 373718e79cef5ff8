"""Proof for issue 9: the real `scoreboard run` on a real X display (Xvfb) and a real `scoreboard-remote` process
talking UDP on 127.0.0.1. The remote is driven through its test hook (SCOREBOARD_REMOTE_DRIVE: taps become real
mouse events in its window). The hall's screen is checked from the state the board publishes, drawn by the board's
own audience scene with its drawing log."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pygame

from scoreboard.links.osc.client import OscClient
from tests.conftest import ROOT
from scoreboard.bench.real_board import board_toml, free_port, stop
from tests.conftest import xvfb

PASSCODE = "5150"
NAMES = ("Вера Смирнова-Оболенская", "Борис", "Анна-Мария Константинопольская")


def wait_for(predicate, timeout=30.0, what=""):
    """Poll until `predicate()` is truthy; the timeout only bounds a failure."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


class Remote:
    """The remote process and its hook's two files."""

    def __init__(self, folder: Path, process: subprocess.Popen) -> None:
        self.folder, self.process = folder, process

    def do(self, **step) -> None:
        with open(self.folder / "in", "a", encoding="utf-8") as handle:
            handle.write(json.dumps(step, ensure_ascii=False) + "\n")

    def state(self) -> dict:
        assert self.process.poll() is None, self.process.stdout.read()
        try:
            return json.loads((self.folder / "out.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def until(self, predicate, what: str) -> dict:
        return wait_for(lambda: (s := self.state()) and predicate(s) and s, 30, what)


def press(port: int, seat: int) -> None:
    """A player's button, as the OSC button of a second host session (PROTOCOL.md §1 `/sg/button`), signed: the
    board takes signed host commands only."""
    client = OscClient("127.0.0.1", port, PASSCODE, auth="on")
    try:
        client.connect(timeout=30)
        assert client.command("/sg/button", seat, timeout=30) == (True, None)
    finally:
        client.close()


def plain_host_refused(port: int) -> str:
    """A plain `/sg/connect passcode host` (what a third-party controller sends): the board's answer."""
    from scoreboard.links.osc.messages import build
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(30)
        sock.sendto(build("/sg/connect", PASSCODE, "host"), ("127.0.0.1", port))
        while True:
            data = sock.recvfrom(65535)[0]
            if data.startswith((b"/sg/connected", b"/sg/denied")):
                return data.decode("utf-8", "replace")


def audience_texts(snapshot: dict) -> list[str]:
    """What the board's audience scene draws for this published state (its drawing log)."""
    from scoreboard.display import compose
    from scoreboard.display.theme.load import load_theme
    pygame.font.init()
    canvas = compose.draw(pygame.Surface((1280, 720)), snapshot, load_theme(None), snapshot["time"], "audience",
                         record=True)
    return [d.text for d in canvas.log if d.kind == "text"]


def test_g3_p1_issue9_set_up_and_play_a_question_from_the_remote_process(tmp_path):
    """G3, G5, G6, P1, BZ1–BZ3, issue 11 item 6: GIVEN `scoreboard run` (audience window, pack folder with the sample
    pack, `[osc] require_auth = true`: host commands must be signed) under Xvfb and `scoreboard-remote` connected to
    it over UDP (a plain host connect is refused)
    WHEN the host, on the remote alone, types three names (one with a space and hyphen), picks the pack from the
    board's list, starts, names the chooser, opens a question, ends the reading, a player presses, «Верно»
    THEN the board's published state has those names and the pack's topics; while the question is read the hall's
    screen shows the names and topics and no answer (neither drawn nor in the state); the player gets +10."""
    packs = tmp_path / "packs"
    packs.mkdir()
    shutil.copy(ROOT / "assets" / "packs" / "sample.toml", packs / "sample.toml")
    port = free_port()
    config = tmp_path / "scoreboard.toml"
    config.write_text(board_toml(journal=tmp_path / "game.sqlite", osc_port=port, passcode=PASSCODE,
                                 size=(640, 360), osc_extra="require_auth = true",
                                 extra=f'\n[packs]\ndirs = ["{packs}"]\n'), encoding="utf-8")
    with xvfb() as display:
        env = {**os.environ, "DISPLAY": display, "SDL_AUDIODRIVER": "dummy"}
        env.pop("SDL_VIDEODRIVER", None)
        board = subprocess.Popen([sys.executable, "-m", "scoreboard", "run", "--config", str(config)], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        drive = tmp_path / "drive"
        remote_bin = Path(sys.executable).parent / "scoreboard-remote"
        process = subprocess.Popen([str(remote_bin), f"127.0.0.1:{port}", "--passcode", PASSCODE],
                                   env={**env, "SCOREBOARD_REMOTE_DRIVE": str(drive)},
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        watcher = None
        try:
            remote = Remote(drive, process)
            state = remote.until(lambda s: s.get("screen") == "setup" and s["setup"]["catalog"], "the set-up screen")
            assert "authenticated connect only" in plain_host_refused(port)
            pack = str(packs / "sample.toml")
            assert state["setup"]["packs"] == [pack]     # the board's list, from its pack folder
            remote.do(tap="setup", kind="tab", value="players")
            for seat, name in enumerate(NAMES, start=1):
                remote.do(tap="setup", kind="name", value=seat)
                remote.do(text=name)                      # a hardware keyboard's text
                remote.do(keypress="return")
                remote.until(lambda s, seat=seat, name=name: s["names"][seat - 1] == name and not s["setup"]["busy"],
                             f"name {seat} on the board")
            remote.do(tap="setup", kind="tab", value="pack")
            remote.do(tap="setup", kind="pack", value=pack)
            remote.until(lambda s: s["setup"]["loaded"] == pack and not s["setup"]["busy"], "the pack loaded")
            remote.do(tap="setup", kind="tab", value="start")
            remote.do(tap="setup", kind="start")
            remote.until(lambda s: s["phase"] == "round_intro", "the game started")
            watcher = OscClient("127.0.0.1", port, passcode=PASSCODE, role="view")
            watcher.connect()
            remote.do(tap="action", key="chooser:1")
            assert watcher.wait_for(lambda: (watcher.snapshot or {}).get("chooser") == 1, 20)
            board_drawn = " | ".join(audience_texts(watcher.snapshot))   # the hall's board: the pack's topics
            assert all(topic in board_drawn for topic in ("Реки", "Флаги", "Химия", "Литература")), board_drawn
            remote.do(tap="action", key="select:1:1")
            remote.until(lambda s: s["phase"] == "reading", "the question open")
            assert watcher.wait_for(lambda: (watcher.snapshot or {}).get("phase") == "reading", 20)
            reading = watcher.snapshot
            assert [p["name"] for p in reading["players"]] == list(NAMES)
            assert [t["name"] for t in reading["round"]["topics"]] == ["Реки", "Флаги", "Химия", "Литература"]
            assert "Волга" not in json.dumps(reading, ensure_ascii=False)     # the answer is not even published
            drawn = " | ".join(audience_texts(reading))
            assert "Реки" in drawn and "Волга" not in drawn and "Ра" not in drawn.split(" | "), drawn
            assert all(name.split()[0] in drawn for name in NAMES)
            remote.do(tap="action", key="reading_done")
            remote.until(lambda s: s["phase"] == "buzz_window", "the buttons live")
            press(port, 2)
            remote.until(lambda s: s["phase"] == "answering", "seat 2 answering")
            remote.do(tap="action", key="judge_right")
            state = remote.until(lambda s: s["phase"] == "reveal", "the verdict")
            assert state["last_ack"] == "верно: принято"
            assert watcher.wait_for(lambda: (watcher.snapshot or {}).get("phase") == "reveal", 20)
            assert [p["score"] for p in watcher.snapshot["players"]] == [0, 10, 0]
        finally:
            if watcher is not None:
                watcher.close()
            for proc in (process, board):
                stop(proc)
