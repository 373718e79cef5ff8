"""`scoreboard demo`: a whole game with simulated players and the built-in pack, in a window or headless.

Headless (no display, e.g. CI) it runs on SDL's dummy driver as fast as the machine allows — the engine clock is
stepped from one event or deadline to the next, so no second is waited — prints the game's progress and writes one PNG
per scene to ./out/demo/. With a display it opens a window and plays in real time (times `--speed`).
"""
from __future__ import annotations

import time
from pathlib import Path

from scoreboard.display.screens import Screen, ScreenSpec, headless, use_dummy_drivers
from scoreboard.display.simulated import Director, Step


def _command(at: float, step: Step):
    from scoreboard.engine.commands import make
    return make(at, step.address, *step.args, data=step.data)


def _scores(snap: dict) -> str:
    return ", ".join(f"{p['name']} {p['score']}" for p in snap["players"])


class Narrator:
    """Prints what a viewer would notice: phase changes, results, the winner."""

    def __init__(self, out=print):
        self.out = out
        self.phase = None

    def step(self, at: float, step: Step) -> None:
        if step.note:
            self.out(f"{at:8.1f}s  {step.note}: {step.address} {' '.join(map(str, step.args))}".rstrip())

    def snapshot(self, at: float, snap: dict) -> None:
        phase = snap.get("phase")
        if phase == self.phase:
            return
        self.phase = phase
        extra = ""
        if phase == "round_intro":
            rnd = snap["round"]
            extra = f" — round {rnd['index'] + 1} ({rnd['kind']}{', tie-break' if rnd.get('tiebreak') else ''})"
        elif phase == "reveal":
            last = snap.get("last") or {}
            answers = ", ".join(f"seat {a['seat']} {a['verdict']} {a['delta']:+d}" for a in last.get("answers") or [])
            extra = f" — {answers or 'nobody answered'}; scores: {_scores(snap)}"
        elif phase == "final_stakes":
            extra = f" — finalists {snap['final']['eligible']}; scores: {_scores(snap)}"
        elif phase == "game_over":
            winner = snap.get("winner")
            name = next((p["name"] for p in snap["players"] if p["seat"] == winner), None)
            extra = (f" — WINNER: {name} (seat {winner})" if winner else
                     f" — no winner ({snap.get('no_winner_reason')})") + f"; scores: {_scores(snap)}"
        self.out(f"{at:8.1f}s  phase {phase}{extra}")


def play(session, director: Director, on_event=None, limit: int = 5000) -> dict:
    """Drive `session` to the end of the game on a simulated clock. `on_event(at, snap, step)` after each change."""
    at = 0.0
    for step in director.opening():
        at += step.delay
        session.submit(_command(at, step))
        if on_event:
            on_event(at, session.snapshot(), step)
    for _ in range(limit):
        snap = session.snapshot()
        step = director.decide(snap)
        deadline = session.next_deadline()
        if step is None and deadline is None:
            return snap  # game over (or stuck with nothing to do: the caller checks game_over)
        due = at + step.delay if step is not None else None
        if deadline is not None and (due is None or deadline <= due):
            at = max(at, deadline)
            session.advance(at)
            if on_event:
                on_event(at, session.snapshot(), None)
            continue
        at = due
        session.submit(_command(at, step))
        if on_event:
            on_event(at, session.snapshot(), step)
    raise RuntimeError("the demo game did not end")


def run_headless(regulation: str, stage: str | None, out_dir: Path, size=(1280, 720), theme_name: str | None = None,
                 out=print) -> int:
    use_dummy_drivers()
    import pygame
    pygame.init()
    from scoreboard.display.theme import load_theme
    from scoreboard.session import Session
    theme = load_theme(theme_name)
    for problem in theme.problems:
        out(f"theme: {problem}")
    out_dir.mkdir(parents=True, exist_ok=True)
    screen = Screen(ScreenSpec("audience", size=size), theme, window=False)
    narrator = Narrator(out)
    saved: set[str] = set()
    director = Director(regulation, stage)
    out(f"demo: {regulation} {director.stage}, {director.players} players, headless (no display): frames in {out_dir}/")

    def on_event(at, snap, step):
        if step is not None:
            narrator.step(at, step)
        narrator.snapshot(at, snap)
        from scoreboard.display.scenes import scene_name
        name = scene_name(snap)
        if name not in saved:
            saved.add(name)
            # A little after the event, so a fade has finished and clocks show a realistic value.
            screen.render(snap, at + 1.0, force=True)
            screen.save(out_dir / f"{len(saved):02d}-{name.replace(':', '-')}.png")

    started = time.perf_counter()
    final = play(Session(), director, on_event)
    out(f"demo: game over after {final['time']:.0f} engine seconds, {final['rev']} events, "
        f"{len(saved)} frames written, {time.perf_counter() - started:.1f} s wall time")
    return 0 if final.get("game_over") else 1


