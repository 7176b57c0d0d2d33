"""«Jugar ahora»: people who want to play a game now, matched with others waiting for it at
a similar rating, and seated at a table of strangers within the wait (RULES.md «Quick
play»). Every game with a ``quick`` descriptor and private rooms has a queue
(:class:`~tapete.rooms.matching.Queue`, which decides who sits with whom); a task looks at
the queues a few times a second and seats each match it finds at a new table, made as a
private room's (:meth:`~tapete.rooms.private_rooms.PrivateRooms.create_quick`): seats,
clocks, stand-ins, rematch and spectators as among friends.

Who may queue: one queue at a time; not a banned guest (bots only for them); not one in a
leaving penalty (:func:`penalty_left`). Whom one is never seated with: whom they blocked and
who blocked them. Once seated, the table's address is kept for a while for everyone at it
(the page asks again, or another tab does).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, Final

from tapete.games.protocol import IllegalMove
from tapete.i18n import N_
from tapete.public_names import of as public_name
from tapete.ratings import Rating, shown
from tapete.registry import REGISTRY
from tapete.rooms.matching import Match, Queue, Ticket, bot_level
from tapete.rooms.ownership import Ownership
from tapete.rooms.private_room import seat_range
from tapete.rooms.private_rooms import PrivateRooms
from tapete.rooms.quick_board import Board, MemoryBoard
from tapete.rooms.tables import Tables
from tapete.store import Store, utcnow

log = logging.getLogger(__name__)

PENALTY_FIRST: Final = timedelta(minutes=5)
PENALTY_CAP: Final = timedelta(hours=24)
PENALTY_WINDOW: Final = timedelta(hours=24)
PENALTY_FROM: Final = 2
"""Leaving this many rated games within :data:`PENALTY_WINDOW` makes the next «Jugar ahora»
wait :data:`PENALTY_FIRST`, doubling with each further one, at most :data:`PENALTY_CAP`."""
SEATED_SECONDS: Final = 120.0
"""How long the table's address is kept for those seated at it."""
BACKOFF_SECONDS: Final = 2.0
"""While matching fails, how often it is tried again."""
STRANDED_SECONDS: Final = 10.0
"""People taken out of a queue for a table that was not made in this long (its process
died meanwhile) are put back in it."""

MESSAGES: Final = {
    "unknown_game": N_("Ese juego no se puede jugar con gente ahora mismo."),
    "bad_players": N_("Elige entre {low} y {high} jugadores, o «Me da igual»."),
    "already_waiting": N_("Ya estás esperando una partida."),
    "not_waiting": N_("No estabas esperando ninguna partida."),
    "banned": N_("Tu cuenta no puede jugar con otras personas. Puedes jugar contra bots."),
    "penalty": N_(
        "Dejaste partidas a medias: podrás volver a jugar con gente dentro de {wait}. "
        "Mientras, puedes jugar contra bots."
    ),
}
"""The refusals of «Jugar ahora», in words."""


def penalty_left(leavings: Sequence[datetime], now: datetime) -> timedelta:
    """How long one who left these rated games must still wait before queueing again
    (RULES.md «Quick play», «Leaving»): two within 24 h → 5 minutes from the last, then 10,
    20… at most 24 h.

    >>> from datetime import UTC
    >>> t = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
    >>> penalty_left([t - timedelta(hours=2)], t)
    datetime.timedelta(0)
    >>> penalty_left([t - timedelta(hours=2), t - timedelta(minutes=1)], t)
    datetime.timedelta(seconds=240)
    >>> penalty_left([t - timedelta(hours=h) for h in (3, 2, 1)] + [t], t)
    datetime.timedelta(seconds=1200)
    """
    recent = sorted(at for at in leavings if now - at < PENALTY_WINDOW)
    if len(recent) < PENALTY_FROM:
        return timedelta(0)
    wait: timedelta = min(PENALTY_FIRST * 2 ** (len(recent) - PENALTY_FROM), PENALTY_CAP)
    left: timedelta = recent[-1] + wait - now
    return max(timedelta(0), left)


