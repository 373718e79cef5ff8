"""`scoreboard doctor`: the AV crew's check before doors open, on the board's own machine with its config.

One line per thing the evening needs — the config, the displays and where each screen goes, the fonts, the sound
output, the button box (port, HELLO, presses), the OSC and web ports, the passcode, the journal folder and its free
space, the pack's media — each `ok`, `warn` or `FAIL` with the fix. Exit 1 on any FAIL: the board would refuse to
start, or the show would go wrong. Nothing is changed and nothing is left behind (a test file in the journal folder
is removed; a pack is read into a temporary cache).
"""
from __future__ import annotations

import errno
import os
import shutil
import socket
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pygame

from scoreboard import DISTRIBUTION, folders, version
from scoreboard.app.config import load_config
from scoreboard.display.screens import missing_message, place
from scoreboard.display.theme.load import font_problem, load_theme
from scoreboard.engine.commands import Command
from scoreboard.links import Inbox, Links
from scoreboard.packs import ERROR, PackError, load

OK, WARN, FAIL = "ok", "warn", "FAIL"
LOW_SPACE, SHORT_SPACE = 100e6, 1e9   # bytes free in the journal folder: FAIL below the first, warn below the second
LOOPBACK = ("127.0.0.1", "::1", "localhost")
PICTURES = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp")


@dataclass(frozen=True)
class Line:
    verdict: str
    what: str
    detail: str
    fix: str = ""

    def __str__(self) -> str:
        return f"{self.verdict:<4}  {self.what}: {self.detail}" + (f"\n      fix: {self.fix}" if self.fix else "")


def where() -> list[str]:
    """Where this install keeps things (no verdict: what the crew needs to find them)."""
    return [f"{DISTRIBUTION} {version()}",
            f"config {folders.config_file()}; the club's own themes/ and regulations/ beside it",
            f"journals {folders.journals_folder()}; packs {folders.packs_folder()}; cache {folders.cache_folder()}"]


def check_config(path: str | None) -> tuple[dict, list[Line]]:
    file = Path(path) if path else folders.config_file()
    if not file.exists():
        config, _ = load_config(None)
        return config, [Line(FAIL, "config", f"none at {file}", "`scoreboard config init` writes one")]
    config, problems = load_config(file)
    if problems:
        return config, [Line(FAIL, "config", f"{file}: {problem.key}: {problem.reason}",
                             "edit the file (docs/BOARD.md lists every key)") for problem in problems]
    return config, [Line(OK, "config", str(file))]


def check_displays(config: dict, found: list | None) -> list[Line]:
    """`found`: the displays SDL sees (None: there is no display to ask)."""
    if found is None:
        return [Line(FAIL, "displays", "no display here: the board cannot open a window",
                     "run on the board's machine with its displays plugged in (X: DISPLAY=:0; no X: "
                     "SDL_VIDEODRIVER=kmsdrm)")]
    lines = [Line(OK, "displays", "; ".join(map(str, found)))]
    for p in place(config["screens"], found):
        if not p.missing:
            lines.append(Line(OK, f"screen {p.number} ({p.role})", f"goes to display {p.found}"))
        elif p.optional:
            lines.append(Line(WARN, f"screen {p.number} ({p.role})", f"{missing_message(p, found)}: skipped"))
        else:
            lines.append(Line(FAIL, f"screen {p.number} ({p.role})", missing_message(p, found),
                              "plug the display in, or change [[screens]] display (`scoreboard screens`)"))
    return lines


def check_fonts(config: dict) -> list[Line]:
    theme = load_theme(config["board"]["theme"])
    lines = [Line(WARN, "theme", str(problem), "`scoreboard theme check` lists every problem; the default is used")
             for problem in theme.problems[:5]]
    for key in ("main", "text"):
        path = theme.font(key)
        problem = font_problem(Path(path)) if path else "no font file set"
        lines.append(Line(FAIL, f"font {key}", problem, "set fonts in the theme to a font with Cyrillic") if problem
                     else Line(OK, f"font {key}", f"{Path(path).name}: every Cyrillic letter"))
    return lines


