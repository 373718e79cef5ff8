"""The snapshot (PROTOCOL.md §3, docs/ENGINE_API.md): what every screen, remote and test reads.

It never carries what the audience must not see yet: an auction cell before it is chosen (AU1), final
stakes before their reveal (FN4), question text at all (that is `host_view`, for host sessions only), nor the
presses' photo finish (`host_view`'s `presses`, engine/photo.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .media import state as media_state
from .phases import BOARD, FINAL, LIVE, Phase
from .plan import planned_final, planned_question
from . import auction, stakes
from .photo import view as photo_view
from .photo_hall import public as photo_public

if TYPE_CHECKING:
    from .game import Game

SNAPSHOT_VERSION = 1
# The snapshot travels in one UDP datagram (PROTOCOL §2): the growing lists show their newest entries only;
# the journal keeps everything. A normal game has far fewer corrections, lots and score rows than this.
KEEP_ADJUSTMENTS = 30
KEEP_LOTS = 20
KEEP_HISTORY = 400


def build_snapshot(game: "Game") -> dict[str, Any]:
    st = game.st
    if st is None:
        return {"version": SNAPSHOT_VERSION, "rev": game.rev, "time": game.time, "regulation": None, "stage": None,
                "phase": Phase.SETUP.value, "paused": False, "paused_at": None, "players": [], "chooser": None,
                "answering": None, "buttons_manual": False, "buttons_live": False, "round": None, "question": None,
                "last": None, "auction": None, "final": None, "winner": None, "game_over": False,
                "no_winner_reason": None, "no_winner": None, "shared_first": [], "screen": "board", "adjustments": [],
                "adjustments_total": 0, "lots": [], "history": [],
                "order": None, "title": None, "stake_changes": [], "warnings": [], "photo": None}
    reg = game.reg
    live = (st.phase in LIVE and not st.paused and not st.buttons_manual)
    snap: dict[str, Any] = {
        "version": SNAPSHOT_VERSION,
        "rev": game.rev,
        "time": game.time,
        "regulation": st.regulation,
        "title": reg.title,
        "stage": st.stage,
        "order": reg.order,
        "phase": st.phase.value,
        "paused": st.paused,
        "paused_at": st.paused_at,
        "players": [{"seat": p.seat, "name": p.name, "score": p.score, "answered": p.answered, "pressed": p.pressed,
                     "locked_until": p.locked_until, "tiebreak_score": p.tiebreak_score, "in_play": p.in_play,
                     "rights": p.rights}
                    for p in st.players],
        "chooser": st.chooser,
        "answering": st.answering,
        "buttons_manual": st.buttons_manual,
        "buttons_live": live,
        "round": _round(st),
        "question": _question(game),
        "last": _last(st, game.plan),
        "auction": _auction(st),
        "final": _final(st),
        "winner": st.winner,
        "game_over": st.game_over,
        "no_winner_reason": st.no_winner_reason,
        "no_winner": st.no_winner,
        "shared_first": list(st.shared),
        "screen": st.screen,
        "adjustments": [dict(a) for a in st.adjustments[-KEEP_ADJUSTMENTS:]],
        "adjustments_total": len(st.adjustments),
        "lots": [_lot(lot) for lot in st.lots[-KEEP_LOTS:]],
        "history": [list(row) for row in st.history[-KEEP_HISTORY:]],
        "stake_changes": stakes.public(st)[-KEEP_ADJUSTMENTS:],
        "warnings": list(st.warnings),
        "photo": photo_public(st),      # the photo finish, only once the host sent it to the hall (photo_hall.py)
    }
    return snap


def _lot(lot: dict) -> dict:
    shown = dict(lot, among=list(lot["among"]))
    if "names" in lot:
        shown["names"] = list(lot["names"])
    return shown


def _round(st) -> dict | None:
    r = st.round
    if r is None:
        return None
    return {"index": r.index, "kind": r.kind, "tiebreak": r.tiebreak, "topic": r.topic, "auctions": r.auctions,
            "auction_waived": r.auction_waived, "auctions_missing": auction.missing_in(r),
            "topics": [{"name": tp.name, "reserve_used": tp.reserve_used,
                        "cells": [{"value": c.value, "played": c.played, "auction": c.auction and c.played,
                                   "empty": c.empty}
                                  for c in tp.cells]}
                       for tp in r.topics]}


def _question(game: "Game") -> dict | None:
    st = game.st
    q = st.question
    if q is None or st.phase in BOARD | FINAL | {Phase.GAME_OVER}:
        return None
    media = None
    planned = _planned_question(game)
    if planned is not None and st.phase is not Phase.AUCTION:
        media = planned.get("media") or None
    return {"round": q.round, "topic": q.topic, "index": q.index, "value": q.value, "kind": q.kind,
            "topic_name": st.round.topics[q.topic - 1].name,
            "deadline": q.deadline, "deadline_kind": q.deadline_kind, "duration": q.duration, "reading": q.reading,
            "reading_done": q.reading_done, "answer_started": q.answer_started, "extended": q.extended,
            "stake": q.stake, "answered": [{"seat": a.seat, "verdict": a.verdict, "delta": a.delta}
                                           for a in q.answers],
            "replaced": q.replaced, "media": media, "clarify": q.clarify, **_pack_public(planned, st.phase),
            "media_state": media_state(q) if media and any(isinstance(m, dict) and m.get("kind") in ("video", "audio")
                                                           for m in media) else None}


def _pack_public(planned: dict | None, phase: Phase) -> dict:
    """(packs) What the hall may see of a pack's question once it is open: a cat in the bag's own topic and price,
    a select question's options (its content). Never the answer."""
    planned = planned or {}
    secret = planned.get("secret")
    shown = phase is not Phase.AUCTION
    return {"secret": {"topic": secret.get("topic"), "price": secret.get("price")} if secret and shown else None,
            "options": list(planned.get("options") or []) if shown else []}


