"""Bots finish their games: a table never freezes with a bot to move.

Who must be asked is one question the room re-evaluates after every change: every bot seat
among the game's actors has a decision in flight for the current version. A decision that
comes back for an older version is dropped and the seat asked again; a bot that answers
"nothing now" is not asked again until the version changes. A watchdog repairs a table
where the bookkeeping went wrong anyway, and says so in the log.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import time
from typing import Any

import pytest

from tapete.games import onecard
from tapete.registry import REGISTRY
from tapete.rooms import Settings, Table
from tapete.store import Store
from tests.lives import Lives, Tables

from .conftest import Chooser, patch_bots

G0 = "a" * 24
WATCHDOG = "nobody is deciding"
"""What the watchdog's warning says."""

# (game, players, level, seed): La guerra and Rummy too, every game that has bots
GAMES = (
    [("onecard", 2, "normal", seed) for seed in range(8)]
    + [("onecard", 2, "facil", seed) for seed in range(8, 11)]
    + [("onecard", 3, "normal", seed) for seed in range(4)]
    + [("onecard", 3, "facil", seed) for seed in range(4, 6)]
    + [("onecard", 4, "normal", seed) for seed in range(2)]
    + [("guerra", 2, "normal", 0), ("guerra", 3, "normal", 1)]
    + [("rummy", 2, "normal", 0), ("rummy", 3, "principiante", 1)]
)


def slow_machine(monkeypatch: pytest.MonkeyPatch, mean: float = 0.001, seed: int = 7) -> None:
    """Bot decisions take a variable time, as on a loaded machine (the thread pool and the
    GIL shared with other rooms): usually well under a millisecond more, now and then a few
    milliseconds, longer than the player's next move takes to commit. A player on a socket
    meets this race at bot pace 0 in a few games in a hundred; in the process, with the
    player moving the moment it may, the decisions need this much jitter to meet it."""
    rng = random.Random(seed)
    lock = threading.Lock()

    def jittery(real: Chooser) -> Chooser:
        def decide(view: dict[str, Any], level: str) -> Any:
            with lock:
                pause = rng.expovariate(1 / mean)
            time.sleep(pause)
            return real(view, level)

        return decide

    for key, found in REGISTRY.items():
        if found.bots is not None:
            patch_bots(monkeypatch, key, jittery)


def thinking(room: Table) -> bool:
    """A bot's decision is in flight for the table's current version (slow, not frozen)."""
    return any(version == room.version for version in room.bots.pending.values())


async def drive(room: Table, seat: int = 0, patience: float = 1.0, most: float = 60.0) -> bool:
    """Play ``seat`` to the end of the game: whenever it may act, its first legal move from
    its own view, with the current version, at once (as a quick player on a socket would).
    False if the table stood still for ``patience`` seconds with only bots to act and none
    of them deciding on the current version (a frozen table, not a slow decision: a Rummy
    decision on a machine as loaded as ``make test``'s took longer once), or after ``most``
    seconds in all."""
    changed = asyncio.Event()
    conn, _ = room.subscribe(G0, lambda message: changed.set(), None)
    deadline = time.monotonic() + most
    try:
        while not room.finished:
            if seat in room.game.actors(room.state):
                legal = room.game.view(room.state, seat)["legal"]
                if legal:
                    await room.submit(G0, room.version, legal[0])
                    continue
            changed.clear()
            try:
                await asyncio.wait_for(changed.wait(), patience)
            except TimeoutError:
                if thinking(room) and time.monotonic() < deadline:
                    continue
                return False
        return True
    finally:
        room.unsubscribe(conn)


