"""engine/ is pure (DEVELOPERS.md, Architecture; issue 1/6 done-when): it imports nothing from
bot/ or storage/, does no I/O, and no MGSZ or Swedish score path uses a float."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
SOURCES = sorted(ENGINE.rglob("*.py"))
# io is allowed: the csv writer writes into an in-memory StringIO; open() touches files
FORBIDDEN_MODULES = {
    "bot",
    "storage",
    "asyncio",
    "aiosqlite",
    "sqlite3",
    "socket",
    "os",
    "subprocess",
    "pathlib",
    "logging",
    "telegram",
    "discord",
}
FORBIDDEN_CALLS = {"open", "print", "input", "eval", "exec"}
EXACT_PACKAGES = ("mgsz", "swedish")


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_no_forbidden_imports_or_io(path: Path) -> None:
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            roots = {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            roots = {(node.module or "").split(".")[0]}
        else:
            roots = set()
        assert not roots & FORBIDDEN_MODULES, f"{path.name}:{node.lineno} imports {roots}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls I/O"


@pytest.mark.parametrize(
    "path",
    [
        p
        for p in SOURCES
        if any(part in EXACT_PACKAGES for part in p.relative_to(ENGINE).parts)
        or p.stem in EXACT_PACKAGES
    ],
    ids=lambda p: str(p.relative_to(ENGINE)),
)
def test_no_float_in_mgsz_or_swedish(path: Path) -> None:
    """rules.md §1.4 (integer thousandths) and §3.2 (exact quarter-points)."""
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Constant):
            assert not isinstance(node.value, float), f"{path.name}:{node.lineno} float literal"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"float", "round"}, f"{path.name}:{node.lineno}"
