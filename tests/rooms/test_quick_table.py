"""A table of strangers («Jugar ahora») at the rooms layer: made with the game's standard
options, started at once, rated for games of skill, seats named by public names, and nobody
hosting it (RULES.md «Quick play»)."""

from __future__ import annotations

from typing import Any

import pytest

from tapete.games.protocol import IllegalMove
from tapete.rooms import Settings
from tapete.rooms.private_room import PrivateRoom, check_options
from tapete.store import Store
from tests.lives import Lives
from tests.rooms.conftest import room_action

ANA, BEA, EVE = "ana-" + "a" * 20, "bea-" + "b" * 20, "eve-" + "e" * 20
FAST = Settings(bot_pace=0, grace_seconds=5, watchdog_seconds=0.05)


def seats(*guests: str, bots: int = 0) -> list[dict[str, Any]]:
    people = [
        {"kind": "human", "guest": g, "name": g[:3].title(), "public": p}
        for g, p in zip(guests, ("zorro-azul", "lince-leal", "oso-feliz"), strict=False)
    ]
    return people + [{"kind": "bot", "level": "normal", "n": len(people) + i} for i in range(bots)]


async def act(room: PrivateRoom, guest: str, action: str, **fields: Any) -> dict[str, Any] | None:
    return await room.act(guest, room_action({"action": action, "version": room.version, **fields}))


async def test_a_table_of_strangers_starts_at_once_rated_with_the_standard_options(
    store: Store, lives: Lives
) -> None:
    live = lives(FAST)
    room = await live.rooms.create_quick("onecard", seats(ANA, BEA, bots=1))
    assert room.record.quick and room.record.status == "playing" and room.record.games == 1
    assert room.record.options == {
        "config": {"players": 3, "two_attack": False, "jokers": False, "king_again": False,
                   "three_blocks": False, "no_special_finish": False, "penalty": 2},
        "clock": 30.0,
        "rated": True,
    }  # fmt: skip
    game_id = room.record.game_id
    assert game_id is not None
    record = await store.game(game_id)
    assert record is not None and record.rated and record.room_id == room.record.id
    assert [s.get("public") for s in record.seats] == ["zorro-azul", "lince-leal", None]
    state = room.state(ANA, "en")
    assert [s["name"] for s in state["seats"]] == ["Blue Fox", "Loyal Lynx", "Ana"]  # a bot
    assert [s["kind"] for s in state["seats"]] == ["human", "human", "bot"]
    # stored as it is: opened again from the store, the same
    again = await store.room(room.code)
    assert again is not None and again.quick and again.seats[1]["public"] == "lince-leal"


async def test_la_guerra_is_matched_but_never_rated(store: Store, lives: Lives) -> None:
    live = lives(FAST)
    room = await live.rooms.create_quick("guerra", seats(ANA, bots=1))
    assert room.record.options["rated"] is False
    record = await store.game(room.record.game_id or "")
    assert record is not None and not record.rated


async def test_nobody_hosts_a_table_of_strangers_and_nobody_joins_it_by_its_code(
    lives: Lives,
) -> None:
    live = lives(FAST)
    room = await live.rooms.create_quick("onecard", seats(ANA, BEA))
    version = room.version
    tries: list[tuple[str, str, dict[str, Any]]] = [
        (EVE, "take", {"name": "Eve"}),
        (ANA, "start", {}),
        (ANA, "remove", {"seat": 1}),
        (ANA, "bot", {"seat": 1, "level": "normal"}),
        (ANA, "options", {"options": {"config": {"players": 2}}}),
    ]
    for guest, action, fields in tries:
        refused = await act(room, guest, action, **fields)
        assert refused is not None and refused["code"] == "quick_table", (action, refused)
    assert room.version == version and room.seat_of(EVE) is None
    # a reaction is still a reaction
    assert await act(room, ANA, "react", key="suerte") is None


def test_a_private_room_may_be_rated_only_for_a_game_of_skill() -> None:
    assert check_options("onecard", {"config": {}, "rated": True})["rated"] is True
    assert check_options("onecard", {"config": {}})["rated"] is False
    for kind, options, code in [
        ("guerra", {"config": {}, "rated": True}, "not_rated"),
        ("onecard", {"config": {}, "rated": "yes"}, "bad_config"),
    ]:
        with pytest.raises(IllegalMove) as refused:
            check_options(kind, options)
        assert refused.value.code == code
