"""JSON-able views of a tournament for the audience screen, and the board's setup of a scheduled game.

`screen_view(t, scene)` answers the board's `/sg/screen bracket|standings`; `screens.draw` draws what it returns.
Views carry data, never words: a label is `{"key": <theme string key>, field: value…}` (a field may be a label
itself), stage ids and column codes stay codes; the scene turns them into the board's language via the theme.
"""
from __future__ import annotations

import re

from scoreboard.tournament import flow_samara
from scoreboard.tournament.errors import TournamentError

CUP_NAMES = {"winter": "tn_cup_winter", "spring": "tn_cup_spring", "summer": "tn_cup_summer"}
TITLES = {"novosibirsk-2007": "tn_novosibirsk", "america-2005": "tn_america", "samara-2003": "tn_samara"}
# What decided a place at the line (ranking criterion names, as stored) -> theme string key.
CRITERIA = {"cup sum": "tn_by_cup_sum", "points in this round": "tn_by_round_points", "score": "tn_by_score",
            "players in the selection game": "tn_by_players", "questions answered right": "tn_by_right"}


def label(key: str, **fields) -> dict:
    """A piece of screen text as data: the theme string `key` with its fields."""
    return {"key": key, **fields}


def game_setup(t, game_id: str) -> dict:
    """What a board needs to play a scheduled game: `/sg/game/new` arguments, players by seat, topics."""
    game = t._game(game_id)
    stage = t.store.stage(game["stage"])
    seed = t.rng(f"game/{game_id}").randrange(2**31)
    topic_rows = {r["id"]: r["name"] for r in t.store.db.execute("SELECT id, name FROM topics")}
    return {"game": game_id, "regulation": t.format, "stage": stage["engine_stage"],
            "players": [{"seat": i + 1, "name": n} for i, n in enumerate(game["players"])],
            "topics": [{"id": x, "name": topic_rows.get(x, "?")} for x in game["topics"] or []],
            "seed": seed, "game_new": ["/sg/game/new", t.format, stage["engine_stage"], len(game["players"]), seed],
            "done": game["result"] is not None}


def _players(game: dict, reasons: dict | None = None, qualified=()) -> list[dict]:
    r = game["result"]
    if not r:
        return [{"name": n, "score": None, "won": False, "advanced": False, "why": None} for n in game["players"]]
    out = []
    for s in sorted(r["seats"], key=lambda s: (s["name"] != r["winner"], -s["score"], -s["tiebreak"])):
        out.append({"name": s["name"], "score": s["score"], "won": s["name"] == r["winner"],
                    "advanced": s["name"] in qualified, "why": (reasons or {}).get(s["name"])})
    return out


def _reasons(adv: dict, games: list[dict]) -> dict:
    """Why each qualified player went on, as labels: won their game, by the cup sum (T-S3), a wild card (T-A3)."""
    reasons = {w: label("tn_why_won", game=gid) for gid, w in (adv.get("by_game") or {}).items() if w}
    sums = adv.get("sums") or {}
    for name in adv.get("by_sum") or []:
        reasons[name] = label("tn_why_cup_sum", sum=sums.get(name, 0))
    game_of = {n: g["id"] for g in games for n in g["players"]}
    score = {x["name"]: x.get("score", 0) for x in adv.get("seconds") or []}
    for name in adv.get("wild_cards") or []:
        reasons[name] = label("tn_why_wild_card", game=game_of.get(name, "?"), score=score.get(name, 0))
    return reasons


def _cut(adv: dict):
    """Why the last one in got ahead of the first one out, as a label (None when nobody was left out)."""
    ranked, taken = (adv.get("ranked"), len(adv.get("by_sum") or [])) if "ranked" in adv else \
        (adv.get("seconds"), len(adv.get("wild_cards") or []))
    if not ranked or taken <= 0 or taken >= len(ranked):
        return None
    a, b = ranked[taken - 1], ranked[taken]
    by = a.get("decided_by")
    if by in (None, "lot") or by not in a or by not in b:
        return label("tn_cut_lot", above=a["name"], below=b["name"])
    return label("tn_cut", above=a["name"], below=b["name"], by=label(CRITERIA[by]) if by in CRITERIA else by,
                 a=a[by], b=b[by])


