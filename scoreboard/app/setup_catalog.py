"""The set-up catalogue: what the host can choose from before a game (docs/PROTOCOL.md, `/sg/setup/catalog` (ext)).

The board answers a host session with the regulations and their stages (the presets and a club's own, every
`config/regulations/*.toml`), the packs it finds in its pack folders (`[packs] dirs`), each with its title,
format, rounds, topics and what `pack check` warns about, the problems with the folders themselves, and the
tournament's next game when `[tournament] file` is set. Packs are read through `scoreboard.packs` (the same
loader and validator as `/sg/pack/load` and `pack check`) and remembered by path, size and mtime, so a second
listing reads no pack again. Nothing here changes the game: the remote sends the ordinary commands.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

from scoreboard.engine.regulation import RegulationError
from scoreboard.packs import ERROR, WARNING, PackError, load
from scoreboard.folders import packs_folder
from scoreboard.regulations import known_regulations, load_regulation
from scoreboard.tournament import board_link

PACK_SUFFIXES = (".toml", ".siq", ".txt")
MAX_PACKS = 200          # a folder of thousands of files must not stall the listing
MAX_DEPTH = 2            # packs/<name>.toml and packs/<folder>/<name>.toml (a TOML pack beside its media)
MAX_WARNINGS = 20        # per pack; the count of the rest is given


def regulations(directory: Path | None = None) -> tuple[list[dict], list[str]]:
    """Every regulation with its stages; a preset that does not parse is a problem, not an entry."""
    found, problems = [], []
    for name in known_regulations(directory):
        try:
            reg = load_regulation(name, directory)
        except RegulationError as error:
            problems.append(f"{name}: {'; '.join(error.problems[:3])}")
            continue
        stages = [{"name": spec.name, "final": spec.final,
                   "rounds": [{"kind": r.kind, "topics": r.topics, "min_topics": r.min_topics,
                               "open_size": r.open_size} for r in spec.rounds]}
                  for spec in reg.stages.values()]
        found.append({"name": reg.name, "title": reg.title, "order": reg.order,
                      "first_chooser": reg.first_chooser, "next_chooser": reg.next_chooser,
                      "players": {"min": reg.players_min, "max": reg.players_max, "default": reg.players_default},
                      "final": reg.final_kind, "stages": stages})
    return found, problems


def describe_pack(path: str) -> dict:
    """One pack as the catalogue lists it: loads (errors) or not, what it holds, what `pack check` warns about."""
    entry = {"path": path, "file": os.path.basename(path), "title": "", "format": "", "rounds": [],
             "final": None, "extra": 0, "questions": 0, "warnings": [], "errors": [], "ok": False}
    try:
        loaded = load(path)
    except PackError as error:
        entry["errors"] = [line for line in str(error).splitlines() if line][:MAX_WARNINGS]
        return entry
    except (OSError, ValueError) as error:   # unreadable mid-way, or a reader's own fault: listed, never fatal
        entry["errors"] = [f"{path}: {error}"]
        return entry
    pack = loaded.pack
    entry.update(title=pack.title or os.path.basename(path), format=loaded.format,
                 rounds=[{"name": r.name, "topics": [t.name for t in r.topics]} for r in pack.rounds],
                 final=pack.final.topic if pack.final else None, extra=len(pack.extra),
                 questions=sum(len(t.questions) for r in pack.rounds for t in r.topics))
    errors = [i.text() for i in loaded.issues if i.level == ERROR]
    warnings = [i.text() for i in loaded.issues if i.level == WARNING]
    entry["errors"] = errors[:MAX_WARNINGS] + ([f"… +{len(errors) - MAX_WARNINGS}"] if len(errors) > MAX_WARNINGS else [])
    entry["warnings"] = warnings[:MAX_WARNINGS] + (
        [f"… +{len(warnings) - MAX_WARNINGS}"] if len(warnings) > MAX_WARNINGS else [])
    # A pack with a broken topic still plays its other topics (packs/plan.py); only a pack-wide error stops it.
    entry["ok"] = bool(pack.rounds) and not any(i.level == ERROR and i.round is None for i in loaded.issues)
    return entry


class PackShelf:
    """The packs in the board's pack folders, each read once per (size, mtime)."""

    def __init__(self, dirs: list[str]) -> None:
        self.dirs = [str(d) for d in dirs]
        self._cache: dict[str, tuple[tuple[int, int], dict]] = {}
        self._lock = threading.Lock()   # two sessions asking at once read each pack once
        self.reads = 0                  # how many packs were actually read (the cache's test)

    def _files(self) -> tuple[list[str], list[str]]:
        files, problems = [], []
        for folder in self.dirs:
            if not os.path.isdir(folder):
                problems.append(f"{folder}: " + ("not a folder" if os.path.exists(folder) else "no such folder"))
                continue
            try:
                for root, subdirs, names in os.walk(folder, onerror=lambda e: problems.append(
                        f"{e.filename}: cannot read ({e.strerror})")):
                    depth = os.path.relpath(root, folder).count(os.sep) + (root != folder)
                    if depth >= MAX_DEPTH - 1:
                        subdirs[:] = []
                    subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
                    files += [os.path.join(root, n) for n in sorted(names)
                              if n.lower().endswith(PACK_SUFFIXES) and not n.startswith(".")]
            except OSError as error:
                problems.append(f"{folder}: cannot read ({error.strerror or error})")
        if len(files) > MAX_PACKS:
            problems.append(f"{len(files)} pack files; only the first {MAX_PACKS} are listed")
            files = files[:MAX_PACKS]
        return files, problems

    def scan(self) -> tuple[list[dict], list[str]]:
        files, problems = self._files()
        packs = []
        with self._lock:
            for path in files:
                try:
                    stat = os.stat(path)
                except OSError as error:
                    problems.append(f"{path}: cannot read ({error.strerror})")
                    continue
                key = (stat.st_size, stat.st_mtime_ns)
                cached = self._cache.get(path)
                if cached is None or cached[0] != key:
                    self.reads += 1
                    cached = (key, describe_pack(path))
                    self._cache[path] = cached
                packs.append(cached[1])
            for gone in set(self._cache) - set(files):
                del self._cache[gone]
        return packs, problems


