"""`scoreboard bench display`'s whole-game line (issue 9 item 3): it says which frames set its p99."""
from scoreboard.bench import display as bench


def test_i9_3_the_whole_game_bench_names_its_slowest_frames_and_their_scene_changes():
    """GIVEN a whole simulated game drawn snapshot by snapshot on a small screen, as the bench draws it at 4K
    WHEN its figures are taken
    THEN they list the slowest frames, slowest first, each with the change of phase it drew (a real one of the game,
    e.g. «buzz_window → answering»), none slower than the reported maximum, and count the frames over 8 ms."""
    figures = bench.game_frames((480, 270))
    slowest = figures["slowest"]
    assert len(slowest) == bench.SLOWEST
    times = [f["ms"] for f in slowest]
    assert times == sorted(times, reverse=True) and times[0] <= figures["max_ms"] + 0.01
    phases = {"round_intro", "choosing", "reading", "buzz_window", "answering", "after_wrong", "reveal", "auction",
              "auction_answer", "final_stakes", "final_answer", "final_reveal", "game_over", "setup", "None"}
    for f in slowest:
        before, after = f["change"].split(" → ")
        assert before in phases and after in phases, f
    assert 0 <= figures["over_8_ms"] <= figures["frames"]
