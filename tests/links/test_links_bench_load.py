"""The load `scoreboard bench links --board` puts on the board (issue 11 item 9): independent remotes, not a beat."""
import bisect

import pytest

from scoreboard.bench.links_floor import SEED, arrivals


def test_independent_clients_send_at_their_own_times_at_the_asked_rate():
    """GIVEN three clients' schedules of 2,000 commands 0.1 s apart on average, as independent remotes
    WHEN they are compared
    THEN each keeps the rate (mean gap 0.1 s ± 5 %), the gaps vary as Poisson arrivals do (some under 10 ms, some
    over 0.3 s), the three differ from one another, and the same seed gives the same schedule (runs compare)."""
    schedules = [arrivals(2000, 0.1, SEED + k) for k in range(3)]
    for times in schedules:
        gaps = [b - a for a, b in zip(times, times[1:])]
        assert abs(sum(gaps) / len(gaps) - 0.1) < 0.005
        assert min(gaps) < 0.01 and max(gaps) > 0.3
        assert 0 <= times[0] < 0.1
    assert schedules[0] != schedules[1] != schedules[2]
    # how often two clients' commands fall within 1 ms of each other: by chance, a few per cent — not every time
    others = sorted(schedules[1] + schedules[2])
    near = sum(1 for t in schedules[0] if (i := bisect.bisect_left(others, t - 0.001)) < len(others)
               and others[i] <= t + 0.001)
    assert 0 < near < 0.1 * len(schedules[0])
    assert arrivals(2000, 0.1, SEED) == schedules[0]


def test_lockstep_clients_share_one_beat():
    """GIVEN the stress schedule (no seed)
    WHEN two clients take it
    THEN both send at 0, 0.1, 0.2 … — every command at the same instant as the other's."""
    assert arrivals(4, 0.1) == arrivals(4, 0.1)
    assert arrivals(4, 0.1) == pytest.approx([0.0, 0.1, 0.2, 0.3])
