"""The house (issue 23, docs/ARCHITECTURE.md): the import graph read from the sources — imports inside functions
counted — has no circle, no module takes another's `_private` name, every import inside a function says why it waits
(`# lazy:`), no arrow runs back up the layers, and the display, a leaf that draws, imports no links, tournament,
session or app. The checker itself is tried on a planted tree, so it is known to fail when it should."""
from __future__ import annotations

from pathlib import Path

from scoreboard.display import compose
from scoreboard.engine.phases import Phase
from tests import architecture


def test_the_house_has_no_circle_no_private_reach_no_unmarked_inner_import_and_no_arrow_up():
    """GIVEN every module of scoreboard/ and host_remote/ WHEN their imports are read THEN the checker lists
    nothing."""
    assert architecture.problems() == []


def test_the_display_imports_no_links_tournament_session_or_app():
    """GIVEN the display's modules WHEN every import is read, inside functions too THEN none names the links, the
    tournament, the session, the journal, the app, the demo or the benches: what it draws arrives as arguments."""
    mods = architecture.modules()
    banned = ("scoreboard.links", "scoreboard.tournament", "scoreboard.session", "scoreboard.journal",
              "scoreboard.app", "scoreboard.demo", "scoreboard.bench")
    found = [f"{e.source}:{e.line} imports {e.target}" for e in architecture.imports(mods)
             if e.source.startswith("scoreboard.display") and e.target.startswith(banned)]
    assert [m for m in mods if m.startswith("scoreboard.display")] and found == []


def test_every_phase_has_its_scene():
    """GIVEN the engine's phases WHEN the display picks a scene THEN each one has its own (a new phase without a scene
    fails here, not on a projector)."""
    assert set(compose.PHASE_SCENES) == set(Phase)


PLANTED = {
    # a circle hidden inside a function
    "scoreboard/engine/__init__.py": "",
    "scoreboard/engine/rules.py": "def f():\n    from scoreboard.engine import table  # lazy: planted\n",
    "scoreboard/engine/table.py": "from scoreboard.engine import rules\n",
    # a private name taken, by import and on an object of another module
    "scoreboard/journal.py": "from scoreboard.engine.table import _secret\n\ndef g(game):\n    return game._inside\n",
    # an import inside a function with no reason
    "scoreboard/session.py": "def h():\n    import json\n    return json\n",
    # the display reaching sideways into the links
    "scoreboard/display/__init__.py": "",
    "scoreboard/display/scene.py": "from scoreboard.links import inbox\n",
    "scoreboard/links/__init__.py": "",
    "scoreboard/links/inbox.py": "",
    "scoreboard/__init__.py": "",
}


def test_the_checker_finds_each_kind_of_problem(tmp_path: Path):
    """GIVEN a planted tree with one problem of each kind WHEN the checker reads it THEN it names each one."""
    for name, text in PLANTED.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    found = architecture.problems(root=tmp_path)
    assert "circle: scoreboard.engine.rules ↔ scoreboard.engine.table" in found
    assert "scoreboard.journal:1 takes scoreboard.engine.table._secret" in found
    assert "scoreboard.journal:4 takes game._inside (not a name of its own)" in found
    assert "scoreboard.session:2 imports inside a function without '# lazy: why'" in found
    assert any(p.startswith("scoreboard.display.scene:1 imports scoreboard.links.inbox") for p in found)
    assert not any("engine.rules:2 imports inside" in p for p in found)   # the marked one is accepted
