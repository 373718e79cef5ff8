"""A remote that never misleads (issue 9 item 4): within a phase no button moves, and long names never leave
their rectangles — walked through whole games of novosibirsk (auction, final round) and america (answer limit,
extension, super-question) with real names up to 80 characters."""
from __future__ import annotations

import pygame
import pytest
from remote_engine_game import EngineGame

from host_remote.actions import QUESTION_PHASES
from host_remote.ui import widgets as w
from host_remote.ui.control_screen import ControlScreen

NAMES = ("Вера Смирнова-Оболенская", ("Анна-Мария Константинопольская-Тер-Оганесян " * 2)[:80],
         ("Александр Преображенский-Верхнеднепровский " * 2)[:80])
WATCHED = ("judge_right", "judge_wrong", "reading_done", "time", "resume", "extend", "clarify", "final_start",
           "undo", "manual", "pause")
WATCHED_PREFIX = ("stake:", "bid:", "allin:", "pass:", "final_right:", "final_wrong:", "final_reveal:", "adjust:",
                  "assign:", "chooser:")


class Watch:
    """Draws the remote for every state it is shown; remembers each watched button's rectangle per phase."""

    def __init__(self) -> None:
        self.rects: dict[tuple, tuple[pygame.Rect, str]] = {}
        self.states = 0
        self.phases: set[str] = set()

    def see(self, game: EngineGame, where: str) -> None:
        snapshot = game.snapshot
        screen = ControlScreen("192.168.1.20:9000")
        screen.set_state(snapshot, snapshot["rev"])
        screen.question = game.session.host_question()
        w.TRACE = []
        try:
            screen.draw(pygame.Surface(w.DESIGN))
            trace = w.TRACE
        finally:
            w.TRACE = None
        for rect, box, text in trace:
            assert box.contains(rect), f"{where}: «{text}» {rect} leaves {box}"
        phase = snapshot["phase"]
        family = "question" if phase in QUESTION_PHASES else phase   # one question, one set of places
        for button in screen.buttons:
            key = button.payload.key
            if key in WATCHED or key.startswith(WATCHED_PREFIX):
                seen = self.rects.setdefault((family, key), (button.rect, where))
                assert seen[0] == button.rect, f"{key} moved in {family}: {seen[0]} at {seen[1]}, {button.rect} at {where}"
        self.states += 1
        self.phases.add(phase)


@pytest.fixture(autouse=True)
def _fonts():
    pygame.font.init()
    yield


def named_game(regulation: str, stage: str) -> EngineGame:
    g = EngineGame()
    g.go("/sg/game/new", regulation, stage, 3, 0)
    for seat, name in enumerate(NAMES, start=1):
        g.go("/sg/player/name", seat, name)
    return g


def test_bz1_bz6_au_fn2_novosibirsk_buttons_keep_their_places_and_long_names_fit():
    """BZ1–BZ9, AU2–AU5, FN2, FN4: GIVEN a novosibirsk 1/9 game with names of 24–80 characters
    WHEN it is played through every phase and sub-state (reading, reading ended, a wrong answer, manual mode, a
    verdict, auction bids and passes, the auction answer read then judged, final stakes entered one by one,
    writing, verdicts and reveals one at a time)
    THEN the verdict, read, stake, bid and tool buttons keep their rectangles within each phase (the question's
    phases share one set), and no drawn text leaves its rectangle."""
    watch = Watch()
    g = named_game("novosibirsk-2007", "1/9")
    g.go("/sg/game/start")
    watch.see(g, "round intro")
    g.go("/sg/chooser", 2)
    watch.see(g, "chooser set")
    g.go("/sg/select", 1, 1)
    watch.see(g, "reading")
    g.go("/sg/reading/done")
    watch.see(g, "buzz window")
    g.go("/sg/button", 1)
    watch.see(g, "answering")
    g.go("/sg/judge/wrong")
    watch.see(g, "after wrong")
    g.go("/sg/buttons/manual", 1)
    watch.see(g, "after wrong, manual")
    g.go("/sg/buttons/manual", 0)
    g.go("/sg/resume")
    watch.see(g, "resumed")
    g.go("/sg/button", 2)
    watch.see(g, "second answer")
    g.go("/sg/judge/right")
    watch.see(g, "reveal")
    g.clear_round(visit=lambda game: watch.see(game, "blue cell"))
    g.go("/sg/next")
    for seat in (1, 2, 3):
        g.go("/sg/score/adjust", seat, 100 + 10 * seat, "test")
        watch.see(g, f"corrected {seat}")
    if g.snapshot["chooser"] is None:
        g.go("/sg/chooser", 1)
    g.go("/sg/select", 1, 3, "auction")
    watch.see(g, "auction opened")
    g.go("/sg/auction/bid", g.snapshot["auction"]["turn"], g.snapshot["auction"]["stake"] + 10)
    watch.see(g, "auction after a bid")
    while g.snapshot["phase"] == "auction":
        g.go("/sg/auction/pass", g.snapshot["auction"]["turn"])
        watch.see(g, "auction pass")
    assert g.snapshot["phase"] == "auction_answer"
    if g.snapshot["question"].get("reading"):
        g.go("/sg/reading/done")
        watch.see(g, "auction answer, read")
    g.go("/sg/judge/right")
    watch.see(g, "auction judged")
    g.clear_round(visit=lambda game: watch.see(game, "red cell"))
    g.go("/sg/next")
    assert g.snapshot["phase"] == "final_stakes"
    watch.see(g, "final stakes")
    eligible = g.snapshot["final"]["eligible"]
    for seat in eligible:
        g.go("/sg/final/stake", seat, 10)
        watch.see(g, f"stake {seat} in")
    g.go("/sg/final/start")
    watch.see(g, "writing")
    g.go("/sg/next")
    watch.see(g, "final reveal")
    for seat in eligible:
        g.go("/sg/final/judge", seat, "right" if seat == eligible[0] else "wrong")
        watch.see(g, f"final judged {seat}")
        g.go("/sg/final/reveal", seat)
        watch.see(g, f"final revealed {seat}")
    assert g.snapshot["phase"] == "game_over"
    assert {"reading", "buzz_window", "answering", "after_wrong", "reveal", "auction", "auction_answer",
            "final_stakes", "final_answer", "final_reveal", "game_over"} <= watch.phases
    assert ("question", "judge_right") in watch.rects and ("final_stakes", "stake:1") in watch.rects


