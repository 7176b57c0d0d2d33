"""A private room: friends join it by its six-digit code, sit, and play one game after another.

One asyncio task per room handles one action at a time, as a game's room does: who is it →
may they do this (the host's actions are the host's) → is their version current → change the
seats or options → store it (one transaction, refused if the stored version moved) → tell
everyone in the room. So two people can never take one seat. The game itself is a
:class:`~tapete.rooms.table.Room` like any other, opened with the room's seats; the lobby
starts it, and starts the next one when every human here accepts a rematch (or the host
starts it).

Who is here: a seated player with nobody of theirs in the room (no page open on it) keeps
the seat to themselves for the grace (``Settings.grace_seconds``); past it they are
*away*: the rematch does not wait for them, and in the next game their seat is still
theirs, played by a stand-in (:func:`~tapete.rooms.table.standin_of`) until they are back.
So a room never gets stuck on someone who went.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from tapete.aio import LeanQueue, running_loop
from tapete.cosmetics import look
from tapete.games.names import clean_text
from tapete.games.protocol import IllegalMove
from tapete.i18n import N_, SHARED
from tapete.i18n.errors import describe
from tapete.registry import entry
from tapete.rooms.inbox import STOP, Message, Moved, Send, error
from tapete.rooms.messages import (
    CHANGES,
    HOST_ONLY,
    AddBot,
    Leave,
    React,
    Readmit,
    Rematch,
    Remove,
    RoomAction,
    RoomActionType,
    SetOptions,
    Start,
    Take,
)
from tapete.rooms.seats import seat_names
from tapete.rooms.table import standin_of
from tapete.store import RoomRecord, StaleWrite, Store

log = logging.getLogger(__name__)

NAME_LENGTH = 24
"""The longest display name."""

MESSAGES = {
    "room_not_found": N_("No hay ninguna sala abierta con ese código."),
    "room_full": N_("La sala está completa."),
    "room_started": N_("La partida ya ha empezado: puedes mirarla."),
    "throttled": N_("Demasiados códigos equivocados: espera unos minutos."),
    "bad_name": N_("Escribe un nombre (hasta 24 letras)."),
    "not_host": N_("Solo quien creó la sala puede hacer eso."),
    "not_in_room": N_("No estás sentado en esta sala."),
    "not_yourself": N_("No puedes quitarte a ti mismo: sal de la sala."),
    "seat_taken": N_("Ese asiento ya está ocupado."),
    "seats_taken": N_("Hay más gente sentada que asientos con esas opciones."),
    "too_few_players": N_("Hacen falta al menos dos jugadores para empezar."),
    "not_over": N_("La partida aún no ha terminado."),
    "no_rooms": N_("Este juego aún no se puede jugar en una sala con amigos."),
    "no_bots": N_("Este juego no tiene bots."),
    "too_fast": N_("Un momento: demasiados mensajes seguidos."),
    "removed": N_("El anfitrión te ha quitado de esta sala."),
    "quick_table": N_("En una mesa de «Jugar ahora» no se puede: nadie la dirige."),
    "banned": N_("Tu cuenta no puede jugar con otras personas. Puedes jugar contra bots."),
    "not_rated": N_("Este juego no se puntúa."),
}
"""The refusals of private rooms, in words."""


REACTIONS: Final = {
    "bien": N_("¡Bien jugado!"),
    "uy": N_("¡Uy!"),
    "momento": N_("Un momento"),
    "suerte": N_("¡Suerte!"),
    "gracias": N_("¡Gracias!"),
    "risa": "😄",
    "sorpresa": "😮",
    "aplauso": "👏",
}
"""The phrases and emoji a player may send the table (no free text: children play here)."""
REACTION_LIMIT: Final = (3, 10.0)
"""At most this many reactions per player in this many seconds."""


def room_error(code: str, lang: str, **params: Any) -> Message:
    """A room's refusal in words (the shared codes too)."""
    words = describe(code, lang, SHARED, MESSAGES, **params)
    return {"type": "error", "code": code, "message": words}


