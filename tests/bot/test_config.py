"""Configuration: TOML into a validated frozen dataclass; every bad key named (ConfigError)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bot.config import (
    Config,
    ConfigError,
    DiscordConfig,
    GivenOptions,
    TelegramConfig,
    WebConfig,
    load_config,
)
from bot.i18n import translated, using


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point the user directories into tmp_path so a real user config is never read."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config-home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data-home"))
    for name in ("HOSHI_CONFIG", "HOSHI_DB", "HOSHI_DATABASE_URL", "TELEGRAM_API_BASE_URL",
                 "TELEGRAM_TOKEN", "DISCORD_TOKEN"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "hoshi.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_means_the_defaults(tmp_path: Path) -> None:
    config = load_config(env={})
    assert config == Config(db_path=tmp_path / "data-home" / "hoshi" / "hoshi.sqlite")
    assert (config.club, config.system, config.timezone, config.log_level) == (
        "My Go Club", "mgsz", "UTC", "INFO"
    )  # fmt: skip
    assert config.telegram == TelegramConfig() and config.discord == DiscordConfig()


def test_every_key(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        [hoshi]
        db_path = "~/clubs/hoshi.sqlite"
        club = "Budapest Go Club"
        system = "PSG"
        timezone = "Europe/Budapest"
        log_level = "debug"
        charts_dir = "charts"

        [telegram]
        api_base_url = "http://127.0.0.1:8081/bot"
        file_base_url = "http://127.0.0.1:8081/file/bot"
        webhook_url = "https://example.org/hook"
        webhook_listen = "0.0.0.0"
        webhook_port = 8444
        admin_cache_s = 60

        [discord]
        guild_ids = [1, 2]
        """,
    )
    config = load_config(path, env={})
    assert config.db_path == Path("~/clubs/hoshi.sqlite").expanduser()
    assert (config.club, config.system, config.timezone, config.log_level) == (
        "Budapest Go Club", "psg", "Europe/Budapest", "DEBUG"
    )  # fmt: skip
    assert config.charts_dir == Path("charts").absolute()  # printed paths say where
    assert config.telegram == TelegramConfig(
        "http://127.0.0.1:8081/bot", "http://127.0.0.1:8081/file/bot",
        "https://example.org/hook", "0.0.0.0", 8444, 60,
    )  # fmt: skip
    assert config.discord.guild_ids == (1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.club = "x"  # type: ignore[misc]


def test_hoshi_config_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[hoshi]\nclub = "From Env"\n')
    assert load_config(env={"HOSHI_CONFIG": str(path)}).club == "From Env"


def test_environment_overrides(tmp_path: Path) -> None:
    config = load_config(
        env={"HOSHI_DB": "~/x.sqlite", "TELEGRAM_API_BASE_URL": "http://localhost:9/bot/"}
    )
    assert config.db_path == Path("~/x.sqlite").expanduser()
    assert config.telegram.api_base_url == "http://localhost:9/bot"


def test_tokens_come_from_the_environment_only(monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_config(env={})
    assert config.telegram_token is None and config.discord_token is None
    monkeypatch.setenv("TELEGRAM_TOKEN", "123:abc")
    monkeypatch.setenv("DISCORD_TOKEN", "")
    assert config.telegram_token == "123:abc" and config.discord_token is None
    assert "123:abc" not in repr(config)


def test_the_default_config_file_is_read_when_present(tmp_path: Path) -> None:
    default = tmp_path / "config-home" / "hoshi" / "config.toml"
    default.parent.mkdir(parents=True)
    default.write_text('[hoshi]\nsystem = "swedish"\n', encoding="utf-8")
    assert load_config(env={}).system == "swedish"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[hoshi\n", "not valid TOML"),
        ("[slack]\ntoken = 1\n", "unknown section [slack]"),
        ("hoshi = 1\n", "[hoshi] must be a table"),
        ("telegram = []\n", "[telegram] must be a table"),
        ("[hoshi]\ndatabase = 'x'\n", "unknown key 'database' in [hoshi]"),
        ("[telegram]\ntoken = 'x'\n", "unknown key 'token' in [telegram]"),
        ("[discord]\ntoken = 'x'\n", "unknown key 'token' in [discord]"),
        ("[hoshi]\nsystem = 'elo'\n",
         "[hoshi] system must be one of mgsz, tensuusei, swedish, psg, gor, not 'elo'"),
        ("[hoshi]\ntimezone = 'Mars/Olympus'\n",
         "[hoshi] timezone 'Mars/Olympus' is not a known time zone (e.g. Europe/Budapest)"),
        ("[hoshi]\ntimezone = ''\n", "[hoshi] timezone '' is not a known time zone"),
        ("[discord]\nguild_ids = 5\n", "[discord] guild_ids must be a list of numbers"),
        ("[discord]\nguild_ids = ['5']\n", "[discord] guild_ids must be a list of numbers"),
        ("[telegram]\nwebhook_port = '8443'\n", "[telegram] webhook_port must be a whole number"),
        ("[telegram]\nwebhook_url = 5\n", "[telegram] webhook_url must be text"),
        ("[telegram]\napi_base_url = 5\n", "[telegram] api_base_url must be text"),
        ("[telegram]\nadmin_cache_s = 1.5\n", "[telegram] admin_cache_s must be a whole number"),
        ("[hoshi]\nlog_level = 'LOUD'\n", "[hoshi] log_level must be one of"),
    ],
    ids=["toml", "section", "hoshi-table", "telegram-table", "hoshi-key", "telegram-key",
         "discord-key", "system", "timezone", "timezone-empty", "guilds", "guild-strings",
         "port", "webhook-url", "api-url", "cache", "log-level"],
)  # fmt: skip
def test_every_config_error_names_the_file_and_key(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path, env={})
    assert str(caught.value).startswith(f"{path}: ")
    assert message in str(caught.value)


def test_config_errors_speak_the_operators_language(tmp_path: Path) -> None:
    path = write(tmp_path, "[hoshi]\nsystem = 'elo'\n")
    with using("ja"), pytest.raises(ConfigError) as caught:
        load_config(path, env={})
    assert str(caught.value) == (
        f"{path}: [hoshi] systemはmgsz, tensuusei, swedish, psg, gorのいずれかにしてください"
        "（'elo'ではなく）"
    )
    # and given again in another language, e.g. Polish
    assert translated(caught.value.args[0], "pl") == (
        f"{path}: [hoshi] system musi być jednym z: mgsz, tensuusei, swedish, psg, gor, "
        "a nie 'elo'"
    )


@pytest.mark.parametrize("via", ["argument", "environment"])
def test_a_named_config_file_must_exist(tmp_path: Path, via: str) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError) as caught:
        if via == "argument":
            load_config(missing, env={})
        else:
            load_config(env={"HOSHI_CONFIG": str(missing)})
    assert str(caught.value) == f"config file {missing} does not exist"


