"""PROTOCOL.md §5 line protocol, parsed without a port: every valid line type, every malformed one refused."""
import pytest
from hypothesis import given, settings, strategies as st

from scoreboard.links.serial import protocol as bp


def test_proto5_valid_lines_parse():
    """GIVEN the three box → board lines WHEN parsed THEN their fields come out typed (a \\r from println is fine)."""
    assert bp.parse_line(b"HELLO clubbox proto=1 players=4") == bp.Hello("clubbox", 4)
    assert bp.parse_line(b"EV 17 4294967295 PRESS 3") == bp.Press(17, 2**32 - 1, 3)
    assert bp.parse_line(b"PONG 9 123\r") == bp.Pong(9, 123)


@pytest.mark.parametrize("line, reason", [
    (b"EV 1 2 PRESS 0", "seat 0"),
    (b"EV 1 2 PRESS 5", "seat 5 outside 1..4"),
    (b"EV 1 4294967296 PRESS 1", "does not fit 32 bits"),
    (b"EV 1  2 PRESS 1", "empty line or field"),
    (b"EV 1 2 PRES 1", "expected EV"),
    (b"EV -1 2 PRESS 1", "decimal u32"),
    (b"EV 1 2 PRESS 1 extra", "expected EV"),
    (b"HELLO box proto=2 players=4", "protocol 2"),
    (b"HELLO box proto=1 players=0", "players=0"),
    (b"PONG 1", "expected PONG"),
    (b"", "empty"),
    (b"\xff\xfe", "not ASCII"),
    (b"EV 1 \xd9\xa3 PRESS 1", "not ASCII"),            # an Arabic-Indic digit is not a decimal here
    (b"X" * 80, "longer than 80"),
    (b"ARM", "unknown line type"),
])
def test_proto5_malformed_lines_are_refused_with_reason(line, reason):
    """GIVEN a malformed line WHEN parsed THEN BadLine names the reason."""
    with pytest.raises(bp.BadLine, match=reason):
        bp.parse_line(line, max_seat=4)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=100))
def test_proto5_any_bytes_either_parse_or_raise_badline(raw):
    """GIVEN arbitrary bytes WHEN parsed THEN the only failure is BadLine (never another exception)."""
    try:
        event = bp.parse_line(raw.replace(b"\n", b""))
    except bp.BadLine:
        return
    assert isinstance(event, (bp.Hello, bp.Press, bp.Pong))


def test_proto5_board_lines_and_digits():
    """GIVEN the board → box lines and one-digit bytes THEN they match the protocol table byte for byte."""
    assert bp.hello_query() == b"HELLO?\n"
    assert (bp.arm(True), bp.arm(False)) == (b"ARM\n", b"DISARM\n")
    assert bp.led(2, "blink") == b"LED 2 blink\n"
    assert bp.ping(2**32 + 5) == b"PING 5\n"
    assert [bp.parse_digit(b) for b in b"19\r\n "] == [1, 9, None, None, None]
    with pytest.raises(bp.BadLine):
        bp.parse_digit(ord("0"))
