"""JSON-able views of a tournament for the audience screen, and the board's setup of a scheduled game.

`screen_view(t, scene)` answers the board's `/sg/screen bracket|standings` through the format's own `screen`; the
display draws what it returns through its Canvas. Views carry data, never words: a label is `{"key": <string key>,
field: value…}` (a field may be a label itself), stage ids and column codes stay codes; the display (or, in a
terminal, `labels.text_for`) says them. The builders here are shared; each format module picks and fills them.
"""
from __future__ import annotations

from scoreboard.tournament.errors import TournamentError

# What decided a place at the line (ranking criterion names, as stored) -> string key.
CRITERIA = {"cup sum": "tn_by_cup_sum", "points in this round": "tn_by_round_points", "score": "tn_by_score",
            "players in the selection game": "tn_by_players", "questions answered right": "tn_by_right"}


def label(key: str, **fields) -> dict:
    """A piece of screen text as data: the string `key` with its fields."""
    return {"key": key, **fields}


def game_setup(t, game_id: str) -> dict:
    """What a board needs to play a scheduled game: `/sg/game/new` arguments, players by seat, topics."""
    game = t.game(game_id)
    stage = t.store.stage(game["stage"])
    seed = t.rng(f"game/{game_id}").randrange(2**31)
    topic_rows = {r["id"]: r["name"] for r in t.store.db.execute("SELECT id, name FROM topics")}
    return {"game": game_id, "regulation": t.format, "stage": stage["engine_stage"],
            "players": [{"seat": i + 1, "name": n} for i, n in enumerate(game["players"])],
            "topics": [{"id": x, "name": topic_rows.get(x, "?")} for x in game["topics"] or []],
            "seed": seed, "game_new": ["/sg/game/new", t.format, stage["engine_stage"], len(game["players"]), seed],
            "done": game["result"] is not None}


def commands_from_setup(setup: dict) -> list[tuple[str, tuple]]:
    """`game_setup`'s answer (read from the file, or sent by `tournament serve`) as the board's opening commands."""
    game_id = setup["game"]
    if setup["done"]:
        raise TournamentError(f"game {game_id} has a result already; pick the next game")
    address, *args = setup["game_new"]
    commands = [(address, tuple(args))]
    commands += [("/sg/player/name", (p["seat"], p["name"])) for p in setup["players"]]
    topics = [t["name"] for t in setup["topics"]]
    if topics:
        commands.append(("/sg/topics", tuple(topics)))
    return commands


def players_of(game: dict, reasons: dict | None = None, qualified=()) -> list[dict]:
    """A game's players for a screen, winner first. `tie` says how equal scores were told apart: the tie-break's
    points (extra round / questions / topic) beside the score, or "lot" (TB4) when the tie-break ended level too."""
    r = game["result"]
    if not r:
        return [{"name": n, "score": None, "won": False, "advanced": False, "why": None, "tie": None}
                for n in game["players"]]
    scores = [s["score"] for s in r["seats"]]
    out = []
    for s in sorted(r["seats"], key=lambda s: (s["name"] != r["winner"], -s["score"], -s["tiebreak"])):
        tie = None
        if scores.count(s["score"]) > 1:
            level = [x for x in r["seats"] if x["score"] == s["score"]]
            if r.get("lot") and s["name"] in r["lot"]:
                tie = label("tn_tie_lot")
            elif any(x["tiebreak"] for x in level):
                tie = label("tn_tie_extra", points=s["tiebreak"])
        out.append({"name": s["name"], "score": s["score"], "won": s["name"] == r["winner"],
                    "advanced": s["name"] in qualified, "why": (reasons or {}).get(s["name"]), "tie": tie})
    return out


def reasons_of(adv: dict, games: list[dict]) -> dict:
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


def cut_of(adv: dict):
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


def knockout_bracket(t, order: tuple[str, ...], counts: dict[str, int], feeds) -> dict:
    """Columns of a knockout tree; an undrawn game shows `feeds(stage_id, k)`: labels of whose winners fill it."""
    columns = []
    for stage_id in order:
        games = t.store.games(stage_id) if t.store.stage(stage_id) else []
        if games:
            cells = [{"id": g["id"], "players": players_of(g), "done": g["result"] is not None} for g in games]
        else:
            count = counts[stage_id]
            cells = [{"id": f"{stage_id}-{k}" if count > 1 else "final", "done": False,
                      "players": [{"name": f, "score": None, "won": False, "placeholder": True, "tie": None}
                                  for f in feeds(stage_id, k)]} for k in range(1, count + 1)]
        columns.append({"title": stage_id, "games": cells})
    return {"kind": "bracket", "title": label(t.flow.TITLE), "columns": columns,
            "champion": t.standings().get("champion")}


def round_table(t, stage: dict, title: dict, legend: dict, number) -> dict:
    """A round of games (samara cup round, america selection): every game, who went on and why, the cut."""
    adv = stage["advancement"] or {}
    stored = t.store.games(stage["id"])
    reasons, qualified = reasons_of(adv, stored), set(adv.get("qualified", []))
    games = [{"id": g["id"], "number": number(g["id"]), "players": players_of(g, reasons, qualified),
              "done": g["result"] is not None} for g in stored]
    advanced = [{"name": n, "why": reasons.get(n)} for n in adv.get("qualified", [])]
    return {"kind": "round", "title": title, "games": games, "advanced": advanced, "note": cut_of(adv),
            "done": stage["state"] == "advanced", "legend": legend,
            "wild_cards": list(adv.get("wild_cards") or [])}


def table(title, columns: list[str], rows: list[list], highlight: int = 0, places: bool = True,
          ties: list | None = None, legend=None) -> dict:
    """A standings table. `places`: the first column is a place (equal places are shared: «3–4»), otherwise a row
    number; `ties[i]`: what ordered row i against the row above on equal points (a label, or None)."""
    return {"kind": "standings", "title": title, "columns": columns, "rows": rows, "highlight": highlight,
            "places": places, "ties": ties or [None] * len(rows), "legend": legend}


def screen_view(t, scene: str) -> tuple[str, dict]:
    """`/sg/screen bracket` and `/sg/screen standings`: the view that fits where the tournament is."""
    if scene not in ("bracket", "standings"):
        raise TournamentError(f"no tournament screen {scene!r} (bracket, standings)")
    return t.flow.screen(t, scene)


def check_kind(t, kind: str) -> None:
    """Refuse a view that does not fit the tournament's format, naming the ones that do."""
    fits = tuple(t.flow.VIEWS)
    if kind not in fits:
        raise TournamentError(f"a {t.format} tournament has no {kind!r} view; its views are {', '.join(fits)}")


def build(t, kind: str, stage: str | None = None) -> dict:
    check_kind(t, kind)
    return t.flow.VIEWS[kind](t, stage)
