"""The import directions (STYLE.md, The shape; Lessons, round 2, "Layers by directory"; issue 24,
build item 2): imports run bot → storage → engine; everything that decides lives in
``bot/core/``, which imports nothing from ``bot/adapters/`` or ``bot/web/`` (the web reaches it
through the injected links port, :mod:`bot.core.links`); the adapters reach storage only
through the core's facade (:mod:`bot.core.facade`); and no two modules of ``bot/`` import each
other, directly or round a loop — not even for type checking only.

The graph is read from the source (every ``import`` anywhere in a module: at the top, inside a
function, under ``if TYPE_CHECKING:``), so a test fails on a line, not on a run that happens to
import it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "engine", "storage")


def module_name(root: Path, path: Path) -> str:
    """``bot/core/app.py`` → ``bot.core.app``; a package's ``__init__.py`` is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(module: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted names an import statement in ``module`` names (``from x import y`` names
    ``x.y``: ``y`` may be a module, else it is something in ``x``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        here = module.split(".") if is_package else module.split(".")[:-1]
        here = here[: len(here) - (node.level - 1)]
        base = ".".join([*here, *([node.module] if node.module else [])])
    return [f"{base}.{alias.name}" for alias in node.names]


def import_graph(root: Path, packages: Iterable[str]) -> nx.DiGraph:
    """Modules of ``packages`` below ``root`` and who imports whom among them: an edge
    ``a → b`` for every import in ``a`` (of any kind, anywhere in it) that names ``b`` or
    something in ``b``; its ``line`` is the first such import's line number."""
    paths = {
        module_name(root, path): path
        for package in packages
        for path in (root / package).rglob("*.py")
    }
    graph = nx.DiGraph()
    for module, path in paths.items():
        graph.add_node(module)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for name in imported(module, path.name == "__init__.py", node):
                while name and name not in paths:
                    name = name.rpartition(".")[0]
                if name and name != module and not graph.has_edge(module, name):
                    graph.add_edge(module, name, line=node.lineno)
    return graph


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def crossings(graph: nx.DiGraph, source: str, targets: tuple[str, ...]) -> list[str]:
    """Every import from a module of ``source`` into a module of one of ``targets``."""
    return sorted(
        f"{a}:{graph.edges[a, b]['line']} imports {b}"
        for a, b in graph.edges
        if within(a, source) and any(within(b, t) for t in targets)
    )


def cycles(graph: nx.DiGraph, package: str) -> list[list[str]]:
    """The import cycles among ``package``'s modules: each strongly connected component of
    more than one module."""
    inside = graph.subgraph(n for n in graph if within(n, package))
    return sorted(sorted(c) for c in nx.strongly_connected_components(inside) if len(c) > 1)


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    return import_graph(ROOT, PACKAGES)


def test_the_core_imports_no_adapter_and_no_web(graph: nx.DiGraph) -> None:
    """bot/core decides; the web and the chat platforms are at its edge (issue 24, done-when)."""
    assert crossings(graph, "bot.core", ("bot.adapters", "bot.web", "bot.cli", "bot.run")) == []


def test_adapters_reach_storage_only_through_the_facade(graph: nx.DiGraph) -> None:
    assert crossings(graph, "bot.adapters", ("storage",)) == []


def test_engine_imports_nothing_from_bot_or_storage(graph: nx.DiGraph) -> None:
    assert crossings(graph, "engine", ("bot", "storage")) == []


def test_storage_imports_nothing_from_bot(graph: nx.DiGraph) -> None:
    assert crossings(graph, "storage", ("bot",)) == []


def test_no_import_cycle_in_bot(graph: nx.DiGraph) -> None:
    assert cycles(graph, "bot") == []


def test_the_graph_sees_type_checking_and_function_imports(tmp_path: Path) -> None:
    """The checks above can fail: a cycle closed only under ``TYPE_CHECKING`` and a relative
    import inside a function are both edges."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.b import B\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\nB = 1\n"
    )
    (package / "c.py").write_text("def f():\n    from . import a\n    from .b import B\n")
    found = import_graph(tmp_path, ("pkg",))
    assert cycles(found, "pkg") == [["pkg.a", "pkg.b"]]
    assert crossings(found, "pkg.c", ("pkg.a",)) == ["pkg.c:2 imports pkg.a"]
    assert crossings(found, "pkg.c", ("pkg.b",)) == ["pkg.c:3 imports pkg.b"]
