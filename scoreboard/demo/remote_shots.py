"""Render the remote's screens headless into PNG files (docs/screenshots/remote-*.png).

    SDL_VIDEODRIVER=dummy python -m scoreboard.demo.remote_shots OUTDIR

The scenes come from a real game: a scripted `Session` (the board's engine) is played to each phase and its
snapshot and host question are drawn exactly as the remote would draw them after receiving them over OSC.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import pygame

from host_remote.setup_model import parse_catalog
from host_remote.ui.connect_screen import ConnectScreen
from host_remote.ui.control_screen import ControlScreen
from scoreboard.app.setup_catalog import Catalog
from scoreboard.demo.remote_scenes import SAMPLE_PACK, scenes, sequential_scenes
from scoreboard.engine.commands import make
from scoreboard.session import Session


def render_control(snapshot: dict | None, question: dict | None, *, connection: str = "connected",
                   last_ack: str = "", ack_ok: bool = True, pending: int = 0, pad_key: str | None = None,
                   board_label: str = "192.168.1.20:9000", undo: tuple | None = None) -> pygame.Surface:
    """The play screen for this state, as a surface (optionally with the numeric pad open for `pad_key`)."""
    screen = ControlScreen(board_label)
    screen.set_state(snapshot, int((snapshot or {}).get("rev", -1)))
    screen.question = question
    screen.connection, screen.last_ack, screen.last_ack_ok, screen.pending = connection, last_ack, ack_ok, pending
    if undo is not None:   # what this remote sent last, for «Отменить: …»
        screen.undo.accepted(*undo)
        screen.layout()
    if pad_key is not None:
        action = next(a for a in screen.actions if a.key == pad_key)
        screen.trigger(action)
        for digit in str(action.low if action.low is not None else 20):
            screen.pad.press(digit)
    surface = pygame.Surface((1024, 600))
    screen.draw(surface)
    return surface


def render_connect(message: str = "") -> pygame.Surface:
    screen = ConnectScreen("192.168.1.20", 9000, "1234")
    screen.message = message
    surface = pygame.Surface((1024, 600))
    screen.draw(surface)
    return surface


LONG_NAMES = ("Вера Смирнова-Оболенская", "Анна-Мария Константинопольская-Тер-Оганесян",
              ("Александр Александрович Преображенский-Верхнеднепровский " * 2)[:80])


def setup_scenes():
    """(name, surface) for the set-up screens, from the catalogue the board builds for the sample pack's folder."""

    with tempfile.TemporaryDirectory() as folder:
        broken = Path(folder) / "Кубок осени (черновик).toml"
        broken.write_text("[pack]\ntitle = 'Черновик'\n[[rounds]]\nname = 'Синий'\n", encoding="utf-8")
        catalog = Catalog({"packs": {"dirs": [str(SAMPLE_PACK.parent), folder, "packs-missing"]}}).build()
    catalog["next_game"] = {"game": "1/9-2", "regulation": "novosibirsk-2007", "stage": "1/9",
                            "seats": [{"seat": i + 1, "name": n} for i, n in enumerate(LONG_NAMES)], "topics": []}
    catalog = parse_catalog(json.dumps(catalog, ensure_ascii=False))
    snapshot = {"phase": "setup", "regulation": "novosibirsk-2007", "stage": "1/9", "rev": 3,
                "players": [{"seat": i + 1, "name": n, "score": 0} for i, n in enumerate(LONG_NAMES)]}

    def shot(tab: str, keyboard: bool = False, pack: str | None = None, tap: str | None = None):
        screen = ControlScreen("192.168.1.20:9000")
        screen.connection = "connected"
        screen.set_state(snapshot, 3)
        screen.setup.on_catalog(catalog)
        screen.setup.tab = tab
        screen.setup.outbox.clear()
        if pack:
            screen.setup.viewed = screen.setup.draft.pack = screen.setup.loaded = pack
        if keyboard:
            screen.setup.tap("name", 1)
            screen.setup.keyboard.value = LONG_NAMES[0]
            screen.setup.keyboard.shift = False
            screen.setup.keyboard.layout()
        if tap is not None:
            screen.setup.tap("pack", tap)   # a pack that does not load: refused on the remote, its errors shown
        surface = pygame.Surface((1024, 600))
        screen.draw(surface)
        return surface

    sample = str(SAMPLE_PACK)
    yield "setup-game", shot("game")
    yield "setup-players", shot("players")
    yield "setup-keyboard", shot("players", keyboard=True)
    yield "setup-pack", shot("pack", pack=sample)
    yield "setup-pack-refused", shot("pack", tap=next(p["path"] for p in catalog["packs"] if not p["ok"]))
    yield "setup-start", shot("start", pack=sample)
    yield "setup-no-pack", shot("start")


def long_name_scenes():
    """(name, snapshot, question, options) of a game whose players have names of 24–80 characters."""
    session, clock = Session(), [0.0]

    def go(address, *args):
        clock[0] += 0.4
        session.submit(make(clock[0], address, *args))

    go("/sg/game/new", "novosibirsk-2007", "1/9", 3, 0)
    go("/sg/pack/load", str(SAMPLE_PACK))
    for seat, name in enumerate(LONG_NAMES, start=1):
        go("/sg/player/name", seat, name)
    go("/sg/game/start")
    go("/sg/chooser", 1)
    go("/sg/select", 1, 1)
    go("/sg/reading/done")
    go("/sg/button", 2)
    go("/sg/judge/wrong")
    go("/sg/resume")
    go("/sg/button", 3)
    yield "long-names-answering", session.snapshot(), session.host_question(), {"last_ack": "продолжение: принято"}
    go("/sg/judge/right")
    yield "long-names-reveal", session.snapshot(), session.host_question(), {
        "last_ack": "верно: принято", "undo": ("/sg/judge/right", ())}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0] if argv else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((1024, 600))
    pygame.image.save(render_connect(), str(out / "remote-connect.png"))
    for name, surface in setup_scenes():
        pygame.image.save(surface, str(out / f"remote-{name}.png"))
        print(out / f"remote-{name}.png")
    for name, snapshot, question, extra in [*scenes(), *sequential_scenes(), *long_name_scenes()]:
        pygame.image.save(render_control(snapshot, question, **extra), str(out / f"remote-{name}.png"))
        print(out / f"remote-{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
