"""Clubs, their chats, settings, organisers and join codes."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets

from engine.errors import EngineError
from engine.formats.messages import message_of
from engine.settings import Setting
from engine.systems import system_named
from engine.text import Msg
from engine.types import SettingsChanged
from storage import keys, log, settings
from storage.backend import Database, Transaction
from storage.cache import Known
from storage.codec import from_timestamp, timestamp
from storage.common import ClubRef, clean_identity, clean_name, club_id
from storage.errors import NotFound, Refused
from storage.log import Reader
from storage.names import fold
from storage.projections import ClubWrite, club_write
from storage.records import Club

JOIN_CODE_LIFETIME = dt.timedelta(hours=24)
JOIN_CODE_BYTES = 5  # ten hex digits


def _system_choice(db: Database, system: str) -> str:
    key = system.strip().lower()
    known = db.projections.systems
    if key not in known:
        raise Refused(
            Msg(
                "unknown rating system {system!r}; choose one of {known}",
                system=system,
                known=", ".join(sorted(known)),
            )
        )
    return key


CURRENT_NAME = (
    "COALESCE((SELECT json_extract(payload, '$.name') FROM events WHERE club = clubs.seq "
    "AND kind = 'rename' ORDER BY seq DESC LIMIT 1), clubs.name)"
)
"""A club's name now: its last rename, else the name it was created with (no parameters)."""
CURRENT_FOLDED = (
    "COALESCE((SELECT key FROM events WHERE club = clubs.seq AND kind = 'rename' "
    "ORDER BY seq DESC LIMIT 1), clubs.folded)"
)
"""The current name folded for lookup (a rename's key)."""


async def _club(reader: Reader, seq: int) -> Club | None:
    row = await reader.fetchone(
        f"SELECT seq, {CURRENT_NAME}, {settings.CURRENT_SYSTEM} FROM clubs WHERE seq = ?",
        (seq, seq, seq),
    )
    if row is None:
        return None
    return Club(row[0], row[1], settings.system_from(row[2], row[3], row[0]))


async def create_club(
    db: Database, name: str, system: str, *, actor: str, chat: str | None = None
) -> Club:
    """Create a club with its rating system; ``actor`` becomes its first organiser.

    Raises:
        Refused: the name is taken or the system unknown.
    """
    async with db.transaction() as tx:
        return await new_club(db, tx, name, system, actor=actor, chat=chat)


async def new_club(
    db: Database,
    tx: Transaction,
    name: str,
    system: str,
    *,
    actor: str,
    chat: str | None = None,
    chats: tuple[tuple[str, str], ...] = (),
) -> Club:
    """:func:`create_club` in the caller's transaction, then each of ``chats`` (``(platform,
    chat_id)``) bound to it as :func:`bind_chat` binds one — the same log entries and rows, for
    a bulk load of many clubs in one transaction (storage.bulk.bulk_load_clubs).

    Raises:
        Refused: the name is taken, the system unknown, or a chat belongs to another club.
    """
    name = clean_name(name, "club name")
    key = _system_choice(db, system)
    await _check_free(tx, name, None)
    seq = await log.append(tx, db.clock, club=None, kind=log.CLUB, actor=actor, chat=chat)
    await tx.execute(
        "INSERT INTO clubs (seq, name, folded, system) VALUES (?, ?, ?, ?)",
        (seq, name, fold(name), key),
    )
    async with club_write(db, seq, tx) as write:
        await write.event(log.ORGANISER_ADD, actor=actor, chat=chat, key=actor)
    for platform, chat_id in chats:
        platform = clean_identity(platform, "platform")
        async with club_write(db, seq, tx) as write:
            await _bind(write, platform, chat_id, actor=actor)
    return Club(seq, name, key)


async def _check_free(reader: Reader, name: str, club: int | None) -> None:
    """Refuse ``name`` when another club has it now or had it before (names stay unique, so
    an old name still finds its club)."""
    wanted = fold(name)
    # a club called so now was created so or renamed so: only those (by index) are asked
    # their current name, not every club of a hosted hoshi's thousands
    holder = await reader.fetchone(
        "SELECT seq FROM clubs WHERE seq IN (SELECT seq FROM clubs WHERE folded = ? UNION "
        "SELECT club FROM events WHERE kind = 'rename' AND key = ?) "
        f"AND {CURRENT_FOLDED} = ?",
        (wanted, wanted, wanted),
    )
    if holder is not None and holder[0] != club:
        raise Refused(
            Msg("there is already a club called {name!r}; choose another name", name=name)
        )
    past = await reader.fetchone(
        "SELECT seq FROM clubs WHERE folded = ? UNION "
        "SELECT club FROM events WHERE kind = 'rename' AND key = ?",
        (wanted, wanted),
    )
    if past is not None and past[0] != club:
        other = await _club(reader, past[0])
        assert other is not None
        raise Refused(
            Msg("{name!r} was a name of {club}; choose another name", name=name, club=other.name)
        )