def check_sound(config: dict) -> list[Line]:
    if not config["board"]["sounds"]:
        return [Line(OK, "sound", "off (board.sounds = false)")]
    try:
        pygame.mixer.init()
        driver = pygame.mixer.get_driver()
        pygame.mixer.quit()
    except pygame.error as error:
        return [Line(WARN, "sound", f"no sound output ({error}): the board plays silent",
                     "plug in the speakers or pick the audio device (SDL_AUDIODRIVER)")]
    if driver in ("dummy", "disk"):
        return [Line(WARN, "sound", f"SDL's {driver!r} audio driver plays nothing", "unset SDL_AUDIODRIVER")]
    return [Line(OK, "sound", f"output through {driver}")]


def check_box(config: dict, seconds: float, presses: float = 0.0) -> list[Line]:
    """Open the box as the board does; wait up to `seconds` for it to say HELLO, and with `presses` seconds, for
    every seat's button."""
    buttons = config["buttons"]
    if not buttons["port"]:
        return [Line(WARN, "button box", "none configured: players cannot press",
                     "set [buttons] port (`scoreboard box-check PORT` tries one)")]
    port = buttons["port"]
    inbox = Inbox()
    links = Links({"osc": {"enabled": False}, "buttons": buttons}, inbox, time.monotonic)
    links.start()
    seats: set[int] = set()
    try:
        end = time.monotonic() + seconds
        status = links.status()
        while time.monotonic() < end and not (status["buttons_online"] and (status.get("box_name") or
                                                                            buttons["mode"] == "digits")):
            seats |= _presses(inbox)
            status = links.status()
        if not status["buttons_online"]:
            why = status.get("buttons_error") or "no HELLO"
            return [Line(FAIL, f"button box {port}", f"no answer in {seconds:g} s ({why})",
                         "check the cable and the port's name (`scoreboard box-check PORT` shows what it says)")]
        players = status.get("box_players")
        hello = f"HELLO from {status.get('box_name')!r}, {players} buttons, round trip {status['box_rtt_ms']} ms"
        lines = [Line(OK, f"button box {port}", "open (one-digit box)" if buttons["mode"] == "digits" else hello)]
        end = time.monotonic() + presses
        wanted = set(range(1, (players or 0) + 1))
        while time.monotonic() < end and not wanted <= seats:
            seats |= _presses(inbox)
        seats |= _presses(inbox, 0.0)
    finally:
        links.stop()
    if presses and not wanted <= seats:
        lines.append(Line(FAIL, "buttons", f"never pressed: {', '.join(map(str, sorted(wanted - seats)))}",
                          "press each button during the check; a silent one needs its wire seen to"))
    elif seats:
        lines.append(Line(OK, "buttons", f"pressed: {', '.join(map(str, sorted(seats)))}"))
    return lines


def _presses(inbox: Inbox, wait: float = 0.05) -> set[int]:
    inbox.wait(wait)
    return {item.cmd.args[0] for item in inbox.drain() if isinstance(item.cmd, Command)
            and item.cmd.address == "/sg/button"}


