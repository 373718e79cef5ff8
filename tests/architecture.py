"""The shape of the import graph (issue 23, docs/ARCHITECTURE.md): read from the sources, nothing imported.

Every `import` of a project module counts — at module level and inside functions (only `if TYPE_CHECKING:` blocks,
which never run, are left out) — so a circle cannot hide in a function. `problems()` lists, one line each:

- a circle of modules importing each other;
- a module taking another module's `_private` name (`from m import _x`, `m._x`, or `obj._x` where `_x` is not a
  name the module itself defines);
- an import inside a function without a `# lazy: why` comment on its line or the line above (such an import is
  kept only where start-up time or an optional dependency needs it);
- an arrow that runs back up the layers below (the display, a leaf, imports none of links, tournament or session).

`python tests/architecture.py [PREFIX]` prints them (for one package with a prefix such as `scoreboard.engine`).
"""
from __future__ import annotations

import ast
import functools
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("scoreboard", "host_remote")
LAZY = "# lazy:"

# Who may import whom: a module in a layer imports only from its own layer's package or a lower layer. The sibling
# packages of one layer never import each other (links, display, tournament are leaves over the session).
# A package's command-line module (`scoreboard.<package>.cli`) belongs to the top layer: it assembles what it runs.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("scoreboard.folders", "scoreboard.journal_lock"),   # the data and user folders; the journal's OS lock
    ("scoreboard.engine",),
    ("scoreboard.regulations", "scoreboard.journal", "scoreboard.packs", "scoreboard.snapshot_check",
     "scoreboard.labels"),
    ("scoreboard.session",),
    ("scoreboard.script", "scoreboard.protocol"),   # protocol: the record of a game, replayed from its journal
    ("scoreboard.links", "scoreboard.display", "scoreboard.tournament"),
    ("scoreboard.app", "host_remote"),
    ("scoreboard.demo",),
    ("scoreboard.cli", "scoreboard.engine_cli", "scoreboard.bench", "scoreboard.__main__"),
)
TOP = len(LAYERS) - 1
# Command-line modules beyond the `cli` ones: what the tournament's commands do, run by its parser.
CLI_MODULES = ("scoreboard.tournament.actions",)
ROOT_PACKAGE = "scoreboard"     # its __init__ (the version) is below everything
# Exceptions to the layers, each with its reason.
ALLOWED: dict[tuple[str, str], str] = {}


@dataclass
class Module:
    name: str
    path: Path
    is_package: bool
    tree: ast.Module = field(repr=False)
    lines: list[str] = field(repr=False)
    # read in one walk of the tree (_read): every import with (inside a function, under TYPE_CHECKING), every
    # attribute `x._name` on something else than self or cls, and the names the module itself defines
    found_imports: list[tuple[ast.AST, bool, bool]] = field(default_factory=list, repr=False)
    private_attributes: list[ast.Attribute] = field(default_factory=list, repr=False)
    own: set[str] = field(default_factory=set, repr=False)


def _read(module: Module) -> None:
    def visit(node: ast.AST, inner: bool, type_checking: bool) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            module.found_imports.append((node, inner, type_checking))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            module.own.add(node.name)
        elif isinstance(node, ast.Attribute):
            if isinstance(node.ctx, ast.Store):
                module.own.add(node.attr)
            elif _private(node.attr) and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                module.private_attributes.append(node)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            module.own.add(node.id)
        elif isinstance(node, ast.arg):
            module.own.add(node.arg)
        elif isinstance(node, ast.keyword) and node.arg:
            module.own.add(node.arg)   # dataclass-like constructors: `Thing(_x=…)`
        inner = inner or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                visit(child, inner, True)
            for child in node.orelse:
                visit(child, inner, type_checking)
            return
        for child in ast.iter_child_nodes(node):
            visit(child, inner, type_checking)
    visit(module.tree, False, False)


@dataclass(frozen=True)
class Import:
    source: str          # the importing module
    line: int
    target: str          # the project module imported
    name: str | None     # the name taken from it (`from target import name`), when not a module itself
    inner: bool          # inside a function


def modules(root: Path = ROOT) -> dict[str, Module]:
    """Every module under `root`, read once a process (the sources do not change while the tests run)."""
    return _modules_under(Path(root).resolve())


@functools.cache
def _modules_under(root: Path) -> dict[str, Module]:
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            text = path.read_text(encoding="utf-8")
            name = ".".join(parts)
            found[name] = module = Module(name, path, is_package, ast.parse(text, str(path)), text.splitlines())
            _read(module)
    return found


