"""Issue 27 item 2 (the hall sees the photo finish only when the host sends it), BZ11: the host's Python remote
offers «Фотофиниш на экран», says when it is on the hall's screens and offers «Убрать фотофиниш» then — drawn from a
real session, tapped headless (SDL dummy)."""
import pygame

from host_remote.ui import photo_finish
from host_remote.ui.control_screen import ControlScreen
from scoreboard.engine import make
from tests.host_remote.test_remote_photo_finish import close_call


def screen_of(session, view_only=False) -> ControlScreen:
    screen = ControlScreen(view_only=view_only)
    screen.set_state(session.snapshot(), session.rev)
    screen.question = session.host_question()
    return screen


def tap(screen, key):
    button = next(b for b in screen.buttons if b.payload.key == key)
    return button, screen.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.rect.center, button=1))


def test_issue27_bz11_the_remote_sends_the_photo_finish_to_the_hall_and_takes_it_away(pygame_display):
    """GIVEN a close call while seat 2 answers WHEN the host taps «Фотофиниш на экран» THEN the remote sends
    `/sg/photo/show`; GIVEN the board took it WHEN the remote gets the state THEN its photo finish says it is on the
    hall's screens and the button is «Убрать фотофиниш», whose tap is `/sg/photo/hide`; a view session gets neither."""
    s = close_call()
    screen = screen_of(s)
    button, sent = tap(screen, "photo:show")
    assert button.label == "Фотофиниш на экран" and sent == ("/sg/photo/show", ())
    assert "НА ЭКРАНЕ ЗАЛА" not in photo_finish.lines(screen.question, screen.snapshot)[0][0]
    s.submit(make(8, sent[0], *sent[1]))
    screen = screen_of(s)
    assert photo_finish.lines(screen.question, screen.snapshot)[0][0].endswith("· НА ЭКРАНЕ ЗАЛА")
    button, sent = tap(screen, "photo:hide")
    assert button.label == "Убрать фотофиниш" and sent == ("/sg/photo/hide", ())
    assert not [b for b in screen.buttons if b.payload.key == "photo:show"]
    screen.draw(pygame.Surface((1024, 600)))
    view = screen_of(s, view_only=True)
    assert not [b for b in view.buttons if b.payload.key.startswith("photo:")]
    s.submit(make(9, sent[0], *sent[1]))
    assert s.snapshot()["photo"] is None
