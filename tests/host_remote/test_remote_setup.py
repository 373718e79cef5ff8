"""Set-up from the remote (issue 9 item 1): the board's catalogue, the desk over UDP, the set-up screens driving the
real board side, and `scoreboard run`'s set-up flags."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pygame
import pytest

from host_remote.app import RemoteApp
from scoreboard.bench.remote_harness import PASSCODE, BoardLoop
from host_remote.setup_model import MAX_NAME, Draft, parse_catalog
from tests.conftest import ROOT
from scoreboard.app.setup_catalog import Catalog, PackShelf

SAMPLE = ROOT / "assets" / "packs" / "sample.toml"
LONG = "Вера Смирнова-Оболенская"


@pytest.fixture(autouse=True)
def _pygame():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.init()
    yield


def pack_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "packs"
    folder.mkdir()
    shutil.copy(SAMPLE, folder / "sample.toml")
    (folder / "broken.toml").write_text("[pack\ntitle = 'x'\n", encoding="utf-8")
    (folder / "notes.md").write_text("not a pack", encoding="utf-8")
    return folder


def test_g3_catalog_lists_regulations_stages_packs_and_folder_problems(tmp_path):
    """GIVEN a pack folder with the sample pack, a broken TOML and a non-pack file, and a missing second folder
    WHEN the catalogue is built
    THEN every preset regulation is there with its stages' topic counts (G3), the sample pack with title, format,
    rounds and topic names, the broken one with its error, the missing folder named; the non-pack is not listed."""
    folder = pack_folder(tmp_path)
    catalog = Catalog({"packs": {"dirs": [str(folder), str(tmp_path / "gone")]}}).build()
    regs = {r["name"]: r for r in catalog["regulations"]}
    assert {"novosibirsk-2007", "america-2005", "samara-2003"} <= set(regs)
    stages = {s["name"]: [r["topics"] for r in s["rounds"]] for s in regs["novosibirsk-2007"]["stages"]}
    assert stages["1/9"] == [4, 4] and stages["final"] == [6, 6]
    assert regs["samara-2003"]["first_chooser"] == "lot"
    packs = {Path(p["path"]).name: p for p in catalog["packs"]}
    assert set(packs) == {"sample.toml", "broken.toml"}
    sample = packs["sample.toml"]
    assert sample["ok"] and sample["format"] == "toml" and sample["title"] == "Пример пакета «Своей игры»"
    assert sample["rounds"][0]["topics"][0] == "Реки" and sample["questions"] > 0
    assert not packs["broken.toml"]["ok"] and "broken.toml" in packs["broken.toml"]["errors"][0]
    assert catalog["problems"] == [f"{tmp_path / 'gone'}: no such folder"]


def test_catalog_reads_each_pack_once_until_it_changes(tmp_path):
    """GIVEN a shelf over a pack folder
    WHEN it is scanned twice, then a pack file is rewritten
    THEN the second scan reads no pack, the third reads only the changed one."""
    folder = pack_folder(tmp_path)
    shelf = PackShelf([str(folder)])
    shelf.scan()
    assert shelf.reads == 2
    shelf.scan()
    assert shelf.reads == 2
    (folder / "broken.toml").write_text("[pack\ntitle = 'longer now'\n", encoding="utf-8")
    packs, _ = shelf.scan()
    assert shelf.reads == 3 and len(packs) == 2


def test_g3_draft_refuses_a_pack_that_cannot_fill_the_stage_and_asks_for_topics():
    """GIVEN a catalogue with a pack of 2 rounds × 6 topics and one of a single round
    WHEN the draft is for novosibirsk 1/9 (4+4 topics) and the final (6+6), and names are checked
    THEN the short pack is refused naming the rounds (G3); the 6-topic pack asks for 4 of 6 per round at 1/9 and
    loads `R.N` topics once chosen; names past 80 characters or empty are refused."""
    reg = {"name": "novosibirsk-2007", "players": {"min": 3, "max": 3, "default": 3}, "first_chooser": "host",
           "stages": [{"name": "1/9", "rounds": [{"topics": 4}, {"topics": 4}]},
                      {"name": "final", "rounds": [{"topics": 6}, {"topics": 6}]}]}
    six = {"path": "p/six.toml", "ok": True, "errors": [], "warnings": [],
           "rounds": [{"name": "A", "topics": list("абвгде")}, {"name": "B", "topics": list("ёжзийк")}]}
    short = {"path": "p/short.toml", "ok": True, "errors": [], "warnings": [], "rounds": [{"name": "A", "topics": 6}]}
    catalog = {"regulations": [reg], "packs": [six, short]}
    draft = Draft("novosibirsk-2007", "1/9", 3, pack="p/short.toml")
    assert "1 / 2" in Draft.pack_problem(short, draft.stage_rounds(catalog))
    draft.pack = "p/six.toml"
    assert draft.choices_needed(catalog) == [(0, 4, 6), (1, 4, 6)]
    assert draft.pack_command(catalog) == ("/sg/pack/load", ("p/six.toml",))   # not chosen yet: the first ones
    for r, picks in ((0, (5, 1, 2, 3, 4)), (1, (0, 1, 2, 3))):
        for topic in picks:
            draft.toggle_topic(catalog, r, topic)
    assert draft.topics[0] == [5, 1, 2, 3]   # a fifth pick in a round of 4 is not taken
    assert draft.pack_command(catalog) == ("/sg/pack/load", ("p/six.toml", "1.6", "1.2", "1.3", "1.4",
                                                             "2.1", "2.2", "2.3", "2.4"))
    final = Draft("novosibirsk-2007", "final", 3, pack="p/six.toml")
    assert final.choices_needed(catalog) == [] and final.pack_command(catalog) == ("/sg/pack/load", ("p/six.toml",))
    assert Draft.name_problem(1, "x" * (MAX_NAME + 1)) and Draft.name_problem(2, "  ")
    assert Draft.name_problem(1, "x" * MAX_NAME) is None


def test_catalog_parse_keeps_good_entries_and_refuses_non_catalogues():
    """GIVEN JSON from the network
    WHEN it is not a catalogue, or a catalogue with one malformed pack
    THEN the first is refused whole, the second keeps only the well-shaped entries."""
    assert parse_catalog("[1,2]") is None and parse_catalog("{") is None
    parsed = parse_catalog('{"regulations": [], "packs": [{"path": "a", "rounds": [], "warnings": [], "errors": []},'
                           ' {"path": 3}], "problems": ["x", 4]}')
    assert [p["path"] for p in parsed["packs"]] == ["a"] and parsed["problems"] == ["x"]


def tap(app: RemoteApp, kind: str, value=None) -> None:
    """Tap the set-up button with this payload, where the screen drew it."""
    screen = app.control.setup
    app.render()
    button = next(b for b in screen.buttons if b.payload == (kind, value))
    assert button.enabled, f"{kind} {value} is disabled"
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.rect.center, button=1))


def press_key(app: RemoteApp, keyboard, payload) -> None:
    button = next(b for b in keyboard.buttons if b.payload == payload)
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.rect.center, button=1))


def type_on_screen(app: RemoteApp, keyboard, text: str) -> None:
    for char in text:
        if char.isalpha() and char.isupper() != keyboard.shift:
            press_key(app, keyboard, ("shift", None))
        if char.isalpha() and char.lower() not in "".join(__import__("host_remote.ui.keyboard", fromlist=["x"])
                                                          .LAYOUTS[keyboard.letters]):
            press_key(app, keyboard, ("layout", None))
        press_key(app, keyboard, ("char", char))


def settle(app: RemoteApp, board: BoardLoop, predicate) -> bool:
    def ready():
        app.pump()
        setup = app.control.setup if app.control else None
        return setup is not None and not setup.chain and setup.inflight is None and predicate()
    return app.client.wait_for(ready, 20)


def test_g5_p3_set_up_from_the_remote_over_udp(tmp_path):
    """GIVEN the real board side (links OSC server, set-up desk, session) with a pack folder, and the remote app
    WHEN the host picks america's final, 4 seats, types names on the on-screen keyboard and a hardware keyboard
    (one of 80 characters; an 81st is not taken), tries the broken pack and the sample pack (too few topics for
    america's final, G3), goes to novosibirsk 1/9, picks the sample pack from the list, and starts
    THEN the board's game is novosibirsk with those names and the pack's topics; the refused packs changed
    nothing and the screen said why; the status line speaks words."""
    folder = pack_folder(tmp_path)
    board = BoardLoop(setup={"packs": {"dirs": [str(folder)]}, "tournament": {"file": ""}}).start()
    from scoreboard.engine.commands import make
    board.inbox.put(make(0.0, "/sg/game/new", "novosibirsk-2007", "1/9"), "test")
    app = RemoteApp(*board.address, passcode=PASSCODE)
    try:
        app.connect(*board.address, PASSCODE)
        assert settle(app, board, lambda: app.control.setup.catalog is not None)
        tap(app, "regulation", "america-2005")
        assert settle(app, board, lambda: app.control.snapshot["regulation"] == "america-2005")
        tap(app, "stage", "final")
        assert settle(app, board, lambda: app.control.snapshot["stage"] == "final")
        tap(app, "seats", 4)
        assert settle(app, board, lambda: len(app.control.snapshot["players"]) == 4)
        tap(app, "tab", "players")
        tap(app, "name", 1)
        keyboard = app.control.setup.keyboard
        type_on_screen(app, keyboard, LONG)   # on-screen keys: Shift, the space and hyphen keys included
        assert keyboard.value == LONG
        done = next(b for b in keyboard.buttons if b.payload == ("done", None))
        app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=done.rect.center, button=1))
        assert settle(app, board, lambda: app.control.snapshot["players"][0]["name"] == LONG)
        eighty = ("Анна-Мария " * 8)[:MAX_NAME]
        tap(app, "name", 2)
        app.handle(pygame.event.Event(pygame.TEXTINPUT, text=eighty + "Z"))   # a hardware keyboard
        assert app.control.setup.keyboard.value == eighty
        app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
        assert settle(app, board, lambda: app.control.snapshot["players"][1]["name"] == eighty.strip())
        tap(app, "tab", "pack")
        tap(app, "pack", str(folder / "broken.toml"))
        assert app.control.setup.message_bad and "broken.toml" in app.control.setup.message
        assert app.control.setup.draft.pack is None
        tap(app, "pack", str(folder / "sample.toml"))   # 4+4 topics: america's final plays 8+4 (G3)
        assert app.control.setup.message_bad and "не хватает тем" in app.control.setup.message
        assert app.control.setup.draft.pack is None and app.control.setup.outbox == []
        tap(app, "tab", "game")
        tap(app, "regulation", "novosibirsk-2007")
        assert settle(app, board, lambda: app.control.snapshot["regulation"] == "novosibirsk-2007")
        tap(app, "stage", "1/9")
        assert settle(app, board, lambda: app.control.snapshot["stage"] == "1/9")
        assert len(app.control.snapshot["players"]) == 3   # novosibirsk plays 3: the seat count follows
        assert app.control.snapshot["players"][0]["name"] == LONG   # a new game keeps what the host typed
        tap(app, "tab", "pack")
        tap(app, "pack", str(folder / "sample.toml"))
        assert settle(app, board, lambda: app.control.setup.loaded == str(folder / "sample.toml"))
        tap(app, "tab", "start")
        tap(app, "start")
        assert settle(app, board, lambda: app.control.snapshot["phase"] != "setup")
        snap = board.session.snapshot()
        assert snap["regulation"] == "novosibirsk-2007" and [p["name"] for p in snap["players"]][:2] == [
            LONG, eighty.strip()]
        assert snap["round"]["topics"][0]["name"] == "Реки"
        assert app.control.last_ack == "начало игры: принято"
        assert not [r for r in board.refused if r[0].address != "/sg/pack/load"]
    finally:
        app.close()
        board.stop()


def test_g3_run_flags_check_everything_before_a_window_opens(tmp_path):
    """GIVEN `scoreboard run`'s set-up flags
    WHEN the names, pack and topics are good / a name is too long / the pack cannot fill america's final (G3) /
    a topic does not exist
    THEN the good set becomes the game's opening commands; each bad one is refused naming the flag and the reason."""
    from scoreboard.app.run_setup import commands_from_args
    good, problems = commands_from_args("novosibirsk-2007", "1/9", f"{LONG};Борис;Анна", str(SAMPLE), "1.1;1.2;1.3;1.4;2.1;2.2;2.3;2.4")
    assert problems == [] and good[0] == ("/sg/game/new", ("novosibirsk-2007", "1/9", 3))
    assert good[1] == ("/sg/player/name", (1, LONG)) and good[-1][0] == "/sg/pack/load"
    _, problems = commands_from_args("novosibirsk-2007", "1/9", "А;" + "б" * 81 + ";В", None, None)
    assert problems and problems[0].startswith("--players: name 2") and "81" in problems[0]
    _, problems = commands_from_args("america-2005", "final", "А;Б;В", str(SAMPLE), None)
    assert problems and problems[0].startswith("--pack/--topics") and "G3" in problems[0]
    _, problems = commands_from_args("novosibirsk-2007", "1/9", None, str(SAMPLE), "Нет такой")
    assert problems and "Нет такой" in problems[0]


def test_run_with_a_bad_name_exits_before_opening_a_window(tmp_path):
    """GIVEN `scoreboard run --players` with an empty name WHEN run THEN it exits 2 saying which name, no board."""
    import subprocess
    import sys
    from scoreboard.app.config import write_default
    config = write_default(tmp_path / "scoreboard.toml")   # with a passcode: the shipped file has none
    result = subprocess.run([sys.executable, "-m", "scoreboard", "run", "--config", str(config),
                             "--players", "Вера;;Анна"],
                            capture_output=True, text=True, timeout=60, cwd=ROOT,
                            env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert result.returncode == 2 and "--players: name 2 is empty" in result.stderr


def test_g3_host_chooses_the_topics_when_the_pack_holds_more(tmp_path):
    """G3, P1: GIVEN a pack whose two rounds hold 5 topics each (the sample pack and one more topic a round) and a
    novosibirsk 1/9 game (4 + 4)
    WHEN the host picks it from the board's list and taps 4 topics of round 1 (the last first) and 4 of round 2
    THEN the board loads the pack with exactly those topics, in the host's order, and starts with them."""
    import tomllib

    import tomli_w
    data = tomllib.loads(SAMPLE.read_text(encoding="utf-8"))
    for index, round_ in enumerate(data["rounds"]):
        extra = dict(round_["topics"][0], name=f"Запасная тема {index + 1}")
        round_["topics"].append(extra)
    folder = tmp_path / "packs"
    folder.mkdir()
    path = folder / "five.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    board = BoardLoop(setup={"packs": {"dirs": [str(folder)]}, "tournament": {"file": ""}}).start()
    from scoreboard.engine.commands import make
    board.inbox.put(make(0.0, "/sg/game/new", "novosibirsk-2007", "1/9"), "test")
    app = RemoteApp(*board.address, passcode=PASSCODE)
    try:
        app.connect(*board.address, PASSCODE)
        assert settle(app, board, lambda: app.control.setup.catalog is not None)
        tap(app, "tab", "pack")
        tap(app, "pack", str(path))
        assert settle(app, board, lambda: app.control.setup.loaded == str(path))
        for r, picks in ((0, (4, 0, 1, 2)), (1, (1, 2, 3, 4))):
            for topic in picks:
                tap(app, "topic", (r, topic))
        assert settle(app, board, lambda: any(c.address == "/sg/pack/load" and len(c.args) == 9
                                              for c in board.applied))
        load = [c for c in board.applied if c.address == "/sg/pack/load"][-1]
        assert load.args == (str(path), "1.5", "1.1", "1.2", "1.3", "2.2", "2.3", "2.4", "2.5")
        tap(app, "tab", "start")
        tap(app, "start")
        assert settle(app, board, lambda: app.control.snapshot["phase"] == "round_intro")
        topics = [t["name"] for t in board.session.snapshot()["round"]["topics"]]
        assert topics == ["Запасная тема 1", "Реки", "Флаги", "Химия"]
    finally:
        app.close()
        board.stop()