def _known(name: str, mods: dict[str, Module]) -> str | None:
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def imports(mods: dict[str, Module]) -> list[Import]:
    out = []
    for module in mods.values():
        for node, inner, type_checking in module.found_imports:
            if type_checking:
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = _known(alias.name, mods)
                    if target:
                        out.append(Import(module.name, node.lineno, target, None, inner))
                continue
            if node.level:
                base = module.name if module.is_package else module.name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in mods:
                    out.append(Import(module.name, node.lineno, full, None, inner))
                elif target := _known(base, mods):
                    out.append(Import(module.name, node.lineno, target, alias.name, inner))
    return [i for i in out if i.target != i.source]


def circles(mods: dict[str, Module], edges: list[Import]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    graph = defaultdict(set)
    for edge in edges:
        graph[edge.source].add(edge.target)
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = 0
    for start in mods:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_reach(mods: dict[str, Module], edges: list[Import]) -> list[str]:
    found = [f"{e.source}:{e.line} takes {e.target}.{e.name}" for e in edges if e.name and _private(e.name)]
    for module in mods.values():
        aliases = {alias.asname: alias.name for node, _, _ in module.found_imports if isinstance(node, ast.Import)
                   for alias in node.names if alias.asname and alias.name in mods}   # for `m._x`
        for node in module.private_attributes:
            value = node.value
            if isinstance(value, ast.Name) and value.id in aliases:
                found.append(f"{module.name}:{node.lineno} takes {aliases[value.id]}.{node.attr}")
            elif node.attr not in module.own:
                found.append(f"{module.name}:{node.lineno} takes {ast.unparse(node)} (not a name of its own)")
    return found


def unmarked_inner(mods: dict[str, Module], edges: list[Import]) -> list[str]:
    """Every import inside a function — of a project module or not — needs its reason."""
    found = []
    for module in mods.values():
        for node, inner, type_checking in module.found_imports:
            if type_checking or not inner:
                continue
            if not _marked(module.lines, node):
                found.append(f"{module.name}:{node.lineno} imports inside a function without '{LAZY} why'")
    return found


def _marked(lines: list[str], node: ast.AST) -> bool:
    """`# lazy:` on the import's own lines, or on a comment line heading the run of imports it belongs to."""
    if any(LAZY in line for line in lines[node.lineno - 1: node.end_lineno or node.lineno]):
        return True
    index = node.lineno - 2
    while index >= 0:
        text = lines[index].strip()
        if text.startswith(LAZY):
            return True
        if not (text.startswith(("import ", "from ", "#")) or text.endswith((",", "(")) or text.startswith(")")):
            return False
        index -= 1
    return False


def _layer(name: str) -> tuple[int, str] | None:
    if name == ROOT_PACKAGE:
        return -1, ROOT_PACKAGE
    if name.endswith(".cli") or name in CLI_MODULES or name.startswith("scoreboard.bench."):
        return TOP, name
    for level, packages in enumerate(LAYERS):
        for package in packages:
            if name == package or name.startswith(package + "."):
                return level, package
    return None


def upward(edges: list[Import]) -> list[str]:
    found = []
    for edge in edges:
        source, target = _layer(edge.source), _layer(edge.target)
        if source is None or target is None or (edge.source, edge.target) in ALLOWED:
            continue
        if source[0] == TOP:
            continue    # a command line or a bench assembles whatever it runs
        if target[0] > source[0] or (target[0] == source[0] and target[1] != source[1]):
            found.append(f"{edge.source}:{edge.line} imports {edge.target} ({target[1]} is not below {source[1]})")
    for module in {e.source for e in edges} | {e.target for e in edges}:
        if _layer(module) is None:
            found.append(f"{module} is in no layer of tests/architecture.py")
    return sorted(set(found))


def problems(prefix: str = "", root: Path = ROOT) -> list[str]:
    mods = modules(root)
    edges = imports(mods)
    found = [f"circle: {' ↔ '.join(c)}" for c in circles(mods, edges)]
    found += private_reach(mods, edges) + unmarked_inner(mods, edges) + upward(edges)
    return [p for p in found if prefix in p] if prefix else found


if __name__ == "__main__":
    listed = problems(sys.argv[1] if len(sys.argv) > 1 else "")
    print("\n".join(listed) or "no problems")
    print(f"{len(listed)} problem(s)", file=sys.stderr)
    sys.exit(1 if listed else 0)
