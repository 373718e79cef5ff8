"""The set-up draft: what the host has chosen before the game, checked against the board's catalogue.

Pure (no pygame, no network), so the checks are tested on their own: a name too long or empty, a pack that does
not load, a stage the pack cannot fill (G3), the topics still to choose when a pack round holds more than the stage
needs. The commands it makes are the ordinary ones (`/sg/game/new`, `/sg/player/name`, `/sg/pack/load`,
`/sg/chooser`, `/sg/game/start`); the board applies or refuses each.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from .strings import t

MAX_NAME = 80


def parse_catalog(text: str) -> dict | None:
    """The board's `/sg/setup/catalog` JSON with only well-shaped entries kept; None when it is not a catalogue."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("regulations"), list) \
            or not isinstance(data.get("packs"), list):
        return None

    def good_reg(r) -> bool:
        return isinstance(r, dict) and isinstance(r.get("name"), str) and isinstance(r.get("stages"), list) and all(
            isinstance(s, dict) and isinstance(s.get("name"), str) and isinstance(s.get("rounds"), list) and all(
                isinstance(x, dict) and isinstance(x.get("topics"), int) for x in s["rounds"]) for s in r["stages"]) \
            and isinstance(r.get("players"), dict) and all(isinstance(r["players"].get(k), int)
                                                             for k in ("min", "max", "default"))

    def good_pack(p) -> bool:
        return isinstance(p, dict) and isinstance(p.get("path"), str) and isinstance(p.get("rounds"), list) and all(
            isinstance(r, dict) and isinstance(r.get("topics"), (list, int)) for r in p["rounds"]) and all(
            isinstance(p.get(k), list) for k in ("warnings", "errors"))

    next_game = data.get("next_game")
    return {"regulations": [r for r in data["regulations"] if good_reg(r)],
            "packs": [p for p in data["packs"] if good_pack(p)],
            "problems": [str(p) for p in data.get("problems") or [] if isinstance(p, str)],
            "pack_dirs": [str(d) for d in data.get("pack_dirs") or [] if isinstance(d, str)],
            "next_game": next_game if isinstance(next_game, dict) else None,
            "truncated": bool(data.get("truncated"))}


def topic_count(round_: dict) -> int:
    topics = round_.get("topics")
    return topics if isinstance(topics, int) else len(topics)


@dataclass
class Draft:
    regulation: str = ""
    stage: str = ""
    seats: int = 3
    names: dict[int, str] = field(default_factory=dict)     # typed names, seat → name
    pack: str | None = None                                  # a path from the catalogue; None: no pack (P3)
    topics: dict[int, list[int]] = field(default_factory=dict)   # pack round (0-based) → chosen topics (0-based)
    chooser: int | None = None                               # G5 host's pick

    # ---- what the catalogue says --------------------------------------------------------------------
    @staticmethod
    def find_regulation(catalog: dict | None, name: str) -> dict | None:
        return next((r for r in (catalog or {}).get("regulations") or [] if r["name"] == name), None)

    def stage_rounds(self, catalog: dict | None) -> list[int]:
        """Topics per round the stage needs (G3), [] when the regulation or stage is unknown."""
        reg = self.find_regulation(catalog, self.regulation)
        stage = next((s for s in (reg or {}).get("stages") or [] if s["name"] == self.stage), None)
        return [int(r.get("min_topics") if r.get("open_size") else r["topics"]) for r in (stage or {}).get("rounds", [])]

    def find_pack(self, catalog: dict | None) -> dict | None:
        return next((p for p in (catalog or {}).get("packs") or [] if p["path"] == self.pack), None)

    @staticmethod
    def pack_problem(pack: dict, needs: list[int]) -> str | None:
        """Why this pack cannot play this stage (it does not load; G3: too few rounds or topics), else None."""
        if not pack.get("ok", not pack["errors"]):
            return t("setup.pack.errors", first=(pack["errors"] or ["?"])[0])
        rounds = pack["rounds"]
        if len(rounds) < len(needs):
            return t("setup.pack.short", why=f"{len(rounds)} / {len(needs)} раунд.")
        for index, need in enumerate(needs):
            if topic_count(rounds[index]) < need:
                return t("setup.pack.short", why=f"раунд {index + 1}: {topic_count(rounds[index])} / {need}")
        return None

    def choices_needed(self, catalog: dict | None) -> list[tuple[int, int, int]]:
        """(pack round, need, have) for each round that holds more topics than the stage plays."""
        pack, needs = self.find_pack(catalog), self.stage_rounds(catalog)
        if pack is None or self.pack_problem(pack, needs):
            return []
        return [(r, need, topic_count(pack["rounds"][r])) for r, need in enumerate(needs)
                if topic_count(pack["rounds"][r]) > need]

    def choices_complete(self, catalog: dict | None) -> bool:
        return all(len(self.topics.get(r, [])) == need for r, need, _ in self.choices_needed(catalog))

    def toggle_topic(self, catalog: dict | None, round_index: int, topic: int) -> None:
        need = dict((r, n) for r, n, _ in self.choices_needed(catalog)).get(round_index)
        if need is None:
            return
        chosen = self.topics.setdefault(round_index, [])
        if topic in chosen:
            chosen.remove(topic)
        elif len(chosen) < need:
            chosen.append(topic)

    @staticmethod
    def name_problem(seat: int, name: str) -> str | None:
        if not name.strip():
            return t("setup.name.empty", seat=seat)
        if len(name) > MAX_NAME:
            return t("setup.name.long", max=MAX_NAME)
        return None

    # ---- commands -------------------------------------------------------------------------------------
    def game_new(self) -> tuple[str, tuple]:
        return "/sg/game/new", (self.regulation, self.stage, self.seats)

    def name_commands(self) -> list[tuple[str, tuple]]:
        return [("/sg/player/name", (seat, name)) for seat, name in sorted(self.names.items())
                if seat <= self.seats and not self.name_problem(seat, name)]

    def pack_command(self, catalog: dict | None) -> tuple[str, tuple] | None:
        """`/sg/pack/load path [R.N…]`: the topics listed only when the host chose some (else the first ones)."""
        if self.pack is None:
            return None
        needed = self.choices_needed(catalog)
        if not needed or not self.choices_complete(catalog):
            return "/sg/pack/load", (self.pack,)
        pack, picks = self.find_pack(catalog), []
        for r, need in enumerate(self.stage_rounds(catalog)):
            chosen = self.topics.get(r) if r in dict((x, n) for x, n, _ in needed) else list(range(need))
            picks += [f"{r + 1}.{topic + 1}" for topic in chosen]
        return "/sg/pack/load", (pack["path"], *picks)
