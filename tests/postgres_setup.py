"""PostgreSQL for the tests: its binaries installed with apt when a fresh machine lacks them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from benchmarks import pgcluster

POSTGRES_PACKAGES = ("postgresql-15",)


def ensure_postgresql(
    *,
    euid: int | None = None,
    apt_get: str | None = None,
    run: Any = None,
    log: Any = print,
) -> Path:
    """PostgreSQL's binaries, installed first with apt when they are missing and this machine
    lets us (root, apt-get present: a fresh Debian machine), as the browser tests install
    Chromium (tests/web/browser.py).

    Raises:
        pgcluster.Unavailable: missing and not installable here (the message says why and
            what to install).
    """
    from tests.web import browser

    try:
        return pgcluster.find_binaries()
    except pgcluster.Unavailable as missing:
        euid = os.geteuid() if euid is None else euid
        apt_get = shutil.which("apt-get") if apt_get is None else apt_get
        if not apt_get or euid != 0:
            raise
        with browser.install_lock():
            ok, why = browser.apt_install(POSTGRES_PACKAGES, run=run or browser.run, log=log)
        if not ok:
            raise pgcluster.Unavailable(f"{missing}; apt-get install failed:\n{why}") from None
        return pgcluster.find_binaries()
