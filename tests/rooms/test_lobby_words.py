"""A private room's seats as each member reads them: its bots named in that member's
language («Ordenador 1», "Computer 1"), never as the message id they are kept as."""

from __future__ import annotations

from typing import Any

from tapete.rooms import Settings
from tapete.rooms.private_room import PrivateRoom
from tests.lives import Lives
from tests.rooms.conftest import room_action

HOST, ANA = "host-" + "h" * 19, "ana-" + "a" * 20
FAST = Settings(bot_pace=0)


async def act(lobby: PrivateRoom, guest: str, action: str, **fields: Any) -> dict[str, Any] | None:
    return await lobby.act(
        guest, room_action({"action": action, "version": lobby.version, **fields})
    )


async def test_a_rooms_bots_are_named_in_each_members_language(lives: Lives) -> None:
    live = lives(FAST)
    lobby = await live.rooms.create("guerra", {"config": {"players": 3}}, HOST, "Host")
    assert await act(lobby, HOST, "bot", seat=1, level="normal") is None
    english = [s["name"] for s in lobby.state(HOST, "en")["seats"]]
    spanish = [s["name"] for s in lobby.state(HOST, "es")["seats"]]
    assert english[:2] == ["Host", "Computer 1"] and spanish[:2] == ["Host", "Ordenador 1"]
    sent: list[Any] = []
    lobby.enter(ANA, sent.append, "en")  # a friend reading English, watching
    assert await act(lobby, HOST, "bot", seat=2, level="normal") is None
    assert [s["name"] for s in sent[-1]["seats"]][1:] == ["Computer 1", "Computer 2"]
