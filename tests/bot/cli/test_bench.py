"""``hoshi bench`` runs from what ``pip install .`` installs, not only from a source checkout."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
from setuptools import find_packages

from bot.cli import main

ROOT = Path(__file__).resolve().parents[3]
IGNORED = shutil.ignore_patterns("__pycache__")


def installed_packages() -> list[str]:
    """The packages a wheel of this checkout holds: pyproject.toml's package search."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = config["tool"]["setuptools"]["packages"]["find"]
    return sorted(find_packages(str(ROOT), include=found["include"]))


def test_the_benchmark_is_an_installed_package() -> None:
    packages = installed_packages()
    assert "benchmarks" in packages
    assert not any(p == "tests" or p.startswith("tests.") for p in packages)


def test_hoshi_bench_runs_from_the_installed_packages_alone(tmp_path: Path) -> None:
    """The installed layout (only the packaged top-level packages, run from elsewhere): a tiny
    run goes through every phase, the Telegram one against the packaged fake Bot API."""
    site = tmp_path / "site"
    site.mkdir()
    for package in installed_packages():
        if "." not in package:
            # copied, not linked: nothing may find its way back to the checkout
            shutil.copytree(ROOT / package, site / package, ignore=IGNORED)
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "bench",
            "--games",
            "100",
            "--samples",
            "2",
            "--updates",
            "3",
            "--writers",
            "2",
            "--writer-games",
            "3",
            "--import-players",
            "2",
            "--ancient-date",
            "2025-10-01",
            "--json",
            "--dir",
            str(work),
        ],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] >= 100
    assert result["telegram"]["updates"] == 3
    assert result["start"]["snapshot"]["verified"]["equal"]
    assert result["writers"]["many"]["acked"] == 6
    assert result["ancient"]["setup"]["date"] == "2025-10-01" and result["ancient_s"] > 0
    assert result["import"]["players"] == 2 and result["import_s"] > 0


def test_a_server_url_needs_the_postgresql_backend(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql://postgres@127.0.0.1:1/postgres"
    assert main(["bench", "--games", "100", "--db-url", url]) == 2
    assert "--backend postgresql" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--backend", "mysql"], "invalid choice: 'mysql'"),
        (["--db-url", "sqlite:///x"], "--db-url takes a PostgreSQL URL like postgresql://"),
        (["--writers", "three"], "expected a whole number like 3, not 'three'"),
        (["--writer-games", "-5"], "expected a whole number like 3, not '-5'"),
        (["--games-per-club", "0"], "expected a whole number like 3, not '0'"),
        (["--ancient-date", "1900-13-01"], "expected a date like 1900-01-01, not '1900-13-01'"),
    ],
)
def test_bad_bench_options_say_what_is_expected(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--games", "100", *argv])
    assert exit_.value.code == 2
    assert said in capsys.readouterr().err


def test_the_options_of_issue_23_reach_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--clubs``, ``--games-per-club``, ``--import-players``, ``--ancient-date`` and
    ``--case-timeout`` are given to the run as they were typed (a fake run says what it
    got)."""
    from benchmarks import bench

    async def fake_run(games: int, **options: Any) -> dict[str, Any]:
        return {"games": games, **{k: str(v) for k, v in options.items() if k != "status"}}

    monkeypatch.setattr(bench, "run", fake_run)
    argv = ["bench", "--clubs", "10,000", "--games-per-club", "100", "--import-players", "50"]
    argv += ["--ancient-date", "1950-06-01", "--case-timeout", "30", "--json"]
    assert main(argv) == 0
    got = json.loads(capsys.readouterr().out)
    assert (got["clubs"], got["games_per_club"]) == ("10000", "100")
    assert (got["import_players"], got["ancient"], got["case_timeout_s"]) == (
        "50",
        "1950-06-01",
        "30",
    )


def test_no_postgresql_binaries_say_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks import pgcluster

    def missing(**_: object) -> pgcluster.Cluster:
        raise pgcluster.Unavailable("PostgreSQL binary 'initdb' not found; install postgresql")

    monkeypatch.setattr(pgcluster, "start", missing)
    assert main(["bench", "--games", "100", "--backend", "postgresql"]) == 2
    err = capsys.readouterr().err
    assert "no PostgreSQL to measure: PostgreSQL binary 'initdb' not found" in err
    assert "--db-url" in err


def test_a_terminated_bench_stops_its_postgresql_cluster() -> None:
    """``kill`` (SIGTERM) in the middle of a run: the throw-away cluster it started is stopped
    and its directory removed (pgcluster's exit handler runs)."""
    from benchmarks import pgcluster

    try:
        pgcluster.find_binaries()
    except pgcluster.Unavailable as error:
        pytest.skip(str(error))
    # not under tmp_path: the postgres user must be able to enter every directory above it
    clusters = Path(tempfile.mkdtemp(prefix="hoshi-bench-test-"))
    clusters.chmod(0o755)
    command = [sys.executable, "-m", "bot", "bench", "--games", "2000"]
    command += ["--backend", "postgresql", "--dir", str(clusters), "--no-telegram"]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    assert process.stderr is not None
    try:
        said = []
        for line in process.stderr:  # until the cluster is up and the load has begun
            said.append(line)
            if line.startswith("load:"):
                break
        started = [d for d in clusters.iterdir() if d.name.startswith("hoshi-pg-")]
        assert len(started) == 1, said
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 128 + signal.SIGTERM
        assert not started[0].exists()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stderr.close()
        shutil.rmtree(clusters, ignore_errors=True)
