"""The hall never sees what it must not (issue 9 item 2, FN4) — with the photo finish on its screens (issue 27 item 2,
BZ11): whole simulated games of the three regulations in which the host sends the photo finish to the hall at every
answer, wrong answer and reveal it can (and sometimes takes it away); every snapshot's public form, every frame the
hall's screen draws of it, and the watch relay's view checked against the host's copy of the question and the final
stakes before their reveal."""
from __future__ import annotations

import json

import pygame
import pytest

from scoreboard.demo.game import play
from scoreboard.demo.simulated import Director, Step
from scoreboard.display import compose
from scoreboard.display.theme.load import load_theme
from scoreboard.engine import Refused
from scoreboard.links.watch.hall_view import hall_view
from scoreboard.session import Session
from tests.display.conftest import REGULATIONS

SHOWN_IN = {"answering", "after_wrong", "reveal"}


class Host(Director):
    """The demo's host, who also sends the photo finish to the hall whenever a question has presses to show."""

    def __init__(self, regulation):
        super().__init__(regulation)
        self.tried = None

    def decide(self, snap):
        if snap["phase"] in SHOWN_IN and self.tried != snap["rev"]:
            self.tried = snap["rev"]
            if snap.get("photo") is None:
                return Step(0.2, "/sg/photo/show")
            if snap["phase"] == "reveal" and snap["rev"] % 3 == 0:
                return Step(0.2, "/sg/photo/hide")
        return super().decide(snap)


class Refusing(Session):
    """A session on which a show with nothing to show is refused and play goes on (the host would tap again later)."""

    def submit(self, cmd):
        try:
            return super().submit(cmd)
        except Refused:
            if not cmd.address.startswith("/sg/photo/"):
                raise


@pytest.fixture(scope="module")
def photo_games():
    out = {}
    for regulation in REGULATIONS:
        session, frames = Refusing(), []
        play(session, Host(regulation),
             lambda at, snap, step, s=session, f=frames: f.append((snap, s.host_question(), at)))
        out[regulation] = frames
    return out


def _secrets(host_question) -> list[str]:
    texts = [(host_question or {}).get("answer") or "", (host_question or {}).get("comment") or ""]
    texts += [a for a in (host_question or {}).get("accepts") or [] if isinstance(a, str)]
    return [t for t in texts if len(t.strip()) >= 3]


@pytest.mark.parametrize("regulation", REGULATIONS)
def test_issue27_fn4_the_hall_photo_finish_never_holds_an_answer_or_a_stake(photo_games, regulation):
    """GIVEN every snapshot of a whole game in which the host shows the photo finish to the hall wherever it can
    WHEN its `photo` is read, the hall's screen draws it and the watch relay cuts it to the hall's view THEN the public
    form holds only presses (seat, source, bound, times, outcome, close call) and the question's place and value —
    no answer, accepted answer or comment of the open question in its JSON or in any text drawn; it is never there
    in an auction, the final (no stake can be near it) or at the end; the relay does not pass it on (the phones and the
    stream's overlay do not draw it)."""
    frames = photo_games[regulation]
    theme = load_theme("classic")
    surface = pygame.Surface((1280, 720))
    shown = drawn = checked = 0
    for snap, card, at in frames:
        photo = snap.get("photo")
        assert "photo" not in hall_view(snap)
        if photo is None:
            continue
        shown += 1
        assert snap["phase"] in SHOWN_IN | {"round_intro", "choosing", "topic_intro"}, snap["phase"]
        assert set(photo) == {"of", "round", "topic", "index", "value", "topic_name", "close", "presses", "more",
                              "named"}
        for press in photo["presses"]:
            assert set(press) == {"seat", "source", "bound_ms", "after_ms", "behind_ms", "outcome", "close"}
        text = json.dumps(photo, ensure_ascii=False)
        secrets = _secrets(card)
        assert not [s for s in secrets if s in text], (regulation, snap["phase"])
        checked += bool(secrets)
        if compose.scene_name(snap) != "photo":
            continue
        canvas = compose.draw(surface, snap, theme, at + 0.5, "audience", host_question=card, record=True)
        for d in canvas.texts():
            assert not [s for s in secrets if s in d.text], (regulation, snap["phase"], d.tag, d.text)
        drawn += 1
    assert shown > 10 and drawn > 10 and checked > 5, (shown, drawn, checked)