def test_config_error_is_a_value_error() -> None:
    assert issubclass(ConfigError, ValueError)


def test_a_boolean_is_not_a_port(tmp_path: Path) -> None:
    path = write(tmp_path, "[telegram]\nwebhook_port = true\n")
    with pytest.raises(ConfigError, match="webhook_port"):
        load_config(path, env={})


def test_the_web_section(tmp_path: Path) -> None:
    assert load_config(env={}).web == WebConfig()
    path = write(
        tmp_path,
        """
        [web]
        enabled = true
        host = "0.0.0.0"
        port = 8088
        base_url = "https://go.example.org/hoshi/"
        site_dir = "~/site"
        """,
    )
    assert load_config(path, env={}).web == WebConfig(
        True, "0.0.0.0", 8088, "https://go.example.org/hoshi", Path("~/site").expanduser()
    )
    port_only = write(tmp_path, "[web]\nport = 9000\n")
    # the port hoshi web listens on is not where members reach the pages: no address guessed
    assert load_config(port_only, env={}).web.base_url is None
    assert load_config(env={}).web.base_url is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[web]\nenabled = 'yes'\n", "[web] enabled must be true or false, not 'yes'"),
        ("[web]\nport = 70000\n", "[web] port must be a whole number from 0 to 65535"),
        ("[web]\nport = true\n", "[web] port must be a whole number"),
        ("[web]\nbase_url = 'go.example.org'\n", "[web] base_url must be a web address"),
        ("[web]\nsite_dir = 5\n", "[web] site_dir must be text"),
        ("[web]\nsecret = 1\n", "unknown key 'secret' in [web]"),
    ],
    ids=["enabled", "port-range", "port-bool", "base-url", "site-dir", "unknown"],
)
def test_web_config_errors(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text), env={})
    assert message in str(caught.value)


