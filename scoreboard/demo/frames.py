"""The frames a theme is checked on (`scoreboard theme check`, display/theme/legibility.py): the first frame of every
scene (and between-plays screen) of a choice game and a sequential one, for the hall and the players, plus the pause
veil — played here, because the display draws games and never plays one."""
from __future__ import annotations

from functools import cache

from scoreboard.demo.game import play
from scoreboard.demo.simulated import Director
from scoreboard.display.compose import scene_name
from scoreboard.engine.phases import Phase
from scoreboard.session import Session


@cache
def sample_frames() -> tuple[tuple[str, dict, float, str], ...]:
    """(label, snapshot, time, role) of each frame; made once a process (two whole games take a second)."""
    frames, seen = [], set()
    for regulation in ("novosibirsk-2007", "america-2005"):
        def keep(at, snap, step):
            for role in ("audience", "players"):
                name = scene_name(snap, role) if role == "audience" else snap.get("phase", Phase.SETUP)
                if (name, role) not in seen:
                    seen.add((name, role))
                    frames.append((f"{role} {name}", snap, at + 0.5, role))
        play(Session(), Director(regulation), keep)
    for scene in (Phase.CHOOSING, Phase.SETUP):
        label, snap, at, role = next(f for f in frames if f[0] == f"audience {scene}")
        frames.append((f"{label} paused", dict(snap, paused=True, paused_at=at), at, role))
    return tuple(frames)
