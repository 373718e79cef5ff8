"""Issue 25 items 1 and 3, the cheap half (tests/test_wheel.py builds and installs the wheel): pyproject.toml lists
every package, names every data file the program reads, and there is one version."""
from __future__ import annotations

import tomllib
from importlib import metadata

import pytest

from scoreboard import cli, folders
from tests.conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
# The top-level folders the wheel's data is built from, and what in them is no data (built here, or git's).
SHIPPED_FOLDERS = ("config/regulations", "themes", "assets", "examples", "firmware", "deploy")
NOT_DATA = ("firmware/sim/build/", ".gitignore")


def _package_data(package: str) -> set:
    base = ROOT / SETUPTOOLS.get("package-dir", {}).get(package, package.replace(".", "/"))
    return {p.relative_to(base).as_posix() for pattern in SETUPTOOLS["package-data"].get(package, [])
            for p in base.glob(pattern) if p.is_file()}


def test_every_package_is_listed_and_the_shipped_data_is_a_mapping_of_the_top_level_folders():
    """GIVEN pyproject.toml's explicit package list (a mapped data package rules out setuptools' discovery)
    WHEN compared with the folders of scoreboard/ and host_remote/ THEN every package is listed, none more, and
    `scoreboard.shipped` is the checkout's top level itself (one copy of the data, not two)."""
    found = {".".join(p.parent.relative_to(ROOT).parts) for top in ("scoreboard", "host_remote")
             for p in (ROOT / top).rglob("__init__.py")}
    assert set(SETUPTOOLS["packages"]) == found | {"scoreboard.shipped"}
    assert SETUPTOOLS["package-dir"] == {"scoreboard.shipped": "."}
    assert not (ROOT / "scoreboard" / "shipped").exists()


def test_package_data_names_every_file_the_program_reads_and_nothing_else():
    """GIVEN the files under the shipped folders (regulations, themes, fonts, sounds, sample packs, examples, the
    firmware sources, the deploy files) and beside the packages (the web page) WHEN matched with package-data
    THEN every one of them goes into the wheel, and no file outside them does (include-package-data is off)."""
    on_disk = {p.relative_to(ROOT).as_posix() for folder in SHIPPED_FOLDERS for p in (ROOT / folder).rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    on_disk = {f for f in on_disk if not any(f.startswith(n) or f.endswith(n) for n in NOT_DATA)}
    assert _package_data("scoreboard.shipped") == on_disk
    assert SETUPTOOLS["include-package-data"] is False
    for package in SETUPTOOLS["packages"]:
        if package == "scoreboard.shipped":
            continue
        folder = ROOT / package.replace(".", "/")
        assert _data_beside(folder, folder) == _package_data(package), package


def _data_beside(folder, package_folder) -> set:
    """Every file of a package's folder that is no module, in sub-folders too (a vendored library), but not in its
    sub-packages (folders with an __init__.py: their own package-data) nor in bytecode caches."""
    found = set()
    for path in folder.iterdir():
        if path.is_dir() and path.name != "__pycache__" and not (path / "__init__.py").exists():
            found |= _data_beside(path, package_folder)
        elif path.is_file() and path.suffix not in (".py", ".pyc"):
            found.add(path.relative_to(package_folder).as_posix())
    return found


def test_shipped_data_is_read_from_the_checkout_here():
    """GIVEN this checkout (an editable install) WHEN the program asks where its shipped data is THEN it is the
    checkout's own folders (in a wheel: scoreboard/shipped, tests/test_wheel.py)."""
    assert folders.shipped_root() == ROOT
    assert folders.shipped("config", "regulations", "novosibirsk-2007.toml").is_file()


def test_one_version_from_the_installed_metadata(capsys):
    """GIVEN pyproject.toml's version WHEN `scoreboard --version` runs THEN it prints that version, which is the
    installed distribution's metadata (issue 25 item 3)."""
    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"scoreboard {PYPROJECT['project']['version']}\n"
    assert metadata.version("svoya-scoreboard") == PYPROJECT["project"]["version"]
