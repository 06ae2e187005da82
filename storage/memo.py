"""Memos: read data derived from the log, kept in memory with the log position it was read at.

Commands ask the same questions again and again — a club's overlay, its players and their
names, its ranking list — and at federation size each answer costs tens of milliseconds to
read again. A memo keeps the answer with a *key*: a small query over the log (the latest
``seq`` of the tables the answer is made of, answered from an index) that changes whenever the
answer may have changed. Every use runs the key query first and reads again on any difference,
so a memo never answers from a log other than the one it is asked about — also when another
process writes the database.

A command reads the keys of its club's common memos once as it begins (storage.keys): a memo
whose key equals the one read then answers without its key query (a key that differs is asked
again, and the memo read again on its answer, as ever).

A memo made inside a write transaction is dropped if the transaction rolls back (its key
would name positions the log never kept).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import Any, TypeVar

from storage import cache
from storage.backend import Row, Transaction
from storage.cache import Known
from storage.log import Reader

T = TypeVar("T")


async def remembered(
    reader: Reader,
    slot: Hashable,
    key_sql: str,
    params: Sequence[Any],
    build: Callable[[], Awaitable[T]],
) -> T:
    """``await build()``, or its memo in ``slot`` if ``key_sql`` still answers the same.

    ``reader`` is the database or a transaction (either shares the database's memos); any
    other reader gets no memo.
    """
    held = _held(reader, slot, key_sql)
    if held is not _NONE:
        value: T = held
        return value
    key = await reader.fetchone(key_sql, params)
    projections = cache.of(reader)
    if projections is None:
        return await build()
    store = projections.memo
    found = store.get(slot)
    if found is not None and found[0] == key:
        value = found[1]
        return value
    building = (_BUILDING, slot)
    underway = store.get(building)
    if underway is not None and underway[0] == key:  # asked again while it is being read
        with contextlib.suppress(Exception):  # that read failed: read it ourselves
            shared: T = await asyncio.shield(underway[1])
            return shared
    done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
    store[building] = (key, done)
    try:
        value = await build()
    except BaseException as error:
        done.set_exception(error if isinstance(error, Exception) else RuntimeError("cancelled"))
        done.exception()  # retrieved: the waiters (if any) read again themselves
        raise
    finally:
        if store.get(building, (None, None))[1] is done:
            del store[building]
    done.set_result(value)
    store[slot] = (key, value)
    if isinstance(reader, Transaction):
        reader.on_rollback(lambda: store.pop(slot, None))
    return value


def known_club(reader: Reader, club: int) -> Known | None:
    """What the command read of ``club`` as it began and still holds (storage.cache.Known),
    or ``None``."""
    known = getattr(reader, "known", None)
    return known.get(club) if known else None


def known_key(reader: Reader, slot: Hashable, key_sql: str) -> Row | None:
    """The answer to ``key_sql`` for the club of ``slot`` (``(name, club, …)``) as the
    command knows it without asking (storage.cache.Known, storage.keys), or ``None``."""
    if not isinstance(slot, tuple) or len(slot) < 2:
        return None
    club = known_club(reader, slot[1])
    return None if club is None else club.keys.get(key_sql)


_NONE: Any = object()
"""What :func:`_held` gives when it has no memo."""


def _held(reader: Reader, slot: Hashable, key_sql: str) -> Any:
    """The memo in ``slot`` if its key is the one the command knows (:func:`known_key`),
    without asking anything; else :data:`_NONE`."""
    projections = cache.of(reader)
    found = projections.memo.get(slot) if projections is not None else None
    known = known_key(reader, slot, key_sql)
    return found[1] if found is not None and known is not None and found[0] == known else _NONE


def current(reader: Reader, slot: Hashable, key_sql: str) -> Any:
    """The memo in ``slot`` if its key is the one the command knows (:func:`known_key`),
    without asking anything; else ``None``."""
    held = _held(reader, slot, key_sql)
    return None if held is _NONE else held


def known_end(reader: Reader, club: int) -> int | None:
    """The club's last log position as the command knows it without asking, or ``None``."""
    found = known_club(reader, club)
    return None if found is None else found.end


_BUILDING = "building"
"""Slots ``(_BUILDING, slot)`` hold a memo being read: ``(key, future)``. Fifty chats asking
``/rating`` at once after a write read the ranking list once, not fifty times."""


def forget_club(reader: Reader, club: int) -> None:
    """Drop every memo of a club (slots are ``(name, club, …)``): for a change its keys
    cannot see, such as projections rebuilt in place at the same log position."""
    projections = cache.of(reader)
    if projections is not None:
        store = projections.memo
        for slot in [s for s in store if _of_club(s, club)]:
            del store[slot]


def _of_club(slot: Hashable, club: int) -> bool:
    if not isinstance(slot, tuple):
        return False
    if slot[:1] == (_BUILDING,):  # a memo being read: its later readers read again
        return _of_club(slot[1], club)
    return slot[1:2] == (club,)
