"""samara-2003 progression: winter, spring, summer cups in rounds, then the Super Nine (T-S1–T-S8)."""
from __future__ import annotations

import json

from scoreboard.tournament import common, topics as topic_rules
from scoreboard.tournament.draw import Group, draw_games
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.formats.samara import entries, rules, super_nine
from scoreboard.tournament.formats.samara.views import (  # noqa: F401  (the format's views: part of its interface)
    FIELD_VIEW, PUBLISH_EXTRA, TITLE, VIEWS, screen)
from scoreboard.tournament.names import clean_name
from scoreboard.tournament.ranking import Criterion, cut_reason, rank

substitute_for = common.substitute_named
SUPER9 = super_nine.STAGE
WINNER, TIEBREAK = "top_positive", "extra_topic"    # TB5 (positive only), TB3
SHARED_FIRST_STAGES = frozenset({SUPER9})            # the Super Nine has no tie-break: tied players share (T-S7)
OPTIONS = frozenset({"seeded", "team", "cups", "relative_of", "topics_per_game"})   # team: T-S8
DEMO = {"players": 30, "seeded": 9, "lowest": 10}


def substitution_scope(t, stage) -> str | None:
    """The cup a substitution in `stage` holds for: only a cup's round 1 (later rounds seat qualifiers, the Super
    Nine its selection), and only for that cup — the players table is untouched, so later cups still draw both."""
    if stage["kind"] != "cup" or not stage["id"].endswith("-1"):
        return None
    return _cup_of(stage["id"])


def leave_cup(t, player, cup) -> dict:
    """T-S1: leave a cup before its draw, or its drawn round by walkover (entries.py)."""
    rounds = _cup_rounds(t, str(cup).strip().lower()) if str(cup).strip().lower() in rules.CUPS else []
    return entries.leave_cup(t, player, cup, rounds, rules.CUPS)


def leave_season(t, player) -> list[dict]:
    """`player withdraw` once the season is under way: every cup entered and not over is left (leave_cup)."""
    out = []
    for cup in player["cups"]:
        rounds = _cup_rounds(t, cup)
        if rounds and (rounds[-1]["advancement"] or {}).get("final"):
            continue
        out.append(leave_cup(t, t.store.player(player["name"]), cup))
    if not out:
        raise TournamentError(f"{player['name']} is in no cup that is not over")
    return out


def _started(t, cup) -> bool:
    return t.store.stage(f"{cup}-1") is not None


def registration_status(t, cups=None):
    cups_entered(t, cups)          # refuses a cup that has started
    return "active"


def cups_entered(t, cups, already=()):
    """T-S1: any subset of the cups; none given means every cup that has not started. Entries close when a cup's
    first round is drawn."""
    if cups is None:
        chosen = [c for c in rules.CUPS if not _started(t, c)]
    else:
        chosen = [str(c).strip().lower() for c in cups]
        bad = [c for c in chosen if c not in rules.CUPS]
        if bad:
            raise TournamentError(f"unknown cup {bad[0]!r}: cups are {', '.join(rules.CUPS)}")
        late = [c for c in chosen if _started(t, c) and c not in already]
        if late:
            raise TournamentError(f"the {late[0]} cup has started: entries are closed")
    return [c for c in rules.CUPS if c in chosen or c in already]


# -- where the season stands
def _cup_rounds(t, cup) -> list[dict]:
    return [s for s in t.store.stages() if s["kind"] == "cup" and s["id"].startswith(cup + "-")]


def _next(t) -> tuple[str, int] | None:
    """(cup, round) to draw next, (SUPER9, 0), or None when the season is over."""
    last = t.last_stage()
    if not last:
        return rules.CUPS[0], 1
    if last["id"] == SUPER9:
        return None
    cup, rnd = last["id"].rsplit("-", 1)
    if not last["advancement"].get("final"):
        return cup, int(rnd) + 1
    i = rules.CUPS.index(cup)
    return (rules.CUPS[i + 1], 1) if i + 1 < len(rules.CUPS) else (SUPER9, 0)


def third_finalists(t, cup) -> list[str]:
    """Decision: a cup's 1/3-finalists are the players of the round before its final."""
    rounds = _cup_rounds(t, cup)
    if len(rounds) < 2 or not rounds[-1]["advancement"] or not rounds[-1]["advancement"].get("final"):
        return []
    return sorted(p for g in rounds[-2]["draw"]["games"] for p in g)


