"""Static files served compressed, with versioned URLs that browsers keep for a year.

A page links ``static("css/table.css")`` → ``/static/css/table.css?v=<hash of the file>``:
when the file changes its URL does, so the file itself may be cached for good
(``immutable``). An ES module is served with its relative imports versioned the same way
(``from "./ui.js"`` → ``from "./ui.js?v=…"``; a module's hash is that of the text served, so
it changes with any module under it): a table's whole import graph is cached for good, and
``preloads(entry)`` lists it for ``<link rel="modulepreload">``, so that a first visit fetches
it at once instead of one import after another. A file asked for without its version is
revalidated each time (``no-cache``, with its ETag: usually a 304). Compression is
Starlette's GZip middleware, for pages and files alike.
"""

from __future__ import annotations

import gzip
import hashlib
import posixpath
import re
from functools import cache
from pathlib import Path

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

HERE = Path(__file__).parent.parent  # (tapete/server: its templates/ and static/)
STATIC = HERE / "static"
YEAR = 365 * 24 * 3600


IMPORT = re.compile(r"""(\b(?:from|import)\s*)(["'])(\./[\w./-]+\.js)\2""")
"""A static ``import … from "./x.js"`` (or ``import "./x.js"``) of a module beside it."""
LAZY = re.compile(r"""(\bimport\(\s*)(["'])(\./[\w./-]+\.js)\2""")
"""A dynamic ``import("./x.js")``: versioned too, but not preloaded (it loads later)."""


def _imported(path: str, spec: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))


@cache
def source(path: str) -> bytes:
    """A file as it is served (read once per process): an ES module's imports versioned."""
    data = (STATIC / path).read_bytes()
    if not path.endswith(".js"):
        return data

    def versioned(m: re.Match[str]) -> str:
        quote, spec = m.group(2), m.group(3)
        return f"{m.group(1)}{quote}{spec}?v={version(_imported(path, spec))}{quote}"

    return LAZY.sub(versioned, IMPORT.sub(versioned, data.decode("utf-8"))).encode("utf-8")


@cache
def version(path: str) -> str:
    """The first 10 hex digits of the SHA-256 of the file as served."""
    return hashlib.sha256(source(path)).hexdigest()[:10]


def static(path: str) -> str:
    return f"/static/{path}?v={version(path)}"


TEXT = {
    "js": "text/javascript",
    "css": "text/css",
    "svg": "image/svg+xml",
    "json": "application/json",
}
"""The static files served from memory, compressed once (the rest: Starlette's files)."""
GZIP_FROM = 500  # bytes, as the middleware's minimum_size


@cache
def gzipped(path: str) -> bytes:
    return gzip.compress(source(path), compresslevel=9, mtime=0)


@cache
def preloads(entry: str) -> tuple[str, ...]:
    """The versioned URLs of a module and of every module it imports, however deep (each
    once, the entry first)."""
    seen: list[str] = []
    todo = [entry]
    while todo:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.append(path)
        text = (STATIC / path).read_text(encoding="utf-8")
        todo += [_imported(path, m.group(3)) for m in IMPORT.finditer(text)]
    return tuple(static(p) for p in seen)


class Static(StaticFiles):
    def __init__(self) -> None:
        super().__init__(directory=str(STATIC))

    async def get_response(self, path: str, scope: Scope) -> Response:
        name = path.replace("\\", "/")
        kind = name.rsplit(".", 1)[-1]
        if kind not in TEXT or ".." in name.split("/") or not (STATIC / name).is_file():
            return await super().get_response(path, scope)
        # text: as served (a module's imports versioned), compressed once, with its ETag
        etag = f'"{version(name)}"'
        headers = {"etag": etag, "cache-control": self._caching(scope), "vary": "Accept-Encoding"}
        asked = Headers(scope=scope)
        if etag in asked.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        body = source(name)
        if "gzip" in asked.get("accept-encoding", "") and len(body) >= GZIP_FROM:
            body = gzipped(name)
            headers["content-encoding"] = "gzip"
        if scope["method"] == "HEAD":
            body = b""
        return Response(body, media_type=TEXT[kind], headers=headers)

    @staticmethod
    def _caching(scope: Scope) -> str:
        query = scope.get("query_string", b"")
        return f"public, max-age={YEAR}, immutable" if b"v=" in query else "no-cache"

    def file_response(
        self, full_path: object, stat_result: object, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)  # type: ignore[arg-type]
        response.headers["cache-control"] = self._caching(scope)
        return response
