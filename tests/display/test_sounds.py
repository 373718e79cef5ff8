"""Sound cues from snapshot changes: buzz on a won press, right/wrong on a verdict, time when nobody answered."""
from scoreboard.display.media.sounds import Sounds, cues, tick_due
from scoreboard.display.theme.load import load_theme


def test_cues_follow_a_whole_game(games):
    """GIVEN the novosibirsk game WHEN consecutive snapshots are compared THEN every won press buzzes, every wrong
    verdict and every resolution sounds, and a closed window with no answer sounds "time"."""
    frames = [snap for snap, _, _ in games["novosibirsk-2007"]]
    counts = {"buzz": 0, "right": 0, "wrong": 0, "time": 0}
    for before, after in zip(frames, frames[1:]):
        for cue in cues(before, after):
            counts[cue] += 1
        if after["phase"] == "answering" and before["phase"] != "answering":
            assert "buzz" in cues(before, after)
        if after["phase"] == "after_wrong" and before["phase"] == "answering":
            assert cues(before, after) == ["wrong"]
        if after["phase"] == "reveal" and before["phase"] == "buzz_window" and not after["last"]["answers"]:
            assert cues(before, after) == ["time"]
    assert all(counts.values())


def test_tick_once_per_second_in_the_last_five():
    """GIVEN a clock ending at 30 WHEN ticks are asked at 24.5, 25.2, 25.3 and 26.1 THEN they come at 5 and 4 only."""
    snap = {"question": {"deadline": 30.0}, "final": None}
    assert tick_due(snap, 24.5, None) is None
    assert tick_due(snap, 25.2, None) == 5
    assert tick_due(snap, 25.3, 5) is None
    assert tick_due(snap, 26.1, 5) == 4
    assert tick_due(dict(snap, paused=True), 26.1, 5) is None


def test_sounds_load_from_the_theme_or_stay_silent():
    """GIVEN the default theme WHEN sounds start on the dummy audio driver THEN all five load (or, without any mixer,
    the reason is kept) and playing never raises."""
    sounds = Sounds(load_theme(None))
    assert set(sounds.sounds) == {"buzz", "right", "wrong", "time", "tick"} or sounds.reason
    sounds.play(["buzz", "tick"])
    assert Sounds(load_theme(None), enabled=False).reason == "sounds are off in the config"