def test_bz5_fn3_america_extension_and_super_question_keep_their_places():
    """BZ5, BZ10, FN3: GIVEN an america final with 80-character names
    WHEN a question is read, answered with the 3 s limit, extended, judged; then the super-question's stakes go
    in one by one and the 20 s of writing run
    THEN «Верно», «+3 с» and the stake buttons keep their rectangles and no text leaves its rectangle."""
    watch = Watch()
    g = named_game("america-2005", "final")
    g.go("/sg/game/start")
    g.go("/sg/next")
    watch.see(g, "topic intro")
    g.go("/sg/next")
    watch.see(g, "reading")
    g.go("/sg/reading/done")
    watch.see(g, "buzz window")
    g.go("/sg/button", 1)
    watch.see(g, "answering, 3 s")
    g.go("/sg/answer/extend", 3.0)
    watch.see(g, "extended")
    g.go("/sg/judge/right")
    while g.snapshot["phase"] in ("round_intro", "topic_intro", "reveal", "reading"):
        if g.snapshot["phase"] == "reading":
            g.go("/sg/reading/done")
            g.go("/sg/button", 2)
            watch.see(g, "answering")
            g.go("/sg/judge/right")
        else:
            g.go("/sg/next")
    assert g.snapshot["final"]["kind"] == "super_question"
    watch.see(g, "super stakes")
    for seat in g.snapshot["final"]["eligible"]:
        g.go("/sg/final/stake", seat, 0)
        watch.see(g, f"stake {seat}")
    g.go("/sg/final/start")
    watch.see(g, "writing 20 s")
    assert ("question", "extend") in watch.rects


def test_fn2_final_countdown_shows_the_writing_time():
    """FN2: GIVEN the final round's writing WHEN the host screen draws THEN a countdown from 30 s shows."""
    g = named_game("novosibirsk-2007", "1/9")
    g.go("/sg/game/start")
    g.go("/sg/chooser", 1)
    g.clear_round()
    g.go("/sg/next")
    for seat in (1, 2, 3):
        g.go("/sg/score/adjust", seat, 50, "test")
    g.clear_round()
    g.go("/sg/next")
    for seat in g.snapshot["final"]["eligible"]:
        g.go("/sg/final/stake", seat, 10)
    g.go("/sg/final/start")
    screen = ControlScreen()
    screen.set_state(g.snapshot, g.snapshot["rev"])
    screen.received_at -= 0   # drawn at once: the board's time is the snapshot's
    left = float(screen._countdown().split()[0])
    assert 29.0 <= left <= 30.0


def test_g6_marks_match_the_verdicts():
    """G6, BZ4: GIVEN seat 2 answered wrong and seat 3 right WHEN the remote draws the scores THEN seat 2 has ✗
    and seat 3 ✓ (with the choice ★), seat 1 no mark."""
    g = named_game("novosibirsk-2007", "1/9")
    for address, *args in (("/sg/game/start",), ("/sg/chooser", 1), ("/sg/select", 1, 1), ("/sg/reading/done",),
                           ("/sg/button", 2), ("/sg/judge/wrong",), ("/sg/resume",), ("/sg/button", 3),
                           ("/sg/judge/right",)):
        g.go(address, *args)
    screen = ControlScreen()
    screen.set_state(g.snapshot, g.snapshot["rev"])
    w.TRACE = []
    try:
        screen.draw(pygame.Surface(w.DESIGN))
        rows = [text for _, _, text in w.TRACE if text[:2] in ("1.", "2.", "3.")]
    finally:
        w.TRACE = None
    assert rows[0].startswith("1. Вера") and rows[1].startswith("2. ✗ ") and rows[2].startswith("3. ★ ✓ ")


def test_g8_undo_says_what_it_undoes_and_undoes_exactly_that():
    """G8: GIVEN the remote's accepted commands: a correction, then «Верно» for seat 3 (+10)
    WHEN «Отменить» is drawn, then the undo is accepted by the real engine
    THEN it reads «Отменить: верно +10» with seat 3's name; the engine's undo takes back that verdict (seat 3 back to
    0, the correction kept) and the label then names the host's command before it (the reading's end)."""
    from host_remote.undo_label import UndoLog
    g = named_game("novosibirsk-2007", "1/9")
    log = UndoLog()
    for address, *args in (("/sg/game/start",), ("/sg/chooser", 1), ("/sg/score/adjust", 2, 5, "дуаль"),
                           ("/sg/select", 1, 1), ("/sg/reading/done",), ("/sg/button", 3), ("/sg/judge/right",)):
        g.go(address, *args)
        log.accepted(address, tuple(args))
    assert log.parts(g.snapshot) == ("Отменить: верно +10", NAMES[2])
    g.go("/sg/undo")
    log.accepted("/sg/undo", ())
    assert [p["score"] for p in g.snapshot["players"]] == [0, 5, 0]
    # the press and the reading went with the verdict (undo takes back the last host command and what followed)
    assert log.label(g.snapshot) == "Отменить: вопрос прочитан"
    g.go("/sg/undo")
    assert g.snapshot["phase"] == "reading"   # and that is what the engine took back next
