"""`scoreboard-remote`: the host's remote control, a pygame-ce window for a 7–10" tablet or a laptop.

The main thread owns pygame. The OSC client's thread only fills a queue; each frame drains it, updates the screen
from the newest state, and sends what the host tapped. Nothing is decided here: the board applies or refuses each
command and its next state is what the screen shows.
"""
from __future__ import annotations

import argparse
import os
import queue
import sys

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # the remote's stdout is for its own messages

import pygame  # noqa: E402

from scoreboard import version  # noqa: E402
from scoreboard.links.osc.auth import parse_key  # noqa: E402
from scoreboard.links.osc.client import OscClient  # noqa: E402

from .discovery import Discovery  # noqa: E402
from .drive import from_environment  # noqa: E402
from .setup_model import parse_catalog  # noqa: E402
from .strings import command as command_words  # noqa: E402
from .strings import denial, refusal, set_language, t
from .ui import widgets as w  # noqa: E402
from .ui.connect_screen import ConnectScreen  # noqa: E402
from .ui.control_screen import ControlScreen  # noqa: E402


class RemoteApp:
    """Screens + client, without the window: tests drive it with events and read `render()`."""

    def __init__(self, address: str = "", port: int = 9000, passcode: str = "", role: str = "host",
                 discovery: Discovery | None = None, auth: str = "auto", key: str | None = None) -> None:
        self.role, self.auth, self.key = role, auth, key or None     # key: the board's, from its link (no passcode)
        self.discovery = discovery
        self.connect_screen = ConnectScreen(address, port, passcode, discovery)
        self.control: ControlScreen | None = None
        self.client: OscClient | None = None
        self.canvas = pygame.Surface(w.DESIGN)
        self.sent: list[tuple[str, tuple, int]] = []

    @property
    def screen(self):
        return self.control if self.control is not None else self.connect_screen

    def connect(self, address: str, port: int, passcode: str) -> None:
        if self.client is not None:
            self.client.close()
        try:
            self.client = OscClient(address, port, passcode=passcode, role=self.role, auth=self.auth, key=self.key)
        except OSError as error:   # an address that does not resolve
            self.connect_screen.fail(f"Адрес «{address}»: {error.strerror or error}")
            return
        self.connect_screen.message, self.connect_screen.message_bad = "Подключение…", False
        self.client.connect()

    def handle(self, event) -> None:
        outcome = self.screen.handle(event)
        if outcome is None:
            return
        if outcome[0] == "connect":
            self.connect(*outcome[1:])
            return
        address, args = outcome
        if self.client is not None:
            try:
                command_id = self.client.send(address, *args)
            except ValueError as error:
                self.control.last_ack, self.control.last_ack_ok = str(error), False
                return
            self.sent.append((address, args, command_id))

    def pump(self) -> None:
        """Drain the client's queue (main thread) and refresh what the screens show."""
        client = self.client
        if client is None:
            return
        while True:
            try:
                event = client.events.get_nowait()
            except queue.Empty:
                break
            if event.kind == "connection":
                if event.value == "connected" and self.control is None:
                    self.control = ControlScreen(f"{client.board[0]}:{client.board[1]}", self.role == "view")
                elif event.value == "denied":
                    # Refused outright (e.g. the board's passcode changed while we were away): back to the
                    # connect screen, where the host can type the new one.
                    self.control = None
                    self.connect_screen.fail(t("connect.denied", reason=denial(client.denied_reason)))
                elif event.value == "lost" and event.extra:
                    # The client's reader stopped (its reason in extra): not connected, shown as a lost link is.
                    if self.control is None:
                        self.connect_screen.fail(f"Связь с табло потеряна: {event.extra}")
                    else:
                        self.control.last_ack, self.control.last_ack_ok = f"нет связи: {event.extra}", False
            elif event.kind == "state" and self.control is not None:
                self.control.set_state(event.value, event.extra)
            elif event.kind == "question" and self.control is not None:
                self.control.question = event.value
            elif event.kind == "ack" and self.control is not None:
                self.control.last_ack, self.control.last_ack_ok = describe_ack(event.value), event.value.ok
                self.control.setup.on_ack(event.value)
                if event.value.ok:
                    args = next((a for addr, a, i in reversed(self.sent) if i == event.value.id), None)
                    if args is not None:
                        self.control.undo.accepted(event.value.address, args)
                        self.control.layout()   # relabel «Отменить»
            elif event.kind == "protocol" and self.control is not None and self.client is not None:
                path, port = event.value
                url = f"http://{self.client.board[0]}:{port}{path}"
                self.control.last_ack, self.control.last_ack_ok = t("ack.protocol", url=url), True
                open_in_browser(url)
            elif event.kind == "catalog" and self.control is not None:
                catalog = parse_catalog(event.value)
                if catalog is not None:
                    self.control.setup.on_catalog(catalog)
            elif event.kind == "error" and self.control is not None:
                self.control.last_ack, self.control.last_ack_ok = t(
                    "ack.refused", what=command_words(event.value[0]), reason=refusal(event.value[1])), False
            elif event.kind == "unknown" and self.control is not None:
                self.control.last_ack = t("ack.unknown", what=command_words(event.extra))
                self.control.last_ack_ok = False
        if self.control is None and client.state == "connecting":
            waited = client.connecting_for()
            if waited >= 2:
                self.connect_screen.message = f"Подключение… табло не отвечает {waited:.0f} с (адрес, порт, сеть?)"
        if self.control is not None:
            outbox = self.control.setup.outbox
            while outbox:
                address, args = outbox.pop(0)
                try:
                    command_id = client.send(address, *args)
                    self.sent.append((address, args, command_id))
                    self.control.setup.sent(address, args, command_id)
                except ValueError as error:
                    self.control.setup.message, self.control.setup.message_bad = str(error), True
            self.control.connection = client.state
            self.control.pending = client.pending_count()
            if self.control.snapshot is None and client.snapshot is not None:
                self.control.set_state(client.snapshot, client.rev)
                self.control.question = client.question

    def render(self) -> pygame.Surface:
        self.screen.draw(self.canvas)
        return self.canvas

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        if self.discovery is not None:
            self.discovery.stop()


