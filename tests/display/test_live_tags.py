"""What moves with time alone is said in two places — `compose.frame_key` (when a screen draws again) and
`screens.LIVE_TAGS` (which boxes a tick redraws on a screen without kept tiles, the host's) — and this proves them
equal over whole demo games of the three regulations (issue 23): BZ7's lockouts, the 5 s window (BZ3), the answer
clock, the final's writing time (FN2), the host's elapsed clock and the status lines."""
from __future__ import annotations

from collections import Counter

import pygame
import pytest

from scoreboard.display import compose
from scoreboard.display.screens import LIVE_TAGS, live_boxes
from scoreboard.display.theme.load import load_theme
from scoreboard.engine.phases import Phase

ROLES = ("audience", "players", "host")
LATER = (0.4, 1.3, 3.1)      # seconds after the snapshot's moment: a digit, a second, a lockout's end


def _live(tag: str) -> str | None:
    return next((prefix for prefix in LIVE_TAGS if tag.startswith(prefix)), None)


def _pairs(games):
    """(snapshot, host question, t, t later, role): every moment with a lockout on (BZ7) or of the final's writing
    (FN2) — the rarest movers — every fourth other moment whose key moves within LATER (the clocks tick alike from one to the next), and every 60th
    moment that moves not at all (a frame that must stay still is tried too)."""
    theme = load_theme("classic")
    for frames in games.values():
        for n, (snapshot, host_question, at) in enumerate(frames):
            rare = (snapshot.get("phase") == Phase.FINAL_ANSWER
                    or any(p.get("locked_until") is not None for p in snapshot.get("players") or []))
            for role in ROLES:
                moves = any(compose.frame_key(snapshot, at, theme, role)
                            != compose.frame_key(snapshot, at + dt, theme, role) for dt in LATER)
                if rare or (moves and n % 4 == 0) or n % 60 == 0:
                    for dt in LATER:
                        yield snapshot, host_question, at, at + dt, role


@pytest.fixture(scope="module")
def moved(games):
    """Per pair: the keys at both times and what each drew (the fade's steps apart: a fade is redrawn whole)."""
    theme = load_theme("classic")
    surface = pygame.Surface((320, 180))
    out = []
    for snapshot, host_question, t1, t2, role in _pairs(games):
        k1, k2 = (compose.frame_key(snapshot, t, theme, role) for t in (t1, t2))
        if k1[-1] or k2[-1]:
            continue
        logs = [compose.draw(surface, snapshot, theme, t, role, host_question=host_question, record=True).log
                for t in (t1, t2)]
        out.append((snapshot["phase"], role, k1, k2, logs))
    return out


def _entries(log):
    return {(d.kind, d.tag, d.text, tuple(d.rect)) for d in log}


def test_whatever_moves_with_time_is_under_a_live_tag(moved):
    """GIVEN a snapshot drawn at two moments WHEN the live boxes stay where they were (a lockout line that ends
    moves the layout: then the screen draws it all) THEN every drawing that differs has a LIVE_TAGS tag."""
    outside = [(phase, role, entry) for phase, role, _, _, (a, b) in moved if live_boxes(a) == live_boxes(b)
               for entry in _entries(a) ^ _entries(b) if _live(entry[1]) is None]
    assert len(moved) > 500 and outside == []


def test_the_frame_key_moves_whenever_a_live_text_does(moved):
    """GIVEN a snapshot drawn at two moments WHEN its frame key is the same THEN every text drawn is the same (a
    timer bar may be a few pixels longer: it steps with the digits)."""
    texts = [(phase, role) for phase, role, k1, k2, (a, b) in moved if k1 == k2
             and {(d.tag, d.text) for d in a if d.kind == "text"} != {(d.tag, d.text) for d in b if d.kind == "text"}]
    assert texts == []


def test_every_live_tag_moves_in_a_game(moved):
    """GIVEN whole demo games of the three regulations THEN each LIVE_TAGS prefix names something seen moving with
    time (no stale entry that would redraw for nothing)."""
    seen = Counter(_live(entry[1]) for _, _, _, _, (a, b) in moved for entry in _entries(a) ^ _entries(b))
    assert {prefix for prefix in LIVE_TAGS if not seen[prefix]} == set()
