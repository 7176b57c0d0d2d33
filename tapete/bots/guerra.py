"""La guerra has no decisions: the computer turns its card when the table waits for it."""

from __future__ import annotations

from typing import Any


def choose(view: dict[str, Any], level: str = "normal") -> dict[str, Any] | None:
    """Turn when a move is legal for this seat.

    >>> choose({"legal": [{"type": "turn"}]})
    {'type': 'turn'}
    >>> choose({"legal": []}) is None
    True
    """
    legal = view.get("legal") or []
    return dict(legal[0]) if legal else None
