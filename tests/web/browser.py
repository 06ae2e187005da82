"""A real browser for the web pages' tests: Debian's Chromium driven by Playwright, axe-core.

The tests need ``/usr/bin/chromium`` (and ``/usr/bin/chromedriver`` beside it, for anyone who
drives it with selenium). A fresh machine has neither: :func:`ensure_chromium` installs
Debian's ``chromium`` and ``chromium-driver`` with apt when it can (root, apt-get present;
about 40 s, once), and says exactly what is missing when it cannot — the tests then skip with
that message. Japanese pages need a CJK font in screenshots: ``fonts-noto-cjk`` is installed
the same way, but a failure there only leaves the screenshots with boxes.

Playwright drives the system Chromium through ``executable_path``; it never downloads a
browser of its own (``playwright install`` needs the internet, which this machine has not).
Chromium starts with the flags that keep it off the network: without them its background
services keep trying Google's hosts and the closed network refuses them.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CJK_FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
BROWSER_PACKAGES = ("chromium", "chromium-driver")
FONT_PACKAGES = ("fonts-noto-cjk",)

CHROMIUM_FLAGS = (
    "--no-sandbox",  # the tests run as root in a container
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Chromium's command line besides ``--headless`` (Playwright adds it) and a new empty
profile (Playwright makes one per launch and refuses ``--user-data-dir`` in ``args``)."""

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}

AXE_TAGS = ("wcag2a", "wcag2aa", "best-practice")
"""The axe-core rule sets run: WCAG 2 A and AA (labels, landmarks, contrast, names) and
axe's best practices (one main, one h1, content inside landmarks)."""
BLOCKING_IMPACTS = frozenset({"serious", "critical"})

Runner = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]
"""Runs one command and returns what it printed (a fake stands in for it in tests)."""


class BrowserMissing(Exception):
    """No browser, and none can be installed here: the message says what and how."""


def run(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False)


def _apt_install(packages: Sequence[str]) -> list[str]:
    # Another apt (another test run, an agent's install) may hold dpkg's lock: wait for it.
    return [
        "apt-get",
        "install",
        "-y",
        "--no-install-recommends",
        "-o",
        "DPkg::Lock::Timeout=300",
        *packages,
    ]


def install_command(packages: Sequence[str]) -> str:
    """The command a person runs to install ``packages`` by hand."""
    return "sudo apt-get install -y --no-install-recommends " + " ".join(packages)


_NO_LISTS = ("Unable to locate package", "has no installation candidate")


def apt_install(
    packages: Sequence[str],
    *,
    run: Runner = run,
    log: Callable[[str], None] = print,
) -> tuple[bool, str]:
    """Install Debian ``packages``; ``apt-get update`` first only when the package lists lack
    them (a fresh container has none). Returns whether it worked and apt's last words."""
    log(f"hoshi tests: installing {' '.join(packages)} with apt-get (once, about 40 s) …")
    done = run(_apt_install(packages))
    if done.returncode != 0 and any(sign in done.stdout + done.stderr for sign in _NO_LISTS):
        log("hoshi tests: apt has no package lists yet: apt-get update …")
        updated = run(["apt-get", "update", "-o", "DPkg::Lock::Timeout=300"])
        if updated.returncode != 0:
            return False, _last_words(updated)
        done = run(_apt_install(packages))
    if done.returncode != 0:
        return False, _last_words(done)
    log(f"hoshi tests: installed {' '.join(packages)}")
    return True, ""


