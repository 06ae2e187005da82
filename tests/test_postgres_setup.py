"""tests/postgres_setup.py: PostgreSQL's binaries installed for the tests when missing."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from benchmarks import pgcluster
from tests.postgres_setup import ensure_postgresql

FOUND = Path("/usr/lib/postgresql/15/bin")


class Apt:
    """apt-get as a machine would answer it (the commands it was asked to run, recorded)."""

    def __init__(self, *, fails: bool = False) -> None:
        self.commands: list[list[str]] = []
        self.fails = fails
        self.installed = False

    def __call__(self, command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        self.commands.append(list(command))
        if self.fails:
            return subprocess.CompletedProcess(command, 100, "", "E: Sub-process dpkg failed")
        self.installed = True
        return subprocess.CompletedProcess(command, 0, "", "")


@pytest.fixture
def binaries(monkeypatch: pytest.MonkeyPatch) -> Apt:
    apt = Apt()

    def find() -> Path:
        if not apt.installed:
            raise pgcluster.Unavailable("PostgreSQL binary 'initdb' not found")
        return FOUND

    monkeypatch.setattr(pgcluster, "find_binaries", find)
    return apt


def test_missing_binaries_are_installed_by_a_root_with_apt(binaries: Apt) -> None:
    said: list[str] = []
    assert ensure_postgresql(euid=0, apt_get="/usr/bin/apt-get", run=binaries, log=said.append)
    assert binaries.commands[0][:2] == ["apt-get", "install"]
    assert "postgresql-15" in binaries.commands[0]
    assert "installing postgresql-15 with apt-get" in said[0]


def test_without_root_or_apt_the_missing_binary_is_named(binaries: Apt) -> None:
    for euid, apt_get in ((1000, "/usr/bin/apt-get"), (0, "")):
        with pytest.raises(pgcluster.Unavailable, match="'initdb' not found"):
            ensure_postgresql(euid=euid, apt_get=apt_get, run=binaries, log=print)
    assert binaries.commands == []


def test_a_failed_install_says_what_apt_said(binaries: Apt) -> None:
    binaries.fails = True
    with pytest.raises(pgcluster.Unavailable, match="apt-get install failed:\nE: Sub-process"):
        ensure_postgresql(euid=0, apt_get="/usr/bin/apt-get", run=binaries, log=print)