def bracket_view(t) -> dict:
    """novosibirsk: 1/9 → 1/3 → final; america: 1/3 → final. Undrawn games show whose winners fill them."""
    order = ("1/9", "1/3", "final") if t.format == "novosibirsk-2007" else ("1/3", "final")
    columns = []
    for stage_id in order:
        games = t.store.games(stage_id) if t.store.stage(stage_id) else []
        if games:
            cells = [{"id": g["id"], "players": _players(g), "done": g["result"] is not None} for g in games]
        else:
            count = {"1/9": 9, "1/3": 3, "final": 1}[stage_id]
            cells = []
            for k in range(1, count + 1):
                if order.index(stage_id) == 0:
                    feed = [label("tn_to_be_drawn")]
                elif t.format == "america-2005" and stage_id == "1/3":
                    feed = [label("tn_selection_winners"), label("tn_and_wild_cards")]
                else:
                    feed = [label("tn_winner_of", game=f"{order[order.index(stage_id) - 1]}-{j}") for j in
                            ((3 * k - 2, 3 * k - 1, 3 * k) if stage_id == "1/3" else (1, 2, 3))]
                cells.append({"id": f"{stage_id}-{k}" if count > 1 else "final", "done": False,
                              "players": [{"name": f, "score": None, "won": False, "placeholder": True} for f in feed]})
        columns.append({"title": stage_id, "games": cells})
    champion = t.standings().get("champion")
    return {"kind": "bracket", "title": _title(t), "columns": columns, "champion": champion}


def round_view(t, stage_id: str | None = None) -> dict:
    """A cup round (samara) or the america selection: every game, who advanced and why."""
    stages = [s for s in t.store.stages() if s["kind"] in ("cup", "selection")]
    stage = t.store.stage(stage_id) if stage_id else (stages[-1] if stages else None)
    if not stage:
        raise TournamentError("no round drawn yet")
    adv = stage["advancement"] or {}
    stored = t.store.games(stage["id"])
    reasons, qualified = _reasons(adv, stored), set(adv.get("qualified", []))
    games = [{"id": g["id"], "number": _number(g["id"], stage["id"]), "players": _players(g, reasons, qualified),
              "done": g["result"] is not None} for g in stored]
    if stage["id"].split("-")[0] in CUP_NAMES:
        cup, number = stage["id"].rsplit("-", 1)
        title = label("tn_cup_final", cup=label(CUP_NAMES[cup])) if adv.get("final") else \
            label("tn_cup_round", cup=label(CUP_NAMES[cup]), n=int(number) if number.isdigit() else number)
    else:
        title = label("tn_selection")
    advanced = [{"name": n, "why": reasons.get(n)} for n in adv.get("qualified", [])]
    legend = label("tn_legend_samara" if t.format == "samara-2003" else "tn_legend_america")
    return {"kind": "round", "title": title, "games": games, "advanced": advanced, "note": _cut(adv),
            "done": stage["state"] == "advanced", "legend": legend}


def standings_view(t) -> dict:
    st = t.standings()
    if t.format == "samara-2003":
        if st["super9"]:
            rows = [[x["place"], x["name"], f"{x['points']:g}", x["wins"], f"{x['total']:g}"]
                    for x in st["super9"]["lines"]]
            return {"kind": "standings", "title": label("tn_super_nine"), "highlight": 3,
                    "columns": ["place", "player", "points", "wins", "game_points"], "rows": rows}
        rows = [[x["rank"], x["name"], f"{x['points']:g}", f"{x['summer_points']:g}", x["wins"], f"{x['weighted']:g}"]
                for x in st["season"]]
        return {"kind": "standings", "title": _title(t), "highlight": 9,
                "columns": ["place", "player", "points", "summer", "wins", "weighted"], "rows": rows}
    rows = [[p["place"], p["name"], f"{p['score']:g}"] for p in st["places"]]
    return {"kind": "standings", "title": label("tn_final_of" if rows else "tn_no_final_yet", tournament=_title(t)),
            "highlight": 3, "columns": ["place", "player", "score"], "rows": rows}


