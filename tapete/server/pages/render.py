"""Pages in the player's language: Jinja2 with gettext (``jinja2.ext.i18n``), per domain.

The language is the ``?lang=`` of the request (remembered in a cookie), else the cookie,
else the browser's ``Accept-Language`` between Spanish and English, else Spanish. A page of
a game renders in that game's catalog domain, falling back to the shared one.
"""

from __future__ import annotations

import contextvars
import functools
from pathlib import Path
from typing import Any

from babel.support import Translations
from jinja2 import pass_context
from jinja2.runtime import Context
from starlette.requests import Request
from starlette.responses import Response
from starlette.templating import Jinja2Templates
from starlette.websockets import WebSocket

from tapete.i18n import SHARED, accept_language, number, percent, pick_lang, translations
from tapete.server.account.guests import LANG_COOKIE, cookies_of
from tapete.server.edge.limits import Limits
from tapete.server.edge.origin import is_https
from tapete.server.pages.assets import preloads, static

HERE = Path(__file__).parent.parent  # (tapete/server: its templates/ and static/)
_current: contextvars.ContextVar[Translations] = contextvars.ContextVar("translations")
_lang: contextvars.ContextVar[str] = contextvars.ContextVar("lang", default="es")
"""The language of the page being rendered (so a macro imported without context formats
numbers right too)."""


def _tr() -> Translations:
    return _current.get(translations("es", SHARED))


def lang_of(request: Request | WebSocket) -> str:
    query = request.query_params.get("lang")
    if query:
        return pick_lang(query)
    cookie = cookies_of(request.scope).get(LANG_COOKIE)
    if cookie:
        return pick_lang(cookie)
    return accept_language(request.headers.get("accept-language")) or "es"


# (pass_context: a filter of constants is otherwise worked out once, as the template is
# compiled, in the language of the page that compiled it — «62,7 %» for every English reader
# after a Spanish one)
@pass_context
def _percent(context: Context, value: float, digits: int = 1) -> str:
    return percent(value, _lang.get(), digits)


@pass_context
def _number(context: Context, value: float) -> str:
    return number(value, _lang.get())


@functools.cache
def _templates(directory: Path) -> Jinja2Templates:
    """The templates of ``directory``, compiled once a process: nothing in their environment
    belongs to one app (the language and the domain come with each page), so the apps of a
    process share it — the tests make an app a test, and compiling the hall's page again for
    each cost ~30 ms (a template's first render against 5 ms after)."""
    templates = Jinja2Templates(directory=str(directory))
    env = templates.env
    env.add_extension("jinja2.ext.i18n")
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda s: _tr().gettext(s),
        lambda s, p, n: _tr().ngettext(s, p, n),
        pgettext=lambda c, s: _tr().pgettext(c, s),
        npgettext=lambda c, s, p, n: _tr().npgettext(c, s, p, n),
        newstyle=True,
    )
    env.filters["percent"] = _percent
    env.filters["number"] = _number
    env.globals["static"] = static
    env.globals["preloads"] = preloads
    return templates


class Renderer:
    """Renders templates in the request's language and the page's domain."""

    def __init__(self, directory: Path = HERE / "templates") -> None:
        self.templates = _templates(directory)

    def render(
        self,
        request: Request,
        name: str,
        domain: str = SHARED,
        status: int = 200,
        **context: Any,
    ) -> Response:
        lang = lang_of(request)
        token = _current.set(translations(lang, domain))
        lang_token = _lang.set(lang)
        try:
            response = self.templates.TemplateResponse(
                request,
                name,
                {"lang": lang, "other_lang": "en" if lang == "es" else "es", **context},
                status_code=status,
            )
        finally:
            _current.reset(token)
            _lang.reset(lang_token)
        if request.query_params.get("lang") in ("es", "en"):
            hall = getattr(request.app.state, "hall", None)
            secure = is_https(request.scope, hall.limits if hall is not None else Limits())
            response.set_cookie(
                LANG_COOKIE, lang, max_age=400 * 24 * 3600, samesite="lax", secure=secure
            )
        response.headers.setdefault("content-language", lang)
        response.headers.setdefault("vary", "Accept-Language, Cookie")
        return response
