"""A test hook for the real `scoreboard-remote` process: `SCOREBOARD_REMOTE_DRIVE=DIR` feeds it taps and keys.

The end-to-end test appends JSON lines to DIR/in — `{"tap": "setup", "kind": "pack", "value": "…"}`,
`{"tap": "action", "key": "judge_right"}`, `{"text": "Вера"}`, `{"keypress": "return"}` — and reads DIR/out.json, which
the app rewrites every frame (screen, phase, rev, the set-up's state, the status line). A tap becomes a real mouse
event at the button's place in the window (so the window's scaling path is what is tested), and waits, in order,
until its button is drawn and enabled. Nothing here runs unless the variable is set.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pygame

from host_remote.ui.widgets import DESIGN


class Driver:
    def __init__(self, folder: str) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.inbox = self.folder / "in"
        self.inbox.touch()
        self.offset = 0
        self.pending: list[dict] = []

    def _read(self) -> None:
        with open(self.inbox, "rb") as handle:
            handle.seek(self.offset)
            data = handle.read()
        complete = data[:data.rfind(b"\n") + 1]
        self.offset += len(complete)
        for line in complete.decode("utf-8").splitlines():
            if line.strip():
                self.pending.append(json.loads(line))

    @staticmethod
    def _buttons(app, step: dict):
        control = app.control
        if control is None:
            return []
        if step["tap"] == "setup":
            if not control.in_setup:
                return []
            control.setup.layout()
            value = step.get("value")
            value = tuple(value) if isinstance(value, list) else value
            return [b for b in control.setup.buttons if b.payload == (step["kind"], value) and b.enabled]
        return [b for b in control.buttons if not control.in_setup and b.payload.key == step["key"] and b.enabled]

    def events(self, app, window_size) -> list:
        """The next step as pygame events once it can be done (its button is there); [] meanwhile."""
        self._read()
        if not self.pending:
            return []
        step = self.pending[0]
        if "text" in step:
            self.pending.pop(0)
            return [pygame.event.Event(pygame.TEXTINPUT, text=step["text"])]
        if "keypress" in step:
            self.pending.pop(0)
            key = {"return": pygame.K_RETURN, "backspace": pygame.K_BACKSPACE, "escape": pygame.K_ESCAPE}[
                step["keypress"]]
            return [pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="")]
        buttons = self._buttons(app, step)
        if not buttons:
            return []
        self.pending.pop(0)
        design = DESIGN
        x, y = buttons[0].rect.center
        pos = (round((x + 0.5) * window_size[0] / design[0]), round((y + 0.5) * window_size[1] / design[1]))
        return [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)]

    def report(self, app) -> None:
        control = app.control
        snap = (control.snapshot if control else None) or {}
        setup = control.setup if control else None
        out = {"screen": "connect" if control is None else "setup" if control.in_setup else "play",
               "phase": snap.get("phase"), "rev": control.rev if control else -1,
               "names": [p.get("name") for p in snap.get("players") or []],
               "last_ack": control.last_ack if control else app.connect_screen.message,
               "pending_steps": len(self.pending),
               "setup": None if setup is None else {
                   "catalog": setup.catalog is not None, "busy": bool(setup.chain or setup.inflight),
                   "message": setup.message, "bad": setup.message_bad, "loaded": setup.loaded,
                   "packs": [p["path"] for p in (setup.catalog or {}).get("packs") or []]}}
        temp = self.folder / "out.json.tmp"
        temp.write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")
        os.replace(temp, self.folder / "out.json")


def from_environment() -> Driver | None:
    folder = os.environ.get("SCOREBOARD_REMOTE_DRIVE")
    return Driver(folder) if folder else None
