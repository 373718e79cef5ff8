"""`scoreboard fake-box` and `scoreboard box-check` (the links' benchmarks are scoreboard/bench/links.py and web.py)."""
from __future__ import annotations

import argparse
import os
import select
import sys
import tempfile
import time
from collections.abc import Iterator

from scoreboard.links import Inbox, Links
from scoreboard.links.serial.fake_box import FakeBox

DEFAULT_LINK = os.path.join(tempfile.gettempdir(), "scoreboard-fakebox")


def parse_script(text: str, name: str = "script") -> list[tuple[float, int]]:
    """`SECONDS SEAT` per line (box seconds since the script's zero; `#` comments): [(seconds, seat)]."""
    presses: list[tuple[float, int]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        try:
            if len(fields) != 2:
                raise ValueError("expected SECONDS SEAT")
            seconds, seat = float(fields[0]), int(fields[1])
            if not (seconds >= 0 and seconds < 4000):
                raise ValueError(f"time {fields[0]} outside 0..4000 s (the box clock wraps at 4294 s)")
            if not 1 <= seat <= 99:
                raise ValueError(f"seat {seat} outside 1..99")
            if presses and seconds < presses[-1][0]:
                raise ValueError(f"time {seconds} goes back (previous {presses[-1][0]})")
        except ValueError as error:
            raise ValueError(f"{name}:{number}: {error}") from None
        presses.append((seconds, seat))
    return presses


def script_zero(box: FakeBox, clock: str) -> int:
    """The box time the script's seconds count from. `handshake`: the board's first HELLO? (a one-digit box
    on TCP: the board's connection), waited for, so that no press goes out before anyone can read it;
    `start`: the box's start (presses before the board opens the port are lost, with a warning)."""
    if clock == "handshake" and box.digits and box.link is not None:
        print("fake-box: a one-digit box on a pty cannot see the board open it: script times count from "
              "the start", file=sys.stderr)
        clock = "start"
    if clock == "start":
        return box.t0_us
    print(f"fake-box: script waits for the board to open {box.url}", file=sys.stderr, flush=True)
    box.wait_for(lambda b: b.first_contact_us is not None, timeout=None)
    return box.first_contact_us


def dropped(seat: int, when: str) -> None:
    print(f"fake-box: press of seat {seat} {when} dropped: no board connected", file=sys.stderr, flush=True)


def run_script(box: FakeBox, presses: list[tuple[float, int]], zero_us: int | None = None) -> int:
    """Press at the exact box times of the script, counted from box time `zero_us` (default: the box's
    start); the stamp is exact even if the sleep is late. Warns of, and returns the count of, presses that
    no board got."""
    zero_us = box.t0_us if zero_us is None else zero_us
    lost = 0
    for seconds, seat in presses:
        t_us = (zero_us + round(seconds * 1e6)) % 2**32
        while (box.now_us() - t_us) % 2**32 >= 2**31:        # box time still before t_us
            time.sleep(min(0.01, ((t_us - box.now_us()) % 2**32) / 1e6))
        if not box.press(seat, t_us=t_us):
            lost += 1
            dropped(seat, f"at {seconds:.3f} s")
    return lost


def _keys() -> Iterator[str]:
    """Each key the operator types, as typed (no Enter): the terminal in cbreak mode on Unix, the console on Windows."""
    try:
        import termios  # lazy: Unix-only (Windows reads its console through msvcrt)
        import tty  # lazy: Unix-only
    except ImportError:
        import msvcrt  # lazy: Windows-only
        while True:
            if msvcrt.kbhit():
                yield msvcrt.getwch()
            else:
                time.sleep(0.05)
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        while True:
            if select.select([fd], [], [], 0.2)[0]:
                yield os.read(fd, 1).decode("ascii", "replace")
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _interactive(box: FakeBox) -> None:
    print("keys 1-9 press a button, u unplugs/plugs the box, q quits", file=sys.stderr)
    plugged = True
    keys = _keys()
    try:
        for key in keys:
            if key == "q":
                return
            if key == "u":
                (box.unplug if plugged else box.plug)()
                plugged = not plugged
                print("unplugged" if not plugged else "plugged in", file=sys.stderr)
            elif key.isdigit() and key != "0" and int(key) <= box.players:
                if box.press(int(key)):
                    print(f"press {key} at box time {box.now_us()} µs", file=sys.stderr)
                else:
                    dropped(int(key), f"at box time {box.now_us()} µs")
    finally:
        keys.close()                  # the terminal back as it was


def fake_box(args: argparse.Namespace) -> int:
    presses = []
    if args.script:
        try:
            with open(args.script, encoding="utf-8") as handle:
                presses = parse_script(handle.read(), args.script)
        except (OSError, UnicodeDecodeError, ValueError) as error:
            print(f"fake-box: {error}", file=sys.stderr)
            return 2
    box = FakeBox(players=args.players, name=args.name, link=None if args.tcp is not None else args.pty,
                  tcp_port=args.tcp, digits=args.digits, t0_us=args.t0_us, drift_ppm=args.drift_ppm)
    try:
        box.start()
    except OSError as error:
        print(f"fake-box: cannot open {box.url}: {error}", file=sys.stderr)
        return 2
    print(f"fake box {args.name!r} ({args.players} players{', one-digit mode' if args.digits else ''}): "
          f"buttons.port = \"{box.url}\"", flush=True)
    try:
        if presses:
            run_script(box, presses, script_zero(box, args.script_clock))
            if args.exit:
                time.sleep(0.2)               # let the last lines drain to the board
                return 0
        if sys.stdin.isatty():
            _interactive(box)
        else:
            for line in sys.stdin:            # piped: one seat per line
                if line.strip().isdigit() and not box.press(int(line.strip())):
                    dropped(int(line.strip()), "from stdin")
            while True:
                time.sleep(1)
    finally:
        box.stop()
    return 0


def box_check(args: argparse.Namespace) -> int:
    """Open a button box as the board would and print what it says: for the AV crew at the venue."""
    inbox = Inbox()
    buttons = {"port": args.port, "mode": "digits" if args.digits else "events", "baud": args.baud}
    try:
        links = Links({"osc": {"enabled": False}, "buttons": buttons}, inbox, time.monotonic)
    except ValueError as error:
        print(f"box-check: {error}", file=sys.stderr)
        return 2
    links.start()
    start, shown, last = time.monotonic(), None, 0.0
    try:
        while args.seconds <= 0 or time.monotonic() - start < args.seconds:
            inbox.wait(0.1)
            for item in inbox.drain():
                print(f"{item.cmd.at - start:10.6f} s  press seat {item.cmd.args[0]}  ({item.source})", flush=True)
            status = links.status()
            summary = ("online" if status["buttons_online"] else f"offline: {status['buttons_error'] or 'waiting'}",
                       status.get("box_name"), status.get("box_players"))
            if summary != shown or time.monotonic() - last >= 5:
                shown, last = summary, time.monotonic()
                print(f"box {args.port}: {summary[0]}; name={summary[1]} players={summary[2]} "
                      f"drift={status['box_drift_ppm']} ppm rtt={status['box_rtt_ms']} ms "
                      f"bad_lines={status['bad_lines']} seq_gaps={status['seq_gaps']}", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        links.stop()
    return 0 if links.status()["opens"] else 1


def register(subparsers) -> None:
    parser = subparsers.add_parser("fake-box", help="a software button box on a pty or TCP port",
                                   description="Speaks the button box protocol (docs/LINKS.md) so the board "
                                               "can run without hardware.")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--pty", default=DEFAULT_LINK, metavar="PATH",
                       help=f"symlink to the pty the board opens (default {DEFAULT_LINK})")
    where.add_argument("--tcp", type=int, metavar="PORT", help="listen on 127.0.0.1:PORT (socket://)")
    parser.add_argument("--players", type=int, default=4, choices=range(1, 10), metavar="N",
                        help="buttons 1..N (default 4)")
    parser.add_argument("--name", default="fakebox", help="the name in HELLO")
    parser.add_argument("--digits", action="store_true", help="one-digit mode: send '1'..'9' per press")
    parser.add_argument("--script", metavar="FILE", help="lines 'SECONDS SEAT': press at that exact box time")
    parser.add_argument("--script-clock", choices=("handshake", "start"), default="handshake",
                        help="script seconds count from the board's first HELLO? (default) or from the box's "
                             "start (presses before the board opens the port are lost, with a warning)")
    parser.add_argument("--exit", action="store_true", help="exit when the script is done")
    parser.add_argument("--t0-us", type=int, default=0, help="box clock at start (test the u32 wrap)")
    parser.add_argument("--drift-ppm", type=float, default=0.0, help="box clock drift against the board")
    parser.set_defaults(func=fake_box)

    check = subparsers.add_parser("box-check", help="open a button box and print its presses and health",
                                  description="Opens the box as the board does (handshake, PING, clock "
                                              "mapping) and prints every press and the link's state.")
    check.add_argument("port", help="serial URL: /dev/ttyUSB0, COM3, hwgrep://VID:PID, socket://host:port, a pty")
    check.add_argument("--digits", action="store_true", help="one-digit box")
    check.add_argument("--baud", type=int, default=115200)
    check.add_argument("--seconds", type=float, default=0, help="stop after this long (0: until Ctrl-C)")
    check.set_defaults(func=box_check)
