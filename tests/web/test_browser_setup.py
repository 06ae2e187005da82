"""The browser set-up itself: Chromium installs or skips saying why, Playwright drives it
against a page served here, screenshots are PNGs, and axe-core finds what is wrong on a page
(and nothing on a good one) — proven on a tiny page of its own, not on hoshi's."""

from __future__ import annotations

import subprocess
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from aiohttp import web

from tests.web.browser import (
    PHONE,
    BrowserMissing,
    accessibility_violations,
    axe_violations,
    console_errors,
    ensure_chromium,
    format_violations,
    png_size,
    served,
)

# The contract's headers (web-contract.md): the test pages live under the same rules as
# hoshi's, so axe and the click are shown to work where no inline script or style may run.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; script-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

GOOD = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ranking — Test Go Club</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><link rel="stylesheet" href="/static/good.css">
<script src="/static/app.js" defer></script>
</head><body>
<a class="skip" href="#main">Skip to the ranking</a>
<header><p class="site">Test Go Club</p></header>
<nav aria-label="Pages"><a href="/">Ranking</a></nav>
<main id="main"><h1>Ranking</h1>
<form role="search"><label for="search">Name</label><input id="search" type="search"></form>
<button type="button" id="go">Count</button><p id="out" aria-live="polite">not yet</p>
<table><caption>Players</caption><thead><tr><th scope="col">Name</th></tr></thead>
<tbody><tr><td>Szabó Éva</td></tr></tbody></table></main>
<footer><p>Made by hoshi</p></footer></body></html>"""

BAD = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/static/bad.css"></head>
<body><div><img src="/static/none.png"><input type="text" id="q">
<p class="faint">Too faint to read</p></div></body></html>"""

