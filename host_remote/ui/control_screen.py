"""The play screen: the board's state on the left, the buttons the current phase allows on the right.

It draws from the last snapshot and host question only and returns commands for the app to send; it never guesses
the outcome of a command (the board's next state shows it). Layout, in 1024×600 design space:

    +---------------------------------------------------------------------------+
    | ● connected  board 10.0.0.5:9000   rev 57   Ответ игрока   last ack: ok   |
    +-------------------------------+-------------------------------------------+
    | Topic · value                 | grid of unplayed cells (choice mode)      |
    | question text …               |   or the big buttons of the phase         |
    | ANSWER · accepts · comment    | per-seat buttons (assign, bids, stakes)   |
    | scores (chooser, answering)   | tools: ± score, undo, manual, pause       |
    +-------------------------------+-------------------------------------------+
"""
from __future__ import annotations

import time

import pygame

from scoreboard.engine.phases import Phase

from .. import actions as act
from ..undo_label import UndoLog
from . import photo_finish
from . import widgets as w
from .numpad import Numpad
from .setup_screen import SetupScreen

PHASE_LABELS = {
    "setup": "Подготовка", "round_intro": "Темы раунда", "choosing": "Выбор вопроса", "topic_intro": "Тема",
    "reading": "Чтение вопроса", "buzz_window": "Кнопки: 5 с", "answering": "Ответ игрока",
    "after_wrong": "После неверного", "reveal": "Ответ показан", "auction": "Аукцион",
    "auction_answer": "Ответ на аукционе", "final_stakes": "Финал: ставки", "final_answer": "Финал: ответы",
    "final_reveal": "Финал: вскрытие", "game_over": "Игра окончена",
}
STATE_LABELS = {"connected": "на связи", "retrying": "повтор…", "connecting": "подключение…", "lost": "нет связи",
                "denied": "отказ", "idle": "не подключено"}
HINTS = {"backspace": "⌫", "space": "пробел", "return": "Enter"}
SPECIAL_KINDS = {"judge_right": "right", "judge_wrong": "wrong", "final_start": "right"}

PRESS_FLASH = 0.3   # seconds a tapped button stays lit: the host sees the tap registered
LEFT = pygame.Rect(10, 54, 430, 536)
RIGHT = pygame.Rect(452, 54, 562, 536)


