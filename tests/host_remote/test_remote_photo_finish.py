"""Issue 27 item 2 (BZ11): the host's remote shows the photo finish under the question and offers to name the other
player of a close call — drawn from a real session's host question, tapped headless (SDL dummy)."""
import pygame

from host_remote.ui import photo_finish
from host_remote.ui.control_screen import ControlScreen
from scoreboard.engine import make
from scoreboard.session import Session


def close_call() -> Session:
    """A novosibirsk question: seat 2's key, seat 1's phone 12 ms later (± 17 and ± 28 ms), seat 3's box 31 ms later."""
    s = Session()
    for at, address, *args in [(0, "/sg/game/new", "novosibirsk-2007", "1/9", 3), (1, "/sg/game/start"),
                               (1, "/sg/chooser", 1), (3, "/sg/select", 1, 1), (6, "/sg/reading/done"),
                               (7.204, "/sg/button", 2, "key", 17), (7.216, "/sg/button", 1, "phone", 28),
                               (7.247, "/sg/button", 3, "box", 2)]:
        s.submit(make(at, address, *args))
    return s


def test_the_remote_lists_the_presses_and_taps_name_instead(pygame_display):
    """GIVEN the host's question of a close call WHEN the play screen takes it THEN its lines list the three presses
    in order with their sources and bounds and the close call's gap, and «Назвать: Игрок 1» is a button whose tap is
    `/sg/answerer 1`; WHEN the host has named seat 1 THEN the only such button names seat 2 back (a change of mind
    before the verdict) and the lines say who was named; a view session gets no button."""
    s = close_call()
    screen = ControlScreen()
    screen.set_state(s.snapshot(), s.rev)
    screen.question = s.host_question()
    texts = [text for text, _ in photo_finish.lines(screen.question, screen.snapshot)]
    assert texts[1].startswith("СПОРНО: 12.0 мс, погрешность ±45 мс")
    assert "клавиша ±17" in texts[2] and "≈ первый" in texts[2] and "телефон ±28" in texts[3]
    assert "+31.0 мс" in texts[4] and "кнопка ±2" in texts[4]
    button = next(b for b in screen.buttons if b.payload.key == "answerer:1")
    assert button.label == "Назвать: Игрок 1"
    assert screen.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.rect.center, button=1)) == (
        "/sg/answerer", (1,))
    screen.draw(pygame.Surface((1024, 600)))
    s.submit(make(8, "/sg/answerer", 1))
    screen.set_state(s.snapshot(), s.rev)
    screen.question = s.host_question()
    assert [b.payload.key for b in screen.buttons if b.payload.key.startswith("answerer:")] == ["answerer:2"]
    assert any("вместо" in text for text, _ in photo_finish.lines(screen.question, screen.snapshot))
    view = ControlScreen(view_only=True)
    view.set_state(s.snapshot(), s.rev)
    view.question = s.host_question()
    assert not [b for b in view.buttons if b.payload.key.startswith("answerer:")]
