"""``tapete catalogs update`` / ``check``: the gettext catalogs, extracted with Babel.

Every file of the package belongs to one domain: a game's (its key starts one of the path's
parts: ``games/onecard.py``, ``bots/rummy_solver.py``, ``templates/peaje_guide/…``,
``static/js/guerra.js``) or else the shared ``tapete``. ``update`` extracts each domain's
messages and rewrites ``tapete/locale/<lang>/LC_MESSAGES/<domain>.po``: new messages are
added (the Spanish catalog repeats its id; the English one waits for a translation), gone
ones removed, translations kept. ``check`` fails if a catalog is not what ``update`` would
write, or if an English message is untranslated, fuzzy, or has other placeholders.
"""

from __future__ import annotations

import copy
import io
import re
import sys
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po, write_po

from tapete.i18n import DEFAULT_LANG, LANGS, SHARED, po_path

PACKAGE = Path(__file__).resolve().parent
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
"""Header dates are fixed, so a catalog changes only when its messages do."""
JS_KEYWORDS = {"_": None, "ngettext": (1, 2)}
METHODS: dict[str, tuple[str, Any, dict[str, str]]] = {
    ".py": ("python", {**DEFAULT_KEYWORDS, "Np_": (1, 2)}, {}),
    ".html": (
        "jinja2.ext:babel_extract",
        DEFAULT_KEYWORDS,
        {"trimmed": "true", "newstyle_gettext": "true", "extensions": ""},
    ),
    ".js": ("javascript", JS_KEYWORDS, {}),
}
SKIP = ("locale", "migrations", "__pycache__")


def game_keys() -> list[str]:
    from tapete.registry import REGISTRY

    return list(REGISTRY)


def domain_of(rel: Path, keys: Iterable[str]) -> str:
    """The domain of a file: the first game key that starts one of its path's parts.

    >>> domain_of(Path("server/templates/rules/onecard.html"), ["onecard"])
    'onecard'
    >>> domain_of(Path("server/templates/base.html"), ["onecard"])
    'tapete'
    """
    for key in keys:
        if any(part.startswith(key) for part in rel.parts):
            return key
    return SHARED


def sources(keys: list[str]) -> dict[str, list[Path]]:
    """Every file messages are extracted from, by domain (paths relative to the package)."""
    out: dict[str, list[Path]] = {SHARED: [], **{k: [] for k in keys}}
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(PACKAGE)
        if path.suffix not in METHODS or any(p in SKIP for p in rel.parts):
            continue
        if rel.name == "catalogs.py":
            continue
        out[domain_of(rel, keys)].append(rel)
    return out


def extract(domain: str, files: list[Path]) -> Catalog:
    template = Catalog(domain=domain, project="Tapete", creation_date=FIXED_DATE)
    for rel in files:
        method, keywords, options = METHODS[rel.suffix]
        for lineno, msg, comments, context in extract_from_file(
            method,
            PACKAGE / rel,
            keywords=keywords,
            comment_tags=("TRANSLATORS:",),
            options=options,
        ):
            template.add(
                msg,
                locations=[(rel.as_posix(), lineno)],
                auto_comments=comments,
                context=context,
            )
    return template


def updated(template: Catalog, lang: str, domain: str) -> Catalog:
    path = po_path(lang, domain)
    if path.exists():
        with path.open("rb") as fp:
            cat = read_po(fp, locale=lang, domain=domain)
    else:
        cat = Catalog(locale=lang, domain=domain, project="Tapete")
    cat.update(copy.deepcopy(template), no_fuzzy_matching=True, update_header_comment=False)
    cat.obsolete.clear()
    cat.creation_date = FIXED_DATE
    cat.revision_date = FIXED_DATE
    cat.project, cat.version = "Tapete", ""
    cat.fuzzy = False
    if lang == DEFAULT_LANG:
        for m in cat:
            if m.id and not _translated(m):
                m.string = tuple(m.id) if isinstance(m.id, tuple | list) else m.id
                m.flags.discard("fuzzy")
    return cat


def render(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, include_lineno=False, sort_by_file=False)
    return buf.getvalue()


def _translated(m: Message) -> bool:
    strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
    return bool(strings) and all(strings)


PLACEHOLDER = re.compile(r"\{(\w+)\}|%\((\w+)\)[sd]")


def _placeholders(s: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(s)}


def problems(cat: Catalog, lang: str) -> Iterator[str]:
    for m in cat:
        if not m.id:
            continue
        ident = m.id[0] if isinstance(m.id, tuple | list) else m.id
        where = f"{lang}/{cat.domain}.po: «{ident[:60]}»"
        if "fuzzy" in m.flags:
            yield f"{where} is fuzzy"
        if not _translated(m):
            yield f"{where} is not translated"
            continue
        ids = m.id if isinstance(m.id, tuple | list) else (m.id,)
        strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
        want = set().union(*(_placeholders(i) for i in ids))
        for s in strings:
            got = _placeholders(s or "")
            if not got <= want or (len(ids) == 1 and got != want):
                yield f"{where}: placeholders {sorted(got)} where the id has {sorted(want)}"


def run(write: bool) -> list[str]:
    keys = game_keys()
    errors: list[str] = []
    for domain, files in sources(keys).items():
        template = extract(domain, files)
        for lang in LANGS:
            cat = updated(template, lang, domain)
            data = render(cat)
            path = po_path(lang, domain)
            current = path.read_bytes() if path.exists() else b""
            if data != current:
                if write:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(data)
                else:
                    errors.append(
                        f"{path.relative_to(PACKAGE.parent)} is out of date: run "
                        "`tapete catalogs update`"
                    )
            errors.extend(problems(cat, lang))
    return errors


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("update", "check"):
        print("usage: tapete catalogs update|check", file=sys.stderr)
        return 2
    errors = run(write=argv[0] == "update")
    for e in errors:
        print(e, file=sys.stderr)
    if argv[0] == "update":
        print("catalogs updated" + (f"; {len(errors)} to translate" if errors else ""))
        return 0
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
