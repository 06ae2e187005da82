"""HTML from the page templates (``bot/web/templates``): Jinja2 with autoescape on, so a
player's name is text wherever it appears (``<script>`` shows as written, never runs).

The templates' words go through the same catalogue as the chat's: ``{{ _("Ranking") }}`` and
``{{ _n("{n} game", "{n} games", n) }}`` are extracted by ``hoshi translations extract``
(babel.cfg) and rendered in the page's language (``bot.i18n.using``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jinja2

from bot.i18n import _, _n, current


@cache
def environment() -> jinja2.Environment:
    """The one template environment (templates are compiled once per process)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("bot.web", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.globals.update(_=_, _n=_n, language=current)
    return env


def render(template: str, **values: Any) -> str:
    """The template ``template`` filled with ``values``, in the current language."""
    return environment().get_template(template).render(**values)
