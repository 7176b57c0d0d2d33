"""Counting logros (:mod:`tapete.logros`): a finished game, replayed from its log, is
counted once for each person who played it, by the rules of its game's descriptor and the
hall's. A game is counted when it ends (the table tells :class:`~tapete.rooms.live.Live`),
and again on demand — the end dialog asks what the game earned, and counting is idempotent
— and every game can be counted again from the logs (``tapete logros``), so a new logro is
awarded to past games too. Games are read from the registry; none is named here.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from tapete.games.protocol import Finished, Logro
from tapete.logros import HALL, KEPT, KINDS, STREAKS, Kept, best_streak
from tapete.ratings import shown
from tapete.registry import REGISTRY
from tapete.rooms.device import Device
from tapete.rooms.replay import first
from tapete.store import Store, utcnow
from tapete.store.logros import Progress

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Shown:
    """A logro as a player's list shows it: its definition's words (message ids of
    ``domain``), and their progress."""

    key: str
    domain: str
    title: str
    rule: str
    icon: str
    goal: int
    progress: Progress | None


def definitions() -> list[tuple[str, Logro | Kept]]:
    """Every logro with its catalog domain, in the order a player reads them: each game's
    (the hall's order), then the hall's."""
    out: list[tuple[str, Logro | Kept]] = []
    for entry in REGISTRY.values():
        out.extend((entry.key, logro) for logro in entry.game.logros)
    out.extend(("tapete", logro) for logro in (*HALL, *KEPT))
    return out


class Logros:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def count_game(self, game_id: str) -> dict[str, list[str]]:
        """Count a finished game for each person who played it (those it was counted for
        already are left as they are); by guest, the logros it earned them now."""
        record = await self.store.game(game_id)
        if record is None or record.outcome is None or record.kind not in REGISTRY:
            return {}
        if Device.of(REGISTRY[record.kind], record.seats) is not None:
            return {}  # (a game on one device passed round: who played which hand is unknown)
        people = [
            (seat, s["guest"])
            for seat, s in enumerate(record.seats)
            if s.get("kind") == "human" and isinstance(s.get("guest"), str)
        ]
        done = await self.store.logros.counted_for(game_id)
        todo: dict[str, int] = {}  # (guest: seat; a guest in two seats counts once, the first)
        for seat, guest in people:
            if guest not in done:
                todo.setdefault(guest, seat)
        if not todo:
            return {}
        spec = REGISTRY[record.kind].game
        logged = await self.store.moves(game_id)
        # (the replay is the engine's work, milliseconds for a hand of Rummy: off the loop)
        state, moves = await asyncio.to_thread(_replay, spec, record, logged)
        outcome = spec.rules.outcome(state)
        if outcome is None:  # (its log says otherwise: leave it)
            log.warning("game %s is finished but its log does not end it", game_id)
            return {}
        winners = spec.winners(outcome)
        bots = tuple(s.get("level") if s.get("kind") == "bot" else None for s in record.seats)
        attempt = await self.store.daily.of_game(game_id)
        ratings = await self.store.players.changes(game_id) if record.rated else {}
        config = spec.parse_config(record.config)
        goals = {logro.key: logro.goal for _, logro in definitions()}
        kinds = await self.store.logros.kinds_of(list(todo))
        counts: dict[str, tuple[dict[str, int], dict[str, int]]] = {}
        for guest, seat in todo.items():
            facts = Finished(
                config=config,
                outcome=outcome,
                seat=seat,
                won=seat in winners,
                moves=moves,
                bots=bots,
                daily=attempt is not None and attempt.guest == guest,
                upset=_upset(ratings, guest),
            )
            adds = {}
            for logro in (*spec.logros, *HALL):
                n = logro.count(facts)
                if n > 0:
                    adds[logro.key] = n
            sets = {KINDS.key: len(kinds[guest] | {record.kind})}
            if facts.daily:
                best = best_streak(await self.store.daily.days(guest))
                sets.update({streak.key: best for streak in STREAKS})
            counts[guest] = (adds, sets)
        got = await self.store.logros.count_all(game_id, counts, goals, utcnow())
        return {guest: keys for guest, keys in got.items() if keys}

    async def earned_by(self, game_id: str, guest: str) -> list[str]:
        """What the game earned ``guest`` (counted first, if it was not yet)."""
        await self.count_game(game_id)
        return await self.store.logros.earned_by(game_id, guest)

    async def of(self, guest: str) -> list[Shown]:
        """Every logro, with ``guest``'s progress."""
        progress = await self.store.logros.of(guest)
        return [
            Shown(logro.key, domain, logro.title, logro.rule, logro.icon, logro.goal,
                  progress.get(logro.key))
            for domain, logro in definitions()
        ]  # fmt: skip

    async def recount(self) -> int:
        """Forget every count and count every finished game again, in the order they ended
        (``tapete logros``): a new logro is awarded to past games too. Returns the games."""
        await self.store.logros.wipe()
        games = await self.store.logros.finished()
        for game_id in games:
            await self.count_game(game_id)
        return len(games)


def _replay(spec: Any, record: Any, log: list[Any]) -> tuple[Any, list[tuple[int, Any, list[Any]]]]:
    """The game from its first state through its log: the state, and each move with the
    events it made."""
    state = first(spec, record)
    moves: list[tuple[int, Any, list[Any]]] = []
    for m in log:
        events = spec.rules.apply(state, m.seat, spec.parse_move(m.move))
        moves.append((m.seat, m.move, list(events)))
    return state, moves


def _upset(ratings: dict[str, Any], guest: str) -> bool:
    """A rated game whose other players were rated higher than ``guest``, on average."""
    if guest not in ratings or len(ratings) < 2:
        return False
    mine = shown(ratings[guest][0])
    others = [shown(before) for g, (before, _) in ratings.items() if g != guest]
    return sum(others) / len(others) > mine


__all__ = ["Logros", "Shown", "definitions"]