def run_windowed(regulation: str, stage: str | None, speed: float, size=(1280, 720), fullscreen: bool = False,
                 theme_name: str | None = None, out=print, max_frames: int | None = None) -> int:
    """Real time: the director's steps are due at engine times; the window shows them as they happen."""
    import pygame
    pygame.init()
    from scoreboard.display.theme import load_theme
    from scoreboard.session import Session
    theme = load_theme(theme_name)
    screen = Screen(ScreenSpec("audience", size=size, fullscreen=fullscreen, title="Своя игра — демо"), theme)
    pygame.mouse.set_visible(not fullscreen)
    session, director, narrator = Session(), Director(regulation, stage), Narrator(out)
    epoch = time.monotonic()

    def engine_now() -> float:
        return (time.monotonic() - epoch) * speed

    pending = list(director.opening())
    step, due_at, decided_rev, waiting = None, 0.0, None, False
    clock = pygame.time.Clock()
    ended_at = None
    hold = max(1.0, 8.0 / speed)   # how long the last picture stays up (wall seconds)
    while True:
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_q)):
                screen.close()
                return 0
            if event.type in (pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED):
                screen.resized()
        now = engine_now()
        # Everything due by now, in engine-time order (as `play` does): a press due before a deadline comes first.
        while True:
            if step is None and (not waiting or session.rev != decided_rev):
                step = pending.pop(0) if pending else director.decide(session.snapshot())
                decided_rev, waiting = session.rev, step is None   # None: only a running clock moves the game
                due_at = session.time + (step.delay if step else 0.0)   # decided at the last change
            deadline = session.next_deadline()
            if step is not None and due_at <= now and (deadline is None or due_at < deadline):
                narrator.step(due_at, step)
                session.submit(_command(due_at, step))
                step = None
                narrator.snapshot(due_at, session.snapshot())
                continue
            if deadline is not None and deadline <= now and (step is None or deadline <= due_at):
                session.advance(deadline)
                if step is not None and not pending:
                    step = None   # the clock changed the game before the step was due: decide again
                narrator.snapshot(deadline, session.snapshot())
                continue
            break
        snap = session.snapshot()
        narrator.snapshot(now, snap)
        screen.render(snap, now)
        if waiting and snap.get("game_over") and session.next_deadline() is None:
            ended_at = ended_at or time.monotonic()
            if time.monotonic() - ended_at > hold:
                screen.close()
                return 0
        clock.tick(60)
        if max_frames is not None:
            max_frames -= 1
            if max_frames <= 0:
                screen.close()
                return 1


def run(regulation: str, stage: str | None, speed: float, windowed: bool, out_dir: Path, theme_name=None,
        size=(1280, 720)) -> int:
    if headless():
        return run_headless(regulation, stage, out_dir, size, theme_name)
    import pygame
    pygame.display.init()
    if pygame.display.get_driver() in ("offscreen", "dummy"):
        # SDL found no usable display (e.g. DISPLAY names a dead X server) and fell back to drawing nowhere.
        print(f"demo: no usable display (SDL chose {pygame.display.get_driver()!r}); running headless instead")
        pygame.quit()
        return run_headless(regulation, stage, out_dir, size, theme_name)
    try:
        return run_windowed(regulation, stage, speed, size, fullscreen=not windowed, theme_name=theme_name)
    except pygame.error as error:   # DISPLAY set but unusable (a dead ssh -X, no permission on the console)
        print(f"demo: cannot open a window ({error}); running headless instead")
        pygame.quit()
        return run_headless(regulation, stage, out_dir, size, theme_name)