def test_the_database_section_names_a_postgresql_database(tmp_path: Path) -> None:
    path = write(tmp_path, '[database]\nurl = "postgresql://hoshi@db.example/clubs"\n')
    config = load_config(path, env={})
    assert config.database_url == "postgresql://hoshi@db.example/clubs"
    assert config.database == "postgresql://hoshi@db.example/clubs"  # a URL, never a Path
    assert load_config(write(tmp_path, ""), env={}).database == config.db_path  # SQLite


def test_the_database_url_may_come_from_the_environment(tmp_path: Path) -> None:
    url = "postgresql://hoshi:s3cret@db.example/clubs"
    assert load_config(env={"HOSHI_DATABASE_URL": url}).database == url
    assert load_config(env={"HOSHI_DB": url}).database == url
    assert load_config(env={"HOSHI_DB": "~/x.sqlite"}).database == Path("~/x.sqlite").expanduser()
    with pytest.raises(ConfigError, match="HOSHI_DATABASE_URL must be a PostgreSQL URL like"):
        load_config(env={"HOSHI_DATABASE_URL": "mysql://x"})


@pytest.mark.parametrize("value", ["'club.sqlite'", "'mysql://u:s3cret@h/db'", "5"])
def test_a_database_url_that_is_not_postgresql_is_refused_without_its_value(
    tmp_path: Path, value: str
) -> None:
    path = write(tmp_path, f"[database]\nurl = {value}\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path, env={})
    assert str(caught.value) == (
        f"{path}: [database] url must be a PostgreSQL URL like "
        "postgresql://hoshi@127.0.0.1:5432/hoshi"
    )
    assert "s3cret" not in str(caught.value)


def test_the_db_option_keeps_a_url_as_text() -> None:
    from bot.cli.common import db_target, shown

    assert db_target("postgresql://u:pw@h/db") == "postgresql://u:pw@h/db"
    assert db_target("club.sqlite") == Path("club.sqlite")
    assert shown("postgresql://u:pw@h/db") == "postgresql://u@h/db"
    assert shown(Path("club.sqlite")) == "club.sqlite"


def test_the_clubs_kept_in_memory_are_a_setting_of_the_database(tmp_path: Path) -> None:
    assert load_config(env={}).clubs_in_memory == 1000
    path = write(tmp_path, "[database]\nclubs_in_memory = 50\n")
    assert load_config(path, env={}).clubs_in_memory == 50


@pytest.mark.parametrize("value", ["0", "true", "'many'", "2000000"])
def test_the_clubs_kept_in_memory_must_be_a_count(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, f"[database]\nclubs_in_memory = {value}\n"), env={})
    assert "[database] clubs_in_memory must be a whole number from 1 to 1000000" in str(
        caught.value
    )


def test_pictures_and_files_go_to_the_users_data_directory(tmp_path: Path) -> None:
    """Charts and exports the console writes go under the per-user data directory by default
    (issue 24: never a folder of the checkout or the working directory)."""
    config = load_config(env={})
    assert config.charts_dir == tmp_path / "data-home" / "hoshi" / "files"
    assert not config.charts_dir.is_relative_to(Path.cwd())
    source = tmp_path / "hoshi.toml"
    source.write_text('[hoshi]\ncharts_dir = "~/go/pictures"\n', encoding="utf-8")
    assert load_config(source, env={}).charts_dir == Path.home() / "go" / "pictures"


def test_a_suggested_command_keeps_the_options_given() -> None:
    given = GivenOptions(Path("club.sqlite"), Path("my config.toml"), "Go Club")
    assert given.command("export", "--format", "h9") == (
        "hoshi export --format h9 --db club.sqlite --config 'my config.toml' --club 'Go Club'"
    )
    assert given.command("console", "--new-club", "Chess", club=False) == (
        "hoshi console --new-club Chess --db club.sqlite --config 'my config.toml'"
    )
    assert GivenOptions().command("console") == "hoshi console"
    url = GivenOptions("postgresql://hoshi:secret@db.example.org/hoshi")
    assert "secret" not in url.command("replay")
    assert url.command("replay").startswith("hoshi replay --db postgresql://hoshi")


def test_the_config_file_given_is_kept_for_suggestions(tmp_path: Path) -> None:
    source = tmp_path / "hoshi.toml"
    source.write_text("", encoding="utf-8")
    assert load_config(source, env={}).given == GivenOptions(config=source)
    assert load_config(env={}).given == GivenOptions()