async def rename_club(
    db: Database, club: ClubRef, name: str, *, actor: str, chat: str | None = None
) -> Club:
    """Give the club a new name (``/club rename``): a log event, the old name kept in history.

    Raises:
        Refused: another club has or had the name, or the club already has it.
    """
    name = clean_name(name, "club name")
    async with club_write(db, club_id(club)) as write:
        current = await _club(write.tx, write.club)
        if current is None:
            raise NotFound(Msg("there is no club {club}", club=club_id(club)))
        if current.name == name:
            raise Refused(Msg("{club} is already called {name!r}", club=current.name, name=name))
        await _check_free(write.tx, name, write.club)
        await write.event(
            log.RENAME,
            actor=actor,
            chat=chat,
            key=fold(name),
            payload={"name": name, "from": current.name},
        )
        renamed = await _club(write.tx, write.club)
    assert renamed is not None
    return renamed


async def has_games(db: Database, club: ClubRef) -> bool:
    """Whether any game was ever recorded in the club (voided and undone ones too)."""
    return (
        await db.fetchone("SELECT 1 FROM games WHERE club = ? LIMIT 1", (club_id(club),))
        is not None
    )


async def get_club(db: Database, name: str | int) -> Club | None:
    """A club by name (case/accent-insensitive; its current name, else a name it had) or id."""
    if isinstance(name, int):
        return await _club(db, name)
    wanted = fold(name)
    row = await db.fetchone(f"SELECT seq FROM clubs WHERE {CURRENT_FOLDED} = ?", (wanted,))
    if row is None:
        row = await db.fetchone(
            "SELECT seq FROM clubs WHERE folded = ? UNION "
            "SELECT club FROM events WHERE kind = 'rename' AND key = ?",
            (wanted, wanted),
        )
    return None if row is None else await _club(db, row[0])


async def clubs(db: Database) -> list[Club]:
    """Every club, oldest first."""
    found = []
    for (seq,) in await db.fetchall("SELECT seq FROM clubs ORDER BY seq"):
        club = await _club(db, seq)
        assert club is not None
        found.append(club)
    return found


async def only_club_or_create(
    db: Database, default_name: str, system: str, *, actor: str = "console"
) -> Club:
    """The only club; created as ``default_name`` when there is none (bot.md, ``--club``).

    Raises:
        Refused: there are several clubs (name one).
    """
    existing = await clubs(db)
    if len(existing) == 1:
        return existing[0]
    if existing:
        names = ", ".join(club.name for club in existing)
        raise Refused(
            Msg("this database holds several clubs ({names}); name one with --club", names=names)
        )
    return await create_club(db, default_name, system, actor=actor)


async def club_for_chat(db: Database, platform: str, chat_id: str | int) -> Club | None:
    """The club a chat is bound to, if any."""
    row = await db.fetchone(  # one round trip: every command starts here
        f"SELECT clubs.seq, {CURRENT_NAME}, (SELECT payload FROM events WHERE club = clubs.seq "
        "AND kind = 'setting' AND key = 'system' ORDER BY seq DESC LIMIT 1), clubs.system, "
        f"{keys.CLUB_COLUMNS} FROM clubs WHERE clubs.seq = (SELECT club FROM chat_bindings "
        "WHERE platform = ? AND chat_id = ? ORDER BY seq DESC LIMIT 1)",
        (platform, str(chat_id)),
    )
    if row is None:
        return None
    if db.known is not None:  # a command's handle: what it knows of its club (storage.keys)
        db.known[row[0]] = Known(row[4], row[5], keys.split(row[6:]))
    return Club(row[0], row[1], settings.system_from(row[2], row[3], row[0]))


async def chats(db: Database, club: ClubRef) -> list[tuple[str, str]]:
    """Every chat bound to the club, as ``(platform, chat_id)``, in binding order."""
    rows = await db.fetchall(
        "SELECT platform, chat_id FROM chat_bindings WHERE club = ? ORDER BY seq",
        (club_id(club),),
    )
    return [(platform, chat_id) for platform, chat_id in rows]


