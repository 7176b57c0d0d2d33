"""What the room tests share: bots wrapped, and a room's action as the socket reads it (the
``store`` and ``lives`` fixtures are :mod:`tests.lives`')."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import msgspec
import pytest

from tapete.registry import REGISTRY
from tapete.rooms.messages import RoomActionType

Chooser = Callable[[dict[str, Any], str], Any]


def patch_bots(
    monkeypatch: pytest.MonkeyPatch, kind: str, wrap: Callable[[Chooser], Chooser]
) -> None:
    """Replace ``kind``'s bot decision (for rooms opened from now on) by ``wrap(real)``."""
    found = REGISTRY[kind]
    assert found.bots is not None
    bots = replace(found.bots, choose=wrap(found.bots.choose))
    monkeypatch.setitem(REGISTRY, kind, replace(found, bots=bots))


def room_action(data: dict[str, Any]) -> RoomActionType:
    """A private room's action as the socket would have read it from ``data`` (a
    ``lobby`` message's fields)."""
    found: RoomActionType = msgspec.convert(data, RoomActionType)
    return found
