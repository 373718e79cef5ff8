"""samara-2003's views and labels: a cup round, the season table, the Super Nine table and cross-table."""
from __future__ import annotations

import re

from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.formats.samara import super_nine
from scoreboard.tournament.views import label, round_table, table

TITLE = "tn_samara"
CUP_NAMES = {"winter": "tn_cup_winter", "spring": "tn_cup_spring", "summer": "tn_cup_summer"}
# What ordered two players on equal points (T-S5 selection, T-S7 Super Nine) -> string key.
DECIDERS = {"conditional points in the summer cup": "tn_by_summer", "game wins in the cups": "tn_by_wins",
            "weighted sum": "tn_by_weighted", "lot": "tn_tie_lot", "head-to-head": "tn_by_h2h", "wins": "tn_by_wins",
            "total game points": "tn_by_total", "shared place": "tn_by_shared"}


def round_view(t, stage_id: str | None = None) -> dict:
    """A cup round: every game, who went on and why (won, Σ by the cup sum, T-S3), who got in at the line."""
    stages = [s for s in t.store.stages() if s["kind"] == "cup"]
    stage = t.store.stage(stage_id) if stage_id else (stages[-1] if stages else None)
    if not stage or stage["kind"] != "cup":
        raise TournamentError("no cup round drawn yet" if not stage_id else f"no cup round {stage_id!r}")
    cup, number = stage["id"].rsplit("-", 1)
    adv = stage["advancement"] or {}
    title = label("tn_cup_final", cup=label(CUP_NAMES[cup])) if adv.get("final") else \
        label("tn_cup_round", cup=label(CUP_NAMES[cup]), n=int(number))
    game_no = lambda gid: int(m.group(1)) if (m := re.fullmatch(rf"{re.escape(stage['id'])}-(\d+)", gid)) else None
    return round_table(t, stage, title, label("tn_legend_samara"), game_no)


def _decider(key):
    return label(DECIDERS[key]) if key in DECIDERS else None


def standings_view(t, stage=None) -> dict:
    """The Super Nine table once it is drawn (T-S7: points, head-to-head, wins, game points, shared place), before
    that the season's table of every player (T-S5: the top 9 in gold are the Super Nine as it stands)."""
    st = t.standings()
    if stage == "field":
        return _field_view(st)
    if st["super9"] and stage != "season":
        lines = st["super9"]["lines"]
        rows = [[_span(x["place"], lines), x["name"], f"{x['points']:g}", f"{x['h2h']:g}", x["wins"],
                 f"{x['total']:g}"] for x in lines]
        ties = [None] + [_decider(a["decided_by"]) if a["points"] == b["points"] else None
                         for a, b in zip(lines, lines[1:])]
        return table(label("tn_super_nine"), ["place", "player", "points", "h2h", "wins", "game_points"], rows,
                     highlight=3, ties=ties)
    season = st["season"]
    rows = [[x["rank"], x["name"], f"{x['points']:g}", f"{x['summer_points']:g}", x["wins"], f"{x['weighted']:g}"]
            for x in season]
    ties = [None] + [_decider(a["decided_by"]) if a["points"] == b["points"] else None
                     for a, b in zip(season, season[1:])]
    return table(label(TITLE), ["place", "player", "points", "summer", "wins", "weighted"], rows, highlight=9,
                 ties=ties)


def _field_view(st: dict) -> dict:
    """Every player's place in the championship (`export`; *decision*: samara 3.3 places the Super Nine 1–9 by T-S7;
    the rest follow in the T-S5 order that chose the nine, from 10th). Before the Super Nine: the season table."""
    season = st["season"]
    lines = (st["super9"] or {}).get("lines") or []
    by_name = {x["name"]: x for x in season}
    rows, ties = [], []
    for i, x in enumerate(lines):
        s = by_name.get(x["name"], {})
        rows.append([_span(x["place"], lines), x["name"], f"{x['points']:g}", f"{x['h2h']:g}",
                     f"{s.get('points', 0):g}", f"{s.get('summer_points', 0):g}", s.get("wins", 0),
                     f"{s.get('weighted', 0):g}"])
        ties.append(_decider(lines[i - 1]["decided_by"]) if i and lines[i - 1]["points"] == x["points"] else None)
    nine = {x["name"] for x in lines}
    rest = [x for x in season if x["name"] not in nine]
    for i, x in enumerate(rest):
        rows.append([len(lines) + i + 1, x["name"], "", "", f"{x['points']:g}", f"{x['summer_points']:g}", x["wins"],
                     f"{x['weighted']:g}"])
        ties.append(_decider(rest[i - 1]["decided_by"]) if i and rest[i - 1]["points"] == x["points"] else None)
    return table(label("tn_field"), ["place", "player", "super9", "h2h", "points", "summer", "wins", "weighted"], rows,
                 highlight=3 if lines else 9, ties=ties)


PUBLISH_EXTRA = [("standings", "season"), ("standings", "field")]   # export: the season table, every place
FIELD_VIEW = ("standings", "field")                                 # export's CSV: one row per player


def _span(place: int, lines: list[dict]) -> str:
    """A shared Super Nine place reads «4–5»."""
    count = sum(1 for x in lines if x["place"] == place)
    return str(place) if count == 1 else f"{place}–{place + count - 1}"


def cross_view(t, stage=None) -> dict:
    """The Super Nine cross-table: row player's score : column player's score in their one game."""
    if not t.store.stage(super_nine.STAGE):
        raise TournamentError("the Super Nine is not drawn yet")
    by_number = sorted(t.standings()["super9"]["lines"], key=lambda x: x["number"])
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


VIEWS = {"round": round_view, "standings": standings_view, "cross": cross_view}


def screen(t, scene: str):
    """`bracket`: the current cup round, or the Super Nine cross-table; `standings`: the season / Super Nine table."""
    last = t.last_stage()
    if scene == "bracket":
        if last and last["id"] == super_nine.STAGE:
            return "cross", cross_view(t)
        return ("round", round_view(t)) if last else ("standings", standings_view(t))
    return "standings", standings_view(t)
