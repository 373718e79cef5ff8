"""JSON-able views of a tournament for the audience screen, and the board's setup of a scheduled game.

`screen_view(t, scene)` answers the board's `/sg/screen bracket|standings`; `screens.draw` draws what it returns.
"""
from __future__ import annotations

from scoreboard.tournament import flow_samara
from scoreboard.tournament.errors import TournamentError

CUP_NAMES = {"winter": "Winter cup", "spring": "Spring cup", "summer": "Summer cup"}


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
        return [{"name": n, "score": None, "won": False, "advanced": False, "why": ""} for n in game["players"]]
    out = []
    for s in sorted(r["seats"], key=lambda s: (s["name"] != r["winner"], -s["score"], -s["tiebreak"])):
        out.append({"name": s["name"], "score": s["score"], "won": s["name"] == r["winner"],
                    "advanced": s["name"] in qualified, "why": (reasons or {}).get(s["name"], "")})
    return out


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
                    feed = ["to be drawn"]
                elif t.format == "america-2005" and stage_id == "1/3":
                    feed = ["selection winners", "and wild cards"]
                else:
                    feed = [f"winner {order[order.index(stage_id) - 1]}-{j}" for j in
                            ((3 * k - 2, 3 * k - 1, 3 * k) if stage_id == "1/3" else (1, 2, 3))]
                cells.append({"id": f"{stage_id}-{k}" if count > 1 else "final", "done": False,
                              "players": [{"name": f, "score": None, "won": False, "placeholder": True} for f in feed if f]})
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
    reasons, qualified = adv.get("reasons", {}), set(adv.get("qualified", []))
    games = [{"id": g["id"], "players": _players(g, reasons, qualified), "done": g["result"] is not None}
             for g in t.store.games(stage["id"])]
    if stage["id"].split("-")[0] in CUP_NAMES:
        cup, number = stage["id"].rsplit("-", 1)
        title = f"{CUP_NAMES[cup]} · " + ("final" if adv.get("final") else f"round {number}")
    else:
        title = "Selection games"
    advanced = [{"name": n, "why": reasons.get(n, "")} for n in adv.get("qualified", [])]
    legend = "✓ goes on · " + ("Σ by cup sum" if t.format == "samara-2003" else "WC wild card") + " · gold: won the game"
    return {"kind": "round", "title": title, "games": games, "advanced": advanced, "note": adv.get("cut") or "",
            "done": stage["state"] == "advanced", "legend": legend}


def standings_view(t) -> dict:
    st = t.standings()
    if t.format == "samara-2003":
        if st["super9"]:
            rows = [[x["place"], x["name"], f"{x['points']:g}", x["wins"], f"{x['total']:g}"]
                    for x in st["super9"]["lines"]]
            return {"kind": "standings", "title": "Super Nine", "highlight": 3,
                    "columns": ["#", "Player", "Points", "Wins", "Game points"], "rows": rows}
        rows = [[x["rank"], x["name"], f"{x['points']:g}", f"{x['summer_points']:g}", x["wins"], f"{x['weighted']:g}"]
                for x in st["season"]]
        return {"kind": "standings", "title": "Championship", "highlight": 9,
                "columns": ["#", "Player", "Points", "Summer", "Wins", "Wtd Σ"], "rows": rows}
    rows = [[p["place"], p["name"], f"{p['score']:g}"] for p in st["places"]]
    return {"kind": "standings", "title": _title(t) + (" · final" if rows else " · no final yet"), "highlight": 3,
            "columns": ["#", "Player", "Score"], "rows": rows}


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
    return {"kind": "cross", "title": "Super Nine", "players": players, "cells": cells}


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


def build(t, kind: str) -> dict:
    return {"bracket": bracket_view, "round": round_view, "standings": standings_view, "cross": cross_view}[kind](t)


def _title(t) -> str:
    return {"novosibirsk-2007": "Novosibirsk championship", "america-2005": "America open",
            "samara-2003": "Samara championship"}[t.format]


def standings_text(t) -> str:
    view = standings_view(t)
    lines = [view["title"], "  ".join(view["columns"])]
    lines += ["  ".join(str(c) for c in row) for row in view["rows"]]
    champion = t.standings().get("champion")
    if champion:
        lines.append(f"champion: {', '.join(champion) if isinstance(champion, list) else champion}")
    return "\n".join(lines)
