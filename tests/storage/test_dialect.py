"""storage.dialect: one SQL text, PostgreSQL's spelling of it."""

from __future__ import annotations

import pytest

from storage import dialect, migrate


def test_placeholders_are_numbered_outside_literals_and_comments() -> None:
    sql = "SELECT '?', \"a?\" FROM t WHERE a = ? AND b IN (?, ?) -- why?\nAND c = ?"
    assert dialect.query(sql) == (
        "SELECT '?', \"a?\" FROM t WHERE a = $1 AND b IN ($2, $3) -- why?\nAND c = $4"
    )
    assert dialect.placeholders(sql) == 4
    assert dialect.query("SELECT 'it''s ?' , ?") == "SELECT 'it''s ?' , $1"


def test_json_extract_and_index_hints() -> None:
    assert dialect.query("SELECT json_extract(payload, '$.name') FROM events") == (
        "SELECT (payload::jsonb ->> 'name') FROM events"
    )
    assert dialect.query("SELECT seq FROM games INDEXED BY games_black WHERE black = ?") == (
        "SELECT seq FROM games WHERE black = $1"
    )


def test_a_table_made_by_a_query_gets_postgresql_types() -> None:
    assert dialect.query("CREATE TABLE t (n INTEGER, data BLOB)") == (
        "CREATE TABLE t (n BIGINT, data BYTEA)"
    )
    assert dialect.query("SELECT 'INTEGER'") == "SELECT 'INTEGER'"  # not a table: untouched


def test_statements_are_split_keeping_trigger_bodies() -> None:
    script = (
        "CREATE TABLE a (x INTEGER); -- a comment; with a semicolon\n"
        "CREATE TRIGGER a_no_update BEFORE UPDATE ON a\n"
        "BEGIN SELECT RAISE(ABORT, 'a is append-only'); END;\n"
        "INSERT INTO a VALUES (1)"
    )
    assert [s.split()[0:2] for s in dialect.split(script)] == [
        ["CREATE", "TABLE"],
        ["CREATE", "TRIGGER"],
        ["INSERT", "INTO"],
    ]


def test_a_migration_is_translated() -> None:
    script = (
        "CREATE TABLE log (\n    seq INTEGER PRIMARY KEY,\n    club INTEGER\n);\n"
        "CREATE TABLE cards (k TEXT PRIMARY KEY, data BLOB) WITHOUT ROWID;\n"
        "CREATE TRIGGER log_no_delete BEFORE DELETE ON log\n"
        "BEGIN SELECT RAISE(ABORT, 'log is append-only'); END;\n"
        "DROP TRIGGER log_no_delete;\n"
    )
    out = dialect.migration(script)
    assert out[0] == "CREATE SEQUENCE IF NOT EXISTS log_seq"
    assert "seq BIGINT PRIMARY KEY DEFAULT nextval('log_seq')" in out[1]
    assert "club BIGINT" in out[1]
    assert out[2] == "CREATE TABLE cards (k TEXT PRIMARY KEY, data BYTEA)"
    assert out[3].startswith(f"CREATE OR REPLACE FUNCTION {dialect.REFUSE_FUNCTION}()")
    assert out[4] == (
        "CREATE TRIGGER log_no_delete BEFORE DELETE ON log FOR EACH ROW EXECUTE FUNCTION "
        f"{dialect.REFUSE_FUNCTION}('log is append-only')"
    )
    assert out[5].startswith("DO $drop$") and "'log_no_delete'" in out[5]
    assert len(out) == 6


def test_a_postgresql_block_replaces_the_statement_before_it() -> None:
    script = (
        "CREATE TABLE a (x INTEGER);\n"
        "SELECT sqlite_only(x) FROM a;\n"
        "-- postgresql:\n"
        "-- SELECT pg_own(x)\n"
        "--   FROM a;\n"
        "-- end\n"
        "CREATE INDEX a_x ON a (x);\n"
    )
    assert dialect.migration(script) == [
        "CREATE TABLE a (x BIGINT)",
        "SELECT pg_own(x)\n   FROM a",
        "CREATE INDEX a_x ON a (x)",
    ]


@pytest.mark.parametrize("step", migrate.discover(migrate.packaged()), ids=lambda m: m.name)
def test_every_packaged_migration_translates_without_sqlite_only_words(
    step: migrate.Migration,
) -> None:
    for statement in dialect.migration(step.sql):
        for word in ("WITHOUT ROWID", "RAISE(ABORT", "INTEGER", "BLOB", "PRAGMA"):
            assert word not in statement.upper(), (step.name, statement)