class RoomEvents(Protocol):
    """What a private room asks of, and tells, whoever runs it
    (:class:`~tapete.rooms.live.Live`): its tables."""

    async def start_game(
        self, room: PrivateRoom, seats: list[dict[str, Any]], absent: dict[int, bool]
    ) -> str:
        """Start the room's next game with ``seats``, the seats whose players are not here
        told to it (True: away, False: their grace runs); its id."""

    def game_over(self, room: PrivateRoom) -> bool:
        """Whether the room's current game has ended."""

    def player_left(self, room: PrivateRoom, guest: str) -> None:
        """``guest`` left the room in the middle of its game (a bot takes over)."""

    def stale(self, room: PrivateRoom) -> None:
        """A save found the room moved on without this copy: another process runs it now."""


@dataclass(slots=True)
class Member:
    guest: str | None
    send: Send
    lang: str = "es"


@dataclass(slots=True)
class _Act:
    guest: str | None
    action: RoomActionType
    lang: str
    future: asyncio.Future[Message | None] = field(repr=False)


@dataclass(frozen=True, slots=True)
class _Away:
    """A seated player's grace in the room ran out (nobody of theirs came back)."""

    guest: str
    since: float
    """When it began (loop time): a grace cancelled and begun again is stale."""


@dataclass(frozen=True, slots=True)
class _Ended:
    """The room's game ended: everyone in the room is told (and its winners, by person,
    join the running score)."""

    winners: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Begin:
    """A table of strangers was just made: its first game starts at once."""

    future: asyncio.Future[None] = field(repr=False)


QUICK_ACTIONS: Final = frozenset({Leave, Rematch, React})
"""What a player may do at a table of strangers: nobody hosts it (seats and options are
the matchmaker's)."""


def clean_name(name: object) -> str | None:
    """A display name as typed: trimmed, at most 24 characters, no control or bidi
    characters, NFC (:func:`~tapete.games.names.clean_text`); None if nothing is left."""
    if not isinstance(name, str):
        return None
    return clean_text(name, NAME_LENGTH) or None


