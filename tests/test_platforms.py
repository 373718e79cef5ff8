"""Issue 25 item 4: not tied to Linux. No module of the board, the remote or the command line imports a Unix-only
module when it is imported (Windows has none of them); where one is needed it is imported where it is used, with a
fallback or a clear message. Ctrl-C, SIGTERM, a closed terminal and a closed console window stop the board the
same way wherever those signals exist; serial ports named COM3 are accepted."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

from tests.conftest import ROOT

UNIX_ONLY = ("fcntl", "termios", "pty", "tty", "resource", "pwd", "grp")

# Run in a fresh interpreter: a meta-path finder refuses the Unix-only modules to the project's own modules (as
# Windows would: ImportError), while a third-party library, which picks its own platform's code (pyserial's
# serialposix here, serialwin32 there), still gets them. Then every module of both packages is imported.
PROBE = textwrap.dedent("""
    import importlib, importlib.abc, pkgutil, sys
    BLOCKED = set(sys.argv[1].split(","))
    OURS = ("scoreboard", "host_remote")

    def importer():
        frame = sys._getframe(2)
        while frame is not None and frame.f_globals.get("__name__", "").startswith(("importlib", "_frozen_importlib")):
            frame = frame.f_back
        return frame.f_globals.get("__name__", "") if frame is not None else ""

    class Windowsish(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED and importer().split(".")[0] in OURS:
                raise ImportError(f"{name} (Unix-only) imported by {importer()}")
            return None

    sys.meta_path.insert(0, Windowsish())
    import scoreboard, host_remote
    failed, count = [], 0
    for package in (scoreboard, host_remote):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if info.name.endswith(".__main__"):
                continue                      # running it is `python -m scoreboard`, not an import
            count += 1
            try:
                importlib.import_module(info.name)
            except ImportError as error:
                failed.append(f"{info.name}: {error}")
    print("\\n".join(failed))
    print(f"{count} modules imported, {len(failed)} failed")
""")


def test_every_module_imports_without_the_unix_only_modules():
    """GIVEN a Python where fcntl, termios, pty, tty, resource, pwd and grp cannot be imported by the project's code
    (as on Windows) WHEN every module of scoreboard and host_remote is imported THEN each one imports (the Unix-only
    ones are imported where they are used, `# lazy: Unix-only`)."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, "-c", PROBE, ",".join(UNIX_ONLY)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith(" 0 failed"), done.stdout
    assert int(done.stdout.split()[-5]) > 150        # every module was walked, not a few


def test_stop_signals_are_those_the_platform_has():
    """GIVEN a platform's signal module without SIGTERM and SIGHUP but with SIGBREAK (Windows: Ctrl-Break and closing
    the console window), and Linux's with SIGHUP ignored (`nohup`) WHEN the board picks its stop signals THEN Windows
    gets SIGINT and SIGBREAK, and a board under nohup keeps ignoring SIGHUP."""
    from types import SimpleNamespace

    from scoreboard.app.signals import stop_signal_numbers
    windows = SimpleNamespace(SIGINT=2, SIGBREAK=21, SIG_IGN=1, getsignal=lambda number: 0)
    assert stop_signal_numbers(windows) == (2, 21)
    nohup = SimpleNamespace(SIGTERM=15, SIGINT=2, SIGHUP=1, SIG_IGN="ignored",
                            getsignal=lambda number: "ignored" if number == 1 else None)
    assert stop_signal_numbers(nohup) == (15, 2)


def test_a_closed_terminal_stops_the_board_as_sigterm_does():
    """GIVEN the board's stop handler installed (app/signals.py, as `scoreboard run` does) WHEN SIGHUP arrives (the
    terminal it runs in was closed) THEN the board's handler gets it — not the default, which kills the process with
    the journal open — and the previous handler is back afterwards."""
    from scoreboard.app.signals import stop_signals
    got, before = [], []

    def earlier(signum, frame):
        before.append(signum)
    old = signal.signal(signal.SIGHUP, earlier)
    try:
        with stop_signals(lambda signum, frame: got.append(signum)):
            os.kill(os.getpid(), signal.SIGHUP)
        assert got == [signal.SIGHUP] and before == []
        assert signal.getsignal(signal.SIGHUP) is earlier
    finally:
        signal.signal(signal.SIGHUP, old)


def test_a_windows_serial_port_name_is_a_valid_button_box_port():
    """GIVEN [buttons] port = "COM3" (how Windows names a USB serial adapter) WHEN the config is checked THEN it has
    no problem (pyserial opens COM ports by that name)."""
    from scoreboard.app.config import check_config
    config, problems = check_config({"buttons": {"port": "COM3"}, "osc": {"bind": "127.0.0.1"}}, "test.toml")
    assert problems == [] and config["buttons"]["port"] == "COM3"
