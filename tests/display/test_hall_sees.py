"""The hall sees what happens (issue 9 item 5): an auction's stake and the word «аукцион» while it is answered
(AU5, AU6), the manual-mode badge beside — never over — the question's value (BZ9), «Жмите!» only while the buttons
are live (BZ1, BZ2, BZ9)."""
import pygame

from scoreboard.display import compose
from scoreboard.display.theme.load import load_theme

THEME = load_theme("classic")


def _frame(games, phase):
    for snap, host_question, at in games["novosibirsk-2007"]:
        if snap["phase"] == phase:
            return dict(snap), at
    raise AssertionError(f"no {phase} in the game")


def _texts(snap, at, role="audience"):
    canvas = compose.draw(pygame.Surface((1280, 720)), snap, THEME, at, role, record=True)
    return canvas


def test_au6_an_auction_nobody_could_outbid_still_says_auction_and_its_stake(games):
    """GIVEN an auction answered at the nominal because nobody could outbid (AU6: no bidding was shown)
    WHEN the audience screen draws the answer THEN it says «аукцион» with the stake, besides who answers."""
    snap, at = _frame(games, "auction_answer")
    snap["auction"] = dict(snap["auction"], stake=snap["auction"]["nominal"], passed=[], allin=False)
    canvas = _texts(snap, at)
    label = canvas.texts("answering:label")[0].text
    assert THEME.text("auction").lower() in label.lower() and str(snap["auction"]["nominal"]) in label


def test_bz9_manual_badge_never_covers_the_question_value(games):
    """GIVEN a question being read in manual mode (buttons off) WHEN the audience draws it THEN the manual badge's box
    touches neither the header's value nor the big value."""
    for phase in ("reading", "buzz_window", "answering"):
        snap, at = _frame(games, phase)
        snap.update(buttons_manual=True, buttons_live=False)
        canvas = _texts(snap, at)
        badge = canvas.tagged("badge:manual:back")[0].rect
        values = canvas.texts("qheader:right") + canvas.texts("question:value")
        assert values, phase
        assert not any(badge.colliderect(v.rect) for v in values), (phase, badge, [v.rect for v in values])


def test_bz1_press_is_never_shown_while_the_buttons_are_off(games):
    """GIVEN the 5 s window WHEN the buttons are live THEN «Жмите!» shows on the audience and players screens; WHEN
    they are off (manual mode) THEN neither screen shows it, and the audience reads the manual-mode words instead."""
    snap, at = _frame(games, "buzz_window")
    press = THEME.text("press").lower()
    assert snap["buttons_live"] is True
    for role in ("audience", "players"):
        assert any(press in d.text.lower() for d in _texts(snap, at, role).texts())
    snap.update(buttons_manual=True, buttons_live=False)
    for role in ("audience", "players"):
        drawn = _texts(snap, at, role).texts()
        assert not any(press in d.text.lower() for d in drawn), role
    assert _texts(snap, at).texts("question:press")[0].text == THEME.text("manual")