class PrivateRoom:
    """One private room. Create with :meth:`open`."""

    def __init__(
        self,
        record: RoomRecord,
        store: Store,
        events: RoomEvents | None = None,
        grace: float = 45.0,
    ) -> None:
        self.record = record
        self.code = record.code
        self.store = store
        self.entry = entry(record.kind)
        self.spec = self.entry.game
        self.online = self.spec.online
        if self.online is None:
            raise IllegalMove("no_rooms")
        self.events = events
        """Its tables (starting one, whether it ended) and whom to tell when the room moved
        on without it; None: a copy to read, which does nothing."""
        self.members: dict[int, Member] = {}
        self._ids = 0
        self.queue: LeanQueue[object] = LeanQueue()
        self._task: asyncio.Task[None] | None = None
        self.rematch: set[str] = set()
        """The guests who asked for a rematch of the game that ended."""
        self.looks: dict[str, dict[str, Any]] = {}
        """By guest, what a seated player wears (avatar, frame…: public), read when the room
        is opened, when they sit and when a game starts."""
        self.grace = grace
        """Seconds a seated player with nobody of theirs in the room is waited for."""
        self._gone: dict[str, tuple[float, asyncio.TimerHandle]] = {}
        """By guest, seated players with nobody in the room whose grace runs: since when
        (loop time) and its timer."""
        self.away: set[str] = set()
        """Seated players whose grace ran out: nobody waits for them (until they are back)."""
        self._reactions: dict[str, list[float]] = {}
        """By guest, when they last reacted (loop time), for the throttle."""
        self.series: dict[str, int] = {}
        """The room's running score: games won, by person (a bot: ``bot:<n>``, its number),
        over every game of the room (read from the store when it opens and at each end)."""

    @classmethod
    async def open(
        cls, record: RoomRecord, store: Store, events: RoomEvents, grace: float = 45.0
    ) -> PrivateRoom:
        room = cls(record, store, events, grace)
        for seat in room.seats:  # (what those seated already wear, for the room's page)
            if seat.get("kind") == "human" and isinstance(seat.get("guest"), str):
                await room._look(seat["guest"])
        await room._tally()
        room._task = asyncio.create_task(room._run(), name=f"room-{record.code}")
        room._watch_absent()  # (nobody is here yet: everyone's grace begins)
        return room

    async def _tally(self) -> None:
        """The running score, from the room's finished games (their winners, by person)."""
        series: dict[str, int] = {}
        for seats, outcome in await self.store.room_results(self.record.id):
            for seat in self.entry.game.winners(outcome):
                if 0 <= seat < len(seats):
                    key = _who(seats[seat], seat)
                    series[key] = series.get(key, 0) + 1
        self.series = series

    async def moved(self) -> None:
        """Another process owns the room now: tell everyone in it, and stop."""
        for m in list(self.members.values()):
            with contextlib.suppress(Exception):
                m.send(Moved("room"))
        self.members.clear()
        await self.close()

    async def close(self) -> None:
        for _, handle in self._gone.values():
            handle.cancel()
        self._gone.clear()
        if self._task is not None:
            self.queue.put_nowait(STOP)
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    # who is who

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def seats(self) -> list[dict[str, Any]]:
        return self.record.seats

    def seat_of(self, guest: str | None) -> int | None:
        if guest is None:
            return None
        for i, s in enumerate(self.seats):
            if s.get("kind") == "human" and s.get("guest") == guest:
                return i
        return None

    def is_host(self, guest: str | None) -> bool:
        return guest is not None and guest == self.record.host

    def connected(self) -> set[str]:
        return {m.guest for m in self.members.values() if m.guest is not None}

    def watchers(self) -> int:
        """People in the room without a seat."""
        return sum(1 for m in self.members.values() if self.seat_of(m.guest) is None)

    def over(self) -> bool:
        """Between games: the room's game has ended, the next has not begun."""
        return self.record.status == "playing" and self._game_over()

    def accepted(self) -> list[int]:
        """The seats whose players asked for the rematch."""
        seats = (self.seat_of(g) for g in self.rematch)
        return sorted(s for s in seats if s is not None)

    def waiting(self) -> list[int]:
        """Between games, the seats the rematch waits for: players here (or within their
        grace) who have not asked for it. A player away counts as having asked."""
        if not self.over():
            return []
        return [
            i
            for i, s in enumerate(self.seats)
            if s.get("kind") == "human" and s.get("guest") not in self.rematch | self.away
        ]

    def is_removed(self, guest: str | None) -> bool:
        """Whether the host removed ``guest`` from the room (and has not let them back)."""
        return guest is not None and any(r.get("guest") == guest for r in self.record.removed)

    def state(self, guest: str | None, lang: str = "es") -> Message:
        """The room as ``guest`` sees it, its seats named in ``lang``: nothing here is
        hidden (no cards before a game); whom the host removed, only the host is told."""
        online = self.connected()
        you = self.seat_of(guest)
        host = self.is_host(guest)
        names = seat_names(self.entry, self.seats, you, lang)
        series = [
            {"seat": i, "wins": self.series.get(_who(s, i), 0)}
            for i, s in enumerate(self.seats)
            if s.get("kind") in ("human", "bot") and self.series
        ]
        return {
            "type": "lobby",
            "code": self.code,
            "version": self.version,
            "kind": self.record.kind,
            "status": self.record.status,
            "options": self.record.options,
            "seats": [
                {
                    "seat": i,
                    "kind": s.get("kind", "empty"),
                    "name": names[i] if s.get("kind") != "empty" else None,
                    "level": s.get("level"),
                    "host": not self.record.quick
                    and s.get("kind") == "human"
                    and s.get("guest") == self.record.host,
                    "connected": s.get("kind") == "bot" or s.get("guest") in online,
                    "away": s.get("kind") == "human" and s.get("guest") in self.away,
                    "you": i == you,
                    **({"worn": self.looks[s["guest"]]} if s.get("guest") in self.looks else {}),
                }
                for i, s in enumerate(self.seats)
            ],
            "you": you,
            "host": host and not self.record.quick,  # (nobody runs a table of strangers)
            "watchers": self.watchers(),
            "game_id": self.record.game_id,
            "games": self.record.games,
            "over": self.over(),
            "rematch": self.accepted(),
            "waiting": self.waiting(),
            "can_start": self._can_start() and not self.record.quick,
            "seat_range": list(seat_range(self.record.kind, self._config())),
            "bots": self.entry.bots is not None,
            "standin": standin_of(self.entry),
            "removed": [str(r.get("name") or "") for r in self.record.removed] if host else [],
            "quick": self.record.quick,
            "you_removed": self.is_removed(guest),
            "series": series,
            "score": _score([(names[r["seat"]], r["wins"]) for r in series]),
        }

    def _config(self) -> Any:
        return self.spec.parse_config(self.record.options["config"])

    # members

    def enter(self, guest: str | None, send: Send, lang: str) -> tuple[int, Message]:
        self._ids += 1
        self.members[self._ids] = Member(guest, send, lang)
        self._watch_absent()  # (one who was away is back)
        self._broadcast(skip=self._ids)
        return self._ids, self.state(guest, lang)

    def leave_conn(self, conn: int) -> None:
        if self.members.pop(conn, None) is not None:
            self._watch_absent()
            self._broadcast()

    async def begin(self) -> None:
        """Start the first game of a table of strangers, in turn (the matchmaker's)."""
        future: asyncio.Future[None] = running_loop().create_future()
        self.queue.put_nowait(_Begin(future))
        await future

    def game_ended(self, seats: list[dict[str, Any]], outcome: dict[str, Any]) -> None:
        """The room's game has just ended (its ``seats`` and ``outcome``): everyone in the
        room is told (in turn), and the running score counts its winners."""
        if self._task is not None:
            won = [_who(seats[s], s) for s in self.entry.game.winners(outcome) if s < len(seats)]
            self.queue.put_nowait(_Ended(won))

    def _watch_absent(self) -> None:
        """Begin the grace of every seated player with nobody of theirs in the room; forget
        the grace, or the absence, of one who is back or no longer seated. (A copy of the
        room to read keeps no time.)"""
        if self._task is None:
            return
        seated = {
            s["guest"]
            for s in self.seats
            if s.get("kind") == "human" and isinstance(s.get("guest"), str)
        }
        here = self.connected()
        for guest in [g for g in self._gone if g not in seated or g in here]:
            self._gone.pop(guest)[1].cancel()
        self.away &= seated - here
        loop = running_loop()
        for guest in seated - here - self.away - self._gone.keys():
            since = loop.time()
            handle = loop.call_later(self.grace, self.queue.put_nowait, _Away(guest, since))
            self._gone[guest] = (since, handle)

    def _broadcast(self, skip: int | None = None) -> None:
        for conn, m in list(self.members.items()):
            if conn == skip:
                continue
            try:
                m.send(self.state(m.guest, m.lang))
            except Exception:
                self.members.pop(conn, None)

    # actions, through the queue

    async def act(
        self, guest: str | None, action: RoomActionType, lang: str = "es"
    ) -> Message | None:
        """Do ``action`` for ``guest`` in turn; returns an error message, or None if done.
        A room not running (closed, or a copy to read) does nothing: ``busy``."""
        if self._task is None:
            return error("busy", lang)
        future: asyncio.Future[Message | None] = running_loop().create_future()
        self.queue.put_nowait(_Act(guest, action, lang, future))
        return await future

    async def _run(self) -> None:
        while True:
            item = await self.queue.get()
            if item is STOP:
                return
            act = item if isinstance(item, _Act) else None
            try:
                if act is not None:
                    act.future.set_result(await self._gate(act))
                elif isinstance(item, _Away):
                    await self._away(item)
                elif isinstance(item, _Ended):
                    for key in item.winners:  # (no store to read: told at once, as before)
                        self.series[key] = self.series.get(key, 0) + 1
                    self._broadcast()
                elif isinstance(item, _Begin):
                    await self._begin(item)
            except StaleWrite:  # another process saved the room: it owns it now
                log.warning("private room %s: the room moved on without it", self.code)
                if act is not None and not act.future.done():
                    act.future.set_result(error("busy", act.lang))
                if self.events is not None:
                    self.events.stale(self)
            except Exception:
                log.exception("private room %s failed on %r", self.code, item)
                if act is not None and not act.future.done():
                    act.future.set_result(error("busy", act.lang))
                fresh = await self.store.room_by_id(self.record.id)
                if fresh is not None:
                    self.record = fresh

    async def _away(self, over: _Away) -> None:
        """A seated player's grace ran out: they are away, and the rematch waits for them
        no more (it may begin now)."""
        gone = self._gone.get(over.guest)
        if gone is None or gone[0] != over.since:
            return  # they came back meanwhile
        del self._gone[over.guest]
        self.away.add(over.guest)
        before = self.record.version
        if self._rematch_due():
            await self._next_game()
            self.record.version = before + 1
            await self.store.save_room(self.record, expected=before)
        self._broadcast()

    async def _gate(self, act: _Act) -> Message | None:
        action, guest, lang = act.action, act.guest, act.lang
        if guest is None:
            return room_error("not_in_room", lang)
        if type(action) in CHANGES and action.version != self.version:
            err = error("stale_version", lang, got=action.version, current=self.version)
            err["lobby"] = self.state(guest, lang)
            return err
        if self.record.quick and type(action) not in QUICK_ACTIONS:
            return room_error("quick_table", lang)
        if isinstance(action, React):  # not a change of the room: nothing stored, no version
            return self._react(guest, action.key, lang)
        if type(action) in HOST_ONLY and not self.is_host(guest):
            return room_error("not_host", lang)
        before = self.record.version
        try:
            changed = await self._do(guest, action)
        except IllegalMove as exc:
            return self.spec_error(exc, lang)
        if isinstance(action, Rematch | Leave) and self._rematch_due():  # (everyone asked)
            await self._next_game()
            changed = True
        if changed:
            self.record.version = before + 1
            await self.store.save_room(self.record, expected=before)
            self._watch_absent()
            self._broadcast()
        return None

    async def _do(self, guest: str, action: RoomAction) -> bool:
        """Do ``action``; whether the room changed (or raise IllegalMove: nothing did)."""
        match action:
            case Take(name=name):
                return await self._take(guest, name)
            case Leave():
                return self._leave(guest)
            case Remove(seat=seat):
                return self._remove(guest, seat)
            case Readmit(index=index):
                return self._readmit(index)
            case AddBot(seat=seat, level=level):
                return self._add_bot(seat, level)
            case SetOptions(options=options):
                return self._set_options(options)
            case Start():
                return await self._start()
            case Rematch():
                return self._ask_rematch(guest)
        raise IllegalMove("unknown_type", type=str(action.__struct_config__.tag))

    def spec_error(self, exc: IllegalMove, lang: str) -> Message:
        if exc.code in MESSAGES:
            return room_error(exc.code, lang, **exc.params)
        return {"type": "error", "code": exc.code, "message": self.spec.describe(exc, lang)}

    # the actions: each returns whether the room changed (and raises IllegalMove)

    async def _take(self, guest: str, typed: str | None) -> bool:
        """Sit in the first empty seat (or, already seated, take a new name). One the host
        removed may not (they may still watch), until the host lets them back. One sitting
        in a room whose host has no seat any more hosts it."""
        if self.is_removed(guest):
            raise IllegalMove("removed")
        name = clean_name(typed)
        if name is None:
            raise IllegalMove("bad_name")
        seat = self.seat_of(guest)
        await self._look(guest)
        if seat is not None:
            if self.seats[seat].get("name") == name:
                return False
            self.seats[seat]["name"] = name
            await self.store.set_guest_name(guest, name)
            return True
        if not self._idle():
            raise IllegalMove("room_started")
        free = next((i for i, s in enumerate(self.seats) if s.get("kind") == "empty"), None)
        if free is None:
            raise IllegalMove("room_full")
        if await self.store.players.banned(guest):  # (bots only: RULES.md «Quick play»)
            raise IllegalMove("banned")
        await self.store.ensure_guest(guest)
        await self.store.set_guest_name(guest, name)
        self.seats[free] = {"kind": "human", "guest": guest, "name": name}
        self._pass_host()
        return True

    def _leave(self, guest: str) -> bool:
        """Leave the room. In the middle of a game a normal bot plays the seat to its end."""
        seat = self.seat_of(guest)
        if seat is None:
            raise IllegalMove("not_in_room")
        if not self._idle() and self.events is not None:
            self.events.player_left(self, guest)
        self.seats[seat] = {"kind": "empty"}
        self.rematch.discard(guest)
        self._pass_host()
        return True

    def _remove(self, guest: str, seat: int) -> bool:
        """Empty a seat. A player removed may not sit in this room again until the host
        lets them (:meth:`_readmit`)."""
        self._check_seat(seat)
        self._idle_or_raise()
        taken = self.seats[seat]
        if taken.get("guest") == guest:
            raise IllegalMove("not_yourself")
        if taken.get("kind") == "empty":
            return False
        removed = taken.get("guest")
        human = taken.get("kind") == "human" and isinstance(removed, str)
        if human and not self.is_removed(removed):
            self.record.removed = [
                *self.record.removed,
                {"guest": removed, "name": taken.get("name")},
            ]
        self.seats[seat] = {"kind": "empty"}
        self._changed_table()
        return True

    def _readmit(self, index: int) -> bool:
        """«Dejar volver»: the removed player ``index`` (in the state's ``removed``) may sit
        again."""
        if not 0 <= index < len(self.record.removed):
            raise IllegalMove("bad_message", detail="index")
        self.record.removed = [r for i, r in enumerate(self.record.removed) if i != index]
        return True

    def _add_bot(self, seat: int, level: str) -> bool:
        self._check_seat(seat)
        bots = self.entry.bots
        if bots is None:
            raise IllegalMove("no_bots")
        if bots.level(level) is None:
            raise IllegalMove("bad_config", field="level")
        self._idle_or_raise()
        if self.seats[seat].get("kind") == "human":
            raise IllegalMove("seat_taken")
        bot_names = [s for s in self.seats if s.get("kind") == "bot"]
        name, params = bots.seat_name(len(bot_names) + 1, max(2, len(self.seats) - 1))
        self.seats[seat] = {"kind": "bot", "level": level, "name": name, **params}
        self._changed_table()
        return True

    def _set_options(self, wanted: dict[str, Any]) -> bool:
        """New options; the seats follow the number of players (everyone sitting keeps a
        seat: fewer seats than people is refused)."""
        self._idle_or_raise()
        options = check_options(self.record.kind, wanted)
        n = seats_for(self.record.kind, options)
        people = [s for s in self.seats if s.get("kind") != "empty"]
        if len(people) > n:
            raise IllegalMove("seats_taken")
        if any(s.get("kind") != "empty" for s in self.seats[n:]):
            self.record.seats = people  # move everyone up, in order
        self.record.seats = (self.seats + [{"kind": "empty"}] * n)[:n]
        self.record.options = options
        self._changed_table()
        return True

    def _can_start(self) -> bool:
        assert self.online is not None
        taken = [s for s in self.seats if s.get("kind") != "empty"]
        humans = [s for s in taken if s.get("kind") == "human"]
        return self._idle() and len(taken) >= self.online.seats[0] and bool(humans)

    async def _start(self) -> bool:
        """The host starts the game; between games, without waiting for those who have not
        asked for the rematch («Empezar ya»)."""
        self._idle_or_raise()
        if not self._can_start():
            raise IllegalMove("too_few_players")
        await self._next_game()
        return True

    def _ask_rematch(self, guest: str) -> bool:
        """Ask for the next game with the same seats; it starts when every player here has
        (:meth:`_rematch_due`)."""
        if self.seat_of(guest) is None:
            raise IllegalMove("not_in_room")
        if not self.over():
            raise IllegalMove("not_over")
        if guest in self.rematch:
            return False
        self.rematch.add(guest)
        return True

    def _rematch_due(self) -> bool:
        """Between games, someone asked for the rematch and it waits for nobody: every
        player here asked (those away count as having asked)."""
        return self.over() and bool(self.accepted()) and not self.waiting() and self._can_start()

    def _changed_table(self) -> None:
        """The host changed the seats or the options between games: the rematch asked for
        was for the table as it was (everyone asks again, or the host starts)."""
        if self.over():
            self.rematch.clear()

    def _react(self, guest: str, key: str, lang: str) -> Message | None:
        """A seat's reaction, shown to everyone in the room for a moment (throttled)."""
        seat = self.seat_of(guest)
        if seat is None:
            return room_error("not_in_room", lang)
        if key not in REACTIONS:
            return room_error("bad_message", lang, detail="key")
        now = running_loop().time()
        count, window = REACTION_LIMIT
        recent = [t for t in self._reactions.get(guest, []) if now - t < window]
        if len(recent) >= count:
            return room_error("too_fast", lang)
        self._reactions[guest] = [*recent, now]
        message = {"type": "reaction", "seat": seat, "key": key}
        for conn, m in list(self.members.items()):
            try:
                m.send(message)
            except Exception:
                self.members.pop(conn, None)
        return None

    # helpers

    def _game_over(self) -> bool:
        return self.events is not None and self.events.game_over(self)

    def _idle(self) -> bool:
        """No game is being played: before the first, or after one ended."""
        return self.record.status == "lobby" or self._game_over()

    def _idle_or_raise(self) -> None:
        if not self._idle():
            raise IllegalMove("room_started")

    async def _begin(self, begin: _Begin) -> None:
        try:
            before = self.record.version
            await self._next_game()
            self.record.version = before + 1
            await self.store.save_room(self.record, expected=before)
            self._watch_absent()
            self._broadcast()
        except BaseException as exc:
            begin.future.set_exception(exc)
            raise
        begin.future.set_result(None)

    async def _next_game(self) -> None:
        """The next game with the seats taken; each game the next player starts."""
        taken = [s for s in self.seats if s.get("kind") != "empty"]
        shift = self.record.games % len(taken)
        await self._start_game(taken[shift:] + taken[:shift])

    async def _start_game(self, seats: list[dict[str, Any]]) -> None:
        self.rematch.clear()
        self.record.status = "playing"
        self.record.games += 1
        people = [s["guest"] for s in seats if _dressable(s)]
        worn = await self.store.accounts.wearing(people) if people else {}
        dressed = [self._dressed(s, worn) for s in seats]
        here = self.connected()
        absent = {
            i: s["guest"] in self.away
            for i, s in enumerate(seats)
            if s.get("kind") == "human" and s.get("guest") not in here
        }
        assert self.events is not None  # (a copy to read acts on nothing)
        self.record.game_id = await self.events.start_game(self, dressed, absent)

    def _dressed(
        self, seat: dict[str, Any], worn: dict[str, tuple[dict[str, Any], str | None]]
    ) -> dict[str, Any]:
        """A human's seat in a game with what they wear (the shop's card back, frame…) as
        the game starts (``worn``: :meth:`Accounts.wearing`): what the others see of them
        at the table (kept in :attr:`looks` for the room's page)."""
        if not _dressable(seat):
            return seat
        return {**seat, "worn": self._wears(seat["guest"], worn)}

    async def _look(self, guest: str) -> dict[str, Any]:
        """What ``guest`` wears now (kept in :attr:`looks` for the room's page)."""
        return self._wears(guest, await self.store.accounts.wearing([guest]))

    def _wears(
        self, guest: str, worn: dict[str, tuple[dict[str, Any], str | None]]
    ) -> dict[str, Any]:
        equipped, avatar = worn.get(guest, (None, None))
        self.looks[guest] = looks = look(equipped, avatar)
        return looks

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise IllegalMove("bad_message", detail="seat")

    def _pass_host(self) -> None:
        """The host has no seat (left, or left before anyone else sat): the next human by
        seat order hosts (nobody seated: it stays, and passes to the next who sits)."""
        if self.seat_of(self.record.host) is not None:
            return
        nxt = next((s["guest"] for s in self.seats if s.get("kind") == "human"), None)
        if nxt is not None:
            self.record.host = nxt