def describe_ack(ack) -> str:
    """The status line in words: «верно: принято», «пакет: нет файла пакета …» (never `#6 /sg/undo ok`)."""
    if ack.ok:
        return t("ack.ok", what=command_words(ack.address))
    return t("ack.refused", what=command_words(ack.address), reason=refusal(ack.reason))


def to_design(pos, window_size) -> tuple[int, int]:
    return (int(pos[0] * w.DESIGN[0] / window_size[0]), int(pos[1] * w.DESIGN[1] / window_size[1]))


# A key is base64url and a passcode anything: either may begin with "-", which argparse would take for an option.
_SECRETS = ("--key", "--passcode")


def _glued(argv):
    """`--key -Xy…` as `--key=-Xy…`: the value after a secret's option is always its value."""
    argv, out = list(argv), []
    while argv:
        arg = argv.pop(0)
        out.append(f"{arg}={argv.pop(0)}" if arg in _SECRETS and argv else arg)
    return out


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="scoreboard-remote", description="The host's remote for the scoreboard")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    parser.add_argument("board", nargs="?", default="", help="the board's address, HOST or HOST:PORT")
    parser.add_argument("--passcode", default=os.environ.get("SCOREBOARD_PASSCODE", ""),
                        help="the board's passcode (or set SCOREBOARD_PASSCODE)")
    parser.add_argument("--key", default=os.environ.get("SCOREBOARD_KEY", ""),
                        help="the board's key instead of the passcode: what follows #k= in the link of the QR code on "
                             "the board's host screen (or set SCOREBOARD_KEY)")
    parser.add_argument("--role", choices=("host", "view"), default="host")
    parser.add_argument("--auth", choices=("auto", "on", "off"), default=os.environ.get("SCOREBOARD_AUTH", "auto"),
                        help="sign commands (docs/REMOTE.md): auto = whenever the board offers it (default); "
                             "on = never send the passcode or an unsigned command; off = plain OSC")
    parser.add_argument("--size", default="1024x600", help="window size WxH (default 1024x600, a 7\" tablet)")
    parser.add_argument("--fullscreen", action="store_true")
    parser.add_argument("--lang", choices=("ru", "en"), default=os.environ.get("SCOREBOARD_LANG", "ru"),
                        help="the language of the remote's text (default ru)")
    args = parser.parse_args(_glued(argv))
    host, _, port = args.board.partition(":")
    if port and not port.isdigit():
        parser.error(f"board {args.board!r}: the port must be a number")
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size {args.size!r}: expected WIDTHxHEIGHT, e.g. 1024x600")
    if not (320 <= width <= 8192 and 200 <= height <= 8192):
        parser.error(f"--size {args.size!r}: out of range (320x200 .. 8192x8192)")
    if args.key:
        try:
            parse_key(args.key)
        except ValueError as error:
            parser.error(f"--key: {error}")
        if args.auth == "off":
            parser.error("--key proves itself by the authenticated mode: not with --auth off")
    return args, host, int(port or 9000), (width, height)


def main(argv: list[str] | None = None) -> int:
    args, host, port, size = parse_args(sys.argv[1:] if argv is None else argv)
    set_language(args.lang)
    pygame.display.init()
    pygame.font.init()
    flags = pygame.FULLSCREEN if args.fullscreen else pygame.RESIZABLE
    window = pygame.display.set_mode(size, flags)
    pygame.display.set_caption("Своя игра — пульт ведущего")
    pygame.key.start_text_input()
    driver = from_environment()   # the end-to-end test's hook; None in normal use
    discovery = Discovery()
    discovery.start()
    app = RemoteApp(host, port, args.passcode, args.role, discovery, args.auth, args.key)
    if host and (args.passcode or args.key):
        app.connect(host, port, args.passcode)
    clock = pygame.time.Clock()
    try:
        while True:
            if driver is not None:
                for event in driver.events(app, window.get_size()):
                    pygame.event.post(event)
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    return 0
                if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                    event = pygame.event.Event(event.type, pos=to_design(event.pos, window.get_size()),
                                               button=event.button)
                app.handle(event)
            app.pump()
            canvas = app.render()
            if canvas.get_size() == window.get_size():
                window.blit(canvas, (0, 0))
            else:
                pygame.transform.smoothscale(canvas, window.get_size(), window)
            pygame.display.flip()
            if driver is not None:
                driver.report(app)
            clock.tick(30)   # a remote needs no more; it leaves the tablet's battery alone
    except KeyboardInterrupt:
        return 130
    finally:
        app.close()
        pygame.quit()


if __name__ == "__main__":
    sys.exit(main())


def open_in_browser(url: str) -> None:
    """The protocol in the laptop's browser, where there is one; the link stays on the remote's status line."""
    try:
        import webbrowser  # lazy: only when the host asks for the protocol
        webbrowser.open(url)
    except Exception:   # no browser (a kiosk tablet): the status line shows the link
        pass
