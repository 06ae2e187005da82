"""One SQL text for both backends: what the PostgreSQL backend changes in it.

Storage writes its SQL once, in the subset SQLite and PostgreSQL share (scale-contract.md §1):
``?`` placeholders, ``ON CONFLICT`` upserts, aliased sub-queries, explicit integer comparisons.
What is left differs in spelling only, and is translated here:

* a query: ``?`` → ``$1, $2 …`` (outside string literals); ``json_extract(x, '$.a')`` →
  ``(x::jsonb ->> 'a')``; SQLite's index hints (``INDEXED BY i``, ``NOT INDEXED``) dropped
  (PostgreSQL's planner takes no hints).
* a migration (written in SQLite's dialect, ``storage/migrations``): ``INTEGER`` → ``BIGINT``,
  ``BLOB`` → ``BYTEA``, ``WITHOUT ROWID`` dropped, ``log.seq`` defaulted from the ``log_seq``
  sequence, an append-only trigger ``BEFORE UPDATE/DELETE … RAISE(ABORT, 'msg')`` → a
  ``FOR EACH ROW`` trigger calling :data:`REFUSE_FUNCTION` with the same message, ``DROP
  TRIGGER name`` → ``DROP TRIGGER name ON table``. A block ``-- postgresql:`` … ``-- end`` in a
  migration is PostgreSQL's own text of the statement before it (which PostgreSQL skips);
  its lines are SQL commented out with ``-- `` so SQLite never runs them.
"""

from __future__ import annotations

import functools
import re
from typing import Literal

Dialect = Literal["sqlite", "postgresql"]

REFUSE_FUNCTION = "hoshi_refuse_change"
"""The plpgsql trigger function that refuses a change with the trigger's message."""

_REFUSE_DEFINITION = f"""CREATE OR REPLACE FUNCTION {REFUSE_FUNCTION}() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    RAISE EXCEPTION '%', TG_ARGV[0] USING ERRCODE = 'integrity_constraint_violation';
END;
$fn$"""

_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"])*\"|--[^\n]*|\?")
_DDL = re.compile(r"^\s*(?:CREATE|ALTER)\s+TABLE\b", re.IGNORECASE)
_INDEXED_BY = re.compile(r"\s+(?:INDEXED\s+BY\s+\w+|NOT\s+INDEXED)\b", re.IGNORECASE)
_JSON_EXTRACT = re.compile(
    r"json_extract\(\s*([A-Za-z_][A-Za-z0-9_.]*)\s*,\s*'\$\.([A-Za-z0-9_]+)'\s*\)", re.IGNORECASE
)


@functools.lru_cache(maxsize=4096)
def query(sql: str) -> str:
    """A storage query in PostgreSQL's spelling (cached: storage's texts are few)."""
    sql = _JSON_EXTRACT.sub(r"(\1::jsonb ->> '\2')", sql)
    sql = _INDEXED_BY.sub("", sql)
    if _DDL.match(sql):
        sql = _types(sql)
    counter = 0

    def number(match: re.Match[str]) -> str:
        nonlocal counter
        if match[0] != "?":
            return match[0]
        counter += 1
        return f"${counter}"

    return _TOKEN.sub(number, sql)


def placeholders(sql: str) -> int:
    """How many ``?`` placeholders ``sql`` has (outside literals and comments)."""
    return sum(1 for m in _TOKEN.finditer(sql) if m[0] == "?")


# --- migrations -------------------------------------------------------------------------------

_PG_BLOCK = re.compile(r"^--\s*postgresql:\s*\n(?P<body>(?:--.*\n)*?)--\s*end\s*$", re.MULTILINE)
_TRIGGER = re.compile(
    r"CREATE\s+TRIGGER\s+(?P<name>\w+)\s+BEFORE\s+(?P<op>UPDATE|DELETE)\s+ON\s+(?P<table>\w+)"
    r"\s+BEGIN\s+SELECT\s+RAISE\s*\(\s*ABORT\s*,\s*'(?P<msg>(?:[^']|'')*)'\s*\)\s*;\s*END",
    re.IGNORECASE,
)
_DROP_TRIGGER = re.compile(r"^DROP\s+TRIGGER\s+(?:IF\s+EXISTS\s+)?(?P<name>\w+)\s*$", re.I)
_CREATE_TABLE = re.compile(r"^CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(?P<name>\w+)", re.I)


