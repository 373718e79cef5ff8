"""The set-up screens, shown while the board is in `setup`: game (regulation, stage, seats, the tournament's next
game), players (names, typed on the on-screen or a hardware keyboard), pack (the board's list, topics), start.

What the host picks is sent at once as the ordinary commands, one after another (each waits for the board's ack),
and the board's state and acks are what the screen shows: a refusal stops the chain and is said in words. Tabs and
buttons keep fixed places; what does not apply is drawn disabled.
"""
from __future__ import annotations

import pygame

from ..setup_model import Draft, topic_count
from ..strings import board_words, command, refusal, t
from . import widgets as w
from .keyboard import Keyboard

TOP = 54
TABS = ("game", "players", "pack", "start")
BODY = pygame.Rect(10, TOP + 60, 1004, 600 - TOP - 70)
PAGE_ROWS = 7


class SetupScreen:
    def __init__(self) -> None:
        self.catalog: dict | None = None
        self.draft = Draft()
        self.snapshot: dict = {}
        self.tab = "game"
        self.keyboard: Keyboard | None = None
        self.editing: int | None = None
        self.viewed: str | None = None          # the pack whose details are shown
        self.loaded: str | None = None          # the pack the board acked for this game
        self.message, self.message_bad = t("setup.catalog.wait"), False
        self.outbox: list[tuple[str, tuple]] = []
        self.chain: list[tuple[str, tuple]] = []
        self.inflight: tuple[str, tuple, int | None] | None = None
        self.buttons: list[w.Button] = []
        self.asked = False
        self.page = 0                           # of the pack list

    # ---- inputs ------------------------------------------------------------------------------------------
    def set_state(self, snapshot: dict) -> None:
        self.snapshot = snapshot or {}
        d = self.draft
        if not d.regulation:
            d.regulation, d.stage = str(self.snapshot.get("regulation") or ""), str(self.snapshot.get("stage") or "")
            d.seats = len(self.snapshot.get("players") or []) or d.seats
        if not self.asked:
            self.asked = True
            self.outbox.append(("/sg/setup/catalog", ()))

    def on_catalog(self, catalog: dict) -> None:
        self.catalog = catalog
        if self.message == t("setup.catalog.wait"):
            self.message = ""
        problems = catalog.get("problems") or []
        if problems:
            self.message, self.message_bad = t("setup.folder", problem=board_words(problems[0])), True

    def sent(self, address: str, args: tuple, command_id: int) -> None:
        if self.inflight is not None and self.inflight[:2] == (address, args) and self.inflight[2] is None:
            self.inflight = (address, args, command_id)

    def on_ack(self, ack) -> None:
        if self.inflight is None or self.inflight[2] != ack.id:
            return
        address, args, _ = self.inflight
        self.inflight = None
        if not ack.ok:
            self.chain = []
            self.message, self.message_bad = f"{t('ack.refused', what=_what(address), reason=refusal(ack.reason))}", True
            if address == "/sg/pack/load":
                self.draft.pack, self.loaded = None, None
            return
        if address == "/sg/game/new":
            self.loaded = None
        elif address == "/sg/pack/load":
            self.loaded = args[0]
        self.message, self.message_bad = t("ack.ok", what=_what(address)), False
        self._next()

    def _run(self, commands: list) -> None:
        self.chain = [c for c in commands if c is not None]
        self.message, self.message_bad = "", False
        self._next()

    def _next(self) -> None:
        if self.chain and self.inflight is None:
            address, args = self.chain.pop(0)
            self.inflight = (address, args, None)
            self.outbox.append((address, args))
            self.message = t("setup.busy", what=_what(address))

    def _renew(self) -> None:
        """A new regulation, stage or seat count: a new game, then what the host typed and chose again."""
        self._run([self.draft.game_new(), *self.draft.name_commands(), self.draft.pack_command(self.catalog)])

    # ---- events ------------------------------------------------------------------------------------------
    def handle(self, event) -> None:
        if self.keyboard is not None:
            outcome = self.keyboard.handle(event)
            if outcome == "cancel":
                self.keyboard = self.editing = None
            elif outcome == "done":
                name, seat = self.keyboard.value.strip(), self.editing
                problem = self.draft.name_problem(seat, name)
                if problem:
                    self.message, self.message_bad = problem, True
                    return
                self.draft.names[seat] = name
                self.keyboard = self.editing = None
                self._run([("/sg/player/name", (seat, name))])
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.layout()
            for button in self.buttons:
                if button.hit(event.pos):
                    self.tap(*button.payload)
                    return

    def tap(self, kind: str, value) -> None:
        d = self.draft
        if kind == "tab":
            self.tab = value
        elif kind == "page":
            self.page = max(0, self.page + value)
        elif kind == "refresh":
            self.outbox.append(("/sg/setup/catalog", ()))
        elif kind == "regulation":
            reg = d.find_regulation(self.catalog, value)
            d.regulation = value
            names = [s["name"] for s in reg["stages"]]
            d.stage = d.stage if d.stage in names else names[0]
            d.seats = min(max(d.seats, reg["players"]["min"]), reg["players"]["max"])
            d.topics = {}
            self._renew()
        elif kind == "stage":
            d.stage, d.topics = value, {}
            self._renew()
        elif kind == "seats":
            d.seats = value
            d.chooser = None if (d.chooser or 0) > value else d.chooser
            self._renew()
        elif kind == "next_game":
            game = self.catalog["next_game"]
            d.regulation, d.stage, d.seats = game["regulation"], game["stage"], len(game["seats"])
            d.names = {s["seat"]: s["name"] for s in game["seats"]}
            self._run([("/sg/setup/game", (str(game["game"]),))])
        elif kind == "name":
            self.editing = value
            self.keyboard = Keyboard(t("setup.name.edit", seat=value), d.names.get(value, ""))
        elif kind == "pack":
            self.viewed = value
            d.pack, d.topics = value, {}
            pack = d.find_pack(self.catalog)
            if value is None:
                if self.loaded is not None:   # a loaded pack goes only with a new game
                    self.loaded = None
                    self._run([d.game_new(), *d.name_commands()])
            elif (problem := d.pack_problem(pack, d.stage_rounds(self.catalog))) is not None:
                d.pack = None
                self.message, self.message_bad = problem, True
            else:
                self._run([d.pack_command(self.catalog)])
        elif kind == "topic":
            d.toggle_topic(self.catalog, *value)
            if d.choices_complete(self.catalog):
                self._run([d.pack_command(self.catalog)])
        elif kind == "chooser":
            d.chooser = None if d.chooser == value else value
        elif kind == "start":
            self._run([("/sg/chooser", (d.chooser,)) if d.chooser else None, ("/sg/game/start", ())])

    # ---- layout --------------------------------------------------------------------------------------------
    def _regulation(self) -> dict | None:
        return self.draft.find_regulation(self.catalog, self.draft.regulation)

    def player_name(self, seat: int) -> str:
        if seat in self.draft.names:
            return self.draft.names[seat]
        players = {p.get("seat"): p.get("name") for p in self.snapshot.get("players") or []}
        return str(players.get(seat) or f"Игрок {seat}")

    def layout(self) -> None:
        self.buttons = []
        add = self.buttons.append
        for i, tab in enumerate(TABS):
            add(w.Button(pygame.Rect(10 + i * 136, TOP, 128, 50), t(f"setup.tab.{tab}"),
                         "right" if tab == self.tab else "tools", ("tab", tab)))
        busy = self.inflight is not None
        if self.catalog is None:
            add(w.Button(pygame.Rect(10, BODY.top + 40, 300, 56), t("setup.catalog.ask"), "flow", ("refresh", None)))
            return
        getattr(self, f"_layout_{self.tab}")(add, busy)

    def _column(self, add, x: int, width: int, items, selected, kind: str, busy: bool, top: int | None = None):
        for i, (label, value, enabled) in enumerate(items[:PAGE_ROWS]):
            rect = pygame.Rect(x, (top or BODY.top + 30) + i * 62, width, 56)
            add(w.Button(rect, label, "right" if value == selected else "seat", (kind, value), enabled and not busy))

    def _layout_game(self, add, busy: bool) -> None:
        regs = self.catalog["regulations"]
        self._column(add, 10, 330, [(r["name"], r["name"], True) for r in regs], self.draft.regulation,
                     "regulation", busy)
        reg = self._regulation()
        stages = [(s["name"], s["name"], True) for s in (reg or {}).get("stages", [])]
        self._column(add, 350, 250, stages, self.draft.stage, "stage", busy)
        low, high = ((reg or {}).get("players") or {}).get("min", 2), ((reg or {}).get("players") or {}).get("max", 4)
        self._column(add, 610, 120, [(str(n), n, low <= n <= high) for n in range(2, 5)], self.draft.seats,
                     "seats", busy)
        game = self.catalog.get("next_game")
        if game and "game" in game:
            names = ", ".join(s["name"] for s in game["seats"])
            add(w.Button(pygame.Rect(740, BODY.top + 30, 274, 118),
                         t("setup.next_game.button", game=game["game"], names=names), "flow", ("next_game", None),
                         not busy))

    def _layout_players(self, add, busy: bool) -> None:
        for seat in range(1, self.draft.seats + 1):
            rect = pygame.Rect(10, BODY.top + 10 + (seat - 1) * 66, 1004, 58)
            add(w.Button(rect, f"{seat}. {self.player_name(seat)}", "seat", ("name", seat), not busy))

    def _layout_pack(self, add, busy: bool) -> None:
        packs = self.catalog["packs"]
        needs = self.draft.stage_rounds(self.catalog)
        items = [(t("setup.no_pack"), None, True)] + [
            (("✗ " if not p.get("ok") else "⚠ " if p["warnings"] else "") + (p.get("title") or p.get("file") or
                                                                              p["path"]), p["path"], True)
            for p in packs]
        pages = max(1, -(-len(items) // (PAGE_ROWS - 1)))
        self.page = min(self.page, pages - 1)
        shown = items[self.page * (PAGE_ROWS - 1):(self.page + 1) * (PAGE_ROWS - 1)]
        self._column(add, 10, 420, shown, self.draft.pack, "pack", busy, top=BODY.top + 10)
        # paging keeps its two slots whether or not there is another page (a button never moves)
        bottom = BODY.top + 10 + (PAGE_ROWS - 1) * 62
        add(w.Button(pygame.Rect(10, bottom, 206, 56), "◀", "tools", ("page", -1), self.page > 0))
        add(w.Button(pygame.Rect(224, bottom, 206, 56), "▶", "tools", ("page", 1), self.page < pages - 1))
        needed = self.draft.choices_needed(self.catalog)
        pack = self.draft.find_pack(self.catalog)
        if pack is None or not needed:
            return
        r, need, have = self._choosing(needed)
        names = pack["rounds"][r]["topics"]
        names = names if isinstance(names, list) else [str(i + 1) for i in range(have)]
        chosen = self.draft.topics.get(r, [])
        for i, name in enumerate(names[:12]):
            rect = pygame.Rect(440 + (i % 3) * 193, BODY.top + 200 + (i // 3) * 60, 187, 54)
            add(w.Button(rect, name, "right" if i in chosen else "seat", ("topic", (r, i)), not busy))
        del needs

    def _choosing(self, needed: list[tuple[int, int, int]]) -> tuple[int, int, int]:
        """The pack round whose topics the host is choosing: the first not complete, else the last."""
        return next((n for n in needed if len(self.draft.topics.get(n[0], [])) < n[1]), needed[-1])

    def _layout_start(self, add, busy: bool) -> None:
        reg = self._regulation() or {}
        if reg.get("first_chooser") == "host" and reg.get("order") != "sequential":
            for seat in range(1, self.draft.seats + 1):
                rect = pygame.Rect(10 + (seat - 1) * 251, BODY.top + 250, 243, 56)
                add(w.Button(rect, self.player_name(seat), "right" if self.draft.chooser == seat else "seat",
                             ("chooser", seat), not busy))
        add(w.Button(pygame.Rect(10, BODY.bottom - 84, 1004, 80), t("setup.start"), "right", ("start", None),
                     not busy))

    # ---- drawing -----------------------------------------------------------------------------------------------
    def draw(self, surface) -> None:
        if self.keyboard is not None:
            self.keyboard.draw(surface)
            self._draw_message(surface, pygame.Rect(300, 62, 560, 40))
            return
        self.layout()
        for button in self.buttons:
            button.draw(surface)
        self._draw_message(surface, pygame.Rect(560, TOP + 4, 454, 44))
        if self.catalog is not None:
            getattr(self, f"_draw_{self.tab}", lambda s: None)(surface)

    def _draw_message(self, surface, rect: pygame.Rect) -> None:
        if self.message:
            tint = w.STATE_COLOURS["lost"] if self.message_bad else w.DIM
            w.draw_text_block(surface, self.message, 16, rect, tint, max_lines=2)

    def _heading(self, surface, x: int, label: str) -> None:
        surface.blit(w.text(label, 18, w.ACCENT), (x, BODY.top + 4))

    def _draw_game(self, surface) -> None:
        self._heading(surface, 10, t("setup.regulation"))
        self._heading(surface, 350, t("setup.stage"))
        self._heading(surface, 610, t("setup.seats"))
        game = self.catalog.get("next_game")
        if game:
            self._heading(surface, 740, t("setup.next_game"))
            if "error" in game:
                w.draw_text_block(surface, t("setup.next_game.none", reason=game["error"]), 15,
                                  pygame.Rect(740, BODY.top + 30, 274, 160), w.DIM)
        reg = self._regulation()
        if reg:
            w.draw_text_block(surface, reg.get("title", ""), 16, pygame.Rect(10, BODY.bottom - 40, 1004, 40), w.DIM)

    def _draw_pack(self, surface) -> None:
        d = self.draft
        detail = pygame.Rect(440, BODY.top + 10, 574, 180)
        viewed = next((p for p in self.catalog["packs"] if p["path"] == self.viewed), None)
        if not self.catalog["packs"]:
            dirs = ", ".join(self.catalog.get("pack_dirs") or [])
            w.draw_text_block(surface, t("setup.pack.none_found", dirs=dirs), 18, detail, w.DIM)
        if viewed is None:
            if d.pack is None and self.viewed is None and self.catalog["packs"]:
                return
            if d.pack is None:
                w.draw_text_block(surface, t("setup.no_pack.note"), 18, detail, w.ACCENT)
            return
        rounds = viewed["rounds"]
        lines = [viewed.get("title") or viewed["file"], viewed["file"],
                 t("setup.pack.summary", format=viewed.get("format") or "?", rounds=len(rounds),
                   topics=sum(topic_count(r) for r in rounds), questions=viewed.get("questions", 0))]
        for r in rounds[:3]:
            topics = r["topics"] if isinstance(r["topics"], list) else []
            lines.append(f"{r.get('name', '')}: {', '.join(topics)}")
        for error in viewed["errors"][:3]:
            lines.append(t("setup.pack.errors", first=error))
        if viewed["warnings"]:
            lines.append(t("setup.pack.warnings", count=len(viewed["warnings"])) + ": " + viewed["warnings"][0])
        if self.loaded == viewed["path"]:
            lines.append(t("setup.pack.loaded", title=viewed.get("title") or viewed["file"]))
        y = detail.top
        for i, line in enumerate(lines):
            tint = w.ACCENT if i == 0 else w.STATE_COLOURS["lost"] if line.startswith(
                t("setup.pack.errors", first="")[:6]) else w.TEXT
            y = w.draw_text_block(surface, line, 18 if i == 0 else 15, pygame.Rect(detail.left, y, detail.width,
                                                                                   detail.bottom - y), tint,
                                  max_lines=2)
        needed = d.choices_needed(self.catalog)
        if needed:
            r, need, have = self._choosing(needed)
            label = t("setup.pack.choose_topics", round=r + 1, need=need, have=have)
            if d.choices_complete(self.catalog):
                label = t("setup.pack.topics_done")
            surface.blit(w.text(label, 17, w.ACCENT), (440, BODY.top + 176))

    def _draw_start(self, surface) -> None:
        d = self.draft
        pack = d.find_pack(self.catalog)
        lines = [t("setup.ready", reg=d.regulation, stage=d.stage, seats=d.seats),
                 ", ".join(self.player_name(s) for s in range(1, d.seats + 1))]
        if pack is None or self.loaded != d.pack:
            lines.append(t("setup.no_pack.note"))
        else:
            lines.append(t("setup.pack.loaded", title=pack.get("title") or pack["file"]))
        y = BODY.top + 10
        for i, line in enumerate(lines):
            y = w.draw_text_block(surface, line, 20, pygame.Rect(10, y, 1004, 200), w.ACCENT if i != 1 else w.TEXT,
                                  max_lines=3) + 6
        reg = self._regulation() or {}
        note = {"host": t("setup.chooser.later"), "lot": t("setup.chooser.lot"),
                "lowest_score": t("setup.chooser.lowest")}.get(reg.get("first_chooser"), "")
        surface.blit(w.text(f"{t('setup.chooser')}: {note}", 18, w.DIM), (10, BODY.top + 222))


def _what(address: str) -> str:
    return command(address)
