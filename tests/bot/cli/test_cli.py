"""The ``hoshi`` command itself: ``--version``, and the operator's language (issue 13)."""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.cli import operator_language, parser_of_hoshi
from bot.config import Config, TelegramConfig
from bot.i18n import current, using
from bot.run import Bots, run_bots
from tests.fakes import telegram as ft

ROOT = Path(__file__).resolve().parents[3]
PYPROJECT = ROOT / "pyproject.toml"
CUP = ROOT / "tests" / "engine" / "formats" / "data" / "spring_cup_40x5.h9"


def test_version_prints_the_packages_version(capsys: pytest.CaptureFixture[str]) -> None:
    version = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"hoshi {version}\n"


@pytest.mark.parametrize(
    ("env", "language"),
    [
        ({}, "en"),
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "hu_HU"}, "hu"),
        ({"LANG": "ja_JP.UTF-8", "LC_MESSAGES": "sv_SE.UTF-8"}, "sv"),
        ({"LC_ALL": "pl_PL.UTF-8", "LC_MESSAGES": "sv_SE.UTF-8", "LANG": "hu_HU"}, "pl"),
        ({"LC_ALL": "", "LANG": "hu_HU.UTF-8"}, "hu"),  # an empty variable is not set
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),  # no catalogue: English
    ],
)
def test_the_operators_language_is_the_posix_locales(env: dict[str, str], language: str) -> None:
    assert operator_language(env) == language


def test_rate_speaks_the_locales_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert main(["rate", str(CUP)]) == 0
    out = capsys.readouterr().out
    assert "Budapest Spring Cup 2026 — " in out and "で計算" in out
    assert "順位  名前" in out and "局数" in out and "段級位" in out
    assert "入力: 持ち時間" in out and "参加者40名（ファイルの対局者行より）" in out
    assert "rated under" not in out and "Inputs:" not in out and "Change" not in out


def test_refusals_and_help_speak_the_locales_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("LC_ALL", "pl_PL.UTF-8")
    missing = tmp_path / "missing.h9"
    assert main(["rate", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"hoshi: nie można odczytać {missing}: ")
    assert main(["rate", str(CUP), "--C", "-3"]) == 2
    assert "--C musi wynosić 0 lub więcej, a nie -3" in capsys.readouterr().err

    monkeypatch.setenv("LC_ALL", "hu_HU.UTF-8")
    with pytest.raises(SystemExit):
        main(["rate", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("használat: hoshi rate")
    assert "kapcsolók:" in out and "ez a súgó, majd kilépés" in out
    assert "a versenyfájl (.h9 vagy OpenGotha .xml)" in out
    assert "options:" not in out and "the tournament file" not in out


def test_the_hoshi_command_in_a_japanese_terminal() -> None:
    """`LANG=ja_JP.UTF-8 python3 -m bot rate FILE`, as an organiser types it."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    env["LANG"] = "ja_JP.UTF-8"
    done = subprocess.run(
        [sys.executable, "-m", "bot", "rate", str(CUP)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "で計算" in done.stdout and "変動" in done.stdout
    assert "rated under" not in done.stdout


async def test_hoshi_run_tells_the_operator_in_the_terminals_language(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A rejected token is said in the terminal's language; the bots themselves start in the
    source language, each chat then answered in its own (not the operator's terminal's)."""
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("TELEGRAM_TOKEN", "999999:WRONG-token-value")
    async with ft.FakeBotApi() as api:
        config = Config(
            db_path=tmp_path / "hoshi.sqlite",
            telegram=TelegramConfig(api_base_url=api.base_url, file_base_url=api.file_base_url),
        )
        err = io.StringIO()
        with using("ja"):
            assert await run_bots(config, err=err) == 1
    assert (
        err.getvalue() == "hoshi run: telegramを起動できませんでした: トークンが拒否されました\n"
    )

    monkeypatch.setenv("TELEGRAM_TOKEN", ft.TOKEN)
    stop = asyncio.Event()
    spoken: list[str] = []

    def started(bots: Bots) -> None:
        spoken.append(current())
        stop.set()

    async with ft.FakeBotApi() as api:
        config = Config(
            db_path=tmp_path / "hoshi.sqlite",
            telegram=TelegramConfig(api_base_url=api.base_url, file_base_url=api.file_base_url),
        )
        with using("ja"):
            status = await run_bots(config, stop=stop, on_started=started, err=io.StringIO())
            assert current() == "ja"  # the terminal's language again afterwards
    assert status == 0 and spoken == ["en"]


def _subcommands(parser: argparse.ArgumentParser, prefix: str = "hoshi") -> dict[str, Any]:
    """Every subcommand of ``parser`` (and theirs, as ``hoshi translations check``)."""
    found: dict[str, Any] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found[f"{prefix} {name}"] = sub
                found |= _subcommands(sub, f"{prefix} {name}")
    return found


def test_every_subcommand_has_a_description() -> None:
    """``hoshi X --help`` says what X does (``hoshi export`` and ``hoshi replay`` said
    nothing), and every option says what it is for."""
    commands = _subcommands(parser_of_hoshi())
    assert {"hoshi export", "hoshi replay", "hoshi run", "hoshi console"} <= set(commands)
    for name, parser in commands.items():
        assert parser.description, f"{name} --help has no description"
        for action in parser._actions:
            assert action.help, f"{name}: {action.option_strings or action.dest} has no help"


def test_the_package_and_the_help_name_all_five_systems() -> None:
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    example = (ROOT / "config.example.toml").read_text(encoding="utf-8")
    for name in ("MGSZ", "Tensuusei", "Swedish", "PSG", "GoR"):
        assert name.lower() in project["description"].lower(), name
    for key in ("mgsz", "tensuusei", "swedish", "psg", "gor"):
        assert key in example.split("system = ")[0], f"config.example.toml omits {key}"
