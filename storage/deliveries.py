"""Exactly-once handling of chat updates that a platform may deliver twice (issue 6/6).

An adapter names what it is handling with a key (``telegram:BOT:UPDATE_ID``); the command core
writes through a database handle that carries it (``db.delivering(key)``, a
:class:`storage.backend.Delivery`). The first write transaction of that handle that changes
anything also records the key, atomically with the change (:func:`record`, called by the
backend's ``Database.transaction`` just before ``COMMIT``). A second delivery of the same
update — after a crash and restart, when the in-memory duplicate filter is empty — finds the
key (:func:`seen`) and changes nothing; if two copies race (in one process or several), the
insert of the later one finds the key (``ON CONFLICT DO NOTHING RETURNING``: no row) and its
transaction is rolled back with :class:`Duplicate`.
"""

from __future__ import annotations

import datetime as dt

from engine.text import Msg
from storage.backend import Clock, Database, Delivery, Transaction
from storage.codec import timestamp
from storage.errors import Refused

KEEP = dt.timedelta(days=7)  # Telegram keeps an unconfirmed update for 24 hours


class Duplicate(Refused):
    """This update was already acted on; nothing was done again."""


async def record(tx: Transaction, clock: Clock, current: Delivery) -> None:
    """Record the update's key in ``tx`` (a transaction that changed something), unless an
    earlier transaction of the same update did.

    Raises:
        Duplicate: the key was recorded before; the caller rolls the transaction back.
    """
    if current.recorded:
        return
    now = clock()
    await tx.execute("DELETE FROM deliveries WHERE at < ?", (timestamp(now - KEEP),))
    inserted = await tx.fetchone(
        "INSERT INTO deliveries (key, at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING "
        "RETURNING key",
        (current.key, timestamp(now)),
    )
    if inserted is None:  # another delivery (maybe in another process) recorded it first
        raise Duplicate(Msg("this message was already handled; nothing was done again"))
    current.recorded = True

    def forget() -> None:  # the transaction did not commit after all
        current.recorded = False

    tx.on_rollback(forget)


async def seen(db: Database, key: str) -> bool:
    """Whether an update with ``key`` was already acted on (its change committed)."""
    return await db.fetchone("SELECT 1 FROM deliveries WHERE key = ?", (key,)) is not None
