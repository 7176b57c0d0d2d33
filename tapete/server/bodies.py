"""Request bodies read within their limits: JSON no deeper than ``Limits.json_depth``.

The size of a body is the edge's (:mod:`tapete.server.origin`); its shape is read here,
before any parser can recurse on it.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request


def json_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in a JSON text (strings skipped).

    >>> json_depth('{"a": [1, {"b": "[[["}]}'), json_depth("1")
    (3, 0)
    """
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def loads(raw: bytes | str, max_depth: int) -> Any:
    """``raw`` as JSON; ValueError if it is not JSON or nests deeper than ``max_depth``."""
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    if json_depth(text) > max_depth:
        raise ValueError("too deep")
    return json.loads(text)


async def read_json(request: Request, max_depth: int) -> Any:
    """The request's JSON body (ValueError on a bad or too deep one)."""
    return loads(await request.body(), max_depth)
