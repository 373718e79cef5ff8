"""A disputed game for the protocol's tests: novosibirsk 1/9 with hostile names, a false start and a press the
lockout ignored (BZ7), a press with its source and bound (BZ11), an auction with bids and passes (AU), a correction
and a re-judging (G8), an undo, a round without its auction, the final with stakes (FN). The same commands drive a
bare session (fast) and the real board (the presses then come from the fake box)."""
from __future__ import annotations

from pathlib import Path

from scoreboard.engine.commands import make
from scoreboard.session import Session

HOSTILE = '<b>Ёж</b> & "Ко" <script>x</script>'
FORMULA = '=HYPERLINK("http://evil")'
TOPICS = ("Реки", "<img src=x onerror=alert(1)>", "Птицы", "Кино")
NAMES = (HOSTILE, "Борис", FORMULA)

# ("box", seat): a press of the box (on a session: `/sg/button seat`); anything else is the host's command.
OPENING = [("/sg/game/new", "novosibirsk-2007", "1/9", 3, 0), *[("/sg/player/name", i + 1, n) for i, n in
                                                                enumerate(NAMES)],
           ("/sg/topics", *TOPICS), ("/sg/game/start",), ("/sg/chooser", 1)]
DISPUTES = [
    # Q1 (topic 1, 10): seat 2 wrong; seat 1 presses too early (false start) twice,
    # then in the new window while still locked (ignored); seat 3 right
    ("/sg/select", 1, 1), ("/sg/reading/done",), ("box", 2), ("/sg/judge/wrong",), ("box", 1), ("box", 1),
    ("/sg/resume",), ("box", 1), ("box", 3), ("/sg/judge/right",),
    # Q2 (topic 1, 50): a press from a phone with its error bound (BZ11)
    ("/sg/select", 1, 5), ("/sg/reading/done",), ("/sg/button", 1, "phone", 40), ("/sg/judge/right",),
    # Q3 (topic 2, 50)
    ("/sg/select", 2, 5), ("/sg/reading/done",), ("box", 2), ("/sg/judge/right",),
    # Q4 (topic 1, 20) the auction: seat 2 bids 30, seat 3 cannot outbid, seat 1 bids 35, seat 2 passes; wrong;
    # the host re-judges it right, then corrects seat 3 by +5
    ("/sg/select", 1, 2, "auction"), ("/sg/auction/bid", 2, 30), ("/sg/auction/bid", 1, 35),
    ("/sg/auction/pass", 2), ("/sg/reading/done",), ("/sg/judge/wrong",), ("/sg/rejudge", 1, "right"),
    ("/sg/score/adjust", 3, 5, "счёт: ошибка табло"),
    # Q5 (topic 3, 10): seat 3 judged right, the host takes it back (undo) and judges wrong
    ("/sg/select", 3, 1), ("/sg/reading/done",), ("box", 3), ("/sg/judge/right",), ("/sg/undo",),
    ("/sg/judge/wrong",), ("/sg/time",),
]


def fillers(cells: list[tuple[int, int]]) -> list[tuple]:
    """The rest of a round, each cell closed unanswered by «Время» at once."""
    out = []
    for topic, index in cells:
        out += [("/sg/select", topic, index), ("/sg/time",)]
    return out


def commands(names: tuple[str, ...] = NAMES) -> list[tuple]:
    played = {(1, 1), (1, 5), (2, 5), (1, 2), (3, 1)}
    round1 = [(t, i) for t in range(1, 5) for i in range(1, 6) if (t, i) not in played]
    round2 = [(t, i) for t in range(1, 5) for i in range(1, 6) if (t, i) != (4, 5)]
    red = [("/sg/select", 4, 5), ("/sg/reading/done",), ("box", 2), ("/sg/judge/right",)]   # seat 2 +100
    final = [("/sg/next",), ("/sg/final/stake", 1, 30), ("/sg/final/stake", 2, 20), ("/sg/final/stake", 3, 5),
             ("/sg/final/start",), ("/sg/time",), ("/sg/final/judge", 1, "wrong"), ("/sg/final/judge", 2, "right"),
             ("/sg/final/judge", 3, "right"), ("/sg/final/reveal", 1), ("/sg/final/reveal", 2), ("/sg/final/reveal", 3)]
    opening = [("/sg/player/name", c[1], names[c[1] - 1]) if c[0] == "/sg/player/name" else c for c in OPENING]
    return (opening + DISPUTES + fillers(round1) + [("/sg/next",), ("/sg/topics", "Горы", "Флаги", "Химия", "Слова"),
                                                    ("/sg/next",), ("/sg/auction/waive",)]
            + red + fillers(round2) + final)


def on_session(path: Path, upto: int | None = None, names: tuple[str, ...] = NAMES) -> Path:
    """The disputed game (its first `upto` commands) journaled by a bare session, half a second apart."""
    session = Session(path)
    try:
        for k, command in enumerate(commands(names)[:upto]):
            address, *args = ("/sg/button", command[1]) if command[0] == "box" else command
            session.submit(make(0.5 * (k + 1), address, *args))
    finally:
        session.close()
    return path