def _round_one_input(t, cup, registered: list[dict] | None = None) -> dict:
    """Round 1's input from the players table (or `registered`: the table as it was at the draw)."""
    active = [p for p in (t.store.players() if registered is None else registered) if p["status"] == "active"]
    entrants = sorted(p["name"] for p in active if cup in p["cups"])
    if cup == "winter":
        spread, why = [p["name"] for p in active if p["seeded"]], "last championship's Super Nine"
    else:
        before = rules.CUPS[rules.CUPS.index(cup) - 1]
        spread, why = third_finalists(t, before), f"{before} cup 1/3-finalists"
    here = set(entrants)
    relatives = [list(pair) for pair in t.store.relatives() if set(pair) <= here]
    return {"players": entrants, "spread": sorted(set(spread) & here), "spread_label": why, "relatives": relatives}


def _round_one_groups(given: dict) -> list[Group]:
    """T-S2: relatives never in one game (the most important), the cup's spread group evenly over the games."""
    groups = [Group(f"relatives {a}/{b}", (a, b), apart=True, priority=-1) for a, b in given["relatives"]]
    groups.append(Group(given["spread_label"], tuple(given["spread"])))
    return groups


def draw_constraints(t, stage):
    """What `draw --verify` checks a stored round-1 draw against (T-S2)."""
    given = stage["draw"]["input"]
    return (_round_one_groups(given), None) if isinstance(given, dict) else None


