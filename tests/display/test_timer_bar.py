"""The draining bar of a running clock is sized from the snapshot alone (`question.duration`, `final.duration`):
a follower that has no regulation preset on its disk draws the same bar as the board."""
import pygame
import pytest

import scoreboard.regulations
from scoreboard.display import compose
from scoreboard.display.theme.load import load_theme

SIZE = (1280, 720)


@pytest.fixture
def no_presets(monkeypatch):
    """No regulation file can be read (a follower machine without the presets): any attempt fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("a scene read a regulation file")
    monkeypatch.setattr(scoreboard.regulations, "load_regulation", refuse)
    monkeypatch.setattr(scoreboard.regulations, "load_regulation_file", refuse)


def bar_share(snapshot, now, tag="timer"):
    canvas = compose.draw(pygame.Surface(SIZE), snapshot, load_theme("classic"), now, record=True, animate=False)
    track = canvas.tagged(f"{tag}:track")[0].rect
    bar = canvas.tagged(f"{tag}:bar")
    return (bar[0].rect.w / track.w) if bar else 0.0, track


def test_bz2_bz5_bar_follows_the_snapshot_duration_with_the_extension(games, no_presets):
    """GIVEN america's answer clocks (BZ5: 3 s, then +2 s) and windows (BZ2, 5 s) from a real game, on a screen
    with no presets and the regulation renamed to one nobody has WHEN drawn mid-clock THEN the bar's share of its
    track is the time left over `question.duration` (3 + 2 = 5 s once extended)."""
    checked = extended = 0
    for snap, _, at in games["america-2005"]:
        q = snap.get("question") or {}
        if snap["phase"] not in ("answering", "buzz_window") or q.get("deadline") is None:
            continue
        snap = dict(snap, regulation="club-preset-not-here")
        now = at + 0.4
        share, track = bar_share(snap, now)
        left = max(0.0, q["deadline"] - now)
        assert q["duration"] == (3.0 + q["extended"] if snap["phase"] == "answering" else 5.0)
        assert share == pytest.approx(left / q["duration"], abs=2 / track.w + 0.01)
        checked += 1
        extended += bool(q.get("extended"))
    assert checked >= 5 and extended


def test_fn2_final_answer_bar_uses_final_duration(games, no_presets):
    """GIVEN the novosibirsk final round's writing clock (FN2) WHEN drawn 10 s in THEN the bar shows the share of
    `final.duration` left; with the duration doubled in the snapshot the same moment shows a fuller bar."""
    snap, _, at = next(x for x in games["novosibirsk-2007"] if x[0]["phase"] == "final_answer"
                       and x[0]["final"]["deadline"] is not None)
    final = snap["final"]
    now = final["deadline"] - final["duration"] + 10
    share, _ = bar_share(snap, now, "final:timer")
    assert share == pytest.approx((final["duration"] - 10) / final["duration"], abs=0.02)
    longer, _ = bar_share(dict(snap, final=dict(final, duration=final["duration"] * 2)), now, "final:timer")
    assert longer == pytest.approx((final["duration"] - 10) / (final["duration"] * 2), abs=0.02)
