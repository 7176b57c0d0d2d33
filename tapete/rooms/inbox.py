"""What a room is told, one item at a time on its queue, and how it is set to run."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from tapete.i18n.errors import describe

Message = dict[str, Any]
Send = Callable[["Message | Moved"], None]
"""Queue a message for one connection (or tell it the table or room moved); never blocks
the table or room."""

_ENCODER = msgspec.json.Encoder()


def encode(message: Any) -> bytes:
    """A message as the wire carries it: compact JSON, UTF-8."""
    return _ENCODER.encode(message)


class Shared(dict[str, Any]):
    """A message several connections are sent as it is (every spectator's update, everyone's
    presence): encoded once, however many receive it. Not to be changed once sent."""

    __slots__ = ("_wire",)

    def wire(self) -> bytes:
        try:
            return self._wire
        except AttributeError:
            self._wire: bytes = encode(self)
            return self._wire


def wire(message: Message) -> bytes:
    """What a socket sends for ``message``: encoded once if several are sent it."""
    return message.wire() if isinstance(message, Shared) else encode(message)


@dataclass(frozen=True, slots=True)
class Settings:
    """How a room runs: bots' pace, clocks. Tests freeze or hurry bots with these."""

    bot_pace: float = 1.0
    """Multiplies the delay each bot asks for (0: bots act at once)."""
    bot_delay: float = 0.0
    """Added to every bot decision."""
    clocks: Mapping[str, float | None] = field(default_factory=dict)
    """Seconds for a kind of clock, over the game's practice default (``GameSpec.clocks``);
    None stops that kind. ``{"turn": 30}`` puts a turn clock on every game that has one."""
    takeover_after: int = 3
    """Timeouts in a row after which a bot plays an absent player's seat."""
    test_api: bool = False
    """Let the JSON API start games from a seed or a position (browser tests only)."""
    watchdog_seconds: float = 5.0
    """How often a room checks that every bot seat that must act is being asked."""
    grace_seconds: float = 45.0
    """How long a dropped player of a game among friends keeps their seat to themselves
    before a bot stands in (RULES.md: 45 s)."""
    join_seconds: float = 10.0
    """How long the players of a game among friends have to come to its table (a new game,
    or one rebuilt after a restart) before their grace begins: a page on its way to the
    table is not a drop, a tab closed on the way is."""
    idle_unfinished_seconds: float = 600.0
    """A practice game nobody is connected to or has asked for in this long leaves memory
    (it reopens from its log when asked for)."""
    live_seconds: float = 3600.0
    """On start, only the practice games moved in this long are rebuilt (and every game of
    a private room); the others reopen when asked for."""
    hint_threads: int = 1
    """Threads that compute hints, shared by every room (bots never wait on them)."""
    hints_per_minute: int = 20
    """Hints one seat may ask for in any minute (and one at a time)."""
    search_workers: int = 1
    """Processes that compute the decisions of bots that search (``BotSpec.searching``),
    shared by every room: a search holds its own interpreter, never the loop that serves
    the rooms (0: in a thread, as the others). ``tapete serve --search-workers``,
    ``TAPETE_SEARCH_WORKERS``."""
    search_seconds: float = 0.15
    """The longest a searching bot thinks about one move (``BotSpec.timed``; One Card's
    maestro), its search cut there whatever is left of its count. ``tapete serve
    --search-seconds``, ``TAPETE_SEARCH_SECONDS``."""
    quick_wait: float = 20.0
    """«Jugar ahora»: the longest anyone waits for people before bots take the empty seats
    (RULES.md «Quick play»; ``tapete serve --quick-wait``, ``TAPETE_QUICK_WAIT``)."""


@dataclass(slots=True)
class Submit:
    """A player's move, for the gate: read already (reading touches no state), or the
    reason it could not be."""

    guest: str | None
    version: Any
    move: Any
    """The move read (a game's move value), or the :class:`IllegalMove` reading raised."""
    future: asyncio.Future[Message | None] = field(repr=False)
    lang: str = "es"
    at: float = field(default_factory=time.perf_counter)
    """When it arrived (the move's latency is measured from here)."""


@dataclass(slots=True)
class BotTurn:
    """A bot's answer."""

    seat: int
    version: int
    """The version the bot was asked on: its decision stands for that version only."""
    move: Message | None
    """None: nothing to do now (or, with ``failed``, the bot failed to decide)."""
    failed: bool = False
    """The bot raised: it plays its first legal move instead."""


@dataclass(slots=True)
class JoinOver:
    """The time to come to a new (or rebuilt) table ran out for a seat."""

    seat: int


@dataclass(slots=True)
class GraceOver:
    """A dropped player's grace ran out."""

    seat: int
    since: float
    """When they dropped (loop time): a grace that was cancelled and begun again is stale."""


@dataclass(slots=True)
class ClockFire:
    """A deadline ran out."""

    key: tuple[str, int, Any]


@dataclass(slots=True)
class Wake:
    """Something changed outside the game (a player left the room): look again at who
    must act."""


What = Literal["table", "room"]
"""What a connection is in: a table (a game it follows) or a private room."""


@dataclass(frozen=True, slots=True)
class Moved:
    """Told a connection instead of a message: the table (``what`` = "table") or private
    room ("room") it was in is no longer run here (another process of the hall runs it now,
    or it was reopened): it joins again. Never sent to a client: its socket acts on it."""

    what: What


STOP = object()
"""Tells the room's task to end."""


def error(code: str, lang: str = "es", message: str | None = None, **params: Any) -> Message:
    """An error message for the socket: a stable code and a sentence for the player."""
    words = message if message is not None else describe(code, lang, **params)
    return {"type": "error", "code": code, "message": words}
