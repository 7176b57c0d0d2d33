"""Which process of the hall runs each table and each private room.

What one process runs is a *unit*: a practice table alone (``game:<id>``), or a private room
with all its tables (``room:<id>``: the room and its current game never wait on each other
across processes). Alone (no Redis), this process runs every unit. Among several (Redis),
each unit is run by the process that holds its lease (:class:`tapete.cluster.Node`):
:meth:`Ownership.claim` takes it if it is free, or says which process holds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from tapete.cluster import Node
from tapete.store import GameRecord


@dataclass(frozen=True, slots=True)
class Elsewhere:
    """A table or private room that another process of the hall runs."""

    owner: str
    """That process's node id."""
    record: Any
    """Its record (a ``GameRecord``, a ``RoomRecord``), as the store holds it."""


def table_unit(record: GameRecord) -> str:
    """The unit of a game: the game alone (practice), or its private room.

    >>> table_unit(GameRecord("g1", "a-game", {}, 1, [], "x", "playing", 0, None))
    'game:g1'
    """
    return room_unit(record.room_id) if record.room_id else f"game:{record.id}"


def room_unit(room_id: str) -> str:
    """The unit of a private room (and of all its games)."""
    return f"room:{room_id}"


class Ownership:
    """The leases this process holds, when there are several processes (``node``); without
    one, every claim succeeds and there is nothing to give back."""

    def __init__(self, node: Node | None = None) -> None:
        self.node = node

    @property
    def shared(self) -> bool:
        """Whether several processes share the hall (units are leased)."""
        return self.node is not None

    async def claim(self, unit: str) -> str | None:
        """Hold ``unit`` here: None; or the id of the process that does. Raises
        :class:`tapete.cluster.Unreachable` without Redis."""
        return await self.node.claim(unit) if self.node is not None else None

    async def give_back(self, unit: str) -> None:
        """Let ``unit`` go (nothing of it is open here any more): another process may take
        it at once."""
        if self.node is not None:
            await self.node.give_back(unit)

    async def leave_clocks(self, unit: str, game_id: str, left: dict[str, float]) -> None:
        """A handover: the seconds left on the game's clocks, for whoever opens it next."""
        if self.node is not None and left:
            await self.node.note(unit, game_id, msgspec.json.encode(left))

    async def clocks_left(self, unit: str, game_id: str) -> dict[str, float]:
        """What :meth:`leave_clocks` left for this game (once; nothing: ``{}``)."""
        if self.node is None:
            return {}
        body = await self.node.read_note(unit, game_id)
        if body is None:
            return {}
        try:
            left = msgspec.json.decode(body, type=dict[str, float])
        except msgspec.DecodeError:
            return {}
        return left

    def forget(self, unit: str) -> None:
        """Stop counting ``unit`` as held (its log moved on without us: another holds it)."""
        if self.node is not None:
            self.node.held.discard(unit)
