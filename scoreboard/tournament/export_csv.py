"""`export --format csv`: the standings, one row per player (issue 12 item 5), for a club's spreadsheet.

Columns: the standings view's own (place, player, and the format's figures: points, wins, stage reached, …, as
codes), `tie` (what ordered the row against the one above on equal points, in words), then figures counted from the
recorded games: `points` where the view has none (the sum of the player's scores), `games`, `wins` where the view has
none (games won), `right` (questions answered right, summed; empty when a game of theirs lacks the count), and one
column per stage with the player's score there (`score:1/9`, `score:winter-2`, …). Nothing here names a format.
"""
from __future__ import annotations

import csv
import io

from scoreboard.labels import say, text_for


def rows(t, language: str = "ru") -> tuple[list[str], list[list]]:
    text = text_for(language)
    kind, stage = getattr(t.flow, "FIELD_VIEW", ("standings", None))   # the view with every player's place
    view = t.flow.VIEWS[kind](t, stage)
    columns = list(view["columns"])
    player_col = columns.index("player")
    played: dict[str, dict] = {}
    stage_ids = []
    for g in t.store.games():
        r = g["result"]
        if not r:
            continue
        if g["stage"] not in stage_ids:
            stage_ids.append(g["stage"])
        for s in r["seats"]:
            p = played.setdefault(s["name"], {"games": 0, "wins": 0, "points": 0, "right": 0, "stages": {}})
            p["games"] += 1
            p["wins"] += int(r.get("winner") == s["name"])
            p["points"] += s["score"]
            p["right"] = None if p["right"] is None or s.get("right") is None else p["right"] + s["right"]
            p["stages"][g["stage"]] = s["score"]
    extra = (["points"] if "points" not in columns else []) + ["games"] + (["wins"] if "wins" not in columns else [])
    extra += ["right"] + [f"score:{s}" for s in stage_ids]
    head = columns + ["tie"] + extra
    out = []
    for row, tie in zip(view["rows"], view["ties"]):
        name = row[player_col]
        p = played.get(name, {"games": 0, "wins": 0, "points": 0, "right": None, "stages": {}})
        figures = {"points": p["points"], "games": p["games"], "wins": p["wins"],
                   "right": "" if p["right"] is None or not p["games"] else p["right"]}
        line = [say(v, text) for v in row] + [say(tie, text) if tie else ""]
        for code in extra:
            line.append(p["stages"].get(code[6:], "") if code.startswith("score:") else figures[code])
        out.append(line)
    return head, out


def document(t, language: str = "ru") -> str:
    head, body = rows(t, language)
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(head)
    writer.writerows(body)
    return buf.getvalue()
