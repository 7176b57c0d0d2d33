"""The coach of a finished game («Análisis»): for every move a seat made, what the game's
strongest bot would have made from that seat's view at that moment — never from a card or
tile the seat could not see — and what the move made cost (the game's ``BotSpec.coach``);
the costliest moves marked, for the replay to step to.

Pure: the game's record and its move log in, the advice out. Computing it is slow (a search
per move): the rooms run it off the loop, once, after the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any, Final

from tapete.games.protocol import JSON
from tapete.registry import Entry
from tapete.rooms.bots import coach_pool
from tapete.rooms.replay import NotOver, first
from tapete.store import GameRecord, LoggedMove, Store

log = logging.getLogger(__name__)

COSTLIEST: Final = 3
"""How many of a seat's costliest moves are marked."""


class NoCoach(Exception):
    """The game has no coach (no bots, or none that can say what it would have played)."""


def judged(found: Entry, record: GameRecord, log: list[LoggedMove], seat: int) -> list[Judged]:
    """The moves of ``seat`` the coach judges, each with the view the seat had just before
    it (the game replayed from its log). Raises :class:`NoCoach`, or ``NotOver`` for a
    game still played."""
    bots = found.bots
    if bots is None or bots.coach is None:
        raise NoCoach(found.key)
    spec = found.game
    rules = spec.rules
    state: Any = first(spec, record)
    out: list[Judged] = []
    for logged in log:
        if logged.seat == seat:
            out.append(Judged(logged.n, rules.view(state, seat), logged.move))
        rules.apply(state, logged.seat, spec.parse_move(logged.move))
    if rules.outcome(state) is None:
        raise NotOver(record.id)
    return out


def summary(seat: int, advice: list[tuple[Judged, JSON | None]]) -> JSON:
    """``{"seat", "unit", "moves": [{"n", "move", "best", "loss", "code", "params"}],
    "costliest": [n, …]}``: the advice on each move judged (``n``: the game's version after
    it, as in the replay; moves the coach had nothing to say of left out), and the versions
    of the :data:`COSTLIEST` moves that cost most (a loss above 0; the earlier first among
    equals)."""
    moves: list[JSON] = []
    unit = None
    for move, said in advice:
        if said is None:
            continue
        unit = unit or said.get("unit")
        words = {k: v for k, v in said.items() if k != "unit"}
        moves.append({"n": move.n, "move": move.move, **words})
    costly = sorted((m for m in moves if m["loss"] > 0), key=lambda m: (-m["loss"], m["n"]))
    return {
        "seat": seat,
        "unit": unit,
        "moves": moves,
        "costliest": [m["n"] for m in costly[:COSTLIEST]],
    }


def analyse(found: Entry, record: GameRecord, log: list[LoggedMove], seat: int) -> JSON:
    """The coach's :func:`summary` of ``seat``'s moves, made here and now (the rooms make it
    in the coach's processes: :class:`Coaching`)."""
    todo = judged(found, record, log, seat)
    assert found.bots is not None and found.bots.coach is not None
    coach = found.bots.coach
    return summary(seat, [(j, coach(j.view, j.move)) for j in todo])


@dataclass(frozen=True, slots=True)
class Judged:
    """A move to judge: the game's version after it, the seat's view before, the move."""

    n: int
    view: JSON
    move: JSON


@dataclass(slots=True)
class Progress:
    total: int
    done: int = 0
    task: asyncio.Task[None] | None = None


class Coaching:
    """The analyses of this process: kept in the store once made; made at most once at a
    time per game and seat, each move judged in the coach's processes (:func:`coach_pool`,
    never the loop's, never the pool that plays the searching bots' turns)."""

    def __init__(self, store: Store, workers: int = 1) -> None:
        self.store = store
        self.workers = workers
        self.running: dict[tuple[str, int], Progress] = {}

    async def status(self, found: Entry, record: GameRecord, seat: int) -> JSON:
        """``{"state": "ready", **summary}`` once made; else ``{"state": "computing",
        "done", "of"}`` (moves judged so far, of how many), the making begun if it was not.
        Raises :class:`NoCoach`, ``NotOver``."""
        made = await self.store.analysis(record.id, seat)
        if made is not None:
            return {"state": "ready", **made}
        key = (record.id, seat)
        progress = self.running.get(key)
        if progress is None:
            log_ = await self.store.moves(record.id)
            progress = self.running.get(key)  # (another request began it meanwhile)
            if progress is None:
                todo = judged(found, record, log_, seat)
                progress = self.running[key] = Progress(len(todo))
                made_ = self._make(found, record.id, seat, todo, progress)
                progress.task = asyncio.create_task(made_)
        return {"state": "computing", "done": progress.done, "of": progress.total}

    async def _make(
        self, found: Entry, game_id: str, seat: int, todo: list[Judged], progress: Progress
    ) -> None:
        assert found.bots is not None and found.bots.coach is not None
        coach = found.bots.coach
        loop = asyncio.get_running_loop()
        pool = coach_pool(self.workers)

        async def one(move: Judged) -> tuple[Judged, JSON | None]:
            said = await loop.run_in_executor(pool, coach, move.view, move.move)
            progress.done += 1
            return move, said

        try:
            advice = await asyncio.gather(*(one(m) for m in todo))
            await self.store.save_analysis(game_id, seat, summary(seat, list(advice)))
        except Exception:  # (asked again, it starts again)
            log.exception("analysis of %s from seat %d failed", game_id, seat)
        finally:
            if self.running.get((game_id, seat)) is progress:
                del self.running[(game_id, seat)]

    async def close(self) -> None:
        for progress in list(self.running.values()):
            if progress.task is not None:
                progress.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await progress.task
