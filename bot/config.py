"""hoshi's configuration: a TOML file into a frozen dataclass, validated at start-up.

Secrets (bot tokens) come from the environment only and are never stored here or logged
(bot.md, Configuration). Every key is documented in ``config.example.toml``.
"""

from __future__ import annotations

import os
import shlex
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from platformdirs import user_config_dir, user_data_dir

from bot import system_names
from bot.i18n import N_, _
from storage.cache import CLUBS_IN_MEMORY

SYSTEM_KEYS = system_names.KEYS
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
URL_SCHEMES = ("postgresql://", "postgres://")
URL_EXAMPLE = "postgresql://hoshi@127.0.0.1:5432/hoshi"


def is_database_url(text: str) -> bool:
    """Whether ``text`` names a PostgreSQL database (a URL), not an SQLite file."""
    return text.lower().startswith(URL_SCHEMES)


class ConfigError(ValueError):
    """A bad configuration file; the message (in the operator's language, a
    :class:`~engine.text.Msg`) names the key and the value."""


def default_db_path() -> Path:
    """The embedded default: a SQLite file under the user's data directory."""
    return Path(user_data_dir("hoshi", appauthor=False)) / "hoshi.sqlite"


def default_config_path() -> Path:
    """Where hoshi looks for its config file when neither ``--config`` nor ``HOSHI_CONFIG``
    names one (``~/.config/hoshi/config.toml`` on Linux)."""
    return Path(user_config_dir("hoshi", appauthor=False)) / "config.toml"


def default_files_dir() -> Path:
    """Where the console writes pictures (charts) and files (exports) unless the config's
    ``[hoshi] charts_dir`` says otherwise: a folder under the user's data directory
    (``~/.local/share/hoshi/files`` on Linux), never one of the working directory."""
    return Path(user_data_dir("hoshi", appauthor=False)) / "files"


@dataclass(frozen=True, slots=True)
class GivenOptions:
    """The options the operator gave on hoshi's command line (``--db``, ``--config``,
    ``--club``): every ``hoshi …`` command hoshi suggests keeps them (:meth:`command`), so
    following a hint opens the same database, config and club (issue 24)."""

    db: str | Path | None = None
    config: Path | None = None
    club: str | None = None

    def command(self, *words: str, club: bool = True) -> str:
        """``hoshi WORDS`` with the given options, each shell-quoted; ``club=False`` for a
        subcommand without ``--club`` (``hoshi run``, ``hoshi web``) or one that names its
        club otherwise (``hoshi console --new-club NAME``)."""
        options: list[str] = []
        if self.db is not None:
            options += ["--db", _shown_db(self.db)]
        if self.config is not None:
            options += ["--config", str(self.config)]
        if club and self.club:
            options += ["--club", self.club]
        return shlex.join(["hoshi", *words, *options])


def _shown_db(db: str | Path) -> str:
    """``--db``'s value for a suggestion: a URL without its password (it would be printed)."""
    if isinstance(db, Path):
        return str(db)
    from storage.db import without_password

    return without_password(db)


@dataclass(frozen=True, slots=True)
class TelegramConfig:
    api_base_url: str = "https://api.telegram.org/bot"
    file_base_url: str = "https://api.telegram.org/file/bot"
    webhook_url: str | None = None
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = 8443
    admin_cache_s: int = 300


@dataclass(frozen=True, slots=True)
class DiscordConfig:
    guild_ids: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class BackupConfig:
    """The daily backup (issue 6/6): where, after which hour (the config's time zone), and
    how many to keep (0: no scheduled backups)."""

    directory: Path | None = None  # None: a "backups" folder beside the database
    hour: int = 3
    keep: int = 7

    def directory_for(self, db_path: Path) -> Path:
        return self.directory or db_path.expanduser().parent / "backups"


@dataclass(frozen=True, slots=True)
class WebConfig:
    """The read-only club pages (issue 14): ``hoshi web`` serves them on ``host:port``;
    ``hoshi run`` too when ``enabled``. ``base_url`` is where members reach them (the link in
    ``/club web on``, ``/top`` and ``/rating``); ``None`` until the config sets it: whatever
    serves the pages (``hoshi web`` on any port, a proxy, a static copy) only the organiser
    knows, so the replies then say how to set it instead of guessing an address.
    ``site_dir``, when set, is a static copy ``hoshi run`` rewrites after each write
    (``hoshi site --out DIR`` by hand)."""

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = 8080
    base_url: str | None = None
    site_dir: Path | None = None


