"""Real board journals for tournament tests: a samara cup game played through `scoreboard.session.Session`."""
from __future__ import annotations

from scoreboard.engine import make
from scoreboard.session import Session


def play_samara_game(journal_path, names: list[str], answers_by_topic: dict[int, int], finish: bool = True,
                     extra_topic_seat: int | None = None, stage: str = "cup",
                     adjust: tuple[int, int] | None = None) -> dict:
    """4 topics; topic k's five questions all go to seat answers_by_topic.get(k) (or nobody).

    A tie for the win goes to an extra topic (TB3) whose questions all go to `extra_topic_seat`.
    `adjust` (seat, points): the host corrects that score (G8) before the game ends.
    """
    session = Session(journal_path)
    clock = [0.0]

    def do(address, *args):
        clock[0] += 0.5
        return session.submit(make(clock[0], address, *args))

    do("/sg/game/new", "samara-2003", stage, len(names), 7)
    for seat, name in enumerate(names, start=1):
        do("/sg/player/name", seat, name)
    do("/sg/topics", "A", "B", "C", "D")
    snap = do("/sg/game/start")
    for topic in range(1, 5):
        for q in range(1, 6):
            do("/sg/select", topic, q)
            do("/sg/reading/done")
            seat = answers_by_topic.get(topic)
            if seat:
                do("/sg/button", seat)
                snap = do("/sg/judge/right")
            else:
                snap = do("/sg/time")
    if adjust:
        snap = do("/sg/score/adjust", adjust[0], adjust[1], "апелляция")
    if not finish:
        return snap
    snap = do("/sg/next")
    if not snap["game_over"] and snap["round"]["tiebreak"]:
        for q in range(1, 6):
            do("/sg/select", 1, q)
            do("/sg/reading/done")
            do("/sg/button", extra_topic_seat)
            snap = do("/sg/judge/right")
            if snap["game_over"]:
                break
        if not snap["game_over"]:
            snap = do("/sg/next")
    return snap
