"""Request bodies read within their limits: JSON no deeper than ``Limits.json_depth``.

The size of a body is the edge's (:mod:`tapete.server.edge.origin`); its shape is read here,
before any parser can recurse on it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.requests import Request

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in a JSON text (brackets inside strings
    skipped), found without parsing it: a deep text must be refused before a parser
    recurses on it.

    >>> json_depth('{"a": [1, {"b": "[[["}]}'), json_depth("1"), json_depth("[" * 1000)
    (3, 0, 1000)
    """
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def too_deep(text: str, max_depth: int) -> bool:
    """Whether ``text`` nests deeper than ``max_depth`` (counted only when it has that many
    brackets at all: most texts are shallow)."""
    return text.count("[") + text.count("{") > max_depth and json_depth(text) > max_depth


def loads(raw: bytes | str, max_depth: int) -> Any:
    """``raw`` as JSON; ValueError if it is not JSON or nests deeper than ``max_depth``."""
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    if too_deep(text, max_depth):
        raise ValueError("too deep")
    return json.loads(text)


async def read_json(request: Request, max_depth: int) -> Any:
    """The request's JSON body (ValueError on a bad or too deep one)."""
    return loads(await request.body(), max_depth)


async def read_object(request: Request, max_depth: int) -> dict[str, Any]:
    """The request's JSON body as an object: JSON that is not one (a list, a number) reads as
    ``{}``, whose fields are missing — each route says which it needs. ValueError on a body
    that is not JSON or nests deeper than ``max_depth``."""
    body = await read_json(request, max_depth)
    return body if isinstance(body, dict) else {}
