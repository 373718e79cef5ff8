"""`scoreboard bench display`: frame times of each scene at 1080p and 4K, idle CPU, start-up to the first frame, and
press → first frame showing the answering player through the real board loop (`press_bench.py`).

Runs on SDL's dummy video driver (one core, no GPU): a frame is a redraw into a `pygame.Window` surface plus its
flip. Every scene the audience sees is measured at 1080p and 4K: drawn whole, a clock tick, and for the scenes a
result opens the 0.6 s reveal fade (its first frame and its ticks); the 4K target (issue 9 item 3) is on the worst
p99 of all of them. A screen keeps the tiles of earlier frames (tiles.py): "drawn whole" redraws the same snapshot,
so every tile but a running clock's is a kept one; what a real new snapshot costs is the "whole game" line, every
snapshot of a game drawn in order.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

import pygame

from scoreboard.app.board import Board
from scoreboard.app.config import default_config
from scoreboard.app.loop import Loop
from scoreboard.bench.figures import percentile
from scoreboard.bench.press import press_to_frame
from scoreboard.demo.game import play
from scoreboard.demo.simulated import Director
from scoreboard.display.compose import PHASE_SCENES, SCREEN_SCENES
from scoreboard.display.screens import Screen, ScreenSpec, use_dummy_drivers
from scoreboard.display.theme.load import load_theme
from scoreboard.engine.commands import make
from scoreboard.engine.phases import Phase
from scoreboard.links import Inbox
from scoreboard.session import Session

SLOWEST = 6   # the whole game's slowest frames printed with the scene change each drew (what sets the p99)
FADING = ("reveal", "final_reveal", "game_over", "screen:chart")   # scenes a result opens: the 0.6 s fade runs


def _scenes():
    """One real snapshot per scene — every phase the audience sees and the between-plays screens — from a simulated
    novosibirsk final-stage game (6 topics a round); each with the engine time it was reached."""
    wanted: dict = dict.fromkeys(PHASE_SCENES)
    session = Session()

    def keep(at, snap, step):
        phase = snap["phase"]
        if phase in wanted and (wanted[phase] is None or phase == Phase.FINAL_REVEAL or
                                (phase == Phase.AFTER_WRONG and any(p["locked_until"] for p in snap["players"]))):
            wanted[phase] = (snap, at)
        if phase == Phase.CHOOSING and "between" not in wanted:
            wanted["between"] = (snap, at)
    play(session, Director("novosibirsk-2007", "final"), keep)
    between = wanted.pop("between", None)
    for screen in SCREEN_SCENES:
        if screen == "chart":
            over = session.snapshot()
            wanted["screen:chart"] = (dict(over, screen="chart"), float(over["time"]))
        elif between is not None:
            wanted[f"screen:{screen}"] = (dict(between[0], screen=screen), between[1])
    return {name: value for name, value in wanted.items() if value is not None}


def frame_times(size, frames: int, theme_name: str = "classic") -> dict:
    """Per scene: a full redraw (drawn whole, as for a new snapshot; the tiles that did not change are copies of the
    kept ones), a clock tick (only the time moved: the live boxes),
    and for the scenes a result opens the 0.6 s fade — its first frame (drawn whole, the picture kept) and its ticks
    (the kept picture blended, fade.py)."""
    theme = load_theme(theme_name)
    screen = Screen(ScreenSpec("audience", size=size), theme)
    fade_s = theme.seconds("reveal")
    results = {}
    for name, (snap, at) in _scenes().items():
        fades = name in FADING and fade_s > 0
        # whole frames after the fade (a fading scene's own first frames are measured as the fade's)
        base = float(snap.get("time") or at) + fade_s + 0.05 if fades else at
        full, tick, fade_first, fade_tick = [], [], [], []
        for i in range(frames + 10):
            start = time.perf_counter()
            screen.render(snap, base + i * 0.1, force=True)          # a new snapshot: everything redrawn
            elapsed = time.perf_counter() - start
            screen.settle()                                           # after the flip, as the board does
            if i >= 10:  # the first frames fill the text and image caches
                full.append(elapsed * 1000)
        for i in range(frames):
            start = time.perf_counter()
            drew = screen.render(snap, base + 0.05 + i * 0.1)         # the clock moved: only its boxes redrawn
            if drew:
                tick.append((time.perf_counter() - start) * 1000)
            screen.settle()
        if fades:   # the fade as the loop draws it: its first frame, then one frame a step until it has ended
            started_at = float(snap["time"])
            # 60 of them at 4K (120 frames): a p99 of 12 samples, as before, was the slowest one — the machine's noise
            for _ in range(max(2, frames // 2)):
                start = time.perf_counter()
                screen.render(snap, started_at, force=True)
                fade_first.append((time.perf_counter() - start) * 1000)
                screen.settle()
                for step in range(1, 21):
                    start = time.perf_counter()
                    if screen.render(snap, started_at + fade_s * step / 20 + 0.001):
                        fade_tick.append((time.perf_counter() - start) * 1000)
                    screen.settle()
        pick = lambda xs, q: round(percentile(xs, q), 3) if xs else None   # noqa: E731
        results[name] = {"p50_ms": round(statistics.median(full), 3), "p99_ms": pick(full, 0.99),
                         "tick_p50_ms": round(statistics.median(tick), 3) if tick else None,
                         "tick_p99_ms": pick(tick, 0.99),
                         "fade_first_p50_ms": round(statistics.median(fade_first), 3) if fade_first else None,
                         "fade_first_p99_ms": pick(fade_first, 0.99),
                         "fade_tick_p50_ms": round(statistics.median(fade_tick), 3) if fade_tick else None,
                         "fade_tick_p99_ms": pick(fade_tick, 0.99)}
        every = [x for x in (results[name]["p99_ms"], results[name]["tick_p99_ms"],
                             results[name]["fade_first_p99_ms"], results[name]["fade_tick_p99_ms"]) if x is not None]
        results[name]["worst_p99_ms"] = max(every)
    screen.close()
    pygame.event.pump()
    return results


def game_frames(size, theme_name: str = "classic") -> dict:
    """Every new snapshot of a whole simulated game, drawn in order on one screen as the board draws them (its tile
    cache holding what the earlier frames kept, new texts rendered as they come): the cost of a real new snapshot,
    where `frame_times` redraws one snapshot again and again. The first 10 frames (pictures and fonts loading)
    are left out."""
    snapshots: list = []
    play(Session(), Director("novosibirsk-2007", "final"), lambda at, snap, step: snapshots.append((snap, at)))
    screen = Screen(ScreenSpec("audience", size=size), load_theme(theme_name))
    times, settles, changes = [], [], []
    before = None
    for snap, at in snapshots:
        start = time.perf_counter()
        screen.render(snap, at)
        shown = time.perf_counter()
        screen.settle()   # as the board does after its flip: the new tiles kept, off the frame's time
        times.append((shown - start) * 1000)
        settles.append((time.perf_counter() - shown) * 1000)
        changes.append(f"{before} → {snap['phase']}")
        before = snap["phase"]
    screen.close()
    times, settles, changes = times[10:], settles[10:], changes[10:]
    # what sets the p99: the slowest frames, each with the scene change it drew
    slowest = sorted(zip(times, changes), reverse=True)[:SLOWEST]
    whole = [a + b for a, b in zip(times, settles)]
    tiles = screen.tiles
    return {"frames": len(times), "p50_ms": round(statistics.median(times), 3),
            "p99_ms": round(percentile(times, 0.99), 3), "max_ms": round(max(times), 3),
            "with_settle_p99_ms": round(percentile(whole, 0.99), 3), "with_settle_max_ms": round(max(whole), 3),
            "tiles_kept_share": round(tiles.hits / max(1, tiles.hits + tiles.misses), 3),
            "over_8_ms": sum(1 for t in times if t > 8.0),
            "slowest": [{"ms": round(t, 2), "change": change} for t, change in slowest]}


def idle_cpu(seconds: float) -> dict:
    """The real board loop at 60 fps with nothing happening: process CPU time over wall time."""
    config = default_config()
    config["board"]["sounds"] = False
    theme = load_theme("classic")
    session = Session()
    session.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9"))
    session.submit(make(0, "/sg/game/start"))
    screens = [Screen(ScreenSpec("audience", size=(1920, 1080)), theme)]
    board = Board(config, session, time.monotonic(), screens, theme, inbox=Inbox(), out=lambda *_: None)

    loop = Loop(board, 1 / 60).start()   # Board.run's loop: the input thread, and drawing turns here
    one_frame = loop.turn
    for _ in range(10):
        one_frame()
    frames_before = screens[0].frames
    cpu, wall = time.process_time(), time.perf_counter()
    loops = 0
    while time.perf_counter() - wall < seconds:
        one_frame()
        loops += 1
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    loop.stop()
    screens[0].close()
    return {"cpu_percent_of_core": round(100 * cpu / wall, 2), "loops": loops,
            "redraws": screens[0].frames - frames_before, "seconds": round(wall, 2)}


FIRST_FRAME = """
import time, os
t0 = time.perf_counter()
os.environ["SDL_VIDEODRIVER"] = "dummy"; os.environ["SDL_AUDIODRIVER"] = "dummy"
import pygame
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme
from scoreboard.engine.commands import make
from scoreboard.session import Session
pygame.init()
theme = load_theme("classic")
session = Session()
session.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9"))
Screen(ScreenSpec("audience", size=(1920, 1080)), theme).render(session.snapshot(), 0.0)
print(time.perf_counter() - t0)
"""


def first_frame(runs: int) -> dict:
    """Start-up to the first frame in a fresh interpreter (imports, theme with font check, session, window)."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", FIRST_FRAME], capture_output=True, text=True, check=True)
        total = time.perf_counter() - start
        samples.append((total, float(out.stdout.strip().splitlines()[-1])))
    return {"process_to_first_frame_s": round(statistics.median(s[0] for s in samples), 3),
            "after_interpreter_start_s": round(statistics.median(s[1] for s in samples), 3), "runs": runs}


