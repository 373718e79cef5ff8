"""Scenes of a real game for the remote's screenshots: a `Session` with the sample pack played to each phase.

Only `host_remote.screenshots` uses this (it needs the board's engine, `scoreboard.session`); the remote itself
never imports the engine.
"""
from __future__ import annotations

from pathlib import Path

SAMPLE_PACK = Path(__file__).resolve().parents[1] / "assets" / "packs" / "sample.toml"


def scenes():
    """Yield (name, snapshot, host question, render options) at the moments worth a screenshot."""
    from scoreboard.engine.commands import make
    from scoreboard.session import Session

    session = Session()
    clock = [0.0]

    def go(address, *args):
        clock[0] += 0.4
        session.submit(make(clock[0], address, *args))

    def scene(name, **extra):
        return name, session.snapshot(), session.host_question(), extra

    go("/sg/game/new", "novosibirsk-2007", "1/9", 3, 0)
    if SAMPLE_PACK.is_file():
        go("/sg/pack/load", str(SAMPLE_PACK))
    for seat, name in ((1, "Анна Петрова"), (2, "Борис"), (3, "Вера")):
        go("/sg/player/name", seat, name)
    go("/sg/game/start")
    go("/sg/chooser", 2)
    for topic, index, seat in ((1, 1, 1), (2, 1, 2)):
        go("/sg/select", topic, index)
        go("/sg/reading/done")
        go("/sg/button", seat)
        go("/sg/judge/right")
    yield scene("choosing", last_ack="#9 /sg/judge/right ok")
    go("/sg/select", 1, 2)
    yield scene("reading", last_ack="#10 /sg/select ok")
    go("/sg/reading/done")
    go("/sg/button", 3)
    yield scene("answering", last_ack="#11 /sg/reading/done ok")
    go("/sg/judge/wrong")
    yield scene("after-wrong", connection="retrying", pending=1, last_ack="#12 /sg/judge/wrong ok")
    go("/sg/resume")
    go("/sg/button", 1)
    go("/sg/judge/right")
    yield scene("reveal", last_ack="#15 /sg/judge/right ok")
    yield scene("correction", pad_key="adjust:3", last_ack="#15 /sg/judge/right ok")
    # An auction: give everyone something to bid with first.
    for seat in (1, 2, 3):
        go("/sg/score/adjust", seat, 100, "пример")
    auction_cell = _auction_cell(session)
    go("/sg/select", *auction_cell) if auction_cell else go("/sg/select", 3, 3, "auction")
    if session.snapshot()["phase"] == "auction":
        turn = session.snapshot()["auction"]["turn"]
        yield scene("auction", pad_key=f"bid:{turn}", last_ack="#19 /sg/select ok")
    yield scene("lost", connection="lost", pending=2, ack_ok=False,
                last_ack="#20 /sg/auction/bid: исход неизвестен, проверьте табло")


def _auction_cell(session):
    """The pack's auction cell of the first round (the snapshot hides it until chosen, AU1)."""
    plan = getattr(session.game, "plan", None)
    plan = plan() if callable(plan) else plan
    if not plan:
        return None
    topics = plan["rounds"][0]["topics"][:len(session.snapshot()["round"]["topics"])]
    for t, topic in enumerate(topics, start=1):
        for q, question in enumerate(topic["questions"], start=1):
            if question.get("auction"):
                return (t, q)
    return None
