"""The reference button box firmware built with gcc-avr and run in simavr (firmware/sim), driven like hardware.

`build(folder)` runs `make -C firmware/sim` into `folder` (the Arduino IDE's flags for an Uno); `SimBox` starts
`boxsim` on that .elf with its UART on a pty behind a stable symlink, presses and releases the sketch's button
pins and watches its lamp pins. Seats map to pins through the sketch's own tables (BUTTON_PIN, LAMP_PIN,
ARMED_PIN), so a rewired sketch is tested as wired. Times are the box's own (simulated) microseconds.
"""
from __future__ import annotations

import mmap
import re
import signal
import struct
import subprocess
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SIM = ROOT / "firmware" / "sim"
SKETCH = ROOT / "firmware" / "buttonbox" / "buttonbox.ino"
PACKAGES = ("gcc-avr", "avr-libc", "arduino-core-avr", "libsimavr-dev", "gcc", "make", "libc6-dev")


def build(folder: Path) -> Path:
    """Compile the sketch, the Arduino core and the harness into `folder`; raises with the compiler's output."""
    done = subprocess.run(["make", "-s", "-j2", "-C", str(SIM), f"BUILD={folder}"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"firmware build failed:\n{done.stdout}\n{done.stderr}")
    return folder


def wiring() -> dict:
    """The sketch's pin tables: {"buttons": [pin of seat 1, ...], "lamps": [...], "armed": pin}."""
    text = SKETCH.read_text(encoding="utf-8")

    def table(name: str) -> list[int]:
        match = re.search(rf"{name}\[PLAYERS\]\s*=\s*\{{([^}}]*)\}}", text)
        assert match, f"{SKETCH}: no {name} table"
        return [int(pin) for pin in match.group(1).split(",")]

    armed = re.search(r"ARMED_PIN\s*=\s*(\d+)", text)
    assert armed, f"{SKETCH}: no ARMED_PIN"
    return {"buttons": table("BUTTON_PIN"), "lamps": table("LAMP_PIN"), "armed": int(armed.group(1))}


class BoxClock:
    """The simulated box's clock in seconds, read from the file `boxsim --clock` keeps (a sequence-locked u64 of
    cycles): handed to the board as its clock, board and box share one time at any host speed."""

    def __init__(self, path: Path, hz: int = 16_000_000):
        with open(path, "r+b") as file:
            self._map = mmap.mmap(file.fileno(), 16)
        self.hz = hz

    def __call__(self) -> float:
        while True:
            before, cycles = struct.unpack_from("<QQ", self._map)
            after = struct.unpack_from("<Q", self._map)[0]
            if before == after and not before & 1:
                return cycles / self.hz


class SimBox:
    def __init__(self, folder: Path, link: Path):
        self.wiring = wiring()
        self.log = link.with_suffix(".log")
        clock = link.with_suffix(".clock")
        self._stderr = open(self.log, "w")
        self.proc = subprocess.Popen([str(folder / "boxsim"), str(folder / "buttonbox.elf"), "--pty", str(link),
                                      "--clock", str(clock)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._stderr, text=True, bufsize=1)
        first = self.proc.stdout.readline().split()
        if first[:1] != ["PTY"]:
            self.proc.kill()
            raise RuntimeError(f"boxsim did not start: {first} {self.log.read_text()}")
        self.url = first[1]
        self.clock = BoxClock(clock)
        self.levels: dict[int, int] = {}
        self.edges: list[tuple[int, int, int]] = []     # (pin, level, box µs), in order
        self.replies: list[list[str]] = []
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, name="simbox", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            words = line.split()
            with self._cond:
                if words[:1] == ["PIN"]:
                    pin, level, t_us = map(int, words[1:])
                    self.levels[pin] = level
                    self.edges.append((pin, level, t_us))
                elif words:
                    self.replies.append(words)
                self._cond.notify_all()

    # --- driving the pins -------------------------------------------------------------------------------
    def send(self, *lines: str) -> None:
        """Harness commands in one write: they are read at one box time, so their +µs delays are exact."""
        self.proc.stdin.write("".join(f"{line}\n" for line in lines))
        self.proc.stdin.flush()

    def button(self, seat: int) -> int:
        return self.wiring["buttons"][seat - 1]

    def press(self, *seats_at: tuple[int, int]) -> None:
        """Press (and keep held) each (seat, µs after now) in one write: `press((3, 0), (1, 150))`."""
        self.send(*(f"press {self.button(seat)} +{delay}" for seat, delay in seats_at))

    def release(self, *seats: int) -> None:
        self.send(*(f"release {self.button(seat)}" for seat in seats))

    # --- reading the lamps ------------------------------------------------------------------------------
    def lamp(self, seat: int) -> int:
        return self.levels.get(self.wiring["lamps"][seat - 1], 0)

    @property
    def lamps(self) -> list[int]:
        """Every player's lamp, seat 1 first (1 = lit)."""
        return [self.lamp(seat) for seat in range(1, len(self.wiring["lamps"]) + 1)]

    @property
    def live(self) -> int:
        """The "live" lamp the box lights on ARM."""
        return self.levels.get(self.wiring["armed"], 0)

    def pressed_at(self, seat: int) -> list[int]:
        """Box µs of every time the harness closed this seat's button."""
        pin = self.button(seat)
        return [t for p, level, t in self.edges if p == pin and level == 0]

    def wait(self, predicate, timeout: float = 30.0) -> bool:
        """Until predicate(self) holds on what the box has shown (a bound for hangs, not a timing)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    return bool(predicate(self))
                self._cond.wait(left)
        return True

    def now_us(self) -> int:
        """The box's clock now (asks the harness)."""
        with self._cond:
            seen = len(self.replies)
        self.send("time?")
        assert self.wait(lambda box: any(r[0] == "TIME" for r in box.replies[seen:])), self.log.read_text()
        return int(next(r for r in self.replies[seen:] if r[0] == "TIME")[1])

    # --- power ------------------------------------------------------------------------------------------
    def freeze(self) -> None:
        """The box hangs (SIGSTOP): nothing is read or answered until thaw()."""
        self.proc.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> str:
        """Power off; returns boxsim's closing line (speed, bytes, time given up to a slow host)."""
        self.thaw()
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(timeout=5)
        self._stderr.close()
        lines = self.log.read_text().splitlines()
        return lines[-1] if lines else ""
