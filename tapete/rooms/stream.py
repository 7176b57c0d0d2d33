"""The versioned event stream of a room: who is listening, the recent moves, and what each
listener is sent — its own view, and the events with what it may not see cut out."""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import msgspec

from tapete.rooms.inbox import Message, Send, Shared, encode

HISTORY = 64
"""How many past moves a room keeps to replay to a client that reconnects (one that missed
more gets the view alone). Every one is a handful of objects the garbage collector walks on
each full collection: kept few (bench/RESULTS.md, «GC pauses»)."""


@dataclass(slots=True)
class Subscriber:
    seat: int | None
    send: Send
    lang: str = "es"
    device: bool = False
    """The connection of a device passed round (:mod:`~tapete.rooms.device`): the seat it
    is shown changes as the device is handed on."""


@dataclass(slots=True)
class Logged:
    version: int
    seat: int
    move: Message
    events: list[Message]

    def packed(self) -> Packed:
        """As the history keeps it: one bytes object, which the garbage collector never walks
        (a move's dicts and lists would be a dozen objects it walks on every full collection,
        for as long as the move is kept)."""
        return self.version, encode([self.seat, self.move, self.events])

    @classmethod
    def unpacked(cls, packed: Packed) -> Logged:
        seat, move, events = _decode(packed[1])
        return cls(packed[0], seat, move, events)


Packed = tuple[int, bytes]
_decode = msgspec.json.Decoder().decode


def redact(event: Message, seat: int | None) -> Message:
    """Events are public but for ``secret`` (e.g. the cards a player drew): only the event's
    own seat receives it."""
    if "secret" in event and event.get("seat") != seat:
        return {k: v for k, v in event.items() if k != "secret"}
    return event


class Stream:
    def __init__(self) -> None:
        self.history: deque[Packed] = deque(maxlen=HISTORY)
        self.subscribers: dict[int, Subscriber] = {}
        self._ids = itertools.count(1)

    def add(self, seat: int | None, send: Send, lang: str, device: bool = False) -> int:
        conn = next(self._ids)
        self.subscribers[conn] = Subscriber(seat=seat, send=send, lang=lang, device=device)
        return conn

    def remove(self, conn: int) -> None:
        self.subscribers.pop(conn, None)

    def tell(self, which: Callable[[Subscriber], bool], build: Callable[[str], Message]) -> None:
        """Send each subscriber ``which`` selects the message ``build`` makes for its
        language (built once a language); a subscriber whose send fails is dropped."""
        built: dict[str, Message] = {}
        for conn, sub in list(self.subscribers.items()):
            if not which(sub):
                continue
            message = built.get(sub.lang)
            if message is None:
                message = built[sub.lang] = build(sub.lang)
            try:
                sub.send(message)
            except Exception:
                self.subscribers.pop(conn, None)

    def update(self, logged: Logged, seat: int | None) -> Message:
        return {
            "type": "update",
            "version": logged.version,
            "seat": logged.seat,
            "move": logged.move,
            "events": [redact(e, seat) for e in logged.events],
        }

    def missed(self, since: int | None, version: int, seat: int | None) -> list[Message] | None:
        """The updates after ``since`` for a client that reconnects, if they are all still in
        memory; None: the view alone resyncs it."""
        if not isinstance(since, int) or not 0 <= since <= version:
            return None
        first = version - len(self.history) + 1
        if since + 1 < first:
            return None
        return [self.update(Logged.unpacked(x), seat) for x in self.history if x[0] > since]

    def publish(
        self, logged: Logged, view: Callable[[int | None], Message], clocks: list[Message]
    ) -> None:
        """Send every subscriber the move, its own view and the clocks; a subscriber whose
        send fails is dropped. Each seat's message (and the spectators') is built and
        encoded once, however many connections it has."""
        self.history.append(logged.packed())
        built: dict[int | None, Shared] = {}
        for conn, sub in list(self.subscribers.items()):
            try:
                message = built.get(sub.seat)
                if message is None:
                    message = built[sub.seat] = Shared(self.update(logged, sub.seat))
                    message["view"] = view(sub.seat)
                    message["clocks"] = clocks
                sub.send(message)
            except Exception:
                self.subscribers.pop(conn, None)
