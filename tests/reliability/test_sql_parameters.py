"""User text reaches SQL only as parameters (issue 6/6, item 5).

Every SQL statement in ``storage/`` and ``bot/`` — the first argument of ``execute``,
``executemany``, ``executescript``, ``execute_fetchall``, ``fetchall``, ``fetchone`` and
``chunks`` — is read from the source (``ast``) and must be built only from:

* string literals, and f-strings / ``+`` / conditionals over safe parts;
* UPPER_CASE constants (the code's convention for fixed data, e.g. column lists), here or in
  another module (``log.UNDOABLE``);
* placeholder lists — ``", ".join("?" for _ in rows)`` — and joins of constants (also
  ``", ".join(f"games.{c}" for c in GAME_COLUMNS)``), and ``int(…)``;
* local names assigned only from the above;
* a function's parameter whose every call in the package passes one of the above (checked);
* the few reviewed exceptions in :data:`REVIEWED`, each with why it is safe.

Anything else — ``.format``, ``%``, a name bound to user input — fails the test, naming the file
and line. A self-test feeds known-bad snippets to the same checker.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("storage", "bot")
SQL_METHODS = {
    "execute",
    "executemany",
    "executescript",
    "execute_fetchall",
    "fetchall",
    "fetchone",
    "chunks",
}
REVIEWED = {
    # (module, function, name): why it may be formatted into SQL
    ("storage/db.py", "_connect", "synchronous"): "open_db refuses anything but NORMAL or FULL",
    ("storage/migrate.py", "apply", "script"): "the packaged migration files, and an int version",
    ("storage/backup.py", "expected_schema", "script"): (
        "the packaged migration files, run on a database in memory to compare schemas"
    ),
    ("storage/migrate.py", "apply_pg", "statement"): (
        "the packaged migration files translated by storage.dialect.migration"
    ),
    ("storage/tournaments.py", "_create", "names"): (
        "the keys of history.tournament_columns(): a dict literal of fixed column names"
    ),
    ("storage/transfer.py", "projection_digest", "sql"): "the constant PROJECTION_QUERIES",
    ("storage/transfer.py", "log_digest", "table"): "a table name of the constant LOG_TABLES",
    ("storage/transfer.py", "log_digest", "columns"): "column names of the constant LOG_TABLES",
    ("storage/transfer.py", "_copy_table", "table"): "a table name of the constant LOG_TABLES",
    ("storage/transfer.py", "_copy_table", "columns"): "column names of the constant LOG_TABLES",
    ("storage/projections.py", "rebuild", "index"): (
        "the CREATE INDEX statement read back from sqlite_master: the schema's own SQL"
    ),
}


@dataclass
class Module:
    path: str
    tree: ast.Module
    constants: set[str] = field(default_factory=set)


def is_constant_name(name: str) -> bool:
    stripped = name.lstrip("_")
    return (bool(stripped) and stripped.isupper()) or stripped.replace("_", "").isupper()


class Checker:
    """Decides whether an expression can only be fixed SQL text."""

    def __init__(self, modules: list[Module]) -> None:
        self.modules = modules
        self.calls: dict[str, list[tuple[Module, ast.Call]]] = {}
        for module in modules:
            for node in ast.walk(module.tree):
                if isinstance(node, ast.Call):
                    name = _callee(node)
                    if name:
                        self.calls.setdefault(name, []).append((module, node))

    def safe(
        self,
        node: ast.expr,
        module: Module,
        function: ast.FunctionDef | ast.AsyncFunctionDef | None,
        depth: int = 0,
        bound: frozenset[str] = frozenset(),
    ) -> bool:
        """``bound``: comprehension variables that run over constants."""
        if depth > 12:
            return False

        def recurse(n: ast.expr, more: frozenset[str] = frozenset()) -> bool:
            return self.safe(n, module, function, depth + 1, bound | more)

        if isinstance(node, ast.Constant):
            return isinstance(node.value, (str, int))
        if isinstance(node, ast.JoinedStr):
            return all(
                isinstance(v, ast.Constant) or recurse(v.value)  # type: ignore[attr-defined]
                for v in node.values
            )
        if isinstance(node, ast.FormattedValue):
            return recurse(node.value)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return all(recurse(e) for e in node.elts)  # a column list
        if isinstance(node, ast.Starred):
            return recurse(node.value)  # a column list unpacked into another
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return recurse(node.left) and recurse(node.right)
        if isinstance(node, ast.IfExp):
            return recurse(node.body) and recurse(node.orelse)
        if isinstance(node, ast.Attribute):
            return is_constant_name(node.attr)  # another module's constant: log.UNDOABLE
        if isinstance(node, ast.Subscript):
            return recurse(node.value) and (
                isinstance(node.slice, ast.Slice) or recurse(node.slice)
            )
        if isinstance(node, ast.Call):
            return self._safe_call(node, recurse)
        if isinstance(node, ast.Name):
            return node.id in bound or self._safe_name(node.id, module, function, depth)
        return False

    def _safe_call(self, node: ast.Call, recurse: Callable[..., bool]) -> bool:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "int":
            return True  # digits only, whatever went in
        # ", ".join(...) of placeholders or constants
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "join"
            and isinstance(func.value, ast.Constant)
            and len(node.args) == 1
        ):
            arg = node.args[0]
            if isinstance(arg, (ast.GeneratorExp, ast.ListComp)):
                if isinstance(arg.elt, ast.Constant):
                    return True  # "?" for _ in rows: the rows never reach the text
                names = frozenset(
                    t.id for g in arg.generators if isinstance(t := g.target, ast.Name)
                )
                return all(recurse(g.iter) for g in arg.generators) and recurse(arg.elt, names)
            return recurse(arg)
        return False

    def _safe_name(
        self,
        name: str,
        module: Module,
        function: ast.FunctionDef | ast.AsyncFunctionDef | None,
        depth: int,
    ) -> bool:
        if function is not None:
            key = (module.path, function.name, name)
            if key in REVIEWED:
                return True
            if function.name in SQL_METHODS and name == "sql":
                return True  # a wrapper (Transaction.execute …): each of its calls is checked
            params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
            params += [a.arg for a in function.args.kwonlyargs]
            if name in params:
                return self._safe_parameter(function, name, depth)
            assigned = list(_assignments(function, name))
            if assigned:
                return all(self.safe(v, module, function, depth + 1) for v in assigned)
        assigned = list(_assignments(module.tree, name, top_level=True))
        if assigned:
            return all(self.safe(v, module, None, depth + 1) for v in assigned)
        return is_constant_name(name)

    def _safe_parameter(
        self, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, depth: int
    ) -> bool:
        """Every call of ``function`` in the packages passes safe SQL for ``name``."""
        args = function.args
        positional = [a.arg for a in (*args.posonlyargs, *args.args)]
        index = positional.index(name) if name in positional else None
        calls = self.calls.get(function.name, [])
        if not calls:
            return False
        for module, call in calls:
            caller = _enclosing(module.tree, call)
            given: ast.expr | None = None
            for keyword in call.keywords:
                if keyword.arg == name:
                    given = keyword.value
            if given is None and index is not None and index < len(call.args):
                given = call.args[index]
            if given is None:
                continue  # the default, a literal in the signature
            if not self.safe(given, module, caller, depth + 1):
                return False
        return True


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _assignments(scope: ast.AST, name: str, *, top_level: bool = False) -> Iterator[ast.expr]:
    nodes = scope.body if top_level and isinstance(scope, ast.Module) else ast.walk(scope)
    for node in nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == name:
                    yield node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if node.target.id == name and node.value is not None:
                yield node.value
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            if node.target.id == name:
                yield node.value
        elif isinstance(node, (ast.For, ast.comprehension)) and not top_level:
            target = node.target
            if isinstance(target, ast.Name) and target.id == name:
                yield ast.Name(id="<loop variable>")  # never safe


def _enclosing(tree: ast.Module, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    for candidate in ast.walk(tree):
        if isinstance(candidate, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            child is node for child in ast.walk(candidate)
        ):
            inner = [
                c
                for c in ast.walk(candidate)
                if c is not candidate
                and isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef))
                and any(x is node for x in ast.walk(c))
            ]
            return inner[-1] if inner else candidate
    return None


def sql_calls(module: Module) -> Iterator[tuple[ast.Call, ast.expr]]:
    for node in ast.walk(module.tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in SQL_METHODS
            and node.args
        ):
            yield node, node.args[0]


def load(paths: list[Path]) -> list[Module]:
    return [
        Module(str(p.relative_to(ROOT)), ast.parse(p.read_text("utf-8"), filename=str(p)))
        for p in paths
    ]


def unsafe(modules: list[Module]) -> tuple[int, list[str]]:
    checker = Checker(modules)
    count, found = 0, []
    for module in modules:
        for call, sql in sql_calls(module):
            count += 1
            function = _enclosing(module.tree, call)
            if not checker.safe(sql, module, function):
                found.append(f"{module.path}:{call.lineno}: {ast.unparse(sql)[:120]}")
    return count, found


def test_storage_and_bot_build_sql_only_from_fixed_text() -> None:
    paths = sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))
    count, found = unsafe(load(paths))
    assert count > 100  # the scan sees the statements
    assert found == []


BAD = {
    "f-string": "async def f(tx, name):\n    await tx.execute(f\"SELECT 1 WHERE n = '{name}'\")\n",
    "format": 'async def f(tx, name):\n    await tx.execute("SELECT {}".format(name))\n',
    "percent": 'async def f(tx, name):\n    await tx.fetchall("SELECT %s" % name)\n',
    "concatenation": 'async def f(db, name):\n    await db.fetchone("SELECT " + name)\n',
    "local": 'async def f(tx, text):\n    sql = "SELECT " + text\n    await tx.execute(sql)\n',
    "caller-passes-input": (
        "async def q(tx, where):\n    await tx.fetchall(f'SELECT 1 {where}')\n"
        "async def g(tx, inv):\n    await q(tx, inv.text)\n"
    ),
    "loop": 'async def f(tx, names):\n    for n in names:\n        await tx.execute(f"X {n}")\n',
    "join-of-input": 'async def f(tx, names):\n    await tx.execute(", ".join(names))\n',
    "starred-input": (
        "async def f(tx, names):\n    columns = ('a', *names)\n"
        '    await tx.execute(", ".join(columns))\n'
    ),
}
GOOD = {
    "placeholders": (
        'async def f(tx, ids):\n    marks = ", ".join("?" for _ in ids)\n'
        '    await tx.fetchall(f"SELECT 1 WHERE id IN ({marks})", ids)\n'
    ),
    "constant": 'COLUMNS = "a, b"\nasync def f(tx):\n    await tx.fetchall(f"SELECT {COLUMNS}")\n',
    "starred-constant": (
        "BASE = ('a', 'b')\nCOLUMNS = ('seq', *BASE[1:])\n"
        "SQL = f\"SELECT {', '.join(COLUMNS)}\"\n"
        "async def f(tx):\n    await tx.fetchall(SQL)\n"
    ),
    "checked-parameter": (
        "async def q(tx, where=''):\n    await tx.fetchall(f'SELECT 1 {where}')\n"
        "async def g(tx):\n    await q(tx, 'AND x = ?')\n    await q(tx)\n"
    ),
}


@pytest.mark.parametrize(("name", "source"), [*BAD.items(), *GOOD.items()], ids=[*BAD, *GOOD])
def test_the_checker_tells_bad_from_good(name: str, source: str) -> None:
    module = Module(f"snippet_{name}.py", ast.parse(source))
    _, found = unsafe([module])
    assert bool(found) == (name in BAD), found