def cross_view(t) -> dict:
    """The Super Nine cross-table: row player's score : column player's score in their one game."""
    stage = t.store.stage(flow_samara.SUPER9)
    if not stage:
        raise TournamentError("the Super Nine is not drawn yet")
    st = t.standings()["super9"]["lines"]
    by_number = sorted(st, key=lambda x: x["number"])
    cells = []
    for a in by_number:
        row = []
        for b in by_number:
            pair = a["vs"].get(b["name"])
            row.append(None if a is b else (f"{pair[0]:g}:{pair[1]:g}" if pair else ""))
        cells.append(row)
    players = [{"number": x["number"], "name": x["name"], "points": x["points"], "place": x["place"]}
               for x in by_number]
    return {"kind": "cross", "title": label("tn_super_nine"), "players": players, "cells": cells}


def screen_view(t, scene: str) -> tuple[str, dict]:
    """`/sg/screen bracket` and `/sg/screen standings`: the view that fits where the tournament is."""
    last = t.last_stage()
    if scene == "bracket":
        if t.format == "novosibirsk-2007":
            return "bracket", bracket_view(t)
        if t.format == "america-2005":
            return ("round", round_view(t)) if last and last["id"] == "selection" else ("bracket", bracket_view(t))
        if last and last["id"] == flow_samara.SUPER9:
            return "cross", cross_view(t)
        return ("round", round_view(t)) if last else ("standings", standings_view(t))
    if scene == "standings":
        if t.format == "novosibirsk-2007":
            return "bracket", bracket_view(t)
        return "standings", standings_view(t)
    raise TournamentError(f"no tournament screen {scene!r} (bracket, standings)")


def load_screen(tournament_path, scene: str) -> tuple[str, dict]:
    """For the board: open the file read-only-ish, build the view for `/sg/screen SCENE`, close. Call it when the
    scene is entered or a result arrives, not every frame."""
    from scoreboard.tournament.service import Tournament
    t = Tournament(tournament_path)
    try:
        return screen_view(t, scene)
    finally:
        t.close()


# The views each format has (what `screen_view` ever picks for it): a novosibirsk day has no rounds table, a samara
# season no knockout bracket, only samara a Super Nine cross-table.
VIEWS = {"novosibirsk-2007": ("bracket", "standings"),
         "america-2005": ("bracket", "round", "standings"),
         "samara-2003": ("round", "standings", "cross")}


def check_kind(t, kind: str) -> None:
    """Refuse a view that does not fit the tournament's format, naming the ones that do."""
    fits = VIEWS[t.format]
    if kind not in fits:
        raise TournamentError(f"a {t.format} tournament has no {kind!r} view; its views are {', '.join(fits)}")


def build(t, kind: str) -> dict:
    check_kind(t, kind)
    return {"bracket": bracket_view, "round": round_view, "standings": standings_view, "cross": cross_view}[kind](t)


def _number(game_id: str, stage_id: str) -> int | None:
    """A game's number within its round ('winter-2-3' in winter-2 → 3, selection's 'S3' → 3), else None."""
    match = re.fullmatch(rf"(?:{re.escape(stage_id)}-|S)(\d+)", game_id)
    return int(match.group(1)) if match else None


def _title(t) -> dict:
    return label(TITLES[t.format])


def standings_text(t, text=None) -> str:
    """The standings as plain text for the terminal, in the default theme's language (or `text(key, **fields)`)."""
    from scoreboard.display.scenes.tournament import column_name, default_text, say
    text = text or default_text()
    view = standings_view(t)
    lines = [say(view["title"], text), "  ".join(column_name(c, text) for c in view["columns"])]
    lines += ["  ".join(str(c) for c in row) for row in view["rows"]]
    champion = t.standings().get("champion")
    if champion:
        lines.append(f"{text('tn_champion')}: {', '.join(champion) if isinstance(champion, list) else champion}")
    return "\n".join(lines)
