"""Every sentence a player reads, in Spanish and English: gettext catalogs managed with Babel.

The catalogs are ``tapete/locale/<lang>/LC_MESSAGES/<domain>.po``: the domain ``tapete``
holds what every page shares (the hall, errors, the table's frame), and each game has a
domain of its own, named by its key. A message id is the Spanish text itself; the Spanish
catalog repeats it (so Spanish can be corrected without touching the code) and the English
one translates it. ``tapete catalogs update`` extracts the messages from the sources (Python
``_``/``N_``/``ngettext``, Jinja2 ``{% trans %}``, the ES modules' ``_``/``ngettext``);
``tapete catalogs check`` fails on anything missing, untranslated or fuzzy.

Python and JavaScript messages use ``{name}`` placeholders; templates use Jinja2's
``%(name)s``.

>>> text("tapete", "en", "No es tu turno.")
"It's not your turn."
>>> text("tapete", "es", "No es tu turno.")
'No es tu turno.'
>>> plural("tapete", "es", "{n} carta", "{n} cartas", 1)
'1 carta'
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Final

from babel.core import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, parse_pattern
from babel.support import Translations

LANGS: Final = ("es", "en")
DEFAULT_LANG: Final = "es"
SHARED: Final = "tapete"
"""The domain every page falls back to."""
LOCALE_DIR: Final = Path(__file__).resolve().parent.parent / "locale"


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it (it is translated where a
    player reads it)."""
    return message


def Np_(singular: str, plural_: str) -> tuple[str, str]:
    """Mark a message with plurals for the catalog (read later with :func:`plural`)."""
    return singular, plural_


def po_path(lang: str, domain: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def domains() -> list[str]:
    """The domains that have a catalog, the shared one first."""
    found = sorted(p.stem for p in (LOCALE_DIR / DEFAULT_LANG / "LC_MESSAGES").glob("*.po"))
    return [SHARED] + [d for d in found if d != SHARED]


@cache
def catalog(lang: str, domain: str) -> Catalog:
    """The parsed ``.po`` file (an empty catalog if there is none)."""
    path = po_path(lang, domain)
    if not path.exists():
        return Catalog(locale=lang, domain=domain)
    with path.open("rb") as fp:
        return read_po(fp, locale=lang, domain=domain)


@cache
def translations(lang: str, domain: str = SHARED) -> Translations:
    """``domain``'s translations in ``lang``, falling back to the shared domain's."""
    lang = lang if lang in LANGS else DEFAULT_LANG
    buf = io.BytesIO()
    write_mo(buf, catalog(lang, domain))
    buf.seek(0)
    own = Translations(buf, domain=domain)
    if domain != SHARED:
        own.add_fallback(translations(lang, SHARED))
    return own


def _fill(message: str, params: dict[str, object]) -> str:
    return message.format(**params) if params else message


def text(domain: str, lang: str, message: str, **params: object) -> str:
    """``message`` (a Spanish message id) in ``lang``, with ``{placeholders}`` filled in."""
    return _fill(translations(lang, domain).gettext(message), params)


def plural(domain: str, lang: str, singular: str, plural_: str, n: int, **params: object) -> str:
    """The form for ``n`` of a message with plurals; ``{n}`` is ``n``."""
    return _fill(translations(lang, domain).ngettext(singular, plural_, n), {"n": n, **params})


def js_strings(lang: str, domain: str) -> dict[str, str | list[str]]:
    """The translations the page's ES modules use (messages found in ``.js`` files), of
    ``domain`` and the shared domain: ``{msgid: msgstr}``, ``{msgid: [forms]}`` for plurals.
    Spanish needs none (the ids are Spanish)."""
    if lang == DEFAULT_LANG:
        return {}
    out: dict[str, str | list[str]] = {}
    for dom in dict.fromkeys((SHARED, domain)):
        for m in catalog(lang, dom):
            if not m.id or not any(str(loc).endswith(".js") for loc, _ in m.locations):
                continue
            if isinstance(m.id, tuple | list):
                out[m.id[0]] = [str(s) for s in m.string or ()]
            elif m.string:
                out[m.id] = str(m.string)
    return out


def percent(value: float, lang: str, digits: int = 1) -> str:
    """``54,9 %`` in Spanish, ``54.9%`` in English.

    >>> percent(0.5490, "es"), percent(0.5490, "en")
    ('54,9\\xa0%', '54.9%')
    """
    pattern = parse_pattern(Locale.parse(lang).percent_formats[None])
    pattern.frac_prec = (digits, digits)
    return str(pattern.apply(value, Locale.parse(lang)))


def number(value: float, lang: str) -> str:
    """``1.234,5`` / ``1,234.5``."""
    return format_decimal(value, locale=lang)


def accept_language(header: str | None) -> str | None:
    """The first of our languages in an ``Accept-Language`` header, by quality.

    >>> accept_language("fr-FR, en-US;q=0.8, es;q=0.5")
    'en'
    >>> accept_language("de") is None
    True
    """
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        bits = part.strip().split(";")
        code = bits[0].strip().lower().split("-")[0]
        q = 1.0
        for b in bits[1:]:
            b = b.strip()
            if b.startswith("q="):
                try:
                    q = float(b[2:])
                except ValueError:
                    q = 0.0
        if code in LANGS and q > 0:
            ranked.append((-q, i, code))
    return min(ranked)[2] if ranked else None


def pick_lang(value: str | None) -> str:
    """A supported language from a cookie or query value (Spanish otherwise)."""
    value = (value or "").strip().lower()[:2]
    return value if value in LANGS else DEFAULT_LANG


__all__ = [
    "DEFAULT_LANG",
    "LANGS",
    "N_",
    "SHARED",
    "accept_language",
    "catalog",
    "domains",
    "js_strings",
    "number",
    "percent",
    "pick_lang",
    "plural",
    "text",
    "translations",
]