@pytest.mark.slow
async def test_every_game_with_bots_finishes(
    lives: Lives, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    slow_machine(monkeypatch)
    # the watchdog checks often, and must stay silent: these tables are healthy
    settings = Settings(bot_pace=0, clocks={"window": 0.05}, watchdog_seconds=0.05)
    live = lives(settings)
    frozen = []
    for kind, players, level, seed in GAMES:
        room = await live.tables.create(kind, {"players": players}, G0, level=level, seed=seed)
        if not await drive(room):
            frozen.append((kind, players, level, seed, room.version))
    assert frozen == [], f"{len(frozen)} of {len(GAMES)} games froze: {frozen}"
    assert WATCHDOG not in caplog.text


# seat 0 (the player) is to play; seat 1 (a bot) holds two cards and may call One Card now,
# but a normal bot calls only once left with one card: it answers "nothing now"
TWO_CARDS = {
    "hands": ["5H 9C 4S", "5S 3D"],
    "discard": "5D",
    "stock": "4C 4D 8H 8S 6C 6H 7C 7D",
    "turn": 0,
}
SEATS = [
    {"kind": "human", "guest": G0, "name": "Ana"},
    {"kind": "bot", "level": "normal", "name": "Luis"},
]


async def open_at(
    store: Store,
    tables: Tables,
    position: dict[str, Any],
    settings: Settings,
    level: str = "normal",
) -> Table:
    seats = [SEATS[0], {**SEATS[1], "level": level}]
    record = await store.create_game(
        "onecard", {"players": 2}, 1, seats, G0, position=onecard.dump(onecard.load(position))
    )
    return await tables(record, settings)


async def test_a_bot_asked_before_the_player_moved_is_asked_again(
    store: Store, tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[tuple[int, int]] = []  # (whose turn, cards in hand) of each view asked on
    answers: dict[int, Any] = {}  # by the order asked (they may come back in another)
    thinking, release, stale = threading.Event(), threading.Event(), threading.Event()

    def gated(real: Chooser) -> Chooser:
        def decide(view: dict[str, Any], level: str) -> Any:
            asked.append((view["turn"], len(view["hand"])))
            n = len(asked) - 1
            if n == 0:  # the first decision is still being made when the player moves
                thinking.set()
                release.wait(5)
            answers[n] = real(view, "normal")  # (normal's play, decided in a thread)
            if n == 0:
                stale.set()
            return answers[n]

        return decide

    patch_bots(monkeypatch, "onecard", gated)
    settings = Settings(bot_pace=0, clocks={"window": 30})
    room = await open_at(store, tables, TWO_CARDS, settings, "dificil")  # (decided in a thread)
    try:
        assert 1 in room.game.actors(room.state)  # it may call: it is asked
        assert await asyncio.to_thread(thinking.wait, 5)
        assert await room.submit(G0, 0, {"type": "play", "card": "5H"}) is None
        assert room.version == 1 and room.state.turn == 1
    finally:
        release.set()  # the stale decision comes back: "nothing now", for version 0
    assert await asyncio.to_thread(stale.wait, 5)  # the stale answer is back
    await room.settled()
    assert asked[0] == (0, 2) and answers[0] is None
    assert (1, 2) in asked[1:]  # asked again, on its turn
    assert room.version >= 2 and room.history[1].seat == 1  # and it played: the game goes on


async def test_nothing_to_do_is_not_asked_again_until_the_table_moves(
    store: Store, tables: Tables, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    asked: list[int] = []

    def counting(real: Chooser) -> Chooser:
        def decide(view: dict[str, Any], level: str) -> Any:
            asked.append(view["turn"])
            return real(view, level)

        return decide

    patch_bots(monkeypatch, "onecard", counting)
    settings = Settings(bot_pace=0, clocks={"window": 30}, watchdog_seconds=0.02)
    room = await open_at(store, tables, TWO_CARDS, settings)
    await asyncio.sleep(0.3)  # fifteen watchdog rounds while the player thinks
    assert asked == [0]  # asked once on version 0: it answered nothing, and is left alone
    assert not room.bots.pending and not room.bots.deciding
    assert await room.submit(G0, 0, {"type": "play", "card": "5H"}) is None
    await room.settled()
    assert asked[1] == 1 and room.history[1].seat == 1  # the table moved: asked, and played
    assert WATCHDOG not in caplog.text


# seat 1 (a bot) is to play
BOT_TO_PLAY = {
    "hands": ["5H 9C 4S", "5S 3D 9D KC"],
    "discard": "5D",
    "stock": "4C 4D 8H 8S 6C 6H 7C 7D",
    "turn": 1,
}


@pytest.mark.parametrize("broken", ["lost_decision", "no_record"])
async def test_the_watchdog_repairs_a_table_nobody_asks(
    store: Store, tables: Tables, caplog: pytest.LogCaptureFixture, broken: str
) -> None:
    interval = 0.1
    settings = Settings(bot_pace=0, watchdog_seconds=interval)
    room = await open_at(store, tables, BOT_TO_PLAY, settings, "dificil")  # (a thread's task)
    # break the bookkeeping on purpose: the bot's decision, asked on opening, is lost...
    assert room.bots.pending == {1: 0}
    room.bots.deciding.pop(1).cancel()
    if broken == "no_record":  # ...and forgotten as well
        room.bots.pending.clear()
    await asyncio.sleep(interval / 2)
    assert room.version == 0  # nothing moves by itself
    await asyncio.sleep(interval * 2)
    await room.settled()
    assert room.version >= 1 and room.history[0].seat == 1  # the bot was asked, and played
    warnings = [r for r in caplog.records if WATCHDOG in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING
    assert room.id in warnings[0].getMessage() and "seat 1" in warnings[0].getMessage()


async def test_the_watchdog_stays_silent_while_bots_think(
    store: Store, tables: Tables, caplog: pytest.LogCaptureFixture
) -> None:
    # every decision waits 0.03 s: the watchdog, every 0.01 s, sees bots deciding
    settings = Settings(bot_pace=0, bot_delay=0.03, clocks={"window": 0.05}, watchdog_seconds=0.01)
    record = await store.create_game(
        "onecard", {"players": 3}, 3, [SEATS[0], SEATS[1], {**SEATS[1], "name": "Marta"}], G0
    )
    room = await tables(record, settings)
    assert await drive(room)
    assert room.finished
    assert WATCHDOG not in caplog.text
