"""Mapping box microseconds onto the board clock: u32 wrap, offset, drift (BZ3 depends on it)."""
from scoreboard.links.serial.clockmap import BoxClock, Unwrapper

U32 = 2**32


def test_bz3_unwrap_crosses_the_u32_wrap_and_keeps_small_steps_back():
    """GIVEN box times around the 2^32 wrap, one reported out of order
    WHEN unwrapped THEN they grow through the wrap and the late report stays behind."""
    unwrap = Unwrapper()
    assert unwrap(U32 - 100) == U32 - 100
    assert unwrap(50) == U32 + 50                 # wrapped
    assert unwrap(U32 - 10) == U32 - 10           # an earlier press reported late
    assert unwrap(60) == U32 + 60


def test_bz3_drift_and_offset_fitted_from_pongs():
    """GIVEN a box clock running 200 ppm fast with a 3 s offset and PONGs with 0.2 ms round trips
    WHEN fitted THEN drift and offset are recovered within 5 ppm and 0.1 ms."""
    clock = BoxClock()
    true_drift = 1 / (1 + 200e-6)                 # board seconds per box second
    for second in range(12):
        board = 1000.0 + second
        box_us = int(((board - 1000.0) / true_drift + 3.0) * 1e6) % U32
        clock.add_sample(board - 0.0001, board + 0.0001, box_us)
    assert abs(clock.drift - true_drift) < 5e-6
    probe_us = int((20.0 / true_drift + 3.0) * 1e6)
    assert abs(clock.to_board(clock.unwrap(probe_us)) - 1020.0) < 1e-4


def test_bz3_without_pongs_first_press_anchors_slope_one():
    """GIVEN no PONG yet WHEN a press anchors the mapping THEN later box times map at slope 1 from it."""
    clock = BoxClock()
    assert not clock.mapped
    clock.anchor(clock.unwrap(5_000_000), 200.0)
    assert abs(clock.to_board(clock.unwrap(5_000_100)) - 200.0001) < 1e-9


def test_bz3_slow_round_trips_are_not_trusted():
    """GIVEN one tight PONG and later ones delayed by 30 ms on the way back
    WHEN fitted THEN the offset follows the tight sample, not the delayed ones."""
    clock = BoxClock()
    clock.add_sample(10.0, 10.0002, 1_000_100)            # box read at board 10.0001
    for k in range(1, 4):
        clock.add_sample(10.0 + k, 10.0 + k + 0.030, 1_000_000 + k * 1_000_000 + 100)
    assert abs(clock.to_board(clock.unwrap(1_000_100)) - 10.0001) < 1e-6
