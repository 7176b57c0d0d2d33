"""One device passed round (pass-and-play, :mod:`tapete.rooms.device`): every frame the
device is sent holds the hand of the seat it was handed to at that moment and nobody
else's — read from what is actually sent, over many seeded games of One Card and Rummy
at 2–4 players — and the hand-over itself: nothing moves before it, only the seat whose
turn it is may take the device."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tapete.games.protocol import IllegalMove
from tapete.registry import REGISTRY
from tapete.rooms import Settings, Table
from tapete.rooms.device import MAX_NAME, Device, device_seats
from tapete.store import Store
from tests.lives import Tables
from tests.rooms.test_redaction import (
    CARD,
    TILE,
    hidden_one_card,
    hidden_rummy,
    visible_rummy,
    without_history,
)

OWNER = "owner-" + "x" * 20
FAST = Settings(bot_pace=0, clocks={"window": 0.01})
NAMES = ["Ana", "Leo", "Marta", "Iker"]


def _hides(kind: str) -> bool:
    """Whether a game on one device hides a hand at its start (a hand-over first)."""
    spec = REGISTRY[kind].game
    rules = spec.pass_and_play
    return rules is not None and rules.holder(spec.rules.new(spec.parse_config({}), 1)) is not None


HIDING = [k for k in REGISTRY if _hides(k)]
"""The games whose device hides hands (One Card, Rummy: :func:`leaks` reads their state)."""


async def open_device(store: Store, tables: Tables, kind: str, players: int, seed: int) -> Table:
    seats = device_seats(REGISTRY[kind], players, OWNER, NAMES[:players])
    record = await store.create_game(kind, {"players": players}, seed, seats, OWNER)
    return await tables(record, FAST)


def leaks(room: Table, kind: str, seat: int | None, frame: dict[str, Any]) -> set[str]:
    """What of the others' hands (and the stock) ``frame``, sent while the device showed
    ``seat`` (None: nobody's), holds."""
    text = json.dumps(without_history(frame))
    if kind == "onecard":
        hidden = set(hidden_one_card(room, -1 if seat is None else seat))
        return set(CARD.findall(text)) & hidden
    view = frame.get("view") or {}
    if view.get("waiting") or view.get("result"):
        return set()  # the hand is over: every rack is shown
    seen = set(TILE.findall(text))
    if seat is None:
        return seen & set(hidden_rummy(room, -1))
    return seen & (set(hidden_rummy(room, seat)) - set(visible_rummy(room, seat)))


async def play(room: Table, kind: str, seed: int, moves: int) -> tuple[int, int]:
    """Play ``moves`` random legal moves on the device, handing it on as the page would
    (and sometimes first to the wrong seat, or moving before the hand-over); every frame is
    checked. Returns the frames read and the hand-overs made."""
    box: list[Any] = []
    _, joined = room.subscribe(OWNER, box.append, None)
    box.append(joined)
    pick = random.Random(seed)
    handed: list[int | None] = [None]  # the seat the device was last handed to
    read = handovers = 0

    def check() -> int:
        for frame in box:
            leaked = leaks(room, kind, handed[0], frame)
            assert not leaked, (handed[0], leaked, frame)
        n = len(box)
        box.clear()
        return n

    read += check()
    for _ in range(moves):
        if room.finished:
            break
        await room.durable()
        waits = room.device.waits_for(room.state, room.finished) if room.device else None
        if waits is not None:
            if pick.random() < 0.2:  # a move before the hand-over: refused, nothing changes
                version = room.version
                error = await room.submit(OWNER, version, {"type": "draw"})
                assert error is not None and error["code"] == "hand_over", error
                assert NAMES[waits] in error["message"] and room.version == version
            if pick.random() < 0.2:  # someone else taps «Soy …»: refused
                other = (waits + 1) % len(room.record.seats)
                assert room.hand_over(OWNER, other)["code"] == "not_your_turn"  # type: ignore[index]
            read += check()
            assert room.hand_over(OWNER, waits) is None
            handed[0] = waits
            handovers += 1
            assert box[-1]["type"] == "joined" and box[-1]["seat"] == waits
            read += check()
            continue
        seat = room.view_seat(OWNER)
        actors = room.game.actors(room.state)
        if seat is None or seat not in actors:
            await room.settled()
            continue
        legal = room.game.legal_moves(room.state, seat)
        move = room.spec.move_json(pick.choice(legal))
        error = await room.submit(OWNER, room.version, move)
        await room.settled()
        read += check()
        if error is not None and error["code"] == "stale_version":
            continue  # (One Card's catch window closed meanwhile: read the table again)
        assert error is None, error
    return read, handovers


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("kind", HIDING)
async def test_device_frames_hold_only_the_shown_hand(
    store: Store, tables: Tables, kind: str, players: int
) -> None:
    frames = handovers = 0
    for seed in range(5):
        room = await open_device(store, tables, kind, players, seed * 13 + players)
        f, h = await play(room, kind, seed, moves=150)
        frames, handovers = frames + f, handovers + h
        await room.close()
    assert frames > 500 and handovers > 60


async def test_the_device_opens_on_the_hand_over_to_the_first_player(
    store: Store, tables: Tables
) -> None:
    room = await open_device(store, tables, "onecard", 3, 5)
    joined = room.joined(OWNER)
    holder = room.state.turn
    assert joined["seat"] is None and joined["device"] is True
    assert joined["view"]["hand"] is None
    assert joined["handover"] == {"seat": holder, "name": NAMES[holder]}
    assert [s["name"] for s in joined["seats"]] == NAMES[:3]
    assert not any(s["you"] for s in joined["seats"])  # nobody at the device is «Tú»
    assert room.hand_over(OWNER, holder) is None
    shown = room.joined(OWNER)
    assert shown["seat"] == holder and "handover" not in shown
    assert len(shown["view"]["hand"]) == 7
    await room.close()


async def test_after_a_move_the_device_waits_for_the_next_player(
    store: Store, tables: Tables
) -> None:
    position = {
        "game": "onecard",
        "hands": ["5H 9C KD", "6S 8D JC"],
        "stock": "2C 3C 4C 5C 6C 7S 8S",
        "discard": "5D",
        "turn": 0,
    }
    seats = device_seats(REGISTRY["onecard"], 2, OWNER, ["Ana", "Leo"])
    record = await store.create_game("onecard", {"players": 2}, 1, seats, OWNER, position=position)
    room = await tables(record, FAST)
    box: list[Any] = []
    room.subscribe(OWNER, box.append, None)
    assert room.hand_over(OWNER, 0) is None
    assert await room.submit(OWNER, room.version, {"type": "play", "card": "5H"}) is None
    await room.settled()
    update, joined = box[-2], box[-1]
    assert update["type"] == "update" and sorted(update["view"]["hand"]) == ["9C", "KD"]  # Ana's
    assert joined["type"] == "joined" and joined["seat"] is None
    assert joined["handover"] == {"seat": 1, "name": "Leo"}
    assert joined["view"]["hand"] is None and "6S" not in json.dumps(joined)
    # Ana may not play Leo's turn, nor see his hand by asking again
    error = await room.submit(OWNER, room.version, {"type": "draw"})
    assert error is not None and error["code"] == "hand_over"
    assert error["message"] == "Antes, pasa el móvil a Leo: que toque «Soy Leo»."
    assert room.view_message(room.view_seat(OWNER))["view"]["hand"] is None
    assert room.hand_over(OWNER, 0) == {
        "type": "error",
        "code": "not_your_turn",
        "message": "No es tu turno.",
    }
    assert room.hand_over(OWNER, 1) is None
    assert box[-1]["type"] == "joined" and box[-1]["seat"] == 1
    assert sorted(box[-1]["view"]["hand"]) == ["6S", "8D", "JC"]
    await room.close()


async def test_la_guerra_on_one_device_turns_every_card_at_once(
    store: Store, tables: Tables
) -> None:
    seats = device_seats(REGISTRY["guerra"], 3, OWNER, ["Ana", "Leo", "Marta"])
    record = await store.create_game("guerra", {"players": 3}, 9, seats, OWNER)
    room = await tables(record, FAST)
    joined = room.joined(OWNER)
    assert "handover" not in joined  # nothing hidden: no hand-over
    assert joined["seat"] is None  # (the page names everyone: nobody at the device is «tú»)
    assert joined["view"]["legal"] == [{"type": "turn"}]  # (what the device may do)
    assert room.hand_over(OWNER, 1)["code"] == "not_your_turn"  # type: ignore[index]
    assert await room.submit(OWNER, room.version, {"type": "turn"}) is None
    await room.settled()
    assert room.version == 3  # one tap: the three players' cards
    assert sorted(m.seat for m in await store.moves(room.id)) == [0, 1, 2]
    await room.close()


async def test_a_spectator_or_a_stranger_cannot_take_the_device(
    store: Store, tables: Tables
) -> None:
    room = await open_device(store, tables, "onecard", 2, 3)
    assert room.hand_over("someone-else-" + "y" * 12, room.state.turn)["code"] == "no_device"  # type: ignore[index]
    assert room.hand_over(OWNER, "0")["code"] == "not_your_turn"  # type: ignore[index]
    await room.close()


def test_the_seats_of_a_device_and_their_names() -> None:
    seats = device_seats(REGISTRY["rummy"], 3, OWNER, ["  Ana  María ", "", "Leo"])
    assert seats == [
        {"kind": "human", "guest": OWNER, "name": "Ana María"},
        {"kind": "local"},
        {"kind": "local", "name": "Leo"},
    ]
    device = Device.of(REGISTRY["rummy"], seats)
    assert device is not None and device.owner == 0 and device.seats == {0, 1, 2}
    with pytest.raises(IllegalMove) as too_long:
        device_seats(REGISTRY["rummy"], 2, OWNER, ["Ana", "L" * (MAX_NAME + 1)])
    assert too_long.value.params == {"field": "name"}
    with pytest.raises(IllegalMove):  # El Peaje plays one phone within its own rules
        device_seats(REGISTRY["peaje"], 2, OWNER, ["Ana", "Leo"])
    # a game among friends, or against bots, is not played on one device
    humans = [{"kind": "human", "guest": f"g{i}"} for i in range(2)]
    assert Device.of(REGISTRY["onecard"], humans) is None
    bots: list[dict[str, Any]] = [
        {"kind": "human", "guest": OWNER},
        {"kind": "bot", "level": "normal", "n": 1},
    ]
    assert Device.of(REGISTRY["onecard"], bots) is None
