"""Issue 25 item 1 (and 2, 3, 6 as a new user meets them): the wheel runs anywhere. Built once for the module from
the checkout's tracked files (`python -m build --wheel`), installed into a fresh venv outside the checkout, and run
from another folder with HOME and the XDG folders in a temporary home: `--version`, `demo`, `pack check` of a
shipped pack, `theme check classic`, the tournament's CLI, `config init`, `doctor` and `run` (under Xvfb, stopped
with SIGTERM once it draws). Nothing may be written under site-packages.

The slow part is the venv. The cheapest honest way found: the stdlib's `venv --without-pip` (0.1 s) and `uv pip
install` of the wheel, its dependencies resolved from the wheel's own metadata as pip would (0.1 s from uv's cache,
offline first; ~1 s more when it asks the index; pip takes ~13 s, most of it the index's round trips, and compiling
every dependency's bytecode at install another ~2 s). Python's own bytecode caches (`__pycache__/*.pyc`, which pip
would have written at install) are the interpreter's, so the check that nothing is written under site-packages
leaves them out: every other file must be as installed. Measured: docs/PERFORMANCE.md ("the wheel test").
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from tests.conftest import ROOT, TOOLS_CACHE, need, xvfb

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def _uv() -> str | None:
    try:
        import uv
    except ImportError:
        return None
    return uv.find_uv_bin()


def _has_backend() -> bool:
    try:
        return int(metadata.version("setuptools").split(".")[0]) >= 77
    except metadata.PackageNotFoundError:
        return False


def _tracked_copy(target: Path) -> Path:
    """The checkout's tracked files only (what a fresh clone holds: no stale build/, no local junk)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, timeout=60)
    names = [n for n in listed.stdout.decode().split("\0") if n] if listed.returncode == 0 else []
    assert names, f"git ls-files found nothing: {listed.stderr.decode()}"
    for name in names:
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv, env, work folder, home): the wheel built from a copy of the checkout and installed in a fresh venv."""
    base = tmp_path_factory.mktemp("wheel")
    source = _tracked_copy(base / "source")
    uv = _uv()
    build = [sys.executable, "-m", "build", "--wheel", "--outdir", str(base / "dist")]
    # The test extra brings the build backend pyproject.toml asks for: no isolated env to make (it checks the
    # requirement is met); without it, an isolated one, made by uv when there is one.
    build += ["--no-isolation"] if _has_backend() else ["--installer", "uv"] if uv else []
    done = subprocess.run(build + [str(source)], capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, UV=uv or ""))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    wheel = next((base / "dist").glob("svoya_scoreboard-*.whl"))
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    install = [uv, "pip", "install", "--quiet", "--python", str(python), str(wheel)] if uv \
        else [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", str(wheel)]
    tools = dict(os.environ, UV_CACHE_DIR=os.environ.get("UV_CACHE_DIR") or os.path.join(TOOLS_CACHE, "uv"))
    done = subprocess.run(install + ["--offline"], capture_output=True, text=True, timeout=600, env=tools) \
        if uv else None
    if done is None or done.returncode != 0:    # not all in uv's cache yet: ask the index
        done = subprocess.run(install, capture_output=True, text=True, timeout=600, env=tools)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    home, work = base / "home", base / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "SCOREBOARD", "DISPLAY",
                                                                    "WAYLAND", "SDL_", "XDG_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local" / "share"),
               XDG_CACHE_HOME=str(home / ".cache"), XDG_STATE_HOME=str(home / ".local" / "state"),
               SDL_AUDIODRIVER="dummy", PATH=f"{python.parent}{os.pathsep}{env.get('PATH', '')}")
    return venv, env, work, home


def _site_packages(venv: Path) -> Path:
    return next(venv.glob("lib/python3*/site-packages"))


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file but Python's bytecode caches: (size, modification time)."""
    return {p.relative_to(folder).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")
            if p.is_file() and not (p.parent.name == "__pycache__" and p.suffix == ".pyc")}


def run(installed, *args: str, timeout: float = 300, **extra: str) -> subprocess.CompletedProcess:
    venv, env, work, _ = installed
    return subprocess.run(["scoreboard", *args], cwd=work, env=dict(env, **extra), capture_output=True, text=True,
                          timeout=timeout)


