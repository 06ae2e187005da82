"""Fixtures for the web pages' tests in a real browser (see :mod:`tests.web.browser`).

``browser`` is one headless Chromium for the whole session; ``page`` is a fresh context at a
desktop's size, ``phone`` one at a phone's; ``open_page(**options)`` makes any other (no
JavaScript: ``open_page(java_script_enabled=False)``). ``screenshot(page, name)`` writes
``name`` as a PNG to ``$HOSHI_SCREENSHOTS`` (or a temporary folder) and returns its path.

Playwright's objects belong to the event loop that made them, so every async test and
fixture in this folder runs in the session's loop (set below), the browser's own.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from pytest_asyncio import is_async_test

from tests.web.browser import (
    CHROMIUM_FLAGS,
    DESKTOP,
    PHONE,
    BrowserMissing,
    ensure_chromium,
    watch_console,
)

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser lives in the session's event loop: so do the tests that use it."""
    session_loop = pytest.mark.asyncio(loop_scope="session")
    for item in items:
        if is_async_test(item) and HERE in Path(item.path).resolve().parents:
            item.add_marker(session_loop, append=False)


@pytest.fixture(scope="session")
def chromium(pytestconfig: pytest.Config) -> Path:
    """Debian's Chromium, installed on first use (or the tests skip, saying how to get it)."""
    reporter = pytestconfig.pluginmanager.getplugin("terminalreporter")
    capture = pytestconfig.pluginmanager.getplugin("capturemanager")

    def log(line: str) -> None:  # shown even while pytest captures output
        if reporter is None or capture is None:
            print(line)
            return
        with capture.global_and_fixture_disabled():
            reporter.write_line(line)

    try:
        return ensure_chromium(log=log)
    except BrowserMissing as missing:
        pytest.skip(f"no browser for the web tests: {missing}")


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser(chromium: Path) -> AsyncIterator[Any]:
    """One headless Chromium for the session, driven by Playwright."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        pytest.skip("Playwright is missing: python3 -m pip install -e '.[test]'")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=str(chromium), headless=True, args=list(CHROMIUM_FLAGS)
        )
        try:
            yield launched
        finally:
            await launched.close()


OpenPage = Callable[..., Awaitable[Any]]


@pytest_asyncio.fixture(loop_scope="session")
async def open_page(browser: Any) -> AsyncIterator[OpenPage]:
    """``await open_page(**context_options)``: a page in a new browser context (its own
    cookies and cache), closed after the test; desktop size unless the options say."""
    contexts: list[Any] = []

    async def opened(**options: Any) -> Any:
        context = await browser.new_context(**{**DESKTOP, **options})
        contexts.append(context)
        page = await context.new_page()
        watch_console(page)
        return page

    try:
        yield opened
    finally:
        for context in contexts:
            await context.close()


@pytest_asyncio.fixture(loop_scope="session")
async def page(open_page: OpenPage) -> Any:
    """A page at a desktop's size, 1280×900."""
    return await open_page(**DESKTOP)


@pytest_asyncio.fixture(loop_scope="session")
async def phone(open_page: OpenPage) -> Any:
    """A page at a phone's size, 390×844 at twice the pixels, touch and mobile layout."""
    return await open_page(**PHONE)


Screenshot = Callable[[Any, str], Awaitable[Path]]


@pytest.fixture(scope="session")
def screenshot_tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go when ``$HOSHI_SCREENSHOTS`` is not set."""
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture
def screenshot(screenshot_tmp: Path) -> Screenshot:
    """``await screenshot(page, "ranking-desktop")``: the whole page as a PNG in
    ``$HOSHI_SCREENSHOTS`` (made if missing) or a temporary folder; returns its path."""

    async def take(page: Any, name: str) -> Path:
        chosen = os.environ.get("HOSHI_SCREENSHOTS")
        folder = Path(chosen) if chosen else screenshot_tmp
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / (name if name.endswith(".png") else f"{name}.png")
        await page.screenshot(path=str(path), full_page=True)
        return path

    return take
