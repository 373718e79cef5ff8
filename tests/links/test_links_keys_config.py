"""Keyboard/gamepad seats (BZ9's rehearsal/backup path) and the [osc]/[buttons] config keys."""
import pygame
import pytest

from scoreboard.links import Inbox, Links, validate
from scoreboard.links.config import resolve
from scoreboard.links.keys import KeySeats


@pytest.fixture
def pg():
    was = pygame.display.get_init()
    pygame.display.init()
    yield
    if not was:         # as it found it: the next test in this worker may draw (tests/headless.py inits for all)
        pygame.display.quit()


def test_bz3_mapped_keys_press_once_and_repeat_is_ignored(pg):
    """GIVEN keys {"1": 1, "q": 2} WHEN 1 goes down, repeats, goes up and down again, and Q goes down
    THEN seat 1 presses twice (once per stroke), seat 2 once, an unmapped key never, each stamped `at` and saying it
    is a key's, late by up to one frame (issue 27 item 2, BZ11)."""
    seats = KeySeats({"1": 1, "Q": 2})
    down = lambda key: pygame.event.Event(pygame.KEYDOWN, key=key)   # noqa: E731
    up = lambda key: pygame.event.Event(pygame.KEYUP, key=key)       # noqa: E731
    events = [down(pygame.K_1), down(pygame.K_1), up(pygame.K_1), down(pygame.K_1), down(pygame.K_q),
              down(pygame.K_z)]
    commands = [seats.command_for(event, at=2.5) for event in events]
    assert [(c.address, c.args, c.at) if c else None for c in commands] == [
        ("/sg/button", (1, "key", 17), 2.5), None, None, ("/sg/button", (1, "key", 17), 2.5),
        ("/sg/button", (2, "key", 17), 2.5), None]


def test_bz3_gamepad_buttons_by_pad_or_any_pad(pg):
    """GIVEN gamepad {"pad0:3": 1, "pad:5": 4} WHEN pad 0 button 3, pad 1 button 5, pad 1 button 3 are pressed
    THEN seats 1 and 4 press, and the third is unmapped."""
    seats = KeySeats.from_config(resolve({"buttons": {"gamepad": {"pad0:3": 1, "pad:5": 4}}})["buttons"])
    press = lambda pad, button: pygame.event.Event(pygame.JOYBUTTONDOWN, instance_id=pad, button=button)  # noqa
    assert [seats.seat_for(press(0, 3)), seats.seat_for(press(1, 5)), seats.seat_for(press(1, 3))] == [1, 4, None]


def test_config_defaults_and_every_bad_key_named():
    """GIVEN sections with wrong types and unknown keys WHEN validated THEN every error names section.key
    and the reason; a valid config resolves with defaults filled in."""
    errors = validate({"osc": {"port": 70000, "allow": ["10.0.0.0/8", "not-an-ip"], "pasword": "x",
                               "idle_timeout": 0},
                       "buttons": {"mode": "morse", "baud": "fast", "reopen_interval": 5,
                                   "keys": {"1": 0}, "gamepad": {"joystick": 1}}})
    joined = "\n".join(errors)
    for key in ("osc.port", "osc.allow: not an IP address or network: 'not-an-ip'", "osc.pasword: unknown key",
                "osc.idle_timeout", "buttons.mode", "buttons.baud", "buttons.reopen_interval",
                "buttons.keys.1", "buttons.gamepad.joystick"):
        assert key in joined, key
    assert len(errors) == 9
    assert validate({"osc": {"passcode": "1234"}, "buttons": {"port": "/dev/ttyUSB0"}}) == []
    full = resolve({"osc": {"passcode": "1234"}})
    assert full["osc"]["port"] == 9000 and full["buttons"]["port"] == "" and full["buttons"]["baud"] == 115200


def test_hall_config_key_and_names_checked_with_the_reason():
    """Issue 24 items 3 and 6: GIVEN `[osc] key` shorter than 128 bits, not base64url, or not text, and
    `[remote_web] names` not a list of names WHEN validated THEN each error names the key and why (and how to get a
    good key); `config init`'s kind of key and a list of names pass."""
    from scoreboard.links.osc.auth import new_key
    for key, why in (("c2hvcnQ", "too short: 40 bits, at least 128 needed"), ("ключ", "base64url"),
                     (123, "expected a string")):
        errors = validate({"osc": {"key": key}})
        assert len(errors) == 1 and errors[0].startswith("osc.key: ") and why in errors[0], errors
    assert validate({"remote_web": {"names": "board.lan"}}) == [
        'remote_web.names: expected a list of host names, e.g. ["board.club.lan"]']
    assert validate({"osc": {"key": new_key()}, "remote_web": {"names": ["board.club.lan"]}}) == []


def test_config_links_refuses_bad_config_before_opening_anything():
    """GIVEN an invalid [osc] section WHEN Links is built THEN it raises with the key named, nothing opened."""
    with pytest.raises(ValueError, match="osc.port"):
        Links({"osc": {"port": -1}}, Inbox(), lambda: 0.0)


def test_inbox_drains_in_time_order_and_refuses_when_full():
    """GIVEN commands put out of time order WHEN drained THEN they come earliest first, ties in arrival order;
    GIVEN a full inbox WHEN one more is put THEN it is refused through on_result."""
    from scoreboard.engine.commands import Command
    inbox = Inbox(max_items=3)
    inbox.put(Command(2.0, "/sg/button", (1,)), "serial")
    inbox.put(Command(1.0, "/sg/button", (2,)), "serial")
    inbox.put(Command(1.0, "/sg/button", (3,)), "keys")
    results = []
    assert not inbox.put(Command(0.5, "/sg/undo"), "osc:1", lambda ok, reason: results.append((ok, reason)))
    assert results == [(False, "board busy: inbox full")] and inbox.dropped == 1
    assert [item.cmd.args for item in inbox.drain()] == [(2,), (3,), (1,)]
    assert inbox.drain() == []


def test_bz2_deadline_grace_only_with_an_event_box():
    """GIVEN an event box, a digit box, or no box WHEN the board asks for the deadline grace
    THEN it is buttons.grace for the event box (its presses are stamped in the past) and 0 otherwise."""
    inbox = Inbox()
    assert Links({"buttons": {"port": "/dev/ttyUSB0", "grace": 0.05}}, inbox, lambda: 0.0).deadline_grace == 0.05
    assert Links({"buttons": {"port": "/dev/ttyUSB0", "mode": "digits"}}, inbox, lambda: 0.0).deadline_grace == 0
    assert Links({}, inbox, lambda: 0.0).deadline_grace == 0
    assert "buttons.grace" in validate({"buttons": {"grace": 1}})[0]


def test_bz2_bz3_late_delivered_press_counts_with_grace():
    """GIVEN a real session whose 5 s window (BZ2) closes at 5.0 and a box press stamped 4.995, delivered at
    5.010 WHEN the board advanced its clock to now - grace before submitting THEN the press wins (BZ3);
    WHEN it advanced to now itself THEN the window had closed and the press is refused."""
    from linkhelp import session_in_buzz_window
    from scoreboard.engine.commands import Command, Refused
    grace = Links({"buttons": {"port": "/dev/ttyUSB0"}}, Inbox(), lambda: 0.0).deadline_grace
    press = Command(4.995, "/sg/button", (2,))
    with_grace = session_in_buzz_window(at=0.0)
    with_grace.advance(5.010 - grace)
    assert with_grace.submit(press)["answering"] == 2
    without = session_in_buzz_window(at=0.0)
    without.advance(5.010)
    with pytest.raises(Refused):
        without.submit(press)
    assert without.snapshot()["answering"] is None