def _port_free(bind: str, port: int, kind: int) -> str | None:
    """Why `bind:port` cannot be taken (None: it can)."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    with socket.socket(family, kind) as probe:
        if kind == socket.SOCK_STREAM and os.name != "nt":
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # as the servers do: TIME_WAIT is no owner
        try:
            probe.bind((bind, port))
        except OSError as error:
            return "taken by another program (another board?)" if error.errno in (errno.EADDRINUSE, 10048) \
                else (error.strerror or str(error))
    return None


def check_ports(config: dict) -> list[Line]:
    wanted = []
    osc, web = config["osc"], config["remote_web"]
    if osc["enabled"]:
        wanted.append(("OSC", "[osc] port", osc["bind"], osc["port"], socket.SOCK_DGRAM, "UDP"))
        if osc["tcp"]:
            wanted.append(("OSC", "[osc] port", osc["bind"], osc["port"], socket.SOCK_STREAM, "TCP"))
    if web["enabled"]:
        wanted.append(("web page", "[remote_web] port", web["bind"], web["port"], socket.SOCK_STREAM, "TCP"))
    watch = config.get("watch") or {}
    if watch.get("enabled"):          # the watch relay's: the hall's phones and the overlay (docs/STREAMING.md)
        wanted.append(("watch relay", "[watch] port", watch["bind"], watch["port"], socket.SOCK_STREAM, "TCP"))
    lines = []
    for what, key, bind, port, kind, proto in wanted:
        if port == 0:
            lines.append(Line(OK, f"{what} port", f"{proto} any free port (port = 0)"))
            continue
        why = _port_free(bind, port, kind)
        lines.append(Line(FAIL, f"{what} port", f"{proto} {bind}:{port}: {why}", f"stop that program, or set {key}")
                     if why else Line(OK, f"{what} port", f"{proto} {bind}:{port} free"))
    return lines


def check_passcode(config: dict) -> list[Line]:
    osc = config["osc"]
    if not osc["enabled"]:
        return [Line(OK, "passcode", "OSC is off")]
    if osc["passcode"]:
        return [Line(OK, "passcode", f"set ({len(osc['passcode'])} characters; the host's screen shows it)")]
    if str(osc["bind"]) in LOOPBACK:
        return [Line(OK, "passcode", "none: OSC listens on this machine only")]
    return [Line(FAIL, "passcode", f"none while OSC listens on {osc['bind']}: anyone on the network could steer",
                 "set [osc] passcode, or `scoreboard config init --force` writes a new one")]


def check_journal(config: dict) -> list[Line]:
    board = config["board"]
    folder = Path(board["journal"]).parent if board["journal"] else Path(board["journal_dir"] or
                                                                         folders.journals_folder())
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-"):
            pass
        free = shutil.disk_usage(folder).free
    except OSError as error:
        return [Line(FAIL, "journal folder", f"{folder}: cannot write there ({error.strerror or error})",
                     "give the board's user write access, or set board.journal_dir")]
    detail = f"{folder}: writable, {free / 1e9:.1f} GB free"
    if free < LOW_SPACE:
        return [Line(FAIL, "journal folder", detail, "free some space: a full disk refuses every command")]
    if free < SHORT_SPACE:
        return [Line(WARN, "journal folder", detail, "free some space before a long tournament")]
    return [Line(OK, "journal folder", detail)]


def check_pack(config: dict, pack: str | None) -> list[Line]:
    if pack is None:
        shelves = config["packs"]["dirs"] or [str(folders.packs_folder())]
        lines = []
        for folder in shelves:
            path = Path(folder).expanduser()
            count = sum(1 for p in path.iterdir() if p.suffix.lower() in (".toml", ".siq", ".txt")) \
                if path.is_dir() else None
            lines.append(Line(WARN, "packs", f"{path}: no such folder", "create it and put the packs there") if count
                         is None else Line(OK if count else WARN, "packs", f"{path}: {count} pack file(s)"
                                           + ("" if count else "; `--pack FILE` checks tonight's pack")))
        return lines
    with tempfile.TemporaryDirectory(prefix="svoya-doctor-") as cache:
        try:
            loaded = load(pack, cache_dir=cache)
        except (PackError, OSError) as error:
            return [Line(FAIL, "pack", str(error), "`scoreboard pack check FILE` says more")]
        errors = [i for i in loaded.issues if i.level == ERROR]
        lines = [Line(FAIL, "pack", issue.report(pack), "fix the pack (docs/PACKS.md)") for issue in errors[:5]]
        unreadable = [f"{ref} ({reason})" for ref, path in loaded.media.items() if (reason := _media_problem(path))]
    if unreadable:
        lines.append(Line(FAIL, "pack media", "; ".join(unreadable[:5]), "replace those files in the pack"))
    elif not errors:
        lines.append(Line(OK, "pack", f"{pack}: {len(loaded.media)} media file(s), every one readable"))
    return lines


def _media_problem(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            while handle.read(1 << 20):
                pass
        if path.lower().endswith(PICTURES):
            pygame.image.load(path)
    except (OSError, pygame.error) as error:
        return str(error)
    return None


def run(args, found: list | None, out=print) -> int:
    """Every check, printed as it is done; 1 when any failed. `found`: the displays SDL sees (None: none)."""
    for line in where():
        out(line)
    config, lines = check_config(args.config)
    for line in lines:
        out(str(line))
    checks = (lambda: check_displays(config, found), lambda: check_fonts(config), lambda: check_sound(config),
              lambda: check_box(config, args.box_seconds, args.presses), lambda: check_ports(config),
              lambda: check_passcode(config), lambda: check_journal(config), lambda: check_pack(config, args.pack))
    for check in checks:
        for line in check():
            lines.append(line)
            out(str(line))
    failed = sum(line.verdict == FAIL for line in lines)
    warned = sum(line.verdict == WARN for line in lines)
    out(f"doctor: {failed} to fix, {warned} warning(s)" if failed or warned else "doctor: ready for the show")
    return 1 if failed else 0
