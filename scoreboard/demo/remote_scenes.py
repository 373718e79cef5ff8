"""Scenes of a real game for the remote's screenshots: a `Session` with the sample pack played to each phase.

Only `scoreboard.demo.remote_shots` uses this (it needs the board's engine, `scoreboard.session`); the remote itself
never imports the engine.
"""
from __future__ import annotations

from scoreboard.folders import shipped
from scoreboard.engine.commands import make
from scoreboard.engine.phases import Phase
from scoreboard.session import Session

SAMPLE_PACK = shipped("assets", "packs", "sample.toml")


def scenes():
    """Yield (name, snapshot, host question, render options) at the moments worth a screenshot."""

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
    yield scene("choosing", last_ack="верно: принято")
    go("/sg/select", 1, 2)
    yield scene("reading", last_ack="выбор вопроса: принято")
    go("/sg/reading/done")
    go("/sg/button", 3)
    yield scene("answering", last_ack="вопрос прочитан: принято")
    go("/sg/judge/wrong")
    yield scene("after-wrong", connection="retrying", pending=1, last_ack="неверно: принято")
    go("/sg/resume")
    go("/sg/button", 1)
    go("/sg/judge/right")
    yield scene("reveal", last_ack="верно: принято")
    yield scene("correction", pad_key="adjust:3", last_ack="верно: принято")
    # An auction: give everyone something to bid with first.
    for seat in (1, 2, 3):
        go("/sg/score/adjust", seat, 100, "пример")
    auction_cell = _auction_cell(session)
    go("/sg/select", *auction_cell) if auction_cell else go("/sg/select", 3, 3, "auction")
    if session.snapshot()["phase"] == Phase.AUCTION:
        turn = session.snapshot()["auction"]["turn"]
        yield scene("auction", pad_key=f"bid:{turn}", last_ack="выбор вопроса: принято")
    yield scene("lost", connection="lost", pending=2, ack_ok=False,
                last_ack="ставка: исход неизвестен, проверьте табло")
    # Play out both rounds quickly (time runs out on every question) to reach the final round.
    while session.snapshot()["phase"] == Phase.AUCTION:
        go("/sg/auction/pass", session.snapshot()["auction"]["turn"])
    if session.snapshot()["phase"] == Phase.AUCTION_ANSWER:
        go("/sg/judge/right")
    for _ in range(2):
        _clear_round(session, go)
        go("/sg/next")
    if session.snapshot()["phase"] != Phase.FINAL_STAKES:
        return
    eligible = session.snapshot()["final"]["eligible"]
    go("/sg/final/stake", eligible[0], 50)
    yield scene("final-stakes", pad_key=f"stake:{eligible[1]}", last_ack="ставка в финале: принято")
    for seat in eligible[1:]:
        go("/sg/final/stake", seat, 40)
    go("/sg/final/start")
    go("/sg/next")
    go("/sg/final/judge", eligible[0], "right")
    go("/sg/final/reveal", eligible[0])
    yield scene("final-reveal", last_ack="вскрытие: принято")


def sequential_scenes():
    """An america final (sequential order, 3 s answer limit, four players): the topic announcement and an answer."""

    session = Session()
    clock = [0.0]

    def go(address, *args):
        clock[0] += 0.3
        session.submit(make(clock[0], address, *args))

    go("/sg/game/new", "america-2005", "final", 4, 0)
    # the sample pack has 4 + 4 topics, an america final plays 8 + 4 (G3): topic names only, the host reads from paper (P3)
    go("/sg/topics", "Реки", "Флаги", "Химия", "Литература", "Космос", "Музыка", "Спорт", "Математика")
    for seat, name in ((1, "Дмитрий"), (2, "Елена"), (3, "Жанна"), (4, "Захар")):
        go("/sg/player/name", seat, name)
    go("/sg/game/start")
    go("/sg/next")
    yield "sequential-topic", session.snapshot(), session.host_question(), {"last_ack": "дальше: принято"}
    go("/sg/next")
    go("/sg/reading/done")
    go("/sg/button", 3)
    yield "sequential-answering", session.snapshot(), session.host_question(), {"last_ack": "вопрос прочитан: принято"}


def _clear_round(session, go):
    """Open every unplayed cell and let it close unanswered (auctions: passed to the chooser, judged right)."""
    while session.snapshot()["phase"] in (Phase.REVEAL, Phase.CHOOSING, Phase.ROUND_INTRO):
        snapshot = session.snapshot()
        cells = [(t, q) for t, topic in enumerate(snapshot["round"]["topics"], 1)
                 for q, cell in enumerate(topic["cells"], 1) if not cell["played"]]
        if not cells:
            return
        if snapshot["chooser"] is None:
            go("/sg/chooser", 1)
        go("/sg/select", *cells[0])
        while session.snapshot()["phase"] == Phase.AUCTION:
            go("/sg/auction/pass", session.snapshot()["auction"]["turn"])
        if session.snapshot()["phase"] == Phase.AUCTION_ANSWER:
            go("/sg/judge/right")
            continue
        go("/sg/reading/done")
        go("/sg/time")


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
