"""Sound cues: which theme sound a change of snapshot calls for (buzz, right, wrong, time, tick).

`cues(before, after, now)` is pure, so the rules are tested without an audio device; `Sounds` plays them and stays
silent (with the reason kept) when there is no mixer.
"""
from __future__ import annotations

import math


def cues(before: dict | None, after: dict, now: float | None = None, last_tick: float | None = None) -> list[str]:
    out: list[str] = []
    if before is None:
        return out
    phase, was = after.get("phase"), before.get("phase")
    if after.get("answering") and after.get("answering") != before.get("answering") and phase in ("answering",):
        out.append("buzz")
    old = {(a.get("seat"), a.get("verdict")) for a in (before.get("question") or {}).get("answered") or []}
    new = [(a.get("seat"), a.get("verdict")) for a in (after.get("question") or {}).get("answered") or []]
    verdicts = [v for key, v in ((k, k[1]) for k in new) if key not in old]
    if phase == "reveal" and was != "reveal":
        last = after.get("last") or {}
        answers = last.get("answers") or []
        if not answers:
            verdicts.append("time")
        elif answers[-1].get("verdict") and (answers[-1].get("seat"), answers[-1].get("verdict")) not in old:
            verdicts.append(answers[-1]["verdict"])
    for verdict in verdicts[-1:]:
        out.append("right" if verdict == "right" else "wrong" if verdict == "wrong" else "time")
    if phase == "final_reveal" and was == "final_answer":
        out.append("time")
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
        if not enabled:
            self.reason = "sounds are off in the config"
            return
        try:
            import pygame
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
        second = tick_due(after, now, self.last_tick)
        if second is not None:
            self.last_tick = second
            self.play(["tick"])