def _dressable(seat: dict[str, Any]) -> bool:
    return seat.get("kind") == "human" and isinstance(seat.get("guest"), str)


def check_options(kind: str, data: Any) -> dict[str, Any]:
    """A room's options as stored: the game's options (checked by its codec) and the turn
    clock (one of the game's choices). Raises IllegalMove("bad_config")."""
    spec = entry(kind).game
    online = spec.online
    if online is None:
        raise IllegalMove("no_rooms")
    data = data if isinstance(data, dict) else {}
    config = spec.parse_config(data.get("config", {}))
    if online.for_room is not None:
        config = online.for_room(config)
    wanted = data.get("seats")
    if wanted is not None:  # the room page's «Jugadores»: the game says what that means
        if type(wanted) is not int:
            raise IllegalMove("bad_config", field="players")
        config = online.with_seats(config, wanted)
    turn = spec.clocks.get("turn")
    default = turn.online if turn is not None else None
    clock = data.get("clock", default)
    if online.turn_clocks:
        allowed = set(online.turn_clocks)
        if isinstance(clock, bool) or not isinstance(clock, int | float | None):
            raise IllegalMove("bad_config", field="clock")
        if clock not in allowed:
            raise IllegalMove("bad_config", field="clock")
    else:
        clock = default
    low, high = seat_range(kind, config)
    n = spec.rules.seats(config)
    if not low <= n <= high:
        raise IllegalMove("bad_config", field="players")
    rated = data.get("rated", False)
    if type(rated) is not bool:
        raise IllegalMove("bad_config", field="rated")
    if rated and (spec.quick is None or not spec.quick.rated):
        raise IllegalMove("not_rated")
    return {"config": spec.config_json(config), "clock": clock, "rated": rated}