async def _bind(write: ClubWrite, platform: str, chat_id: str | int, *, actor: str) -> bool:
    """Bind the chat (``platform`` cleaned already) to the write's club, its entry made from
    that chat; ``False`` when it already was."""
    chat_id = str(chat_id)
    row = await write.tx.fetchone(
        "SELECT club FROM chat_bindings WHERE platform = ? AND chat_id = ? "
        "ORDER BY seq DESC LIMIT 1",
        (platform, chat_id),
    )
    if row is not None:
        if row[0] == write.club:
            return False
        other = await _club(write.tx, row[0])
        assert other is not None
        raise Refused(Msg("this chat already belongs to the club {name!r}", name=other.name))
    seq = await write.append(log.BINDING, actor=actor, chat=f"{platform}:{chat_id}")
    await write.tx.execute(
        "INSERT INTO chat_bindings (seq, club, platform, chat_id) VALUES (?, ?, ?, ?)",
        (seq, write.club, platform, chat_id),
    )
    return True


async def bind_chat(
    db: Database, club: ClubRef, platform: str, chat_id: str | int, *, actor: str
) -> bool:
    """Bind a chat to the club; ``False`` when it already was.

    Raises:
        Refused: the chat belongs to another club.
    """
    platform = clean_identity(platform, "platform")
    async with club_write(db, club_id(club)) as write:
        return await _bind(write, platform, chat_id, actor=actor)


async def club_settings(db: Database, club: ClubRef) -> settings.ClubSettings:
    """The club's typed settings (storage.settings.ClubSettings), built once from the log."""
    return await settings.club_settings(db, club_id(club))


async def set_setting(
    db: Database,
    club: ClubRef,
    key: str,
    value: str,
    *,
    actor: str,
    chat: str | None = None,
    since: dt.date | None = None,
) -> bool:
    """Change a club setting; ``False`` when it already had that value.

    ``system`` switches the club's rating system (instantly: every system's ledger is kept).
    A club-wide setting (storage.settings.CLUB_SETTINGS) is a ``setting`` event. A rating
    setting (``tensuusei.anchor``, engine.systems.SYSTEM_SETTINGS) holds from ``since`` (default:
    today in the club's time zone): a ``rating_setting`` event that the history folds as a
    ``SettingsChanged`` fact at the start of that day, so the ratings are rewritten from that
    day on (not from the club's beginning); ``/undo`` takes it back.

    Raises:
        Refused: a malformed or unknown key, a value out of the setting's range (the message
            names the range and an example), a date in the future, or a combination the
            rating system refuses.
    """
    key = key.strip().lower()
    if not settings.KEY_RE.match(key):
        raise Refused(
            Msg("setting names are lower-case words like timezone, not {key!r}", key=key)
        )
    if key == settings.SYSTEM:
        value = _system_choice(db, value)
        async with club_write(db, club_id(club)) as write:
            if (await settings.settings(write.tx, write.club)).get(key) == value:
                return False
            await write.event(
                log.SETTING, actor=actor, chat=chat, key=key, payload={"value": value}
            )
            await write.set_current(value)
        return True
    setting = settings.setting_named(key)
    if setting is None:
        raise Refused(
            Msg("there is no setting {key!r}; /club settings lists every setting", key=key)
        )
    try:
        typed = setting.read(value)
    except EngineError as error:
        raise Refused(message_of(error)) from None
    text = setting.show(typed)
    async with club_write(db, club_id(club)) as write:
        if setting.rates:
            return await _rating_setting(write, setting, typed, since, actor=actor, chat=chat)
        if since is not None:
            raise Refused(
                Msg(
                    "{key} changes no rating, so it takes no date; e.g. {key} {example}",
                    key=key,
                    example=setting.example,
                )
            )
        stored = (await settings.settings(write.tx, write.club)).get(key)
        if stored is not None and settings.read_value(setting, stored) == typed:
            return False
        await write.event(log.SETTING, actor=actor, chat=chat, key=key, payload={"value": text})
    return True


async def _rating_setting(
    write: ClubWrite,
    setting: Setting,
    value: object,
    since: dt.date | None,
    *,
    actor: str,
    chat: str | None,
) -> bool:
    """A rating setting from ``since`` on: a fact at the start of that day (see set_setting)."""
    current = await settings.club_settings(write.tx, write.club)
    today = write.db.clock().astimezone(current.zone).date()
    day = today if since is None else since
    if day > today:
        raise Refused(
            Msg(
                "{key} can change from today or an earlier day, not from {day}",
                key=setting.key,
                day=day,
            )
        )
    changes = await settings.rating_changes(write.tx, write.club)
    in_effect = setting.default
    for _, key, text, date in changes:
        if key == setting.key and date <= day:
            in_effect = settings.read_value(setting, text)
    later = any(key == setting.key and date > day for _, key, _, date in changes)
    if in_effect == value and not later:
        return False
    system = setting.prefix  # a club-wide rating setting (the usual time) has none
    values = [(key, v) for key, v in current.system_values(system) if key != setting.key]
    try:
        if system:
            system_named(system, [*values, (setting.key, value)])
    except EngineError as error:
        raise Refused(
            Msg(
                "{key} {value}: {error}",
                key=setting.key,
                value=setting.show(value),
                error=message_of(error),
            )
        ) from None
    payload = {"key": setting.key, "value": setting.show(value), "date": day.isoformat()}
    seq = await write.event(
        log.RATING_SETTING, actor=actor, chat=chat, key=setting.key, payload=payload
    )
    await write.apply(seq, SettingsChanged(day, ((setting.key, value),)))
    return True