def split(script: str) -> list[str]:
    """The statements of an SQL script, comments dropped (a trigger body's ``;`` kept inside
    its ``BEGIN … END``)."""
    statements: list[str] = []
    current: list[str] = []
    depth = 0
    for match in re.finditer(
        r"'(?:[^']|'')*'|--[^\n]*|\bBEGIN\b|\bEND\b|;|[^';\-BE]+|.",
        script,
        re.IGNORECASE | re.DOTALL,
    ):
        token = match[0]
        if token.startswith("--"):
            continue
        upper = token.upper()
        if upper == "BEGIN" and _opens_body("".join(current)):
            depth += 1
        elif upper == "END" and depth:
            depth -= 1
        if token == ";" and not depth:
            statement = "".join(current).strip()
            if statement:
                statements.append(statement)
            current = []
            continue
        current.append(token)
    statement = "".join(current).strip()
    if statement:
        statements.append(statement)
    return statements


def _opens_body(before: str) -> bool:
    return bool(re.match(r"\s*CREATE\s+TRIGGER\b", before, re.IGNORECASE))


def migration(script: str) -> list[str]:
    """A migration (SQLite's dialect) as PostgreSQL statements, in order."""
    statements: list[str] = []
    pieces = _PG_BLOCK.split(script)
    # re.split with one named group: text, body, text, body, ... ; a body replaces the last
    # statement of the text before it.
    for i in range(0, len(pieces), 2):
        translated = [_statement(s) for s in split(pieces[i])]
        if i + 1 < len(pieces):
            body = "\n".join(
                line[2:] if line.startswith("--") else line for line in pieces[i + 1].splitlines()
            )
            if translated:
                translated.pop()
            translated.extend([s] for s in split(body))
        for group in translated:
            statements.extend(group)
    # the trigger function once per migration (CREATE OR REPLACE: a later one is harmless)
    first = statements.index(_REFUSE_DEFINITION) if _REFUSE_DEFINITION in statements else -1
    return [s for i, s in enumerate(statements) if s != _REFUSE_DEFINITION or i == first]


def _statement(sql: str) -> list[str]:
    trigger = _TRIGGER.match(sql)
    if trigger:
        message = trigger["msg"]
        return [
            _REFUSE_DEFINITION,
            f"CREATE TRIGGER {trigger['name']} BEFORE {trigger['op'].upper()} ON "
            f"{trigger['table']} FOR EACH ROW EXECUTE FUNCTION {REFUSE_FUNCTION}('{message}')",
        ]
    dropped = _DROP_TRIGGER.match(sql)
    if dropped:
        name = dropped["name"]  # SQLite names no table: find the trigger's own
        return [
            "DO $drop$ DECLARE t text; BEGIN "
            "SELECT c.relname INTO t FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid "
            f"WHERE g.tgname = '{name}' AND NOT g.tgisinternal LIMIT 1; "
            f"EXECUTE format('DROP TRIGGER %I ON %I', '{name}', t); END $drop$"
        ]
    out = _types(sql)
    out = re.sub(r"\)\s*WITHOUT\s+ROWID\s*$", ")", out, flags=re.IGNORECASE)
    table = _CREATE_TABLE.match(out)
    if table and table["name"].lower() == "log":
        out = re.sub(
            r"\bseq\s+BIGINT\s+PRIMARY\s+KEY",
            "seq BIGINT PRIMARY KEY DEFAULT nextval('log_seq')",
            out,
            count=1,
            flags=re.IGNORECASE,
        )
        return ["CREATE SEQUENCE IF NOT EXISTS log_seq", out]
    return [out]


def _types(sql: str) -> str:
    """SQLite's column types as PostgreSQL's: INTEGER → BIGINT, BLOB → BYTEA."""
    out = re.sub(r"\bINTEGER\b", "BIGINT", sql, flags=re.IGNORECASE)
    return re.sub(r"\bBLOB\b", "BYTEA", out, flags=re.IGNORECASE)
