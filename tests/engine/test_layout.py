"""The engine's house (issue 23): its modules import each other in the order docs/ENGINE.md lists them — no circle,
every import at the top, no other module's private name — and only `phases.move` assigns a phase."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from scoreboard.engine import phases
from tests import architecture

ENGINE = Path(phases.__file__).parent
DOCS = Path(__file__).resolve().parents[2] / "docs" / "ENGINE.md"
PACKAGE = "scoreboard.engine"


def in_engine(name: str) -> bool:
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def engine_modules() -> dict[str, architecture.Module]:
    return {name: module for name, module in architecture.modules().items() if in_engine(name) and name != PACKAGE}


def documented_order() -> list[str]:
    """The module table of docs/ENGINE.md, top to bottom."""
    docs = DOCS.read_text(encoding="utf-8")
    table = docs[docs.index("| module | what it holds |"):docs.index("Around it:")]
    return [f"{PACKAGE}.{name}" for name in re.findall(r"^\| `(\w+)\.py` \|", table, flags=re.M)]


def test_the_engine_imports_in_the_order_its_docs_list_its_modules():
    """GIVEN the engine's sources and the module table of docs/ENGINE.md WHEN every import is read (inside functions
    too) THEN the table lists each module once, and each module imports only modules above it: no circle, no arrow
    back up."""
    mods = engine_modules()
    order = documented_order()
    assert sorted(order) == sorted(mods), (set(mods) - set(order), set(order) - set(mods))
    rank = {name: i for i, name in enumerate(order)}
    up = [f"{e.source}:{e.line} imports {e.target}" for e in architecture.imports(architecture.modules())
          if e.source in rank and e.target in rank and rank[e.target] >= rank[e.source]]
    assert not up, up


def test_the_engine_imports_at_the_top_and_takes_no_private_name():
    """GIVEN the engine's sources WHEN read THEN no import sits inside a function (a pure engine has no start-up cost
    to defer) and no module takes another module's `_private` name."""
    everything = architecture.modules()
    edges = architecture.imports(everything)
    inner = [f"{e.source}:{e.line}" for e in edges if in_engine(e.source) and e.inner]
    assert not inner, inner
    assert not architecture.unmarked_inner(engine_modules(), edges)
    reach = [p for p in architecture.private_reach(everything, edges) if in_engine(p.split(":")[0])]
    assert not reach, reach


def phase_writes(source: str, module: str) -> list[str]:
    """Where a module sets a phase: an assignment to `.phase`, `setattr(…, "phase", …)`, or `phase=` given to a
    constructor or `replace` — each as 'module:function:line'."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def where(node) -> str:
        at, function = node, "<module>"
        while at in parents:
            at = parents[at]
            if isinstance(at, (ast.FunctionDef, ast.AsyncFunctionDef)):
                function = at.name
                break
        return f"{module}:{function}:{node.lineno}"

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "phase" and isinstance(node.ctx, (ast.Store, ast.Del)):
            found.append(where(node))
        elif isinstance(node, ast.Call):
            name = ast.unparse(node.func)
            if name.endswith("setattr") and len(node.args) > 1 and "phase" in ast.unparse(node.args[1]):
                found.append(where(node))
            elif any(k.arg == "phase" for k in node.keywords) and not name.endswith(".format"):
                found.append(where(node))
    return found


def test_only_phases_move_sets_a_phase():
    """GIVEN every module of the engine WHEN its syntax tree is read THEN the one place that sets a game's phase is
    `phases.move` (which checks the table first); a new game begins in setup (State's default) and a restored state
    brings its phase back whole (game.py: a pickle), so neither assigns one. A stray assignment is found."""
    writes = [w for path in sorted(ENGINE.glob("*.py")) for w in phase_writes(path.read_text("utf-8"), path.stem)]
    assert [w.rsplit(":", 1)[0] for w in writes] == ["phases:move"], writes
    planted = ("def open_cell(t):\n    t.st.phase = Phase.READING\n    setattr(t.st, 'phase', Phase.REVEAL)\n"
               "    st.phase, x = Phase.AUCTION, 1\n    return State('r', 's', [], phase=Phase.REVEAL)\n")
    assert sorted(phase_writes(planted, "question")) == [f"question:open_cell:{line}" for line in (2, 3, 4, 5)]