def _last(st, plan) -> dict | None:
    if st.last is None or st.phase is not Phase.REVEAL:
        return None
    q = st.last.question
    # the answer's own picture (SIGame packs have them): the hall sees it at the reveal, never before
    answer_media = (planned_question(st, plan, q) or {}).get("answer_media") or None
    return {"topic": q.topic, "index": q.index, "value": q.value, "kind": q.kind,
            "answers": [{"seat": a.seat, "verdict": a.verdict, "delta": a.delta} for a in q.answers],
            "rejudgeable": True, "answer_media": answer_media}


def _auction(st) -> dict | None:
    a = st.auction
    if a is None:
        return None
    return {"stake": a.stake, "nominal": a.nominal, "holder": a.holder, "turn": a.turn, "passed": list(a.passed),
            "allin": a.allin, "order": list(a.order)}


def _final(st) -> dict | None:
    f = st.final
    if f is None:
        return None
    return {"kind": f.kind, "topic": f.topic, "eligible": list(f.eligible), "stakes_in": sorted(f.stakes),
            "deadline": f.deadline, "duration": f.duration, "writing": f.writing, "judged": sorted(f.verdicts),
            "revealed": [{"seat": s, "stake": f.stakes[s], "verdict": f.verdicts[s],
                          "score": st.player(s).score} for s in f.revealed]}


def _planned_question(game: "Game") -> dict | None:
    return planned_question(game.st, game.plan)


def host_view(game: "Game") -> dict | None:
    """What the host reads: the open question's text, answer, accepted answers, comment, source (§2)."""
    st = game.st
    if st is None:
        return None
    if st.final is not None and st.phase in FINAL:
        planned = (planned_final(game.plan, st.final.topic) or {}).get("question")
        topic = st.final.topic
        q_info = {"round": None, "topic": None, "index": None, "value": None, "kind": st.final.kind}
    elif st.phase is Phase.TOPIC_INTRO and st.round is not None and st.round.topic is not None:
        # sequential play: the host announces the topic and may read its explanation (P1)
        k = st.round.topic - 1
        ptopics = ((game.plan or {}).get("rounds") or [])
        ptopics = ptopics[st.round.pack_round].get("topics") or [] if st.round.pack_round is not None else []
        explanation = ptopics[k].get("explanation") if k < len(ptopics) else None
        return {"round": st.round.index, "topic": k + 1, "index": None, "value": None, "kind": "topic",
                "topic_name": st.round.topics[k].name, "topic_explanation": explanation, "text": None,
                "answer": None, "accepts": [], "comment": None, "source": None, "author": None, "media": None,
                "answer_media": None, "rev": game.rev, "presses": photo_view(st)}
    elif st.question is not None and st.phase not in BOARD | {Phase.GAME_OVER}:
        planned = _planned_question(game)
        topic = st.round.topics[st.question.topic - 1].name
        q = st.question
        q_info = {"round": q.round, "topic": q.topic, "index": q.index, "value": q.value, "kind": q.kind}
    else:
        return None
    planned = planned or {}
    return {**q_info, "topic_name": topic, "topic_explanation": _topic_explanation(game),
            "text": planned.get("text"), "answer": planned.get("answer"),
            "accepts": list(planned.get("accepts") or []), "comment": planned.get("comment"),
            "source": planned.get("source"), "author": planned.get("author"),
            "media": planned.get("media") or None, "answer_media": planned.get("answer_media") or None,
            "wrong": list(planned.get("wrong") or []), "options": list(planned.get("options") or []),
            "secret": planned.get("secret"), "pack_kind": planned.get("kind"), "empty": bool(planned.get("empty")),
            "rev": game.rev, "presses": photo_view(st)}


def _topic_explanation(game: "Game") -> str | None:
    st, plan = game.st, game.plan
    if plan is None:
        return None
    if st.final is not None and st.phase in FINAL:
        return (planned_final(game.plan, st.final.topic) or {}).get("explanation")
    if st.round is None or st.round.pack_round is None or st.question is None:
        return None
    topics = plan["rounds"][st.round.pack_round].get("topics") or []
    k = st.question.topic - 1
    return topics[k].get("explanation") if k < len(topics) else None