def quick_games() -> list[str]:
    """The games strangers can be matched for (a ``quick`` descriptor, private rooms, and
    bots to fill the seats or, without them, a game of one's own for one who waited alone:
    ``Quick.alone``)."""
    return [
        key
        for key, found in REGISTRY.items()
        if (quick := found.game.quick) is not None
        and found.game.online is not None
        and (found.bots is not None or quick.alone is not None)
    ]


class Matchmaker:
    """The queues of every game strangers play (:func:`quick_games`), kept on a
    :class:`~tapete.rooms.quick_board.Board` (memory, or Redis among several processes),
    and the task that seats them: a game's queue is matched by the process that holds its
    lease (``quick:<game>``), so two people queued on two processes sit together, and when
    that process dies another takes the lease and the queue as it was."""

    def __init__(
        self,
        rooms: PrivateRooms,
        store: Store,
        wait: float = 20.0,
        tick: float = 0.25,
        clock: Callable[[], float] | None = None,
        board: Board | None = None,
        ownership: Ownership | None = None,
        stranded_seconds: float = STRANDED_SECONDS,
        tables: Tables | None = None,
    ) -> None:
        self.rooms = rooms
        self.tables = tables
        """Where one who waited alone for a game without bots gets a game of their own."""
        self.store = store
        self.wait = wait
        """Seconds anyone waits at most: then bots take the empty seats."""
        self.tick = tick
        self.clock = clock or time.time
        """Wall-clock seconds: the processes of a hall agree on them."""
        self.board: Board = board or MemoryBoard(clock=self.clock)
        self.ownership = ownership or Ownership()
        self.stranded_seconds = stranded_seconds
        self.seats: dict[str, tuple[int, int]] = {}
        for key in quick_games():
            quick = REGISTRY[key].game.quick
            assert quick is not None
            self.seats[key] = seat_range(key, quick.config)
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self.failed = 0
        """Matches that could not be seated (their people were put back in the queue)."""

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="matchmaker")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    # what a player asks

    async def join(self, guest: str, game: object, players: object) -> None:
        """Queue ``guest`` for ``game`` with ``players`` seats (2–4, None: any): seated by
        the next look at the queues (:meth:`match`, a few times a second). Raises
        IllegalMove: ``unknown_game``, ``bad_players``, ``already_waiting`` (with the game),
        ``banned``, ``penalty`` (with ``seconds`` left)."""
        seats = self.seats.get(game) if isinstance(game, str) else None
        if seats is None:
            raise IllegalMove("unknown_game")
        assert isinstance(game, str)
        low, high = seats
        if players is not None and (type(players) is not int or not low <= players <= high):
            raise IllegalMove("bad_players", low=low, high=high)
        already = await self.board.waiting(guest)
        if already is not None:
            raise IllegalMove("already_waiting", game=already[0])
        players_ = self.store.players
        if await players_.banned(guest):
            raise IllegalMove("banned")
        now = utcnow()
        left = penalty_left(await players_.leavings(guest, now - PENALTY_WINDOW), now)
        if left > timedelta(0):
            raise IllegalMove("penalty", seconds=int(left.total_seconds()) + 1)
        quick = REGISTRY[game].game.quick
        rating = (await players_.ratings(game, [guest]))[guest] if quick and quick.rated else None
        avoid = await players_.avoided(guest)
        shown_rating = float(shown(rating or Rating()))
        other = await self.board.add(
            game, Ticket(guest, players, shown_rating, self.clock(), avoid)
        )
        if other is not None:  # (two requests at once: the second is refused)
            raise IllegalMove("already_waiting", game=other)

    async def status(self, guest: str) -> dict[str, Any] | None:
        """``{"state": "waiting", "game", "waiting", "seconds_left"}``, ``{"state":
        "seated", "url", "alone"}``, or None (neither). While their table is being made they are
        still waiting, with no time left."""
        found = await self.board.waiting(guest)
        if found is not None:
            game, ticket = found
            left = self.wait - (self.clock() - ticket.since) if ticket is not None else 0.0
            return {
                "state": "waiting",
                "game": game,
                "waiting": await self.board.count(game),
                "seconds_left": round(max(0.0, left), 1),
            }
        url = await self.board.seat_of(guest)
        if url is None:
            return None
        # (a room is a table of people, /sala/…; a game of one's own, /partida/…, is one who
        # waited alone for a game without bots: :meth:`_alone`)
        return {"state": "seated", "url": url, "alone": not url.startswith("/sala/")}

    async def cancel(self, guest: str) -> bool:
        """Leave the queue; False if ``guest`` was not in one (or is being seated)."""
        return await self.board.remove(guest) is not None

    async def counts(self) -> dict[str, int]:
        """People waiting, by game."""
        return {key: await self.board.count(key) for key in self.seats}

    async def open_tables(self) -> dict[str, tuple[int | None, int] | None]:
        """By game, the table people wait for that one more would fill soonest: the size
        most of them asked for (None: «me da igual») and how many wait for it; None: nobody
        waits. The hall's «Mesas abiertas» sits one down there with one click."""
        out: dict[str, tuple[int | None, int] | None] = {}
        for key in self.seats:
            groups = Counter(t.players for t in await self.board.tickets(key))
            out[key] = max(groups.items(), key=lambda g: (g[1], g[0] or 0)) if groups else None
        return out

    # the queues' work

    async def _run(self) -> None:
        """Look at the queues every ``tick``; while that fails (Redis away, the database
        away) say so once, look again every :data:`BACKOFF_SECONDS`, and say when it works
        again — never die, never fill the log."""
        failing = False
        while True:
            await asyncio.sleep(BACKOFF_SECONDS if failing else self.tick)
            try:
                await self.match()
            except Exception as exc:
                if not failing:
                    log.warning("matchmaking failed (%s): trying again", exc, exc_info=True)
                failing = True
                continue
            if failing:
                log.info("matchmaking works again")
            failing = False

    async def match(self) -> int:
        """Seat every table the queues this process holds can make now; how many."""
        made = 0
        async with self._lock:
            for key, seats in self.seats.items():
                if await self.ownership.claim(f"quick:{key}") is not None:
                    continue  # another process matches this game
                made += await self._match(key, seats)
        return made

    async def _match(self, key: str, seats: tuple[int, int]) -> int:
        now = self.clock()
        stranded = await self.board.stranded(key, now - self.stranded_seconds)
        if stranded:  # (a process died while making their table)
            log.warning("matchmaking: %d stranded in %s put back", len(stranded), key)
            await self.board.put_back(key, stranded)
        queue = Queue(seats=seats, wait=self.wait, bots=REGISTRY[key].bots is not None)
        for ticket in await self.board.tickets(key):
            queue.add(ticket)
        made = 0
        for match in queue.match(now):
            taken = await self.board.take(key, list(match.guests), now)
            if taken is None:
                continue  # one cancelled meanwhile: the others are matched next time
            try:
                url = await self._seat(key, match)
            except Exception:
                log.exception("matchmaking: %s could not be seated", match)
                self.failed += 1
                await self.board.put_back(key, taken)
                continue
            await self.board.seated(key, list(match.guests), url, SEATED_SECONDS)
            made += 1
        return made

    async def _seat(self, key: str, match: Match) -> str:
        """A table for ``match``: its people with their public names, in the order they
        came, then the bots at the level the table's rating calls for; its address. One
        alone in a game without bots: a game of their own (``Quick.alone``)."""
        found = REGISTRY[key]
        bots = found.bots
        if bots is None and len(match.guests) == 1:
            return await self._alone(key, match.guests[0])
        chosen = await self.store.players.public_names(list(match.guests))
        seats: list[dict[str, Any]] = [
            {"kind": "human", "guest": g, "public": public_name(g, chosen.get(g)).key}
            for g in match.guests
        ]
        if match.bots:
            assert bots is not None
            median = float(shown(Rating(await self.store.players.median_mu(key))))
            levels = tuple(level.key for level in bots.levels)
            level = bot_level(levels, bots.default, match.rating, median)
            seats += [{"kind": "bot", "level": level} for _ in range(match.bots)]
        room = await self.rooms.create_quick(key, seats)
        return f"/sala/{room.code}"

    async def _alone(self, key: str, guest: str) -> str:
        spec = REGISTRY[key].game
        assert spec.quick is not None and spec.quick.alone is not None
        if self.tables is None:
            raise RuntimeError("no tables to give one alone a game")
        table = await self.tables.create(key, spec.config_json(spec.quick.alone), guest)
        return f"/partida/{table.id}"
