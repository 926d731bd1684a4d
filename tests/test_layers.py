"""Imports only go down the layers: no module of the kit reaches up to a layer above its own.

The layers, lowest first, are the subpackages' order in the data's path (each subpackage's docstring
names what it may import); the top-level modules are the command line (``cli``, ``__main__``), the top
floor: no subpackage imports them, so a run or a measurement is a function of its settings, never of a
command line.  A module may import its own layer and any layer below; this test reads every import
statement of the package, the function-local ones included.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import locomo_repro

PACKAGE = Path(locomo_repro.__file__).parent

#: Lowest first.  Modules at the package's top level (the command line) are the top floor.
LAYERS = ["go", "text", "data", "memory", "arms", "read", "score", "judge", "bench", "refined", "peers", "claims", "report", ""]


def layer(module: str) -> int:
    """The layer of a dotted module name inside the package (``""`` for a top-level module)."""
    parts = module.split(".")
    top = parts[1] if len(parts) > 2 or (parts[1:] and (PACKAGE / parts[1]).is_dir()) else ""
    return LAYERS.index(top)


def modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        out.append((".".join(["locomo_repro", *parts]), path))
    return out


def imported(module: str, path: Path) -> set[str]:
    """Every module of the package that ``path`` imports, resolved to a dotted name."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if not target.startswith("locomo_repro"):
                continue
            for alias in node.names:  # ``from . import kg`` names a module
                sub = f"{target}.{alias.name}"
                is_module = (PACKAGE.parent / (sub.replace(".", "/") + ".py")).is_file() or (
                    PACKAGE.parent / sub.replace(".", "/")
                ).is_dir()
                found.add(sub if is_module else target)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("locomo_repro")}
    return {f for f in found if f != "locomo_repro"}


@pytest.mark.parametrize(("module", "path"), modules(), ids=[m for m, _ in modules()])
def test_no_module_imports_a_layer_above_its_own(module, path):
    mine = layer(module)
    above = sorted(f for f in imported(module, path) if layer(f) > mine)
    assert not above, f"{module} (layer {LAYERS[mine] or 'top'}) imports {above}"


def test_nothing_but_main_imports_the_command_line():
    """The command line is the top floor, a thin layer over the rest: ``api`` included, no module imports
    ``locomo_repro.cli`` but ``locomo_repro/__main__.py``, which runs it."""
    importers = sorted(m for m, path in modules() if "locomo_repro.cli" in imported(m, path)
                       and path != PACKAGE / "__main__.py")
    assert importers == []


def test_the_layer_rule_sees_an_upward_import(tmp_path):
    """The checker itself: a memory module importing the experiment is caught."""
    fake = tmp_path / "cite.py"
    fake.write_text("from ..bench import experiment\nfrom ..text.reduce import terms\n")
    found = imported("locomo_repro.memory.cite", fake)
    assert found == {"locomo_repro.bench.experiment", "locomo_repro.text.reduce"}
    assert [f for f in found if layer(f) > layer("locomo_repro.memory.cite")] == ["locomo_repro.bench.experiment"]


def test_every_subpackage_is_placed_in_a_layer():
    subpackages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert subpackages <= set(LAYERS)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every set of modules that import one another, directly or through others (strongly connected
    components of more than one module, or a module importing itself), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in graph.get(v, ()):
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_a_module_that_imports_it():
    """No import circle anywhere, the imports made only for type checking included."""
    assert circles({module: imported(module, path) for module, path in modules()}) == []


def test_the_circle_rule_sees_a_circle_through_a_third_module():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert circles(graph) == [["a", "b", "c"], ["e"]]
