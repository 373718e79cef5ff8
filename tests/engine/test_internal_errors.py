"""Bugs stay bugs (issue 11 item 4): an engine handler that crashes raises `InternalError`, never `Refused`; the
command is rolled back; the property tests fail on it."""
import pytest

from scoreboard.engine import InternalError, Refused, handlers
from tests.engine import test_properties
from tests.engine.helpers import Play


def crash(t):
    raise ZeroDivisionError("a bug")


def test_g8_a_crashing_handler_is_an_internal_error_and_changes_nothing(monkeypatch):
    """GIVEN /sg/judge/wrong replaced by a crashing function WHEN the host judges THEN InternalError (not a Refused)
    reaches the caller, naming the command, and the game is exactly as before."""
    g = Play()
    g.step("/sg/select", 1, 1)
    g.step("/sg/reading/done")
    g.step("/sg/button", 2)
    before = g.snap
    monkeypatch.setitem(handlers.HANDLERS, "/sg/judge/wrong", crash)
    with pytest.raises(InternalError, match="/sg/judge/wrong") as caught:
        g.step("/sg/judge/wrong")
    assert not isinstance(caught.value, Refused)
    assert g.snap == before


def test_g8_the_property_tests_fail_on_a_crashing_handler(monkeypatch):
    """GIVEN /sg/judge/wrong replaced by a crashing function WHEN a property test's random game runs THEN the
    InternalError propagates out of it (the run accepts refusals only), so the property fails."""
    monkeypatch.setitem(handlers.HANDLERS, "/sg/judge/wrong", crash)
    with pytest.raises(InternalError):
        for seed in range(20):   # the random game judges wrong within its first seeds
            test_properties.run("novosibirsk-2007", seed)


def test_internal_error_is_exported_from_the_engine():
    """GIVEN the board loop WHEN it imports the engine THEN InternalError is there, apart from Refused."""
    import scoreboard.engine as engine
    assert "InternalError" in engine.__all__ and not issubclass(engine.InternalError, engine.Refused)
