"""Keyboard keys and gamepad buttons standing in for seats (rehearsal, or a backup when the box fails).

The board's main thread already receives pygame events, so there is no thread here: it asks
`KeySeats(mapping).command_for(event, at)` for each event and submits (or queues) what comes back.
Mapping names: pygame key names (`"1"`, `"q"`, `"space"`, `"f1"`; case does not matter) and gamepad buttons
as `"padN:B"` (joystick instance N, button B) or `"pad:B"` (button B on any pad). Key repeat is ignored.

A key is read at the start of the board's turn after it went down, so its stamp (the turn's time) is late by up to
one turn: the press carries `key` and that bound, `bound_ms` (one frame at the board's fps; BZ11's photo finish).
"""
from __future__ import annotations

from typing import Optional

import pygame

from scoreboard.engine.commands import Command

FRAME_BOUND_MS = 17      # one turn at 60 fps: the default when the board does not say its frame rate


class KeySeats:
    def __init__(self, keys: dict[str, int] | None = None, gamepad: dict[str, int] | None = None,
                 bound_ms: int = FRAME_BOUND_MS):
        self.bound_ms = bound_ms
        self.keys = {name.lower(): seat for name, seat in (keys or {}).items()}
        self.pads = {name.lower(): seat for name, seat in (gamepad or {}).items()}
        self._held: set = set()           # keys down now: an auto-repeat KEYDOWN is not a second press

    @classmethod
    def from_config(cls, buttons_config: dict) -> "KeySeats":
        return cls(buttons_config.get("keys"), buttons_config.get("gamepad"))

    def seat_for(self, event) -> Optional[int]:
        if event.type == pygame.KEYDOWN:
            name = pygame.key.name(event.key).lower()
            if name in self._held:
                return None
            seat = self.keys.get(name)
            if seat is not None:
                self._held.add(name)
            return seat
        if event.type == pygame.KEYUP:
            self._held.discard(pygame.key.name(event.key).lower())
            return None
        if event.type == pygame.JOYBUTTONDOWN:
            pad = getattr(event, "instance_id", getattr(event, "joy", 0))
            return self.pads.get(f"pad{pad}:{event.button}", self.pads.get(f"pad:{event.button}"))
        return None

    def command_for(self, event, at: float) -> Optional[Command]:
        """`/sg/button seat key bound_ms` stamped `at` (engine seconds) if the event is a mapped key or pad button."""
        seat = self.seat_for(event)
        return None if seat is None else Command(at, "/sg/button", (seat, "key", self.bound_ms))