def next_game(tournament_file: str) -> dict | None:
    """The tournament's next game for «next game», or {"error": reason}; None without a tournament file."""
    if not tournament_file:
        return None
    try:
        found = board_link.next_game(tournament_file)
    except AttributeError:
        return {"error": "this build's tournament module has no next_game"}
    except Exception as error:   # a missing or damaged file: the remote says why instead of offering a game
        return {"error": f"{tournament_file}: {error}"}
    if found is None:
        return {"error": "every drawn game has its result (advance and draw the next stage)"}
    return {"game": found["game"], "regulation": found["regulation"], "stage": found["stage"],
            "seats": [{"seat": s["seat"], "name": s["name"]} for s in found["seats"]],
            "topics": list(found.get("topics") or [])}


class Catalog:
    """The board's answer to `/sg/setup/catalog`: built fresh each time, packs from the shelf's cache."""

    def __init__(self, config: dict, regulations_dir: Path | None = None) -> None:
        self.config = config
        self.regulations_dir = regulations_dir
        self.shelf = PackShelf(list((config.get("packs") or {}).get("dirs") or [str(packs_folder())]))

    def build(self, only: str | None = None) -> dict:
        regs, reg_problems = regulations(self.regulations_dir)
        packs, problems = self.shelf.scan()
        if only is not None:
            packs = [p for p in packs if p["path"] == only]
            if not packs:
                problems.append(f"{only}: not a pack in the pack folders")
        tournament = self.config.get("tournament") or {}
        return {"version": 1, "regulations": regs, "regulation_problems": reg_problems, "packs": packs,
                "pack_dirs": list(self.shelf.dirs), "problems": problems,
                "next_game": next_game(tournament.get("file") or "")}