@dataclass(frozen=True, slots=True)
class Config:
    db_path: Path = field(default_factory=default_db_path)
    database_url: str | None = None  # [database] url: PostgreSQL instead of db_path
    clubs_in_memory: int = CLUBS_IN_MEMORY  # [database] clubs_in_memory: the rest evicted
    club: str = "My Go Club"
    system: str = system_names.DEFAULT_SYSTEM
    timezone: str = "UTC"
    log_level: str = "INFO"
    charts_dir: Path = field(default_factory=default_files_dir)  # pictures and files
    telegram: TelegramConfig = field(default_factory=TelegramConfig)
    discord: DiscordConfig = field(default_factory=DiscordConfig)
    backup: BackupConfig = field(default_factory=BackupConfig)
    web: WebConfig = field(default_factory=WebConfig)
    given: GivenOptions = field(default_factory=GivenOptions)  # kept in suggested commands

    @property
    def database(self) -> str | Path:
        """What to open: the PostgreSQL URL when one is set, else the SQLite file."""
        return self.database_url or self.db_path

    @property
    def telegram_token(self) -> str | None:
        return os.environ.get("TELEGRAM_TOKEN") or None

    @property
    def discord_token(self) -> str | None:
        return os.environ.get("DISCORD_TOKEN") or None


_SECTIONS = {"hoshi", "database", "telegram", "discord", "backup", "web"}


def load_config(path: Path | None = None, env: dict[str, str] | None = None) -> Config:
    """Read the config file (``HOSHI_CONFIG`` or the user config dir; missing = defaults).

    Environment overrides: ``HOSHI_DB`` (database path, or a ``postgresql://`` URL),
    ``HOSHI_DATABASE_URL`` (a ``postgresql://`` URL: it may carry the password, which the file
    then need not), ``TELEGRAM_API_BASE_URL``, ``TELEGRAM_FILE_BASE_URL``.

    Raises:
        ConfigError: naming the bad key, for unknown keys, wrong types or invalid values.
    """
    env = dict(os.environ) if env is None else env
    explicit = path or (Path(env["HOSHI_CONFIG"]) if env.get("HOSHI_CONFIG") else None)
    source = explicit or default_config_path()
    raw: dict[str, Any] = {}
    if source.exists():
        try:
            raw = tomllib.loads(source.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(
                _("{file}: not valid TOML ({error})", file=source, error=exc)
            ) from None
    elif explicit is not None:
        raise ConfigError(_("config file {file} does not exist", file=source))
    config = replace(_from_dict(raw, source), given=GivenOptions(config=path))
    if env.get("HOSHI_DB"):
        if is_database_url(env["HOSHI_DB"]):
            config = replace(config, database_url=env["HOSHI_DB"])
        else:
            config = replace(config, db_path=Path(env["HOSHI_DB"]).expanduser())
    if env.get("HOSHI_DATABASE_URL"):
        url = env["HOSHI_DATABASE_URL"]
        if not is_database_url(url):
            raise ConfigError(
                _(
                    "{key} must be a PostgreSQL URL like {example}",
                    key="HOSHI_DATABASE_URL",
                    example=URL_EXAMPLE,
                )
            )
        config = replace(config, database_url=url)
    if env.get("TELEGRAM_API_BASE_URL"):
        base = env["TELEGRAM_API_BASE_URL"].rstrip("/")
        config = replace(config, telegram=replace(config.telegram, api_base_url=base))
    if env.get("TELEGRAM_FILE_BASE_URL"):  # a self-hosted Bot API serves files too
        base = env["TELEGRAM_FILE_BASE_URL"].rstrip("/")
        config = replace(config, telegram=replace(config.telegram, file_base_url=base))
    return config


def _from_dict(raw: dict[str, Any], source: Path) -> Config:
    unknown = set(raw) - _SECTIONS
    if unknown:
        raise ConfigError(
            _("{file}: unknown section {section}", file=source, section=f"[{sorted(unknown)[0]}]")
        )
    main = _section(
        raw, "hoshi", source, {"db_path", "club", "system", "timezone", "log_level", "charts_dir"}
    )
    database = _section(raw, "database", source, {"url", "clubs_in_memory"})
    clubs_in_memory = _whole(
        database.get("clubs_in_memory", CLUBS_IN_MEMORY),
        "[database] clubs_in_memory",
        1,
        1_000_000,
        source,
    )
    url = database.get("url")
    if url is not None and (not isinstance(url, str) or not is_database_url(url)):
        raise ConfigError(  # never the value: it may carry a password
            _(
                "{file}: {key} must be a PostgreSQL URL like {example}",
                file=source,
                key="[database] url",
                example=URL_EXAMPLE,
            )
        )
    tg = _section(raw, "telegram", source, set(TelegramConfig.__dataclass_fields__))
    dc = _section(raw, "discord", source, {"guild_ids"})
    backup = _backup(_section(raw, "backup", source, {"directory", "hour", "keep"}), source)
    web = _web(_section(raw, "web", source, set(WebConfig.__dataclass_fields__)), source)
    system = str(main.get("system", system_names.DEFAULT_SYSTEM)).lower()
    if system not in SYSTEM_KEYS:
        raise ConfigError(
            _(
                "{file}: {key} must be one of {values}, not {value}",
                file=source,
                key="[hoshi] system",
                values=", ".join(SYSTEM_KEYS),
                value=repr(system),
            )
        )
    timezone = str(main.get("timezone", "UTC"))
    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            _(
                "{file}: {key} {value} is not a known time zone (e.g. {example})",
                file=source,
                key="[hoshi] timezone",
                value=repr(timezone),
                example="Europe/Budapest",
            )
        ) from None
    db_path = Path(str(main["db_path"])).expanduser() if "db_path" in main else default_db_path()
    guilds = dc.get("guild_ids", [])
    if not isinstance(guilds, list) or not all(isinstance(g, int) for g in guilds):
        raise ConfigError(
            _("{file}: {key} must be a list of numbers", file=source, key="[discord] guild_ids")
        )
    for key, value in tg.items():
        expected = int if key in ("webhook_port", "admin_cache_s") else str
        # a TOML boolean is a Python int: refuse it explicitly
        if isinstance(value, bool) or not isinstance(value, expected):
            template = (
                N_("{file}: {key} must be a whole number, not {value}")
                if expected is int
                else N_("{file}: {key} must be text, not {value}")
            )
            raise ConfigError(_(template, file=source, key=f"[telegram] {key}", value=repr(value)))
    log_level = str(main.get("log_level", "INFO")).upper()
    if log_level not in LOG_LEVELS:
        raise ConfigError(
            _(
                "{file}: {key} must be one of {values}, not {value}",
                file=source,
                key="[hoshi] log_level",
                values=", ".join(LOG_LEVELS),
                value=repr(log_level),
            )
        )
    return Config(
        db_path=db_path,
        database_url=url or None,
        clubs_in_memory=clubs_in_memory,
        club=str(main.get("club", "My Go Club")),
        system=system,
        timezone=timezone,
        log_level=log_level,
        charts_dir=(
            Path(str(main["charts_dir"])).expanduser().absolute()
            if "charts_dir" in main
            else default_files_dir()
        ),
        telegram=TelegramConfig(**tg),
        discord=DiscordConfig(guild_ids=tuple(guilds)),
        backup=backup,
        web=web,
    )