def test_the_installed_wheel_plays_checks_and_runs_from_any_folder(installed):
    """GIVEN the wheel installed in a fresh venv, a working folder outside the checkout and an empty home
    WHEN a new user's commands run there — `--version`, `demo` (samara-2003, the shortest game), `pack check` of
    the shipped sample pack, `theme check classic`, a tournament (`new`, `standings`, `player add`, `player list`),
    `config init`, `doctor` and `run` under Xvfb
    THEN each succeeds reading the wheel's own data (not the checkout's), `config init` writes into the home's
    config folder, `run` draws and stops on SIGTERM with exit 0, and not one file under site-packages was written
    or changed."""
    venv, env, work, home = installed
    site = _site_packages(venv)
    before = _files(site)
    where = subprocess.run(["python", "-c", "import scoreboard, scoreboard.folders as p; print(scoreboard.__file__);"
                            " print(p.shipped('assets', 'packs', 'sample.toml'))"], cwd=work, env=env,
                           capture_output=True, text=True, timeout=120)
    module, sample = where.stdout.split()
    assert Path(module).is_relative_to(site) and Path(sample).is_relative_to(site / "scoreboard" / "shipped"), where

    demo = subprocess.Popen(["scoreboard", "demo", "--regulation", "samara-2003"], cwd=work, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)   # the rest run meanwhile
    assert run(installed, "--version").stdout == f"scoreboard {VERSION}\n"
    pack = run(installed, "pack", "check", sample)
    assert pack.returncode == 0 and "0 errors" in pack.stdout, pack.stdout + pack.stderr
    theme = run(installed, "theme", "check", "classic")
    assert theme.returncode == 0 and theme.stdout.strip().endswith(": ok"), theme.stdout + theme.stderr
    assert f"{site / 'scoreboard' / 'shipped' / 'themes' / 'classic'}" in theme.stdout
    for step in (("new", "--format", "america-2005", "--seed", "3"), ("standings",), ("player", "add", "Анна"),
                 ("player", "list")):
        done = run(installed, "tournament", "--file", "cup.sqlite", *step)
        assert done.returncode == 0, (step, done.stdout + done.stderr)
    assert "Анна" in done.stdout
    played, _ = demo.communicate(timeout=300)
    assert demo.returncode == 0 and "WINNER" in played, played[-3000:]

    init = run(installed, "config", "init")
    config = home / ".config" / "svoya-scoreboard" / "scoreboard.toml"
    assert init.returncode == 0 and str(config) in init.stdout, init.stdout + init.stderr
    text = config.read_text(encoding="utf-8")   # loopback and any free ports: other boards may run on this machine
    config.write_text(text.replace('bind = "0.0.0.0"', 'bind = "127.0.0.1"').replace("port = 9000", "port = 0")
                      .replace("port = 8080", "port = 0").replace("fullscreen = true", "fullscreen = false"),
                      encoding="utf-8")
    need("xvfb")
    with xvfb(((1280, 720),)) as display:
        doctor = run(installed, "doctor", DISPLAY=display)
        assert doctor.returncode == 0 and "doctor: 0 to fix" in doctor.stdout, doctor.stdout + doctor.stderr
        board = subprocess.Popen(["scoreboard", "run", "--windowed"], cwd=work, env=dict(env, DISPLAY=display,
                                 PYTHONUNBUFFERED="1"), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        seen = []
        for line in board.stdout:                # its log, line by line, to the first frame's loop
            seen.append(line)
            if line.startswith("board: running"):
                board.send_signal(signal.SIGTERM)
                break
        rest, _ = board.communicate(timeout=60)
    log = "".join(seen) + rest
    assert board.returncode == 0 and f"board: svoya-scoreboard {VERSION}" in log, log
    assert list((home / ".local" / "share" / "svoya-scoreboard" / "games").glob("*.sqlite")), log

    assert _files(site) == before               # nothing written inside the installed package, or anywhere beside it
    assert not (work / "config").exists()        # the config went to the platform's folder, not the working one
