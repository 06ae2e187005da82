"""storage/'s import graph is layered (issue 24, Build item 2: "no type-level import cycle in
storage/"; STYLE.md, "Low layers know nothing above them").

Every import counts, those under ``TYPE_CHECKING`` and inside functions too: a cycle that only
the type checker or a late import breaks is still two modules that cannot be read, tested or
replaced apart. ``from storage import log`` is an edge to the module ``storage.log`` only;
``import storage`` or ``from storage import Database`` (a name the package re-exports) is an edge
to the package facade ``storage/__init__.py``, which sits on top and nothing inside storage
imports. And storage imports nothing from ``bot/`` (imports run bot → storage → engine).
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]


def modules(root: Path, package: str) -> dict[str, Path]:
    """Map each module's dotted name under ``root/package`` to its file; a package is named by
    its directory (``storage``, not ``storage.__init__``)."""
    found: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _absolute(name: str, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` names, resolving ``from . import x`` in ``name``."""
    if node.level == 0:
        return node.module or ""
    base = name.split(".")
    # a package's own module is its name; a plain module's package drops its last part
    keep = len(base) - node.level + (1 if name.endswith("__init__") else 0)
    return ".".join([*base[:keep], *([node.module] if node.module else [])])


def imported(name: str, path: Path) -> set[str]:
    """Every dotted name ``name`` (at ``path``) imports, anywhere in the file."""
    found: set[str] = set()
    own = f"{name}.__init__" if path.name == "__init__.py" else name
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(own, node)
            found.update(f"{module}.{alias.name}" for alias in node.names)
            found.add(module)
    return found


def import_graph(root: Path, package: str) -> nx.DiGraph:
    """The import graph of ``package``'s modules, one edge per importing module and imported
    module inside the package.

    ``from p import m`` where ``p/m.py`` exists is an edge to ``p.m`` only; ``from p import name``
    of any other name, and ``import p``, are edges to ``p``; ``import p.m`` is an edge to
    ``p.m``.
    """
    known = modules(root, package)
    graph: nx.DiGraph = nx.DiGraph()
    graph.add_nodes_from(known)
    for name, path in known.items():
        own = f"{name}.__init__" if path.name == "__init__.py" else name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [_longest(alias.name, known) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                module = _absolute(own, node)
                targets = [
                    f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module
                    for alias in node.names
                ]
            graph.add_edges_from(
                (name, target) for target in targets if target in known and target != name
            )
    return graph


def _longest(dotted: str, known: dict[str, Path]) -> str:
    """The longest prefix of ``dotted`` that is a known module (``import a.b.c`` runs a.b.c)."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in known:
            return ".".join(parts[:end])
    return dotted


def cycles(graph: nx.DiGraph) -> list[list[str]]:
    """One cycle through each strongly connected component of more than one module, readable."""
    found = []
    for component in sorted(nx.strongly_connected_components(graph), key=sorted):
        if len(component) > 1:
            cycle = nx.find_cycle(graph.subgraph(component))
            found.append([*(edge[0] for edge in cycle), cycle[0][0]])
    return found


def test_storage_has_no_import_cycle() -> None:
    graph = import_graph(ROOT, "storage")
    found = cycles(graph)
    components = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not found, "import cycles in storage/: " + "; ".join(
        f"{' → '.join(cycle)} (one of {len(component)} modules in a cycle: {component})"
        for cycle, component in zip(found, sorted(components), strict=True)
    )


def test_nothing_inside_storage_imports_the_package_facade() -> None:
    graph = import_graph(ROOT, "storage")
    assert sorted(graph.predecessors("storage")) == []


def test_storage_imports_nothing_from_bot() -> None:
    offending = [
        f"{name} imports {target}"
        for name, path in modules(ROOT, "storage").items()
        for target in sorted(imported(name, path))
        if target == "bot" or target.startswith("bot.")
    ]
    assert offending == []


def _write(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_graph_sees_cycles_through_type_checking_late_and_facade_imports(
    tmp_path: Path,
) -> None:
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.a import A\n",
            "pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from pkg.b import B\nA = 1\n",
            "pkg/b.py": "def f():\n    from pkg import c\nB = 2\n",
            "pkg/c.py": "from pkg import A\n",
            "pkg/d.py": "from . import e\n",
            "pkg/e.py": "import pkg.d\n",
            "pkg/f.py": "from pkg import d, e\nimport bot.core\n",
        },
    )
    graph = import_graph(tmp_path, "pkg")
    assert set(graph.edges) == {
        ("pkg", "pkg.a"),
        ("pkg.a", "pkg.b"),
        ("pkg.b", "pkg.c"),
        ("pkg.c", "pkg"),
        ("pkg.d", "pkg.e"),
        ("pkg.e", "pkg.d"),
        ("pkg.f", "pkg.d"),
        ("pkg.f", "pkg.e"),
    }
    assert sorted(map(sorted, map(set, cycles(graph)))) == [
        ["pkg", "pkg.a", "pkg.b", "pkg.c"],
        ["pkg.d", "pkg.e"],
    ]
    assert "bot.core" in imported("pkg.f", tmp_path / "pkg" / "f.py")