class ControlScreen:
    def __init__(self, board_label: str = "", view_only: bool = False) -> None:
        self.board_label = board_label
        self.view_only = view_only      # a `view` session: the board refuses its commands, so no buttons
        self.snapshot: dict | None = None
        self._question: dict | None = None
        self.connection = "idle"
        self.last_ack = ""
        self.last_ack_ok = True
        self.pending = 0
        self.rev = -1
        self.received_at = time.monotonic()
        self.pad: Numpad | None = None
        self.pad_action: act.Action | None = None
        self.buttons: list[w.Button] = []
        self.actions: list[act.Action] = []
        self._pressed: tuple[str, float] | None = None   # (action key, when): a brief flash under the thumb
        self.setup = SetupScreen()
        self.undo = UndoLog()

    @property
    def in_setup(self) -> bool:
        """The set-up screens replace the play screen while the board is in `setup` (a host session only)."""
        return not self.view_only and (self.snapshot or {}).get("phase") == Phase.SETUP

    @property
    def question(self) -> dict | None:
        return self._question

    @question.setter
    def question(self, value: dict | None) -> None:
        """The host's question: its photo finish may bring a «name instead» button (BZ11), so the buttons follow."""
        self._question = value
        self.layout()

    # ---- inputs ----------------------------------------------------------------------------------------------
    def set_state(self, snapshot: dict | None, rev: int = -1) -> None:
        self.snapshot = snapshot
        self.rev = rev
        self.received_at = time.monotonic()
        self.actions = [] if self.view_only else act.allowed_actions(snapshot)
        if self.in_setup:
            self.setup.set_state(snapshot)
        if self.pad_action is not None and act.find(self.actions, self.pad_action.key) is None:
            self.pad, self.pad_action = None, None   # the phase moved on under the pad: close it
        self.layout()

    def handle(self, event) -> tuple[str, tuple] | None:
        """One pygame event in design coordinates; returns a command to send, or None."""
        if self.in_setup:
            self.setup.handle(event)   # set-up commands leave through setup.outbox, one ack at a time
            return None
        if self.pad is not None:
            outcome = self.pad.handle(event)
            if outcome == "cancel":
                self.pad, self.pad_action = None, None
            elif outcome == "ok":
                action, number = self.pad_action, self.pad.number()
                self.pad, self.pad_action = None, None
                return action.command(number)
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for button in self.buttons:
                if button.hit(event.pos):
                    self._pressed = (button.payload.key, time.monotonic())
                    return self.trigger(button.payload)
        elif event.type == pygame.KEYDOWN:
            return self._shortcut(event)
        return None

    def trigger(self, action: act.Action) -> tuple[str, tuple] | None:
        if action.amount is None:
            return action.command()
        title = {"bid": "Аукцион", "stake": "Ставка в финале", "delta": "Поправка счёта"}[action.amount]
        self.pad = Numpad(f"{title}: {action.who or action.label}", signed=action.amount == "delta", low=action.low,
                          high=action.high)
        self.pad_action = action
        return None

    def _shortcut(self, event) -> tuple[str, tuple] | None:
        name = pygame.key.name(event.key)
        if event.key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
            name = "backspace"   # Ctrl+Z is undo, like everywhere else
        candidates = [a for a in self.actions if a.shortcut == name and a.enabled]
        if len(candidates) > 1:
            return None   # ambiguous (e.g. a digit with several seats): the host taps instead
        if candidates:
            return self.trigger(candidates[0])
        return None

    # ---- layout ------------------------------------------------------------------------------------------------
    def layout(self) -> None:
        self.buttons = []
        grid = [a for a in self.actions if a.group == act.GRID]
        flow = [a for a in self.actions if a.group == act.FLOW]
        seat = [a for a in self.actions if a.group == act.SEAT]
        if not self.view_only:
            seat += photo_finish.name_actions(self.question, self.snapshot)
            seat += photo_finish.hall_actions(self.question, self.snapshot)   # to the hall's screens and back
        tools = [a for a in self.actions if a.group == act.TOOLS]
        y = RIGHT.top + 34   # the phase line's place is kept even when it is empty: nothing below it moves
        if grid:
            y = self._layout_grid(grid, y)
        if flow:
            area = pygame.Rect(RIGHT.left, y, RIGHT.width, 200)
            height = 96 if len(flow) <= 3 else 64
            for action, rect in zip(flow, w.flow_rows(area, len(flow), height, min_width=170)):
                self._add(rect, action, SPECIAL_KINDS.get(action.key, "flow"))
            y = self.buttons[-1].rect.bottom + 12
        if seat:
            area = pygame.Rect(RIGHT.left, y, RIGHT.width, 200)
            # One row per player when each has several buttons (right/wrong; bid/all-in/pass), so that a
            # thumb never lands on the neighbour's verdict.
            per_seat = max(sum(1 for a in seat if a.seat == s) for s in {a.seat for a in seat})
            min_width = (RIGHT.width - 8 * (per_seat - 1)) // per_seat if 2 <= per_seat <= 4 else 170
            for action, rect in zip(seat, w.flow_rows(area, len(seat), 56, min_width=min_width)):
                kind = "right" if action.args[-1:] == ("right",) else "wrong" if action.args[-1:] == ("wrong",) else "seat"
                self._add(rect, action, kind)
        if tools:
            # «Отменить» takes the last two slots, bottom right (room for what it undoes); the rest fill from the top
            undo = [a for a in tools if a.key == "undo"]
            others = [a for a in tools if a.key != "undo"]
            rows = (len(others) + 2 * len(undo) + 3) // 4
            area = pygame.Rect(RIGHT.left, RIGHT.bottom - rows * 58 + 6, RIGHT.width, rows * 58)
            rects = w.flow_rows(area, rows * 4, 50, min_width=130)
            for action, rect in zip(others, rects):
                self._add(rect, action, "tools")
            if undo:
                self._add(rects[-2].union(rects[-1]), undo[0], "tools")

    def _layout_grid(self, grid: list[act.Action], y: int) -> int:
        topics = (self.snapshot or {}).get("round", {}).get("topics") or []
        rows = max(1, len(topics))
        size = max(5, max((len(t.get("cells") or []) for t in topics), default=5))
        row_h = min(56, (290 - 6 * rows) // rows)
        label_w = 130
        cell_w = (RIGHT.width - label_w - 6 * size) // size
        by_cell = {a.args[:2]: a for a in grid}
        for t in range(1, rows + 1):
            top = y + (t - 1) * (row_h + 6)
            for q in range(1, size + 1):
                action = by_cell.get((t, q))
                if action is not None:
                    rect = pygame.Rect(RIGHT.left + label_w + (q - 1) * (cell_w + 6), top, cell_w, row_h)
                    self._add(rect, action, "grid")
        return y + rows * (row_h + 6) + 8

    def _phase_info(self) -> str:
        """One line about the phase that the buttons alone do not say (auction stake, whose stakes are in)."""
        snap = self.snapshot or {}
        names = {p.get("seat"): p.get("name") or f"Игрок {p.get('seat')}" for p in snap.get("players") or []}
        phase = snap.get("phase")
        auction = snap.get("auction") or {}
        final = snap.get("final") or {}
        if phase == Phase.AUCTION and auction:
            line = f"Ставка {auction.get('stake')}" + (" (ва-банк)" if auction.get("allin") else "")
            line += f" · у {names.get(auction.get('holder'), '—')}"
            if auction.get("turn") is not None:
                line += f" · ход: {names.get(auction.get('turn'))}"
            return line
        if phase == Phase.AUCTION_ANSWER and auction:
            return f"Отвечает {names.get(snap.get('answering'), '—')} · ставка {auction.get('stake')}"
        if phase == Phase.FINAL_STAKES and final:
            waiting = [names.get(s, str(s)) for s in final.get("eligible") or [] if s not in (final.get("stakes_in") or [])]
            return "Ставки сделаны" if not waiting else "Ждём ставки: " + ", ".join(waiting)
        if phase == Phase.FINAL_REVEAL and final.get("revealed"):
            shown = [f"{names.get(r.get('seat'), r.get('seat'))} {r.get('stake', '')}"
                     f"{' ✓' if r.get('verdict') == 'right' else ' ✗' if r.get('verdict') == 'wrong' else ''}"
                     for r in final["revealed"] if isinstance(r, dict)]
            return "Открыты: " + ", ".join(shown)
        if phase in (Phase.ANSWERING, Phase.AFTER_WRONG) and snap.get("answering"):
            return f"Отвечает {names.get(snap.get('answering'))}"
        return ""

    def _add(self, rect, action: act.Action, kind: str) -> None:
        hint = HINTS.get(action.shortcut, action.shortcut) if action.shortcut and action.group != act.GRID else ""
        label, sub = action.label, ""
        if action.key == "undo":
            label, sub = self.undo.parts(self.snapshot) or (label, "")
            hint = "" if sub else hint
        self.buttons.append(w.Button(rect, label, kind, action, action.enabled, hint, sub))

    # ---- drawing -------------------------------------------------------------------------------------------------
    def draw(self, surface) -> None:
        surface.fill(w.BG)
        self._draw_status(surface)
        if self.in_setup:
            self.setup.draw(surface)
            return
        info = self._phase_info()
        if info:
            shown, size = w.fit_line(info, 22, RIGHT.width)
            w.put(surface, w.text(shown, size, w.ACCENT), (RIGHT.left, RIGHT.top + 2), RIGHT, shown)
        self._draw_question(surface)
        self._draw_scores(surface)
        self._draw_grid_labels(surface)
        for button in self.buttons:
            flash = self._pressed is not None and self._pressed[0] == button.payload.key and \
                time.monotonic() - self._pressed[1] < PRESS_FLASH
            button.draw(surface, pressed=flash)
        if self.snapshot is None:
            message = w.text("Ждём состояние табло…", 28, w.DIM)
            surface.blit(message, message.get_rect(center=RIGHT.center))
        if self.pad is not None:
            self.pad.draw(surface)

    def _draw_status(self, surface) -> None:
        bar = pygame.Rect(0, 0, w.DESIGN[0], 44)
        pygame.draw.rect(surface, w.PANEL, bar)
        colour = w.STATE_COLOURS.get(self.connection, w.DIM)
        pygame.draw.circle(surface, colour, (22, 22), 9)
        x = 38
        for piece, size, tint in ((STATE_LABELS.get(self.connection, self.connection), 20, colour),
                                  (self.board_label, 16, w.DIM),
                                  (f"rev {self.rev}" if self.rev >= 0 else "", 16, w.DIM)):
            if piece:
                surface.blit(w.text(piece, size, tint), (x, 22 - w.font(size).get_linesize() // 2))
                x += w.text(piece, size).get_width() + 18
        snap = self.snapshot or {}
        phase = PHASE_LABELS.get(snap.get("phase"), str(snap.get("phase") or ""))
        if snap.get("paused"):
            phase += " · ПАУЗА"
        if snap.get("buttons_manual"):
            phase += " · вручную"
        elif snap.get("buttons_live"):
            phase += " · кнопки ●"
        surface.blit(w.text(phase, 20, w.ACCENT), (x, 11))
        ack = self.last_ack + (f"  (ждут: {self.pending})" if self.pending else "")
        if ack:
            tint = w.STATE_COLOURS["connected"] if self.last_ack_ok else w.STATE_COLOURS["lost"]
            shown, size = w.fit_line(ack, 16, 330, minimum=12)
            label = w.text(shown, size, tint)
            surface.blit(label, label.get_rect(midright=(bar.right - 12, 22)))

    def _countdown(self) -> str:
        snap = self.snapshot or {}
        question = snap.get("question") or {}
        deadline = question.get("deadline")
        if snap.get("phase") == Phase.FINAL_ANSWER:   # FN2's 30 s, FN3's 20 s of writing
            deadline = (snap.get("final") or {}).get("deadline")
            if deadline is None:
                return ""
        if snap.get("time") is None:
            return ""
        now = snap.get("paused_at") if snap.get("paused") else snap["time"] + (time.monotonic() - self.received_at)
        if deadline is None:
            started = question.get("answer_started")
            # BZ5: no answer limit (novosibirsk, samara): the host sees how long the answer takes.
            return f"+{now - started:.0f} с" if started is not None and snap.get("phase") == Phase.ANSWERING else ""
        return f"{max(0.0, deadline - now):.1f} с"

    def _draw_question(self, surface) -> None:
        panel = pygame.Rect(LEFT.left, LEFT.top, LEFT.width, 370)
        pygame.draw.rect(surface, w.PANEL, panel, border_radius=10)
        inner = panel.inflate(-24, -20)
        photo = photo_finish.height(self.question, self.snapshot)   # the presses, under the question (BZ11)
        if photo:
            inner.height -= photo
            photo_finish.draw(surface, self.question, self.snapshot,
                              pygame.Rect(inner.left, inner.bottom + 8, inner.width, photo))
        snap = self.snapshot or {}
        meta = snap.get("question") or {}
        info = self.question or {}
        topics = (snap.get("round") or {}).get("topics") or []
        heading = ""
        if meta:
            topic = meta.get("topic")
            name = meta.get("topic_name") or (
                topics[topic - 1].get("name", "") if isinstance(topic, int) and 0 < topic <= len(topics) else "")
            heading = f"{name} · {meta.get('value', '')}"
            if meta.get("kind") == "auction":
                heading += " · аукцион"
        elif snap.get("final"):
            kind = "Супервопрос" if snap["final"].get("kind") == "super_question" else "Финал"
            heading = f"{kind} · {snap['final'].get('topic') or ''}".rstrip(" ·")
        elif snap.get("phase") == Phase.TOPIC_INTRO:
            index = (snap.get("round") or {}).get("topic")
            if isinstance(index, int) and 0 < index <= len(topics):
                heading = f"Тема: {topics[index - 1].get('name', index)}"
        y = inner.top
        if heading:
            countdown = self._countdown()
            room = inner.width - (90 if countdown else 0)
            shown, size = w.fit_line(heading, 20, room)
            w.put(surface, w.text(shown, size, w.ACCENT), (inner.left, y), pygame.Rect(inner.left, y, room, 30), shown)
            if countdown:
                label = w.text(countdown, 20, w.TEXT)
                surface.blit(label, (inner.right - label.get_width(), y))
            y += 30
        if not info:
            hint = "Вопрос появится здесь, когда он открыт." if snap else ""
            w.draw_text_block(surface, hint, 18, pygame.Rect(inner.left, y, inner.width, 60), w.DIM)
            return
        y = w.draw_text_block(surface, info.get("text") or "", 22,
                              pygame.Rect(inner.left, y, inner.width, inner.bottom - y - 110), max_lines=8) + 8
        answer = info.get("answer") or ""
        y = w.draw_text_block(surface, f"Ответ: {answer}", 22, pygame.Rect(inner.left, y, inner.width, 60),
                              w.ACCENT, max_lines=2)
        accepts = info.get("accepts") or []
        if accepts:
            y = w.draw_text_block(surface, "Зачёт: " + "; ".join(map(str, accepts)), 17,
                                  pygame.Rect(inner.left, y, inner.width, 44), w.TEXT, max_lines=2)
        comment = info.get("comment") or ""
        if comment:
            y = w.draw_text_block(surface, "Комментарий: " + comment, 15,
                                  pygame.Rect(inner.left, y, inner.width, inner.bottom - y), w.DIM, max_lines=3)
        if info.get("media"):
            kinds = ", ".join(str(m.get("kind", "?")) for m in info["media"] if isinstance(m, dict))
            y = w.draw_text_block(surface, f"Медиа на экране: {kinds}", 15,
                                  pygame.Rect(inner.left, y, inner.width, 20), w.ACCENT, max_lines=1)
        source = info.get("source") or ""
        if source and y < inner.bottom - 18:
            w.draw_text_block(surface, "Источник: " + source, 14, pygame.Rect(inner.left, y, inner.width, 20),
                              w.DIM, max_lines=1)

    def _draw_scores(self, surface) -> None:
        snap = self.snapshot or {}
        players = snap.get("players") or []
        area = pygame.Rect(LEFT.left, LEFT.top + 380, LEFT.width, LEFT.height - 380)
        if not players:
            return
        row_h = min(40, area.height // len(players))
        question = snap.get("question") or {}
        answers = question.get("answered") if question else (snap.get("last") or {}).get("answers") \
            if snap.get("phase") == Phase.REVEAL else []
        verdicts = {a.get("seat"): a.get("verdict") for a in answers or [] if isinstance(a, dict)}
        for i, player in enumerate(players):
            row = pygame.Rect(area.left, area.top + i * row_h, area.width, row_h - 4)
            seat = player.get("seat")
            answering = seat == snap.get("answering")
            pygame.draw.rect(surface, (60, 90, 60) if answering else w.PANEL, row, border_radius=8)
            marks = ("★ " if seat == snap.get("chooser") else "") + ("▶ " if answering else "")
            # BZ4: has had their answer — ✓ or ✗ as the verdict was
            verdict = verdicts.get(seat)
            marks += ("✓ " if verdict == "right" else "✗ ") if (verdict or player.get("answered")) and not answering else ""
            locked = player.get("locked_until")
            name = f"{seat}. {marks}{player.get('name') or ''}" + ("  ⛔" if locked else "")
            box = pygame.Rect(row.left + 10, row.top, area.width - 120, row.height)
            shown, size = w.fit_line(name, 20, box.width)
            w.put(surface, w.text(shown, size), (box.left, row.centery - w.font(size).get_linesize() // 2), box, shown)
            score = w.text(str(player.get("score", 0)), 24, w.ACCENT)
            surface.blit(score, score.get_rect(midright=(row.right - 12, row.centery)))

    def _draw_grid_labels(self, surface) -> None:
        if not any(a.group == act.GRID for a in self.actions):
            return
        topics = (self.snapshot or {}).get("round", {}).get("topics") or []
        rects = {b.payload.args[0]: b.rect for b in self.buttons if b.payload.group == act.GRID}
        for t, topic in enumerate(topics, start=1):
            rect = rects.get(t)
            if rect is None:
                continue
            label, size = w.fit_line(str(topic.get("name") or t), 18, 124, minimum=12)
            box = pygame.Rect(RIGHT.left, rect.top, 124, rect.height)
            w.put(surface, w.text(label, size), (RIGHT.left, rect.centery - w.font(size).get_linesize() // 2), box, label)