def press_figures(trials: int) -> dict:
    figures = press_to_frame(trials)
    figures.pop("samples")
    figures.pop("shown")
    return figures


def run(args) -> int:
    use_dummy_drivers()
    pygame.init()
    quick = getattr(args, "quick", False)
    figures = {
        "1920x1080": frame_times((1920, 1080), 60 if quick else 300),
        "3840x2160": frame_times((3840, 2160), 20 if quick else 120),
        "1920x1080_game": game_frames((1920, 1080)),
        "3840x2160_game": game_frames((3840, 2160)),
        "idle": idle_cpu(1.0 if quick else 5.0),
        "press_to_frame": press_figures(30 if quick else 600),
        "first_frame": first_frame(1 if quick else 5),
        "cpu": os.cpu_count(),
    }
    for size in ("1920x1080", "3840x2160"):
        busiest = max(figures[size], key=lambda name: figures[size][name]["p50_ms"])  # the costliest scene
        figures[size + "_busiest"] = {"scene": busiest, **figures[size][busiest]}
    b1080, b4k = figures["1920x1080_busiest"], figures["3840x2160_busiest"]
    worst4k = max(figures["3840x2160"].items(), key=lambda item: item[1]["worst_p99_ms"])
    figures["3840x2160_worst"] = {"scene": worst4k[0], "p99_ms": worst4k[1]["worst_p99_ms"]}
    targets = {  # issue 3 item 8, issue 4 item 6, issue 9 item 3
        "frame p99 <= 4 ms at 1920x1080 (busiest scene)": b1080["p99_ms"] <= 4.0,
        "frame p99 <= 12 ms at 3840x2160 (busiest scene)": b4k["p99_ms"] <= 12.0,
        "every scene at 3840x2160, fades and ticks included, p99 <= 8 ms": worst4k[1]["worst_p99_ms"] <= 8.0,
        # the per-scene lines redraw one snapshot from kept tiles: a game's new snapshots are the target too
        "a whole game's new snapshots at 3840x2160, p99 <= 8 ms": figures["3840x2160_game"]["p99_ms"] <= 8.0,
        "a whole game's new snapshots at 1920x1080, p99 <= 4 ms": figures["1920x1080_game"]["p99_ms"] <= 4.0,
        "idle <= 3% of a core": figures["idle"]["cpu_percent_of_core"] <= 3.0,
        "first frame <= 1.5 s": figures["first_frame"]["process_to_first_frame_s"] <= 1.5,
        "press -> first frame p99 <= 20 ms": figures["press_to_frame"]["p99_ms"] <= 20.0,
    }
    figures["targets"] = targets
    status = 0 if all(targets.values()) else 1
    if getattr(args, "json", False):
        print(json.dumps(figures, indent=1))
        return status
    pair = lambda f, k: (f"{f[k + 'p50_ms']:6.2f} / {f[k + 'p99_ms']:6.2f}" if f[k + "p50_ms"] is not None  # noqa
                         else "        —      ")
    for size in ("1920x1080", "3840x2160"):
        print(f"frame time at {size} (ms, p50 / p99): full redraw | clock tick | fade: first frame | fade tick")
        for name, f in figures[size].items():
            print(f"  {name:<15} {pair(f, '')} | {pair(f, 'tick_')} | {pair(f, 'fade_first_')} | "
                  f"{pair(f, 'fade_tick_')}")
        b = figures[size + "_busiest"]
        print(f"  busiest full redraw: {b['scene']} p99 {b['p99_ms']:.2f} ms")
    w = figures["3840x2160_worst"]
    print(f"  worst p99 of any frame at 3840x2160: {w['scene']} {w['p99_ms']:.2f} ms")
    for size in ("1920x1080", "3840x2160"):
        g = figures[size + "_game"]
        print(f"a whole game's new snapshots in order at {size}: {g['frames']} frames, p50 {g['p50_ms']:.2f} ms, "
              f"p99 {g['p99_ms']:.2f} ms, max {g['max_ms']:.2f} ms ({100 * g['tiles_kept_share']:.0f}% of tiles "
              f"from earlier frames); with the new tiles kept after the flip: p99 {g['with_settle_p99_ms']:.2f} ms, "
              f"max {g['with_settle_max_ms']:.2f} ms (a frame period is 16.7 ms)")
        print(f"  {g['over_8_ms']} frames over 8 ms; the slowest: "
              + ", ".join(f"{f['change']} {f['ms']:.1f}" for f in g["slowest"]))
    idle = figures["idle"]
    print(f"idle: {idle['cpu_percent_of_core']:.2f}% of a core over {idle['seconds']} s "
          f"({idle['loops']} loops, {idle['redraws']} redraws)")
    pf = figures["press_to_frame"]
    print(f"press -> first frame showing the answering player ({pf['size']}, {pf['fps']} fps, fake box on a pty, "
          f"journaled): n={pf['n']} median {pf['median_ms']:.2f} ms, p99 {pf['p99_ms']:.2f} ms, "
          f"max {pf['max_ms']:.2f} ms; p99 / {pf['target_p99_ms']:g} ms = {pf['ratio_p99_to_target']:.2f}\n"
          f"  of which the frame that showed it (drain, journal, draw, flip): median {pf['frame_median_ms']:.2f} ms, "
          f"p99 {pf['frame_p99_ms']:.2f} ms")
    ff = figures["first_frame"]
    print(f"start-up to first frame: {ff['process_to_first_frame_s']:.3f} s "
          f"({ff['after_interpreter_start_s']:.3f} s after the interpreter started), median of {ff['runs']}")
    for target, ok in targets.items():
        print(f"  {'PASS' if ok else 'FAIL'}  {target}")
    return status
