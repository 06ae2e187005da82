"""``hoshi web``: the read-only web server of the club pages (issue 14), on aiohttp.

aiohttp serves the pages on the bot's own event loop (``hoshi run`` serves them beside the
chat platforms, ``hoshi web`` alone). Only GET and HEAD exist: there is no way to write
through the web. A club that keeps its pages off, an unknown club and an unknown page all get
the same 404 page. ``/healthz`` and ``/metrics`` (bot.web.health) are there whenever the
server runs, for a load balancer and a metrics scraper. Every response carries the security
headers of :data:`SECURITY_HEADERS`.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from collections.abc import Awaitable, Callable
from importlib import resources

from aiohttp import web

from bot.config import WebConfig
from bot.core import reads
from bot.core.facade import Database
from bot.core.reads import Shown, shown_club
from bot.i18n import LANGUAGES, _, language_of, translated, using
from bot.metrics import Metrics
from bot.serving import IDLE_S, MAX_BODY, SECURITY_HEADERS, Runner
from bot.web import health, pages, urls
from bot.web.downloads import DownloadCache, club_download
from bot.web.health import AdapterStates, Hosting, no_adapters
from bot.web.pages import Page, PageCache, Site
from engine.errors import FormatError

log = logging.getLogger("hoshi.web")

STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}

DB_KEY = web.AppKey("db", Database)
CACHE_KEY = web.AppKey("cache", PageCache)
DOWNLOADS_KEY = web.AppKey("downloads", DownloadCache)


def static_file(name: str) -> bytes | None:
    """A file of ``bot/web/static`` (the stylesheet, the script), or ``None``."""
    if "/" in name or name.startswith(".") or name[name.rfind(".") :] not in STATIC_TYPES:
        return None
    found = resources.files("bot.web").joinpath("static", name)
    return found.read_bytes() if found.is_file() else None


def today_for(db: Database, shown: Shown | None) -> dt.date:
    """Today in the club's time zone (UTC for the site's front page)."""
    now = db.clock()
    return now.astimezone(shown.settings.zone).date() if shown is not None else now.date()


def web_app(
    db: Database,
    config: WebConfig | None = None,
    *,
    metrics: Metrics | None = None,
    adapters: AdapterStates = no_adapters,
) -> web.Application:
    """The web server's application for the clubs in ``db``, with ``/healthz`` and
    ``/metrics`` (bot.web.health).

    Args:
        metrics: the process's (``hoshi run`` passes its core's); default a fresh one whose
            counters stay at zero (``hoshi web`` alone handles no command).
        adapters: the chat adapters' states that ``/healthz`` checks (default: none).
    """
    app = web.Application(middlewares=[_headers, _not_found], client_max_size=MAX_BODY)
    app[DB_KEY] = db
    app[CACHE_KEY] = PageCache()
    app[DOWNLOADS_KEY] = DownloadCache()
    # first: matched before /{club}, which could never take them anyway (urls.club_id_of)
    health.add_routes(app, Hosting(db, metrics or Metrics(db), adapters))
    get = app.router.add_get
    get("/", _index)
    get("/index.html", _index)
    get("/{lang:[a-z]{2}}.html", _index)
    get("/static/{name}", _static)
    get("/{club}", _club_folder)
    get("/{club}/", _club_folder)
    get("/{club}/index.html", _club_folder)
    get("/{club}/downloads/{name:.+}", _download)
    get("/{club}/games/{number:\\d{1,9}}.sgf", _game_sgf)
    get("/{club}/{lang:[a-z]{2}}/", _ranking)
    get("/{club}/{lang:[a-z]{2}}/index.html", _ranking)
    get("/{club}/{lang:[a-z]{2}}/all.html", _ranking)
    get("/{club}/{lang:[a-z]{2}}/players/{pid:\\d{1,12}}.html", _player)
    get("/{club}/{lang:[a-z]{2}}/players/{pid:\\d{1,12}}/vs/{other:\\d{1,12}}.html", _vs)
    get("/{club}/{lang:[a-z]{2}}/tournaments/", _tournaments)
    get("/{club}/{lang:[a-z]{2}}/tournaments/index.html", _tournaments)
    get("/{club}/{lang:[a-z]{2}}/tournaments/{number:\\d{1,9}}.html", _tournament)
    return app


class NotHere(Exception):
    """No page at this address (answered with the 404 page)."""


@web.middleware
async def _headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        exc.headers.update(SECURITY_HEADERS)
        raise
    except Exception:  # a bug or a lost database: logged, answered without a traceback
        incident = secrets.token_hex(4)
        log.exception("web page %s failed (ref %s)", request.path, incident)
        with using(_language(request)):
            text = _(
                "Something went wrong on this page (ref {ref}). Please try again later.",
                ref=incident,
            )
        response = web.Response(status=500, text=text, content_type="text/plain")
    response.headers.update(SECURITY_HEADERS)
    return response


@web.middleware
async def _not_found(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    try:
        return await handler(request)
    except (NotHere, web.HTTPNotFound):
        lang = _language(request)
        with using(lang):
            page = pages.not_found_page(lang, request.path.lstrip("/") or "404.html")
        return web.Response(status=404, text=page.html, content_type="text/html", charset="utf-8")


def _language(request: web.Request) -> str:
    """The page's language: the address's, else the reader's browser's, else English."""
    lang = request.match_info.get("lang")
    if lang in LANGUAGES:
        return lang
    for part in request.headers.get("Accept-Language", "").split(","):
        found = language_of(part.split(";")[0].strip())
        if found is not None:
            return found
    return "en"


def _html(page: Page) -> web.Response:
    return web.Response(text=page.html, content_type="text/html", charset="utf-8")


async def _shown(request: web.Request) -> Shown:
    """The club of the address, only while its pages are on; a stale name is redirected to
    the club's current one."""
    slug = request.match_info["club"]
    club_id = urls.club_id_of(slug)
    if club_id is None:
        raise NotHere
    shown = await shown_club(request.app[DB_KEY], club_id)
    if shown is None:
        raise NotHere
    canonical = urls.club_slug(shown.club)
    if slug != canonical:
        rest = request.path.split("/", 2)[2] if request.path.count("/") >= 2 else ""
        raise web.HTTPMovedPermanently(f"/{canonical}/{rest}")
    return shown