def seat_range(kind: str, config: Any) -> tuple[int, int]:
    """The seats a room of ``kind`` with these options may have."""
    online = entry(kind).game.online
    assert online is not None
    low, high = online.seats
    if online.seat_range is not None:
        narrow = online.seat_range(config)
        low, high = max(low, narrow[0]), min(high, narrow[1])
    return low, high


def seats_for(kind: str, options: dict[str, Any]) -> int:
    spec = entry(kind).game
    return spec.rules.seats(spec.parse_config(options["config"]))


def _who(seat: dict[str, Any], index: int) -> str:
    """Whom a seat's wins count for in a room's running score: its person, or its bot (the
    room's ``n``-th, wherever the rotation of starters seats it)."""
    guest = seat.get("guest")
    if seat.get("kind") == "human" and isinstance(guest, str):
        return guest
    return f"bot:{seat.get('n', index)}"


def _score(rows: list[tuple[str, int]]) -> str:
    """The running score as the room's bar shows it: «Ana 3 – 2 Leo» for two, else «Ana 2 ·
    Leo 1 · Eva 0» ("" before any game has ended).

    >>> _score([("Ana", 3), ("Leo", 2)]), _score([("Ana", 2), ("Leo", 1), ("Eva", 0)])
    ('Ana 3 – 2 Leo', 'Ana 2 · Leo 1 · Eva 0')
    """
    if len(rows) == 2:
        (a, m), (b, n) = rows
        return f"{a} {m} – {n} {b}"
    return " · ".join(f"{name} {wins}" for name, wins in rows)