def _whole(value: object, key: str, low: int, high: int, source: Path) -> int:
    """``value`` when it is a whole number from ``low`` to ``high`` (a TOML boolean is not);
    else a :class:`ConfigError` naming ``key``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(
            _(
                "{file}: {key} must be a whole number from {low} to {high}, not {value}",
                file=source,
                key=key,
                low=low,
                high=high,
                value=repr(value),
            )
        )
    return value


def _backup(section: dict[str, Any], source: Path) -> BackupConfig:
    for key, low, high in (("hour", 0, 23), ("keep", 0, 10_000)):
        _whole(section.get(key, 0), f"[backup] {key}", low, high, source)
    directory = section.get("directory")
    if directory is not None and (not isinstance(directory, str) or not directory.strip()):
        raise ConfigError(
            _(
                "{file}: {key} must be a folder's path, not {value}",
                file=source,
                key="[backup] directory",
                value=repr(directory),
            )
        )
    defaults = BackupConfig()
    return BackupConfig(
        directory=Path(directory).expanduser() if directory else None,
        hour=section.get("hour", defaults.hour),
        keep=section.get("keep", defaults.keep),
    )


def _web(section: dict[str, Any], source: Path) -> WebConfig:
    defaults = WebConfig()
    enabled = section.get("enabled", defaults.enabled)
    if not isinstance(enabled, bool):
        raise ConfigError(
            _(
                "{file}: {key} must be true or false, not {value}",
                file=source,
                key="[web] enabled",
                value=repr(enabled),
            )
        )
    port = _whole(section.get("port", defaults.port), "[web] port", 0, 65535, source)
    for key in ("host", "base_url", "site_dir"):
        value = section.get(key)
        if value is not None and not isinstance(value, str):
            raise ConfigError(
                _(
                    "{file}: {key} must be text, not {value}",
                    file=source,
                    key=f"[web] {key}",
                    value=repr(value),
                )
            )
    base_url = section.get("base_url")
    if base_url is not None and not base_url.startswith(("http://", "https://")):
        raise ConfigError(
            _(
                "{file}: {key} must be a web address starting with http:// or https://, "
                "not {value} (e.g. {example})",
                file=source,
                key="[web] base_url",
                value=repr(base_url),
                example="https://go.example.org/hoshi",
            )
        )
    site_dir = section.get("site_dir") or None
    return WebConfig(
        enabled=enabled,
        host=str(section.get("host", defaults.host)),
        port=port,
        base_url=base_url.rstrip("/") if base_url else None,
        site_dir=Path(site_dir).expanduser() if site_dir else None,
    )


def _section(raw: dict[str, Any], name: str, source: Path, keys: set[str]) -> dict[str, Any]:
    section = raw.get(name, {})
    if not isinstance(section, dict):
        raise ConfigError(_("{file}: {key} must be a table", file=source, key=f"[{name}]"))
    unknown = set(section) - keys
    if unknown:
        raise ConfigError(
            _(
                "{file}: unknown key {key} in {section}",
                file=source,
                key=repr(sorted(unknown)[0]),
                section=f"[{name}]",
            )
        )
    return section
