"""An on-screen keyboard for players' names: Cyrillic and Latin layouts, Shift, space, hyphen, backspace.

A hardware keyboard works at the same time (pygame TEXTINPUT, Backspace, Enter, Esc). The field holds at most
80 characters (`/sg/player/name`); the text is drawn shrunk, then cut from the left, so the caret end stays visible.
"""
from __future__ import annotations

import pygame

from ..setup_model import MAX_NAME
from ..strings import t
from . import widgets as w

LAYOUTS = {
    "ru": ("1234567890", "йцукенгшщзхъ", "фывапролджэ", "ячсмитьбюё"),
    "en": ("1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm'."),
}
AREA = pygame.Rect(0, 44, w.DESIGN[0], w.DESIGN[1] - 44)
KEY_H = 62
GAP = 6


class Keyboard:
    def __init__(self, title: str, value: str = "", layout: str = "ru") -> None:
        self.title = title
        self.value = value[:MAX_NAME]
        self.letters = layout
        self.shift = not value           # a name starts with a capital
        self.buttons: list[w.Button] = []
        self.layout()

    def layout(self) -> None:
        self.buttons = []
        top = AREA.top + 118
        for row_index, row in enumerate(LAYOUTS[self.letters]):
            width = (AREA.width - 20 - GAP * 11) // 12
            left = AREA.left + 10 + (AREA.width - 20 - len(row) * (width + GAP) + GAP) // 2
            for i, char in enumerate(row):
                label = char.upper() if self.shift else char
                rect = pygame.Rect(left + i * (width + GAP), top + row_index * (KEY_H + GAP), width, KEY_H)
                self.buttons.append(w.Button(rect, label, "grid", ("char", label)))
        bottom = top + 4 * (KEY_H + GAP)
        row = [("shift", "⇧", 110, "seat"), ("layout", t("setup.kb.layout") if self.letters == "ru"
                                                   else t("setup.kb.layout2"), 110, "seat"),
               ("char- ", t("setup.kb.space"), 300, "grid"), ("char--", "-", 90, "grid"),
               ("back", "⌫", 120, "wrong"), ("done", t("setup.name.done"), 200, "right")]
        x = AREA.left + 10
        for key, label, width, kind in row:
            payload = ("char", key[5:]) if key.startswith("char-") else (key, None)
            self.buttons.append(w.Button(pygame.Rect(x, bottom, width, KEY_H), label, kind, payload))
            x += width + GAP
        self.buttons.append(w.Button(pygame.Rect(AREA.right - 150, AREA.top + 10, 140, 50), t("setup.name.cancel"),
                                     "tools", ("cancel", None)))

    def type(self, text: str) -> None:
        text = "".join(ch for ch in text if ch.isprintable())
        self.value = (self.value + text)[:MAX_NAME]
        if text and self.shift and text != " ":
            self.shift = False
            self.layout()

    def handle(self, event) -> str | None:
        """'done' | 'cancel' | None (still typing)."""
        if event.type == pygame.TEXTINPUT:
            self.type(event.text)
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_BACKSPACE:
                self.value = self.value[:-1]
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return "done"
            elif event.key == pygame.K_ESCAPE:
                return "cancel"
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for button in self.buttons:
                if button.hit(event.pos):
                    kind, value = button.payload
                    if kind == "char":
                        self.type(value)
                    elif kind == "back":
                        self.value = self.value[:-1]
                    elif kind == "shift":
                        self.shift = not self.shift
                        self.layout()
                    elif kind == "layout":
                        self.layout = "en" if self.letters == "ru" else "ru"
                        self.layout()
                    else:
                        return kind
        return None

    def field_rect(self) -> pygame.Rect:
        return pygame.Rect(AREA.left + 10, AREA.top + 62, AREA.width - 20, 48)

    def draw(self, surface) -> None:
        pygame.draw.rect(surface, w.BG, AREA)
        surface.blit(w.text(self.title, 22, w.ACCENT), (AREA.left + 12, AREA.top + 20))
        field = self.field_rect()
        pygame.draw.rect(surface, w.PANEL, field, border_radius=8)
        shown, size = w.fit_line(self.value + "▏", 26, field.width - 90, keep="end")
        surface.blit(w.text(shown, size), (field.left + 10, field.centery - w.font(size).get_linesize() // 2))
        count = w.text(f"{len(self.value)}/{MAX_NAME}", 16, w.DIM if len(self.value) < MAX_NAME else w.ACCENT)
        surface.blit(count, count.get_rect(midright=(field.right - 10, field.centery)))
        for button in self.buttons:
            button.draw(surface)
