"""Sound cues: which theme sound a change of snapshot calls for (buzz, right, wrong, time, tick), and the pack's
sound of a question as it opens (scoreboard/display/media/pack.py).

`cues(before, after)` is pure, so the rules are tested without an audio device; `Sounds` plays them and stays
silent (with the reason kept) when there is no mixer.
"""
from __future__ import annotations

import math

import pygame

from scoreboard.display.media.video import PLAYER
from scoreboard.engine.phases import Phase


def cues(before: dict | None, after: dict) -> list[str]:
    """The sounds a change from `before` to `after` calls for, in order."""
    if before is None:
        return []
    out: list[str] = []
    phase, was = after.get("phase"), before.get("phase")
    if phase == Phase.ANSWERING and after.get("answering") and after.get("answering") != before.get("answering"):
        out.append("buzz")                                    # a press won the right to answer (BZ3)
    if phase == Phase.AFTER_WRONG and was != Phase.AFTER_WRONG:
        out.append("wrong")
    elif phase == Phase.REVEAL and was != Phase.REVEAL:
        answers = (after.get("last") or {}).get("answers") or []
        out.append(answers[-1].get("verdict", "wrong") if answers else "time")   # nobody answered: "Время!"
    elif phase == Phase.FINAL_REVEAL and was == Phase.FINAL_ANSWER:
        out.append("time")                                    # the writing clock ran out
    return out


def tick_due(snapshot: dict, now: float, last: int | None) -> int | None:
    """The whole second of the last five of a running clock not ticked yet (the final round's countdown)."""
    deadline = (snapshot.get("final") or {}).get("deadline") or (snapshot.get("question") or {}).get("deadline")
    if deadline is None or snapshot.get("paused"):
        return None
    left = float(deadline) - now
    if 0 < left <= 5:
        second = math.ceil(left)
        return second if second != last else None
    return None


class Sounds:
    def __init__(self, theme, enabled: bool = True):
        self.sounds: dict = {}
        self.reason = ""
        self.last_tick: int | None = None
        self.media_played: list[str] = []   # the pack sounds started, in order (diagnostics and tests)
        if not enabled:
            self.reason = "sounds are off in the config"
            return
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init()
            volume = theme.values["sounds"].get("volume", 0.8)
            for name in ("buzz", "right", "wrong", "time", "tick"):
                path = theme.values["sounds"].get(name)
                if path:
                    sound = pygame.mixer.Sound(path)
                    sound.set_volume(volume)
                    self.sounds[name] = sound
        except Exception as error:  # no audio device: the game goes on silently
            self.reason = f"no sound: {error}"
            self.sounds = {}

    def play(self, names) -> None:
        for name in names:
            sound = self.sounds.get(name)
            if sound is not None:
                sound.play()

    def update(self, before: dict | None, after: dict, now: float) -> None:
        self.play(cues(before, after))
        self.follow(after, now)

    def follow(self, after: dict, now: float) -> None:
        """What moves with time on the drawing thread: the question's media and the last seconds' ticks."""
        # The question's own sound and video are content, not decoration: they play even with theme sounds off.
        started = len(PLAYER.started)
        PLAYER.sync(after, now)
        self.media_played.extend(PLAYER.started[started:])
        second = tick_due(after, now, self.last_tick)
        if second is not None:
            self.last_tick = second
            self.play(["tick"])