def _site(request: web.Request, shown: Shown | None) -> Site:
    db = request.app[DB_KEY]
    return Site(db, today_for(db, shown), cache=request.app[CACHE_KEY])


def _lang(request: web.Request) -> str:
    lang = request.match_info["lang"]
    if lang not in LANGUAGES:
        raise NotHere
    return lang


async def _index(request: web.Request) -> web.Response:
    lang = request.match_info.get("lang", "en")
    if lang not in LANGUAGES:
        raise NotHere
    with using(lang):
        return _html(await pages.index_page(_site(request, None), lang))


async def _static(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    data = static_file(name)
    if data is None:
        raise NotHere
    response = web.Response(body=data)
    response.content_type = STATIC_TYPES[name[name.rfind(".") :]].split(";")[0]
    response.charset = "utf-8"
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


async def _club_folder(request: web.Request) -> web.Response:
    shown = await _shown(request)
    raise web.HTTPFound("/" + urls.ranking(shown.club, shown.settings.language))


Builder = Callable[[Site, Shown, str], Awaitable[Page | None]]


async def _answer(request: web.Request, build: Builder) -> web.Response:
    """The club's page that ``build`` makes in the address's language; 404 when it has none."""
    shown, lang = await _shown(request), _lang(request)
    with using(lang):
        page = await build(_site(request, shown), shown, lang)
    if page is None:
        raise NotHere
    return _html(page)


async def _ranking(request: web.Request) -> web.Response:
    everyone = request.path.endswith("/all.html")
    query = request.query.get("q", "")[:100]
    return await _answer(
        request,
        lambda site, shown, lang: pages.ranking_page(
            site, shown, lang, everyone=everyone, query=query
        ),
    )


async def _player(request: web.Request) -> web.Response:
    pid = int(request.match_info["pid"])
    return await _answer(
        request, lambda site, shown, lang: pages.player_page(site, shown, lang, pid)
    )


async def _vs(request: web.Request) -> web.Response:
    pid, other = int(request.match_info["pid"]), int(request.match_info["other"])
    return await _answer(
        request,
        lambda site, shown, lang: pages.head_to_head_page(site, shown, lang, pid, other),
    )


async def _tournaments(request: web.Request) -> web.Response:
    return await _answer(request, pages.tournaments_page)


async def _tournament(request: web.Request) -> web.Response:
    number = int(request.match_info["number"])
    return await _answer(
        request, lambda site, shown, lang: pages.tournament_page(site, shown, lang, number)
    )


async def _download(request: web.Request) -> web.Response:
    shown = await _shown(request)
    name = request.match_info["name"]
    with using(shown.settings.language):
        try:
            db = request.app[DB_KEY]
            found = await club_download(
                db, shown, name, today_for(db, shown), cache=request.app[DOWNLOADS_KEY]
            )
        except FormatError as error:
            message = translated(error.args[0]) if error.args else str(error)
            return web.Response(status=409, text=message, content_type="text/plain")
    if found is None:
        raise NotHere
    response = web.Response(body=found.data)
    response.content_type, _sep, _charset = found.media_type.partition(";")
    response.charset = "utf-8"
    filename = f"{urls.club_slug(shown.club)}-{name.replace('/', '-')}"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


async def _game_sgf(request: web.Request) -> web.Response:
    """The SGF file a game was recorded from, offered under the game's number only (the name
    it was sent under may hold anything); 404 for a game without one, undone or voided."""
    shown = await _shown(request)
    found = await reads.game_sgf(
        request.app[DB_KEY], shown.club, int(request.match_info["number"])
    )
    if found is None:
        raise NotHere
    response = web.Response(body=found.data, content_type=reads.SGF_MEDIA_TYPE)
    response.headers["Content-Disposition"] = f'attachment; filename="{found.filename}"'
    return response


async def serve(
    db: Database,
    config: WebConfig,
    *,
    metrics: Metrics | None = None,
    adapters: AdapterStates = no_adapters,
    idle_s: float = IDLE_S,
) -> web.AppRunner:
    """Start serving on ``config.host:config.port`` (the arguments as :func:`web_app`'s;
    ``idle_s``: how long a connection may take to send a request head, bot.serving); the
    caller cleans the runner up."""
    app = web_app(db, config, metrics=metrics, adapters=adapters)
    runner = Runner(app, idle_s=idle_s, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, config.host, config.port)
    await site.start()
    log.info("web pages on http://%s:%s/", config.host, config.port)
    return runner
