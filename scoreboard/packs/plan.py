"""From a loaded pack to the engine's pack plan (docs/ENGINE_API.md), with the organiser's choice of topics.

Topics are chosen by order (default: every topic of every round, as the pack has them; the engine takes the
first N of a round) or by a list: each entry is a topic name, a 1-based number counted across all rounds, or
`R.N` (round R, topic N). A round keeps its chosen topics in the organiser's order; a round with none chosen is
left out. Topics not chosen and playable become extra (tie-break) topics after the pack's own extras.
Only the chosen topics, the final and the extras must be free of errors; a broken topic nobody plays is no
reason to refuse a pack. `warnings` lists, as lines naming the round, topic and question, every warning about
what the plan can play (chosen topics, extras, the final, the rounds and the pack as a whole): P1, P2, AU1,
missing media, SIGame types played as normal questions… The board and the remote show them to the host.
"""
from __future__ import annotations

import re

from .errors import ERROR, WARNING, Issue, PackError
from .model import Final, Media, Pack, Question, Topic
from .siqquestion import price_dict
from .validate import FINAL_CHOICE


def choose(pack: Pack, wanted: list[str] | None, path: str) -> list[tuple[int, int]]:
    """(round, topic) pairs, 0-based, in play order."""
    every = [(r, t) for r, round_ in enumerate(pack.rounds) for t in range(len(round_.topics))]
    if wanted is None:
        return every
    chosen: list[tuple[int, int]] = []
    for entry in wanted:
        key = str(entry).strip()
        if re.fullmatch(r"\d+", key):
            n = int(key)
            if not 1 <= n <= len(every):
                raise PackError(f"{path}: topic number {n}: the pack has topics 1–{len(every)}")
            pick = every[n - 1]
        elif re.fullmatch(r"\d+\.\d+", key):
            r, t = (int(x) for x in key.split("."))
            if not (1 <= r <= len(pack.rounds) and 1 <= t <= len(pack.rounds[r - 1].topics)):
                raise PackError(f"{path}: topic {key}: no such round.topic in the pack")
            pick = (r - 1, t - 1)
        else:
            folded = " ".join(key.casefold().split())
            hits = [(r, t) for r, t in every if " ".join(pack.rounds[r].topics[t].name.casefold().split()) == folded]
            if not hits:
                raise PackError(f"{path}: no topic named «{key}» in the pack")
            if len(hits) > 1:
                options = ", ".join(f"{r + 1}.{t + 1}" for r, t in hits)
                raise PackError(f"{path}: «{key}» names {len(hits)} topics ({options}); give round.topic instead")
            pick = hits[0]
        if pick in chosen:
            raise PackError(f"{path}: topic «{key}» is chosen twice")
        chosen.append(pick)
    if not chosen:
        raise PackError(f"{path}: the list of topics is empty")
    return chosen


def _media(items: list[Media], paths: dict[str, str]) -> list[dict]:
    return [{"kind": m.kind, "path": paths[m.ref]} for m in items if m.ref in paths]


def _question(q: Question, paths: dict[str, str]) -> dict:
    secret = None
    if q.kind in ("secret", "secretPublicPrice", "secretNoQuestion"):
        secret = {"topic": q.secret_topic or None, "price": price_dict(q.secret_price),
                  "public": q.kind == "secretPublicPrice", "no_question": q.kind == "secretNoQuestion"}
    return {"text": q.text, "answer": q.answer, "accepts": list(q.accepts), "wrong": list(q.wrong),
            "comment": q.comment, "source": q.source, "author": q.author, "media": _media(q.media, paths),
            "answer_media": _media(q.answer_media, paths), "auction": q.auction, "price": q.price,
            "options": list(q.options), "kind": q.kind or None, "secret": secret, "empty": q.empty}


def _final(f: Final, paths: dict[str, str]) -> dict:
    return {"topic": f.topic, "explanation": f.explanation, "question": _question(f.question, paths)}


def _topic(t: Topic, paths: dict[str, str]) -> dict:
    return {"name": t.name, "explanation": t.explanation, "author": t.author, "team": t.team,
            "questions": [_question(q, paths) for q in t.questions],
            "reserve": _question(t.reserve, paths) if t.reserve is not None else None}


def build(pack: Pack, issues: list[Issue], paths: dict[str, str], path: str, source: str,
          topics: list[str] | None = None) -> dict:
    chosen = choose(pack, topics, path)
    broken = {(i.round, i.topic) for i in issues if i.level == ERROR}
    left_out: list[str] = []
    if topics is None:       # by default a broken topic is left out, with the reason, and the game plays the others
        for r, t in chosen:
            if (r, t) in broken:
                why = next(i for i in issues if i.level == ERROR and (i.round, i.topic) == (r, t))
                left_out.append(f"{why.text()} — the topic is left out of the game (`pack check` lists it)")
        chosen = [pick for pick in chosen if pick not in broken]
    blocking = [i for i in issues if i.level == ERROR and
                ((i.round, i.topic) in set(chosen) or i.round is None or i.round == -1)]
    if blocking:
        raise PackError.from_issues(path, blocking)
    rounds = []
    for r, round_ in enumerate(pack.rounds):
        mine = [t for rr, t in chosen if rr == r]
        if mine or topics is None:        # the default keeps every round in place, so blue stays blue
            rounds.append({"name": round_.name, "comment": round_.comment,
                           "topics": [_topic(round_.topics[t], paths) for t in mine]})
    extra = [_topic(t, paths) for t in pack.extra]
    spare: list[tuple[int, int]] = []          # topics not chosen that stay playable: tie-break topics
    if topics is not None:
        spare = [(r, t) for r, round_ in enumerate(pack.rounds) for t in range(len(round_.topics))
                 if (r, t) not in chosen and (r, t) not in broken]
        extra += [_topic(pack.rounds[r].topics[t], paths) for r, t in spare]
    # every final topic that can play: the first is the final unless the host chooses another (/sg/final/topic)
    unplayable = {i.topic for i in issues if i.level == ERROR and i.round == FINAL_CHOICE}
    finals = [_final(f, paths) for k, f in enumerate(pack.finals()) if k not in unplayable]
    logo = _media([pack.logo], paths) if pack.logo is not None else []
    playable = set(chosen) | set(spare) | {(FINAL_CHOICE, k) for k in range(len(pack.finals()))
                                           if k not in unplayable}
    return {"title": pack.title, "source": source, "rounds": rounds, "final": finals[0] if finals else None,
            "finals": finals, "extra": extra, "comment": pack.comment, "author": pack.author,
            "logo": logo[0]["path"] if logo else None,
            "selection": [{"round": r + 1, "topic": t + 1, "name": pack.rounds[r].topics[t].name} for r, t in chosen],
            "warnings": left_out + warnings(issues, playable, {r for r, _ in chosen})}


def warnings(issues: list[Issue], playable: set[tuple[int, int]], rounds: set[int]) -> list[str]:
    """Every warning about something the plan plays, as `[line N: ]where: message` (info lines are left out)."""
    def played(i: Issue) -> bool:
        if i.topic is None:                     # the pack, the final, or a round (when the plan plays it)
            return i.round is None or i.round in rounds
        return i.round == -1 or (i.round, i.topic) in playable     # the pack's extra topics are always played

    return [i.text() for i in issues if i.level == WARNING and played(i)]
