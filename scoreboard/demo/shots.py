"""The README's screenshots: simulation scripts cut from the demo game at its main moments, rendered headless.

    python -m scoreboard.demo.shots docs/screenshots

writes `<name>.txt` (a PROTOCOL.md §4 script, played from topic names alone) and `<name>.png` for each moment, by
running `scoreboard screenshot` on the script — so every picture can be remade and checked by anyone.
"""
from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pygame

from scoreboard.demo.game import play
from scoreboard.demo.simulated import Director
from scoreboard.display import compose
from scoreboard.display.theme.load import load_theme
from scoreboard.engine.phases import Phase
from scoreboard.session import Session

# name: (regulation, phase to stop at, which occurrence, seconds after it, extra screenshot arguments)
MOMENTS = {
    "board": ("novosibirsk-2007", "choosing", 9, 0.0, []),
    "answering": ("novosibirsk-2007", "answering", 6, 3.4, []),
    "false-start": ("novosibirsk-2007", "after_wrong", 2, 0.0, []),
    "auction": ("novosibirsk-2007", "auction", 1, 0.5, []),
    "final-stakes": ("novosibirsk-2007", "final_stakes", 3, 0.0, []),
    "final-reveal": ("novosibirsk-2007", "final_reveal", 6, 0.0, []),
    "tiebreak": ("novosibirsk-2007", "reveal", 44, 1.0, []),
    "winner": ("novosibirsk-2007", "game_over", 1, 2.0, []),
    "topic-intro": ("america-2005", "topic_intro", 2, 0.0, []),
    "window": ("america-2005", "buzz_window", 3, 2.2, []),
    "players": ("novosibirsk-2007", "after_wrong", 2, 0.0, ["--role", "players"]),
    "board-high-contrast": ("novosibirsk-2007", "choosing", 9, 0.0, ["--theme", "high-contrast"]),
    "board-light": ("novosibirsk-2007", "choosing", 9, 0.0, ["--theme", "light"]),
}


# A pack's picture on the audience screen: the sample pack's flag question, in its 5 s window (run from the
# repository root: the script names the pack by a relative path).
IMAGE_QUESTION = """# samara-2003 cup on the sample pack: the image question (Флаги, 10) in its window
0 /sg/game/new samara-2003 cup 3
0 /sg/player/name 1 "Анна Петрова"
0 /sg/player/name 2 "Борис Кузнецов"
0 /sg/player/name 3 "Вера Смирнова-Оболенская"
0 /sg/pack/load assets/packs/sample.toml
1 /sg/game/start
2 /sg/next
3 /sg/select 2 1
5 /sg/reading/done
7.2
"""


class _Cut(Exception):
    pass


def script_until(regulation: str, phase: str, occurrence: int, after: float) -> str:
    """The demo game's commands up to the `occurrence`-th snapshot in `phase`, plus `after` seconds of clock."""
    lines = [f"# {regulation}: the demo game up to {phase} #{occurrence} (+{after} s), from topic names only"]
    seen = 0

    def record(at, snap, step):
        nonlocal seen
        if step is not None:
            args = " ".join(shlex.quote(str(a)) for a in step.args)
            lines.append(f"{at:.2f} {step.address} {args}".rstrip())
        if snap["phase"] == phase:
            seen += 1
            if seen == occurrence:
                if after:
                    lines.append(f"{at + after:.2f}")
                raise _Cut
    try:
        play(Session(), Director(regulation, pack=False), record)
    except _Cut:
        return "\n".join(lines) + "\n"
    raise ValueError(f"{regulation}: the demo never reaches {phase} #{occurrence}")


def host_shot(path: Path, size=(1920, 1080)) -> None:
    """The host's screen needs the question text, which only a pack gives (a script carries no pack data): this
    one is drawn from the demo game with its built-in pack, at the 5th question's window."""
    session, seen = Session(), 0

    def stop(at, snap, step):
        nonlocal seen
        seen += snap["phase"] == Phase.BUZZ_WINDOW
        if seen == 5:
            raise _Cut
    try:
        play(session, Director("novosibirsk-2007"), stop)
    except _Cut:
        pass
    pygame.init()
    surface = pygame.Surface(size)
    snap = session.snapshot()
    compose.draw(surface, snap, load_theme("classic"), snap["time"] + 1.0, "host",
                host_question=session.host_question(), animate=False)
    pygame.image.save(surface, str(path))


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    for name, (regulation, phase, occurrence, after, extra) in MOMENTS.items():
        script = out / f"{name}.txt"
        script.write_text(script_until(regulation, phase, occurrence, after), encoding="utf-8")
        theme = [] if "--theme" in extra else ["--theme", "classic"]
        subprocess.run([sys.executable, "-m", "scoreboard", "screenshot", str(script), "--out",
                        str(out / f"{name}.png"), *theme, *extra], check=True)
    script = out / "image-question.txt"
    script.write_text(IMAGE_QUESTION, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "scoreboard", "screenshot", str(script), "--out",
                    str(out / "image-question.png"), "--theme", "classic"], check=True)
    host_shot(out / "host.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
