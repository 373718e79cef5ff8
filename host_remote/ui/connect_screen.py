"""The first screen: which board (address and port) and the passcode; boards found on the LAN where zeroconf is present.

Typing works with a laptop keyboard or a tablet's on-screen keyboard (SDL text input events); Tab moves between the
fields, Enter connects. The screen returns ("connect", address, port, passcode) for the app to act on.
"""
from __future__ import annotations

import pygame

from ..strings import t
from . import widgets as w

FIELDS = ("address", "port", "passcode")
LABELS = {"address": "Адрес табло", "port": "Порт", "passcode": "Пароль"}


class ConnectScreen:
    def __init__(self, address: str = "", port: int = 9000, passcode: str = "", discovery=None) -> None:
        self.values = {"address": address, "port": str(port), "passcode": passcode}
        self.focus = "address" if not address else "passcode"
        self.discovery = discovery
        self.message = ""
        self.message_bad = False
        self.fields = {name: pygame.Rect(262, 130 + i * 90, 500, 56) for i, name in enumerate(FIELDS)}
        self.connect_button = w.Button(pygame.Rect(262, 410, 500, 72), "Подключиться", "primary", "connect",
                                       hint="Enter")
        self.board_buttons: list[w.Button] = []

    def handle(self, event):
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for name, rect in self.fields.items():
                if rect.collidepoint(event.pos):
                    self.focus = name
                    return None
            if self.connect_button.hit(event.pos):
                return self._submit()
            for button in self.board_buttons:
                if button.hit(event.pos):
                    _, address, port = button.payload
                    self.values["address"], self.values["port"] = address, str(port)
                    self.focus = "passcode"
            return None
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                return self._submit()
            if event.key == pygame.K_TAB:
                step = -1 if event.mod & pygame.KMOD_SHIFT else 1
                self.focus = FIELDS[(FIELDS.index(self.focus) + step) % len(FIELDS)]
            elif event.key == pygame.K_BACKSPACE:
                self.values[self.focus] = self.values[self.focus][:-1]
            return None
        if event.type == pygame.TEXTINPUT:
            typed = event.text
            if self.focus == "port":
                typed = "".join(ch for ch in typed if ch.isdigit())
            if len(self.values[self.focus]) + len(typed) <= 64:
                self.values[self.focus] += typed
        return None

    def _submit(self):
        address = self.values["address"].strip()
        port_text = self.values["port"].strip()
        if not address:
            return self.fail("Укажите адрес табло")
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            return self.fail(f"Порт должен быть числом 1–65535, а не «{port_text}»")
        return ("connect", address, int(port_text), self.values["passcode"])

    def fail(self, message: str):
        self.message, self.message_bad = message, True
        return None

    def draw(self, surface) -> None:
        surface.fill(w.BG)
        title = w.text("Своя игра — пульт ведущего", 30, w.ACCENT)
        surface.blit(title, title.get_rect(midtop=(w.DESIGN[0] // 2, 30)))
        for name, rect in self.fields.items():
            surface.blit(w.text(LABELS[name], 16, w.DIM), (rect.left, rect.top - 22))
            pygame.draw.rect(surface, w.PANEL, rect, border_radius=8)
            if name == self.focus:
                pygame.draw.rect(surface, w.ACCENT, rect, 2, border_radius=8)
            shown = self.values[name] if name != "passcode" else "•" * len(self.values[name])
            surface.blit(w.text(shown + ("|" if name == self.focus else ""), 24), (rect.left + 12, rect.top + 12))
        self.connect_button.draw(surface)
        passcode = self.fields["passcode"]
        w.draw_text_block(surface, t("connect.passcode_hint"), 14,
                          pygame.Rect(passcode.left, passcode.bottom + 6, max(passcode.width, 420), 40), w.DIM)
        if self.message:
            colour = w.STATE_COLOURS["lost"] if self.message_bad else w.DIM
            label = w.text(self.message, 18, colour)
            surface.blit(label, label.get_rect(midtop=(w.DESIGN[0] // 2, 500)))
        self._draw_boards(surface)

    def _draw_boards(self, surface) -> None:
        self.board_buttons = []
        if self.discovery is None or not self.discovery.available:
            note = w.text("Поиск табло в сети: нужен пакет zeroconf (необязательно)", 14, w.DIM)
            surface.blit(note, note.get_rect(midbottom=(w.DESIGN[0] // 2, w.DESIGN[1] - 14)))
            return
        boards = self.discovery.boards()[:4]
        surface.blit(w.text("Найдены в сети:" if boards else "Ищем табло в сети…", 16, w.DIM), (786, 108))
        for i, board in enumerate(boards):
            button = w.Button(pygame.Rect(786, 130 + i * 66, 220, 56), board[0], "seat", board)
            button.draw(surface)
            self.board_buttons.append(button)
