"""Each game's protocol (протокол боя) kept with its result in the tournament file (issue 27 item 1).

What is kept is the protocol itself — its JSON, with the journal's digest — not a path to the journal: the tournament
file copied to the organiser's laptop still prints every game's protocol though the boards' journals stayed behind.
A result recorded from a journal gets its protocol at once; a result typed by hand has none. A file made before
protocols gets the table on its first protocol (nothing else in it changes).

The HTML export writes each kept protocol as its own self-contained page beside the export and links each game to it.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from scoreboard.labels import text_for
from scoreboard.protocol import ProtocolError, build, from_json, render
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.store import Store, now_iso

TABLE = ("CREATE TABLE IF NOT EXISTS protocols(game TEXT PRIMARY KEY REFERENCES games(id), digest TEXT NOT NULL, "
         "protocol TEXT NOT NULL, journal TEXT, recorded_at TEXT NOT NULL)")


def attach(store: Store, flow, game_id: str, journal_path) -> dict:
    """Build the protocol of `game_id` from its journal and keep it (replacing an earlier one); the model."""
    if store.game(game_id) is None:
        raise TournamentError(f"no game {game_id!r}")
    try:
        model = build(journal_path)
    except ProtocolError as error:
        raise TournamentError(str(error)) from None
    return keep(store, flow, game_id, model, str(journal_path))


def keep(store: Store, flow, game_id: str, model: dict, journal: str) -> dict:
    """Keep `model` as `game_id`'s protocol (replacing an earlier one), its header naming this file's tournament,
    game and stage; `journal`: where it came from (a path on this machine, or which board sent it)."""
    game = store.game(game_id)
    if game is None:
        raise TournamentError(f"no game {game_id!r}")
    stage = store.stage(game["stage"])
    model["header"].update(tournament=text_for("ru")(flow.TITLE), game=game_id,
                           stage=stage["id"] if stage else model["header"].get("stage"))
    with store.tx() as db:
        db.execute(TABLE)
        db.execute("INSERT OR REPLACE INTO protocols(game, digest, protocol, journal, recorded_at) "
                   "VALUES (?, ?, ?, ?, ?)", (game_id, model["journal"]["digest"],
                                               json.dumps(model, ensure_ascii=False), journal, now_iso()))
        store.audit("protocol", {"game": game_id, "digest": model["journal"]["digest"]})
    return model


def kept(store: Store) -> dict[str, dict]:
    """Every kept protocol by game id (a file without the table has none)."""
    try:
        rows = store.db.execute("SELECT game, protocol FROM protocols ORDER BY game").fetchall()
    except Exception as error:   # sqlite3.OperationalError: no such table — a file from before protocols
        if "no such table" in str(error):
            return {}
        raise
    return {row[0]: from_json(row[1], f"{store.path}: protocol of {row[0]}") for row in rows}


def get(store: Store, game_id: str) -> dict | None:
    return kept(store).get(game_id)


def file_name(game_id: str) -> str:
    """A game id as a file name («1/9-3» → «1-9-3.html»)."""
    return re.sub(r"[^0-9A-Za-z_-]+", "-", game_id).strip("-") + ".html"


def write_beside(store: Store, out: Path) -> dict[str, str]:
    """Write every kept protocol as HTML into `<out's stem>-protocols/` beside `out`; game id → relative link."""
    protocols = kept(store)
    if not protocols:
        return {}
    folder = out.parent / f"{out.stem}-protocols"
    folder.mkdir(parents=True, exist_ok=True)
    links = {}
    for game_id, model in protocols.items():
        (folder / file_name(game_id)).write_text(render(model, "html"), encoding="utf-8")
        links[game_id] = f"{folder.name}/{file_name(game_id)}"
    return links