def _draw_round(t, stage_id, given) -> tuple[list[list[str]], list[str]]:
    rnd = t.rng(stage_id)
    if isinstance(given, dict):   # round 1: spread apart (T-S2)
        groups = _round_one_groups(given)
        out = draw_games(given["players"], rules.first_round_sizes(len(given["players"])), groups, rnd)
        return out.games, out.broken
    return draw_games(sorted(given), [3] * (len(given) // 3), [], rnd).games, []


def draw_next(t, topics_per_game: int | None = None) -> dict:
    step = _next(t)
    if step is None:
        raise TournamentError("the season is over: the Super Nine is played")
    cup, number = step
    if cup == SUPER9:
        return _draw_super_nine(t, topics_per_game)
    stage_id = f"{cup}-{number}"
    if number == 1:
        given = _round_one_input(t, cup)
        if len(given["players"]) < rules.MIN_PLAYERS:
            raise TournamentError(f"the {cup} cup has {len(given['players'])} entrants; it needs at least 3")
        per_game = topics_per_game or t.store.meta("topics_per_game", 4)
    else:
        previous = t.store.stage(f"{cup}-{number - 1}")
        given = previous["advancement"]["qualified"]
        per_game = previous["draw"]["topics_per_game"]
        if topics_per_game not in (None, per_game):   # samara 3.2.4: one count for every game of a cup
            raise TournamentError(f"--topics-per-game {topics_per_game}: the {cup} cup plays {per_game} topics in "
                                  f"every game (samara 3.2.4: the same number in each game of a cup); it is set "
                                  f"only when a cup's round 1 is drawn")
    games, broken = _draw_round(t, stage_id, given)
    ids = [f"{stage_id}-{k}" for k in range(1, len(games) + 1)]
    draw = {"input": given, "label": stage_id, "games": games, "broken": broken, "topics_per_game": per_game}
    common.add_stage(t, stage_id, "cup", "cup", draw, ids)
    note = _assign_topics(t, stage_id)
    return {"stage": stage_id, "games": dict(zip(ids, games)), "broken": broken, "topics": note}


def _draw_super_nine(t, topics_per_game: int | None = None) -> dict:
    """T-S5/T-S6; `topics_per_game` (samara 3.3.3: one count for all 12 games, at least 4) defaults to the file's."""
    lines = season_lines(t)
    chosen, ranked = rules.super_nine(lines, t.rng("super nine selection"))
    games = _super_nine_games(t, chosen)
    ids = [f"S9-{k}" for k in range(1, 13)]
    draw = {"input": chosen, "label": "super nine numbers", "games": games, "broken": [],
            "topics_per_game": topics_per_game or t.store.meta("topics_per_game", 4),
            "selection": [{"name": r.name, **r.values, "decided_by": r.decided_by} for r in ranked],
            "cut": cut_reason(ranked, 9)}
    common.add_stage(t, SUPER9, "super9", "super9", draw, ids)
    return {"stage": SUPER9, "games": dict(zip(ids, games)), "broken": [], "cut": draw["cut"],
            "topics": _assign_topics(t, SUPER9)}


def _super_nine_games(t, chosen) -> list[list[str]]:
    numbered = sorted(chosen)
    t.rng("super nine numbers").shuffle(numbered)   # T-S6: numbers 1–9 by lot
    return [[numbered[k - 1] for k in triple] for triple in super_nine.SCHEDULE]


def numbers(stage) -> dict[str, int]:
    games = stage["draw"]["games"]
    out = {}
    for triple, players in zip(super_nine.SCHEDULE, games):
        out.update(dict(zip(players, triple)))
    return out


def expected_input(t, stage, registered: list[dict]):
    """Round 1: the cup's entrants at the draw; later rounds: who the round before sent on; the Super Nine's
    selection is re-run by `redraw` itself (None: nothing more to compare)."""
    if stage["id"] == SUPER9:
        return None
    cup, number = stage["id"].rsplit("-", 1)
    if number == "1":
        return _round_one_input(t, cup, registered)
    return (t.store.stage(f"{cup}-{int(number) - 1}")["advancement"] or {}).get("qualified", [])


def redraw(t, stage) -> list[list[str]]:
    if stage["id"] == SUPER9:     # the selection is re-run too, from the cups' stored results
        chosen, _ = rules.super_nine(season_lines(t), t.rng("super nine selection"))
        return _super_nine_games(t, chosen)
    return _draw_round(t, stage["id"], stage["draw"]["input"])[0]


# -- topics (T-S8)
def add_topic(t, name, author=None, topic_id=None) -> str:
    name = clean_name(name, "topic name")
    with t.store.tx() as db:
        if author:
            author = t.player(author)["name"]
        topic_id = topic_id or f"T{db.execute('SELECT COUNT(*) FROM topics').fetchone()[0] + 1}"
        if db.execute("SELECT 1 FROM topics WHERE id = ?", (topic_id,)).fetchone():
            raise TournamentError(f"topic id {topic_id} is taken")
        db.execute("INSERT INTO topics(id, name, author) VALUES (?, ?, ?)", (topic_id, name, author))
        t.store.audit("topic add", {"id": topic_id, "name": name, "author": author})
    return topic_id


def _pool(t) -> list[topic_rules.Topic]:
    """The topics not yet played (T-S8: a topic is used at most once in the tournament)."""
    rows = t.store.db.execute("SELECT id, name, author FROM topics WHERE game IS NULL ORDER BY id").fetchall()
    return [topic_rules.Topic(r["id"], r["name"], r["author"]) for r in rows]


def _solve_topics(t, stage, pool):
    team_of = {p["name"]: p["team"] for p in t.store.players()}
    games = {g: players for g, players in zip([x["id"] for x in t.store.games(stage["id"])], stage["draw"]["games"])}
    return topic_rules.assign(games, stage["draw"]["topics_per_game"], pool, team_of, t.rng(f"topics/{stage['id']}"))


def _assign_topics(t, stage_id) -> str | None:
    """Give every game of the stage its topics if a pool exists; a failure leaves players drawn and says why."""
    if not t.store.db.execute("SELECT 1 FROM topics").fetchone():
        return None
    stage = t.store.stage(stage_id)
    pool = _pool(t)
    try:
        chosen = _solve_topics(t, stage, pool)
    except TournamentError as error:
        return f"topics not assigned: {error}; add topics and run `topic draw`"
    for gid, items in chosen.items():
        t.store.db.execute("UPDATE games SET topics = ? WHERE id = ?", (json.dumps([x.id for x in items]), gid))
        for x in items:
            t.store.db.execute("UPDATE topics SET game = ? WHERE id = ?", (gid, x.id))
    draw = dict(stage["draw"], topic_pool=[x.id for x in pool])
    t.store.db.execute("UPDATE stages SET draw = ? WHERE id = ?", (json.dumps(draw, ensure_ascii=False), stage_id))
    return "topics assigned"


def draw_topics(t) -> str:
    with t.store.tx():
        stage = t.last_stage()
        if not stage:
            raise TournamentError("nothing drawn yet")
        if any(g["topics"] for g in t.store.games(stage["id"])):
            raise TournamentError(f"{stage['id']} already has its topics")
        note = _assign_topics(t, stage["id"])
        if note != "topics assigned":
            raise TournamentError(note or "no topics in the pool: add some with `topic add`")
    return note


def verify_topics(t, stage) -> list[str]:
    ids = stage["draw"].get("topic_pool")
    if not ids:
        return []
    rows = {r["id"]: r for r in t.store.db.execute("SELECT id, name, author FROM topics")}
    pool = [topic_rules.Topic(i, rows[i]["name"], rows[i]["author"]) for i in ids]
    again = {g: [x.id for x in items] for g, items in _solve_topics(t, stage, pool).items()}
    stored = {g["id"]: g["topics"] for g in t.store.games(stage["id"])}
    return [] if again == stored else [f"{stage['id']}: the topic draw re-run gives {again}, the file has {stored}"]


# -- advancement and standings
def _cup_of(stage_id: str) -> str:
    return stage_id.rsplit("-", 1)[0]


def advance(t, stage) -> dict:
    results = t.results(stage["id"])
    if stage["id"] == SUPER9:
        lines = super_nine.standings(numbers(stage), [r for _, r in results])
        return {"final": True, "lines": [_line_json(x) for x in lines],
                "champion": [x.name for x in lines if x.place == 1]}
    points: dict[str, float] = {}
    for _, r in results:
        points.update(rules.game_points(r))
    won = {g["id"]: r.winner for g, r in results}
    reasons = {w: f"won {gid}" for gid, w in won.items() if w}
    players = [s.name for _, r in results for s in r.seats]
    if len(results) == 1 and len(players) <= 3:
        return {"final": True, "cup_winner": won[results[0][0]["id"]], "points": points, "qualified": [],
                "by_game": won, "reasons": reasons}
    sums = cup_sums(t, _cup_of(stage["id"]), upto=stage["seq"])
    adv = rules.advance([r for _, r in results], sums, t.rng(f"advance/{stage['id']}"))
    for name in adv.by_sum:
        points[name] += 1.0          # T-S4: +1 for advancing by the sum
        reasons[name] = f"cup sum {sums[name]:g}"
    return {"final": False, "qualified": adv.by_win + adv.by_sum, "by_win": adv.by_win, "by_sum": adv.by_sum,
            "size": adv.size, "points": points, "sums": {p: sums[p] for p in players}, "by_game": won,
            "ranked": [{"name": r.name, **r.values, "decided_by": r.decided_by} for r in adv.ranked],
            "cut": cut_reason(adv.ranked, len(adv.by_sum)), "reasons": reasons}


def cup_sums(t, cup, upto=None) -> dict[str, float]:
    """T-S3: every player's cup sum over the cup's games so far (negatives as 0, never extra-topic points)."""
    scores: dict[str, list[float]] = {}
    for stage in _cup_rounds(t, cup):
        if upto is not None and stage["seq"] > upto:
            continue
        for _, r in t.results(stage["id"]):
            for s in r.seats:
                scores.setdefault(s.name, []).append(s.score)
    return {p: rules.cup_sum(v) for p, v in scores.items()}


def season_lines(t) -> list[rules.SeasonLine]:
    lines: dict[str, rules.SeasonLine] = {}
    for cup in rules.CUPS:
        rounds = _cup_rounds(t, cup)
        if not rounds:
            continue
        per_game = rounds[0]["draw"]["topics_per_game"]
        for name, total in cup_sums(t, cup).items():
            lines.setdefault(name, rules.SeasonLine(name)).weighted += total / per_game
        for stage in rounds:
            for _, r in t.results(stage["id"]):
                if r.winner:
                    lines[r.winner].wins += 1
            for name, pts in ((stage["advancement"] or {}).get("points") or {}).items():
                lines[name].points += pts
                if cup == "summer":
                    lines[name].summer_points += pts
    return list(lines.values())


def _line_json(x: super_nine.Line) -> dict:
    return {"place": x.place, "name": x.name, "number": x.number, "points": x.points, "wins": x.wins,
            "total": x.total, "games": x.games, "decided_by": x.decided_by, "h2h": x.h2h,
            "vs": {k: list(v) for k, v in x.vs.items()}}


def standings(t) -> dict:
    lines = {x.name: x for x in season_lines(t)}
    ranked = rank(list(lines), [Criterion("conditional points", lambda n: lines[n].points),
                                Criterion("conditional points in the summer cup", lambda n: lines[n].summer_points),
                                Criterion("game wins in the cups", lambda n: lines[n].wins),
                                Criterion("weighted sum", lambda n: round(lines[n].weighted, 9))],
                  t.rng("super nine selection"))
    season = [{"rank": i + 1, "name": r.name, "points": lines[r.name].points,
               "summer_points": lines[r.name].summer_points, "wins": lines[r.name].wins,
               "weighted": round(lines[r.name].weighted, 3), "decided_by": r.decided_by}
              for i, r in enumerate(ranked)]
    cups = {}
    for cup in rules.CUPS:
        rounds = _cup_rounds(t, cup)
        done = rounds and rounds[-1]["advancement"] and rounds[-1]["advancement"].get("final")
        cups[cup] = {"rounds": [s["id"] for s in rounds],
                     "winner": rounds[-1]["advancement"]["cup_winner"] if done else None}
    s9 = t.store.stage(SUPER9)
    nine = None
    if s9:
        lines9 = super_nine.standings(numbers(s9), [r for _, r in t.results(SUPER9)])
        nine = {"lines": [_line_json(x) for x in lines9], "done": s9["state"] == "advanced"}
    champion = s9["advancement"]["champion"] if s9 and s9["advancement"] else None
    return {"format": t.format, "season": season, "cups": cups, "super9": nine, "champion": champion}