INLINE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Inline</title></head>
<body><main><h1>Inline</h1><p id="out">untouched</p>
<script>document.getElementById("out").textContent = "ran";</script></main></body></html>"""

FILES = {
    "app.js": (
        "text/javascript",
        'document.getElementById("go").addEventListener("click", () => {'
        ' document.getElementById("out").textContent = "clicked"; });',
    ),
    "good.css": ("text/css", "body { color: #1a1a1a; background: #fff; font: 16px sans-serif; }"),
    "bad.css": ("text/css", ".faint { color: #d0d0d0; background: #ffffff; }"),
}


def throwaway_app() -> web.Application:
    """Three pages and their files, every response with the contract's security headers."""

    @web.middleware
    async def secure(request: web.Request, handler: Any) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        response.headers.update(SECURITY_HEADERS)
        return response

    def page(html: str) -> Any:
        async def handler(_request: web.Request) -> web.Response:
            return web.Response(text=html, content_type="text/html")

        return handler

    async def static(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in FILES:
            raise web.HTTPNotFound()
        kind, body = FILES[name]
        return web.Response(text=body, content_type=kind)

    app = web.Application(middlewares=[secure])
    app.router.add_get("/", page(GOOD))
    app.router.add_get("/bad", page(BAD))
    app.router.add_get("/inline", page(INLINE))
    app.router.add_get("/static/{name}", static)
    return app


@pytest_asyncio.fixture(loop_scope="session")
async def site() -> AsyncIterator[str]:
    async with served(throwaway_app()) as url:
        yield url


# --- the browser ----------------------------------------------------------------------------


async def test_chromium_opens_a_served_page_and_its_script_answers_a_click(
    browser: Any, page: Any, site: str
) -> None:
    assert browser.version.split(".")[0].isdigit()
    response = await page.goto(site + "/")
    assert response.status == 200
    assert response.headers["content-security-policy"].startswith("default-src 'none'")
    assert await page.title() == "Ranking — Test Go Club"
    assert await page.text_content("#out") == "not yet"
    await page.click("#go")
    assert await page.text_content("#out") == "clicked"
    assert console_errors(page) == []


async def test_a_refused_inline_script_is_reported_as_a_console_error(
    page: Any, site: str
) -> None:
    """The contract's CSP forbids inline scripts: the page shows it did not run, and
    console_errors() catches Chromium's refusal (what a test of hoshi's pages asserts empty)."""
    await page.goto(site + "/inline")
    assert await page.text_content("#out") == "untouched"
    errors = console_errors(page)
    assert any("Content Security Policy" in error for error in errors), errors


async def test_a_failed_load_is_reported_with_its_address(page: Any, site: str) -> None:
    await page.goto(site + "/bad")  # its picture is missing, and so is a favicon
    errors = console_errors(page)
    assert f"HTTP 404: {site}/static/none.png" in errors
    assert not any("Failed to load resource" in error for error in errors)


async def test_a_page_without_javascript_ignores_its_script(open_page: Any, site: str) -> None:
    plain = await open_page(java_script_enabled=False)
    await plain.goto(site + "/")
    await plain.click("#go")
    assert await plain.text_content("#out") == "not yet"


async def test_a_phone_page_is_a_phone_sized_mobile_page(phone: Any, site: str) -> None:
    await phone.goto(site + "/")
    assert await phone.evaluate("[innerWidth, devicePixelRatio]") == [390, 2]
    assert await phone.evaluate("matchMedia('(pointer: coarse)').matches")


# --- screenshots ----------------------------------------------------------------------------


async def test_screenshots_are_pngs_of_the_whole_page_at_each_size(
    page: Any, phone: Any, site: str, screenshot: Any
) -> None:
    await page.goto(site + "/")
    await phone.goto(site + "/")
    desktop = await screenshot(page, "setup-desktop")
    small = await screenshot(phone, "setup-phone.png")
    assert desktop.name == "setup-desktop.png"
    assert small.name == "setup-phone.png"
    assert png_size(desktop.read_bytes())[0] == 1280
    assert png_size(small.read_bytes())[0] == 390 * PHONE["device_scale_factor"]
    assert desktop.stat().st_size > 1000


async def test_screenshots_go_to_the_folder_hoshi_screenshots_names(
    page: Any, site: str, screenshot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "shots" / "new"
    monkeypatch.setenv("HOSHI_SCREENSHOTS", str(folder))
    await page.goto(site + "/")
    path = await screenshot(page, "ranking-desktop")
    assert path == folder / "ranking-desktop.png"
    assert png_size(path.read_bytes()) >= (1280, 900)


def test_png_size_refuses_what_is_not_a_png() -> None:
    with pytest.raises(ValueError, match="not a PNG"):
        png_size(b"GIF89a" + bytes(30))


# --- accessibility --------------------------------------------------------------------------


async def test_axe_finds_the_faults_seeded_in_a_bad_page(page: Any, site: str) -> None:
    await page.goto(site + "/bad")
    found = {violation.rule: violation for violation in await accessibility_violations(page)}
    assert {"image-alt", "label", "html-has-lang", "color-contrast"} <= set(found), found
    assert found["image-alt"].impact == "critical"
    assert found["color-contrast"].targets == ("p",)
    message = format_violations(list(found.values()))
    assert "[critical] image-alt: Images must have alternative text" in message
    assert "at img" in message
    # landmarks and the missing h1 are best practice, of moderate impact: seen, not blocking
    every = {violation.rule for violation in await axe_violations(page)}
    assert {"landmark-one-main", "page-has-heading-one", "region"} <= every


async def test_axe_rules_can_be_turned_off_one_by_one(page: Any, site: str) -> None:
    await page.goto(site + "/bad")
    found = await accessibility_violations(page, rules={"color-contrast": False})
    assert "color-contrast" not in {violation.rule for violation in found}
    assert "image-alt" in {violation.rule for violation in found}


async def test_axe_finds_nothing_on_a_good_page_at_either_size(
    page: Any, phone: Any, site: str
) -> None:
    for opened in (page, phone):
        await opened.goto(site + "/")
        found = await axe_violations(opened)
        assert found == [], format_violations(found)


# --- the served app -------------------------------------------------------------------------


async def test_an_app_is_served_on_a_free_local_port_and_stopped_after() -> None:
    async with served(throwaway_app()) as url:
        assert url.startswith("http://127.0.0.1:")
        async with aiohttp.ClientSession() as session, session.get(url + "/bad") as response:
            assert response.status == 200
            assert response.headers["X-Content-Type-Options"] == "nosniff"
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.ClientConnectionError):
            await session.get(url + "/")


# --- installing Chromium --------------------------------------------------------------------


class FakeApt:
    """apt-get as this machine would answer it: ``lists`` says whether it has package lists;
    a successful install creates the files the packages bring."""

    def __init__(self, creates: dict[str, Path], *, lists: bool = True, fails: bool = False):
        self.creates = creates
        self.lists = lists
        self.fails = fails
        self.commands: list[list[str]] = []

    def __call__(self, command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        command = list(command)
        self.commands.append(command)
        if command[1] == "update":
            self.lists = True
            return subprocess.CompletedProcess(command, 0, "Reading package lists...", "")
        if not self.lists:
            return subprocess.CompletedProcess(
                command, 100, "", f"E: Unable to locate package {command[-1]}"
            )
        if self.fails:
            return subprocess.CompletedProcess(command, 100, "", "E: Sub-process dpkg failed")
        for package in command[command.index("--no-install-recommends") + 3 :]:
            if package in self.creates:
                self.creates[package].parent.mkdir(parents=True, exist_ok=True)
                self.creates[package].touch()
        return subprocess.CompletedProcess(command, 0, "Setting up ...", "")


def _paths(tmp_path: Path) -> dict[str, Path]:
    return {"chromium": tmp_path / "chromium", "fonts-noto-cjk": tmp_path / "font.ttc"}


def _ensure(tmp_path: Path, apt: FakeApt, log: list[str], **kwargs: Any) -> Path:
    paths = _paths(tmp_path)
    options: dict[str, Any] = {"euid": 0, "apt_get": "/usr/bin/apt-get"} | kwargs
    return ensure_chromium(
        chromium=paths["chromium"], font=paths["fonts-noto-cjk"], run=apt, log=log.append,
        **options,
    )  # fmt: skip


def test_a_missing_chromium_is_installed_with_its_driver_and_the_cjk_font(
    tmp_path: Path,
) -> None:
    apt, log = FakeApt(_paths(tmp_path)), []
    assert _ensure(tmp_path, apt, log) == tmp_path / "chromium"
    assert [command[-2:] for command in apt.commands] == [
        ["chromium", "chromium-driver"],
        ["DPkg::Lock::Timeout=300", "fonts-noto-cjk"],
    ]
    assert all(command[:4] == ["apt-get", "install", "-y", "--no-install-recommends"]
               for command in apt.commands)  # fmt: skip
    assert "installing chromium chromium-driver with apt-get" in log[0]


def test_apt_reads_its_package_lists_only_when_it_has_none(tmp_path: Path) -> None:
    apt, log = FakeApt(_paths(tmp_path), lists=False), []
    _ensure(tmp_path, apt, log)
    assert [command[1] for command in apt.commands] == ["install", "update", "install", "install"]
    assert any("no package lists yet" in line for line in log)


def test_nothing_is_installed_when_chromium_and_the_font_are_there(tmp_path: Path) -> None:
    for path in _paths(tmp_path).values():
        path.touch()
    apt, log = FakeApt(_paths(tmp_path)), []
    assert _ensure(tmp_path, apt, log, euid=1000, apt_get="") == tmp_path / "chromium"
    assert apt.commands == []
    assert log == []


def test_without_root_the_tests_are_told_what_is_missing_and_how_to_install_it(
    tmp_path: Path,
) -> None:
    apt = FakeApt(_paths(tmp_path))
    with pytest.raises(BrowserMissing) as missing:
        _ensure(tmp_path, apt, [], euid=1000)
    assert str(missing.value) == (
        f"{tmp_path / 'chromium'} is missing (Debian packages chromium and chromium-driver);"
        " installing them needs root: run"
        " sudo apt-get install -y --no-install-recommends chromium chromium-driver"
    )
    assert apt.commands == []


def test_without_apt_the_tests_are_told_what_is_missing(tmp_path: Path) -> None:
    with pytest.raises(BrowserMissing, match="no apt-get here to install them: run sudo apt"):
        _ensure(tmp_path, FakeApt(_paths(tmp_path)), [], apt_get="")


def test_a_failed_install_says_what_apt_said(tmp_path: Path) -> None:
    apt = FakeApt(_paths(tmp_path), fails=True)
    with pytest.raises(BrowserMissing, match="apt-get install failed:\nE: Sub-process dpkg"):
        _ensure(tmp_path, apt, [])
    assert [command[1] for command in apt.commands] == ["install"]  # no update: lists were there


def test_a_failed_font_install_leaves_the_browser_usable(tmp_path: Path) -> None:
    paths = _paths(tmp_path)
    paths["chromium"].touch()
    apt, log = FakeApt({}, fails=True), []
    assert _ensure(tmp_path, apt, log) == paths["chromium"]
    assert "no CJK font (E: Sub-process dpkg failed); Japanese screenshots show boxes" in log[-1]