def _last_words(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
    return "\n".join(lines[-5:]) or f"exit status {done.returncode}"


@contextlib.contextmanager
def install_lock() -> Iterator[None]:
    """One installer at a time among test runs on this machine (apt has its own lock too;
    this one keeps a second run from starting apt while the first one is still at it)."""
    path = Path(tempfile.gettempdir()) / "hoshi-browser-install.lock"
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure_chromium(
    *,
    chromium: Path = CHROMIUM,
    font: Path = CJK_FONT,
    euid: int | None = None,
    apt_get: str | None = None,
    run: Runner = run,
    log: Callable[[str], None] = print,
) -> Path:
    """The Chromium binary, installed first if it is missing and this machine lets us.

    Raises :class:`BrowserMissing` naming what is missing and the command that installs it
    when Chromium is absent and cannot be installed here (not root, no apt-get, the install
    failed). The CJK font is optional: without it the tests still run."""
    euid = os.geteuid() if euid is None else euid
    apt_get = shutil.which("apt-get") if apt_get is None else apt_get
    with install_lock():
        if not chromium.exists():
            missing = f"{chromium} is missing (Debian packages {' and '.join(BROWSER_PACKAGES)})"
            how = install_command(BROWSER_PACKAGES)
            if not apt_get:
                raise BrowserMissing(f"{missing}; no apt-get here to install them: run {how}")
            if euid != 0:
                raise BrowserMissing(f"{missing}; installing them needs root: run {how}")
            ok, why = apt_install(BROWSER_PACKAGES, run=run, log=log)
            if not ok:
                raise BrowserMissing(f"{missing}; apt-get install failed:\n{why}\nRun {how}")
            if not chromium.exists():
                raise BrowserMissing(f"{missing}; apt-get installed them but not {chromium}")
        if not font.exists() and apt_get and euid == 0:
            ok, why = apt_install(FONT_PACKAGES, run=run, log=log)
            if not ok:
                log(f"hoshi tests: no CJK font ({why}); Japanese screenshots show boxes")
    return chromium


# --- accessibility --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Violation:
    """One axe-core rule broken on a page, with the elements that break it."""

    rule: str
    impact: str
    help: str
    url: str
    targets: tuple[str, ...]
    summary: str

    def __str__(self) -> str:
        where = "\n".join(f"    at {target}" for target in self.targets[:8])
        more = f"\n    … and {len(self.targets) - 8} more" if len(self.targets) > 8 else ""
        return f"[{self.impact}] {self.rule}: {self.help} ({self.url})\n{where}{more}\n" + (
            "    " + self.summary.replace("\n", "\n    ") if self.summary else ""
        )


def _violation(found: Mapping[str, Any]) -> Violation:
    nodes = found.get("nodes") or []
    targets = tuple(
        " ".join(str(part) for part in node.get("target", [])) or node.get("html", "")
        for node in nodes
    )
    summary = nodes[0].get("failureSummary", "") if nodes else ""
    return Violation(
        rule=str(found["id"]),
        impact=str(found.get("impact") or "unknown"),
        help=str(found.get("help", "")),
        url=str(found.get("helpUrl", "")),
        targets=targets,
        summary=str(summary or ""),
    )


async def axe_violations(
    page: Any,
    *,
    tags: Sequence[str] = AXE_TAGS,
    rules: Mapping[str, bool] | None = None,
) -> list[Violation]:
    """Every axe-core violation on ``page`` as it is now, of any impact.

    ``rules`` turns single rules on or off (``{"color-contrast": False}``)."""
    from axe_playwright_python.async_playwright import Axe

    options: dict[str, Any] = {
        "runOnly": {"type": "tag", "values": list(tags)},
        "resultTypes": ["violations"],
    }
    if rules:
        options["rules"] = {rule: {"enabled": on} for rule, on in rules.items()}
    results = await Axe().run(page, options=options)
    return [_violation(found) for found in results.response.get("violations", [])]


async def accessibility_violations(
    page: Any,
    *,
    tags: Sequence[str] = AXE_TAGS,
    rules: Mapping[str, bool] | None = None,
) -> list[Violation]:
    """The serious and critical axe-core violations on ``page`` (landmarks, labels, names,
    contrast …): what a test asserts is empty; ``str()`` of each is readable in a failure
    (``assert not found, format_violations(found)``)."""
    found = await axe_violations(page, tags=tags, rules=rules)
    return [violation for violation in found if violation.impact in BLOCKING_IMPACTS]


def format_violations(found: Sequence[Violation]) -> str:
    """The violations as a failing assertion's message."""
    if not found:
        return "no accessibility violations"
    return f"{len(found)} accessibility violation(s):\n" + "\n".join(map(str, found))


# --- pages ----------------------------------------------------------------------------------

_CONSOLE: dict[int, list[str]] = {}


def watch_console(page: Any) -> None:
    """Collect the page's console errors, uncaught exceptions (a Content-Security-Policy
    refusal is one) and failed loads (``HTTP 404: http://…/favicon.ico``) for
    :func:`console_errors`."""
    errors: list[str] = []
    _CONSOLE[id(page)] = errors

    def on_console(message: Any) -> None:
        # a failed load is told by on_response, with its address (the console's words lack it)
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            errors.append(f"console: {message.text}")

    def on_response(response: Any) -> None:
        if response.status >= 400:
            errors.append(f"HTTP {response.status}: {response.url}")

    page.on("console", on_console)
    page.on("response", on_response)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    page.on("close", lambda _page: _CONSOLE.pop(id(page), None))


def console_errors(page: Any) -> list[str]:
    """What the page reported as errors since it opened (see :func:`watch_console`)."""
    return list(_CONSOLE.get(id(page), []))


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height from its header; raises on anything that is not a PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


# --- a served app ---------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def served(app: web.Application) -> AsyncIterator[str]:
    """Serve ``app`` on 127.0.0.1 at a port the system picks, in the running event loop;
    yields the base URL (``http://127.0.0.1:43121``, no trailing slash)."""
    runner = web.AppRunner(app, shutdown_timeout=5.0)
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port = runner.addresses[0][:2]
        yield f"http://{host}:{port}"
    finally:
        await runner.cleanup()
