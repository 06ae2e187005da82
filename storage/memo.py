"""Memos: read data derived from the log, kept in memory with the log position it was read at.

Commands ask the same questions again and again — a club's overlay, its players and their
names, its ranking list — and at federation size each answer costs tens of milliseconds to
read again. A memo keeps the answer with a *key*: a small query over the log (the latest
``seq`` of the tables the answer is made of, answered from an index) that changes whenever the
answer may have changed. Every use runs the key query first and reads again on any difference,
so a memo never answers from a log other than the one it is asked about — also when another
process writes the database.

A memo made inside a write transaction is dropped if the transaction rolls back (its key
would name positions the log never kept).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import Any, TypeVar

from storage import cache
from storage.db import Transaction
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
    projections = cache.of(reader)
    key = await reader.fetchone(key_sql, params)
    if projections is None:
        return await build()
    store = projections.memo
    found = store.get(slot)
    if found is not None and found[0] == key:
        value: T = found[1]
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
