"""The numeric pad: auction bids, final stakes and score corrections are typed here, then sent as one command.

A modal overlay: digits, a sign key (corrections may be negative), erase, OK and cancel. It keeps the typed value
as a string so that "-" alone or an empty field is a visible, unsendable state rather than a silent 0.
"""
from __future__ import annotations

import pygame

from . import widgets as w

KEYS = ("7", "8", "9", "4", "5", "6", "1", "2", "3", "±", "0", "⌫")


class Numpad:
    def __init__(self, title: str, signed: bool = False, low: int | None = None, high: int | None = None,
                 initial: str = "") -> None:
        self.title = title
        self.signed = signed
        self.low = low
        self.high = high
        self.value = initial
        self.buttons: list[w.Button] = []
        self.layout()

    def layout(self) -> None:
        box = pygame.Rect(0, 0, 420, 540)
        box.center = (w.DESIGN[0] // 2, w.DESIGN[1] // 2)
        self.box = box
        self.buttons = []
        for i, key in enumerate(KEYS):
            row, col = divmod(i, 3)
            rect = pygame.Rect(box.left + 20 + col * 130, box.top + 130 + row * 72, 120, 64)
            enabled = key != "±" or self.signed
            self.buttons.append(w.Button(rect, key, "seat", key, enabled))
        self.buttons.append(w.Button(pygame.Rect(box.left + 20, box.bottom - 80, 185, 64), "Отмена", "wrong",
                                     "cancel"))
        self.buttons.append(w.Button(pygame.Rect(box.right - 205, box.bottom - 80, 185, 64), "OK", "right", "ok"))

    def number(self) -> int | None:
        """The typed value, or None while it is not a whole number within the bounds."""
        try:
            number = int(self.value)
        except ValueError:
            return None
        if self.low is not None and number < self.low:
            return None
        if self.high is not None and number > self.high:
            return None
        return number

    def press(self, key: str) -> str | None:
        """Apply one key; return "ok" (with a valid number) or "cancel" when the pad closes."""
        if key == "cancel":
            return "cancel"
        if key == "ok":
            return "ok" if self.number() is not None else None
        if key == "⌫":
            self.value = self.value[:-1]
        elif key == "±" and self.signed:
            self.value = self.value[1:] if self.value.startswith("-") else "-" + self.value
        elif key.isdigit() and len(self.value.lstrip("-")) < 6:
            self.value = self.value + key
        return None

    def handle(self, event) -> str | None:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for button in self.buttons:
                if button.hit(event.pos):
                    return self.press(str(button.payload))
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return self.press("ok")
            if event.key == pygame.K_ESCAPE:
                return self.press("cancel")
            if event.key == pygame.K_BACKSPACE:
                return self.press("⌫")
            if event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
                return self.press("±")
            if event.unicode and event.unicode.isdigit():
                return self.press(event.unicode)
        return None

    def draw(self, surface) -> None:
        shade = pygame.Surface(w.DESIGN, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 170))
        surface.blit(shade, (0, 0))
        pygame.draw.rect(surface, w.PANEL, self.box, border_radius=14)
        surface.blit(w.text(w.wrap(self.title, 22, self.box.width - 40)[0], 22), (self.box.left + 20, self.box.top + 16))
        bounds = []
        if self.low is not None:
            bounds.append(f"от {self.low}")
        if self.high is not None:
            bounds.append(f"до {self.high}")
        if bounds:
            surface.blit(w.text(" ".join(bounds), 16, w.DIM), (self.box.left + 20, self.box.top + 46))
        field = pygame.Rect(self.box.left + 20, self.box.top + 70, self.box.width - 40, 50)
        pygame.draw.rect(surface, w.BG, field, border_radius=8)
        colour = w.TEXT if self.number() is not None or not self.value else w.STATE_COLOURS["lost"]
        shown = w.text(self.value or "—", 32, colour)
        surface.blit(shown, shown.get_rect(midright=(field.right - 12, field.centery)))
        for button in self.buttons:
            if button.payload == "ok":
                button.enabled = self.number() is not None
            button.draw(surface)
