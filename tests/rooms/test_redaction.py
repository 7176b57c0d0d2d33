"""Hidden information never reaches a seat that may not see it, read from what each seat is
actually sent: 2–4 humans at One Card and Rummy tables over many seeded games, every frame
(the joined message, every update with its view and events) checked against the other seats'
hands (racks) and the stock (pool) at that moment."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest

from tapete.rooms import Settings, Table
from tapete.store import Store
from tests.lives import Tables

CARD = re.compile(r"\b(?:10|[2-9JQKA])[HDCS]\b|\bJK[12]\b")
TILE = re.compile(r'"((?:1[0-3]|[1-9])[RANO]|J)"')
FAST = Settings(bot_pace=0, clocks={"window": 0.01})


def guests(n: int) -> list[str]:
    return [f"guest-{i}-" + "x" * 16 for i in range(n)]


async def open_table(store: Store, tables: Tables, kind: str, players: int, seed: int) -> Table:
    seats = [{"kind": "human", "guest": g, "name": f"P{i}"} for i, g in enumerate(guests(players))]
    record = await store.create_game(kind, {"players": players}, seed, seats, guests(1)[0])
    return await tables(record, FAST)


def hidden_one_card(room: Table, seat: int) -> Counter[str]:
    """What ``seat`` may not see now: the others' hands and the stock."""
    from tapete.games import onecard

    others = [c for s, h in enumerate(room.state.hands) if s != seat for c in h]
    return Counter(onecard.code(c) for c in others + list(room.state.stock))


def hidden_rummy(room: Table, seat: int) -> Counter[str]:
    from tapete.tiles import text

    others = [t for s, r in enumerate(room.state.racks) if s != seat for t in r]
    return Counter(text(t) for t in others + list(room.state.pool))


def visible_rummy(room: Table, seat: int) -> Counter[str]:
    """What ``seat`` may see: its rack and the table."""
    from tapete.tiles import text

    mine = list(room.state.racks[seat]) + [t for s in room.state.table for t in s]
    return Counter(text(t) for t in mine)


def without_history(frame: dict[str, Any]) -> dict[str, Any]:
    """A frame without the log of past plays: every card in it was played face up for all
    to see (some are back in a reshuffled stock by now, which is no secret); nor the game's
    random id, which may spell a card («…-2C»)."""
    frame = {k: v for k, v in frame.items() if k != "game"}
    view = frame.get("view")
    if isinstance(view, dict) and "log" in view:
        return {**frame, "view": {k: v for k, v in view.items() if k != "log"}}
    return frame


async def play(room: Table, kind: str, seed: int, moves: int) -> int:
    """Play ``moves`` random legal moves, each checked frame by frame; returns frames read."""
    inboxes: list[list[dict[str, Any]]] = []
    players = len(room.record.seats)
    for g in guests(players):
        box: list[Any] = []
        _, joined = room.subscribe(g, box.append, None)
        box.append(joined)
        inboxes.append(box)
    pick = random.Random(seed)
    read = 0

    def check() -> int:
        n = 0
        for seat, box in enumerate(inboxes):
            for frame in box:
                text = json.dumps(without_history(frame))
                if kind == "onecard":
                    leaked = set(CARD.findall(text)) & set(hidden_one_card(room, seat))
                    assert not leaked, (seat, leaked, frame)
                else:
                    view = frame.get("view") or {}
                    if view.get("waiting") or view.get("result"):
                        continue  # the hand is over: every rack is shown
                    # two of every tile: a code is a leak only if this seat can see no copy
                    seen = set(TILE.findall(text))
                    hidden = set(hidden_rummy(room, seat)) - set(visible_rummy(room, seat))
                    leaked = seen & hidden
                    assert not leaked, (seat, leaked, frame)
                n += 1
            box.clear()
        return n

    read += check()
    for _ in range(moves):
        if room.finished:
            break
        actors = room.game.actors(room.state)
        if not actors:
            await room.settled()
            continue
        seat = pick.choice(actors)
        legal = room.game.legal_moves(room.state, seat)
        move = room.spec.move_json(pick.choice(legal))
        error = await room.submit(guests(players)[seat], room.version, move)
        read += check()
        if error is not None and error["code"] == "stale_version":
            # One Card's catch window (0.01 s here) closed between our reading the table and
            # our move: as a player would, read the table again and choose again
            continue
        assert error is None, error
    return read


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_one_card_frames_hold_no_other_hand_nor_the_stock(
    store: Store, tables: Tables, players: int
) -> None:
    frames = 0
    for seed in range(8):
        room = await open_table(store, tables, "onecard", players, seed * 31 + players)
        frames += await play(room, "onecard", seed, moves=120)
        await room.close()
    assert frames > 1000


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_rummy_frames_hold_no_other_rack_nor_the_pool(
    store: Store, tables: Tables, players: int
) -> None:
    frames = 0
    for seed in range(10):
        room = await open_table(store, tables, "rummy", players, seed * 17 + players)
        frames += await play(room, "rummy", seed, moves=150)
        await room.close()
    assert frames > 1000