async def _organisers(reader: Reader, club: int) -> set[str]:
    found: set[str] = set()
    for kind, key in await reader.fetchall(
        "SELECT kind, key FROM events WHERE club = ? AND kind IN (?, ?) ORDER BY seq",
        (club, log.ORGANISER_ADD, log.ORGANISER_REMOVE),
    ):
        if kind == log.ORGANISER_ADD:
            found.add(key)
        else:
            found.discard(key)
    return found


async def organisers(db: Database, club: ClubRef) -> set[str]:
    """The identities the club names as organisers (chat admins are the bot's business)."""
    return await _organisers(db, club_id(club))


async def add_organiser(
    db: Database, club: ClubRef, identity: str, *, actor: str, chat: str | None = None
) -> bool:
    """Name an organiser; ``False`` when they already were one."""
    identity = clean_identity(identity)
    async with club_write(db, club_id(club)) as write:
        if identity in await _organisers(write.tx, write.club):
            return False
        await write.event(log.ORGANISER_ADD, actor=actor, chat=chat, key=identity)
    return True


async def remove_organiser(
    db: Database, club: ClubRef, identity: str, *, actor: str, chat: str | None = None
) -> None:
    """Remove an organiser.

    Raises:
        Refused: they are not an organiser, or they are the last one.
    """
    identity = clean_identity(identity)
    async with club_write(db, club_id(club)) as write:
        current = await _organisers(write.tx, write.club)
        if identity not in current:
            raise Refused(Msg("{identity} is not an organiser of this club", identity=identity))
        if current == {identity}:
            raise Refused(
                Msg(
                    "{identity} is the club's last organiser; add another one first",
                    identity=identity,
                )
            )
        await write.event(log.ORGANISER_REMOVE, actor=actor, chat=chat, key=identity)


def _code_hash(code: str) -> str:
    return hashlib.sha256(code.strip().upper().encode()).hexdigest()


async def new_join_code(
    db: Database, club: ClubRef, *, actor: str, chat: str | None = None
) -> str:
    """A one-time code that binds another chat to the club (``/club join CODE``), valid 24 h.

    Only a hash of the code is stored.
    """
    code = secrets.token_hex(JOIN_CODE_BYTES).upper()
    expires = timestamp(db.clock() + JOIN_CODE_LIFETIME)
    async with club_write(db, club_id(club)) as write:
        await write.event(
            log.JOIN_CODE,
            actor=actor,
            chat=chat,
            key=_code_hash(code),
            payload={"expires": expires},
        )
    return code


async def _redeemable(db: Database, tx: Transaction, code: str) -> tuple[int, int]:
    row = await tx.fetchone(
        "SELECT seq, club, payload FROM events WHERE kind = ? AND key = ?",
        (log.JOIN_CODE, _code_hash(code)),
    )
    if row is None:
        raise NotFound(
            Msg("{code!r} is not a join code; ask an organiser for /club code", code=code.strip())
        )
    seq, club, payload = row
    if await tx.fetchone(
        "SELECT 1 FROM events WHERE kind = ? AND target = ?", (log.JOIN_REDEEMED, seq)
    ):
        raise Refused(Msg("this join code was already used; ask an organiser for a new one"))
    if db.clock() > from_timestamp(json.loads(payload)["expires"]):
        raise Refused(Msg("this join code has expired (codes last 24 hours); ask for a new one"))
    return seq, club


async def redeem_join_code(
    db: Database, code: str, platform: str, chat_id: str | int, *, actor: str
) -> Club:
    """Bind a chat to the club that issued ``code`` (used once).

    Raises:
        NotFound: no such code.
        Refused: the code was used or has expired, or the chat belongs to another club.
    """
    platform = clean_identity(platform, "platform")
    chat = f"{platform}:{chat_id}"
    async with db.transaction() as tx:
        seq, club = await _redeemable(db, tx, code)
        async with club_write(db, club, tx) as write:
            await _bind(write, platform, chat_id, actor=actor)
            await write.event(log.JOIN_REDEEMED, actor=actor, chat=chat, target=seq)
        found = await _club(tx, club)
    assert found is not None
    return found
