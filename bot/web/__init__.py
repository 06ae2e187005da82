"""hoshi's read-only web pages of a club (issue 14): ``hoshi web`` serves them, ``hoshi site
--out DIR`` writes them as static files.

* :mod:`bot.web.urls` — where each page lives (relative links, the same in both);
* :mod:`bot.web.pages` — the pages, built from the stored projections;
* :mod:`bot.web.render` — the Jinja2 templates (``templates/``), autoescaped;
* :mod:`bot.web.svg` — the rating chart as inline SVG;
* :mod:`bot.web.downloads` — the club's CSV, JSON and EGD h9 files;
* :mod:`bot.web.app` — the aiohttp server; :mod:`bot.web.site` — the static export;
* :mod:`bot.web.health` — ``/healthz`` and ``/metrics`` for a load balancer (issue 23).

Nothing here writes to the database.
"""
