"""Static files served compressed, with versioned URLs that browsers keep for a year.

A page links ``static("css/table.css")`` → ``/static/css/table.css?v=<hash of the file>``:
when the file changes its URL does, so the file itself may be cached for good
(``immutable``). A file asked for without its version (an ES module imported by another)
is revalidated each time (``no-cache``, with its ETag: usually a 304). Compression is
Starlette's GZip middleware, for pages and files alike.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

HERE = Path(__file__).parent
STATIC = HERE / "static"
YEAR = 365 * 24 * 3600


@cache
def version(path: str) -> str:
    """The first 10 hex digits of the file's SHA-256 (read once per process)."""
    return hashlib.sha256((STATIC / path).read_bytes()).hexdigest()[:10]


def static(path: str) -> str:
    return f"/static/{path}?v={version(path)}"


class Static(StaticFiles):
    def __init__(self) -> None:
        super().__init__(directory=str(STATIC))

    def file_response(
        self, full_path: object, stat_result: object, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)  # type: ignore[arg-type]
        query = scope.get("query_string", b"")
        if b"v=" in query:
            response.headers["cache-control"] = f"public, max-age={YEAR}, immutable"
        else:
            response.headers["cache-control"] = "no-cache"
        return response
