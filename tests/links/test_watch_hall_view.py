"""What the hall's viewers may receive of a snapshot (issue 27 items 3–4; FN4): whole simulated games of the three
regulations, every snapshot cut to the hall's view as the relay sends it, checked against the host's copy of the
open question and against the final stakes before their reveal."""
from __future__ import annotations

import json

import pytest

from scoreboard.links.watch.hall_view import hall_view
from tests.headless import REGULATIONS, demo_games


@pytest.mark.parametrize("regulation", REGULATIONS)
def test_issue27_the_hall_view_never_holds_an_answer_or_an_unrevealed_stake(regulation):
    """GIVEN every snapshot of a whole simulated game with the host's card WHEN it is cut to the hall's view THEN
    its JSON holds no answer, accepted answer or comment of the open question, and a final stake only once that
    finalist is revealed; the scores and the question's topic and value are all there."""
    frames = demo_games()[regulation]
    stakes: dict[int, int] = {}
    for snap, _, _ in frames:
        for r in (snap.get("final") or {}).get("revealed") or []:
            stakes[r["seat"]] = r["stake"]
    checked = 0
    for snap, card, _ in frames:
        view = hall_view(snap)
        text = json.dumps(view, ensure_ascii=False)
        for secret in [(card or {}).get("answer"), (card or {}).get("comment"), *((card or {}).get("accepts") or [])]:
            if isinstance(secret, str) and len(secret.strip()) >= 3:
                assert secret not in text, (regulation, snap["phase"], secret)
                checked += 1
        revealed = {r["seat"] for r in ((view.get("final") or {}).get("revealed") or [])}
        assert set((view.get("final") or {})) <= {"kind", "topic", "eligible", "stakes_in", "deadline", "duration",
                                                  "writing", "revealed"}
        assert all(r["seat"] in revealed for r in ((view.get("final") or {}).get("revealed") or []))
        assert [p["score"] for p in view["players"]] == [p["score"] for p in snap["players"]]
        if snap.get("question"):
            assert view["question"]["value"] == snap["question"]["value"]
    assert checked > 20


def test_issue27_a_field_the_board_adds_reaches_no_viewer():
    """GIVEN a snapshot carrying a field nobody chose for the hall (a later board's, or a bug's) THEN the hall's view
    leaves it out: the projection names every field it copies."""
    snap = {"phase": "answering", "players": [{"seat": 1, "name": "А", "score": 10, "secret_note": "Волга"}],
            "question": {"value": 10, "topic_name": "Реки", "answer": "Волга"}, "host_card": {"answer": "Волга"}}
    assert "Волга" not in json.dumps(hall_view(snap), ensure_ascii=False)
