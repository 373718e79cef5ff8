"""The hall's phones' QR code on the audience screen (issue 27 item 4): only between games, on the logo, never over
anything the scene drew."""
from __future__ import annotations

import pygame

from scoreboard.display import compose
from scoreboard.display.theme.load import load_theme

STATUS = {"watch": {"url": "http://192.168.1.20:8090/watch", "qr": "http://192.168.1.20:8090/watch#k=" + "A" * 22}}


def _qr(canvas):
    return [d for d in canvas.log if d.tag == "watch:qr" and d.kind == "image"]


def test_issue27_4_the_qr_only_between_games_and_over_nothing(games):
    """GIVEN every snapshot of a whole simulated game and the relay's link in the status WHEN the audience screen
    draws each (and the logo, scores, chart and winner screens after the game) THEN the QR is drawn exactly in
    `setup` on the logo and after the game on the logo — never while a game runs — and no text or panel the scene
    drew meets its square; without the link no QR at all."""
    theme = load_theme("classic")
    surface = pygame.Surface((1920, 1080))
    frames = games["novosibirsk-2007"]
    over = frames[-1][0]
    cases = [(snap, at) for snap, _, at in frames[:: max(1, len(frames) // 60)]]
    cases += [(dict(over, screen=s), frames[-1][2] + 60) for s in ("logo", "scores", "chart", "winner", "board")]
    drawn = 0
    for snap, at in cases:
        canvas = compose.draw(surface, snap, theme, at, "audience", status=STATUS, record=True)
        qr = _qr(canvas)
        between = snap["phase"] in ("setup", "game_over") and (snap.get("screen") == "logo" or (
            snap["phase"] == "setup" and snap.get("screen", "board") == "board"))
        assert bool(qr) == between, (snap["phase"], snap.get("screen"))
        if qr:
            drawn += 1
            square = qr[0].rect
            assert square.w >= 1080 * 0.15 and surface.get_rect().contains(square)
            for d in canvas.log:
                if d.tag.startswith("watch:qr") or d.kind not in ("text", "image", "fill") or d.tag in ("background", "") or d.rect == surface.get_rect():
                    continue
                assert not d.rect.colliderect(square), (snap["phase"], d.kind, d.tag, d.text)
        none = compose.draw(surface, snap, theme, at, "audience", status={}, record=True)
        assert not _qr(none)
    assert drawn >= 2, "before the game and after it, on the logo"
