"""What the app holds while it runs: the store, the rooms, the cookie signer."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.websockets import WebSocket

from tapete.i18n import text
from tapete.registry import REGISTRY, Entry
from tapete.rooms import Rooms, Settings
from tapete.server.guests import Guests
from tapete.server.limits import Limits
from tapete.store import Store, migrate

log = logging.getLogger(__name__)


class Hall:
    def __init__(self, url: str, settings: Settings, limits: Limits | None = None) -> None:
        self.url = url
        self.limits = limits or Limits()
        self.settings = replace(
            settings,
            hint_threads=self.limits.hint_threads,
            hints_per_minute=self.limits.hints_per_minute,
        )
        """How rooms run, with the limits that are theirs to keep (hints)."""
        self.store: Store | None = None
        self._rooms: Rooms | None = None
        self.guests: Guests | None = None

    async def start(self) -> None:
        await asyncio.to_thread(migrate, self.url)
        self.store = Store(self.url)
        self.guests = Guests(await self.store.secret())
        self._rooms = Rooms(self.store, self.settings)
        resumed = await self._rooms.start()
        log.info("resumed %d unfinished games", resumed)

    async def stop(self) -> None:
        if self._rooms is not None:
            await self._rooms.close()
        if self.store is not None:
            await self.store.close()

    @property
    def rooms(self) -> Rooms:
        assert self._rooms is not None, "the hall has not started"
        return self._rooms

    async def store_name(self, guest: str | None) -> str | None:
        """The display name the guest chose last (remembered), if any."""
        if guest is None or self.store is None:
            return None
        return await self.store.guest_name(guest)

    async def active_game(
        self, guest: str | None, lang: str, kind: str | None = None
    ) -> dict[str, Any] | None:
        """The guest's newest unfinished game (of ``kind``), for «Continuar partida»."""
        if guest is None or self.store is None:
            return None
        records = await self.store.games_of(guest, kind)
        if not records or records[0].kind not in REGISTRY:
            return None
        r = records[0]
        return {
            "id": r.id,
            "kind": r.kind,
            "title": text(r.kind, lang, REGISTRY[r.kind].game.hall.title),
            "url": f"/partida/{r.id}",
        }


def guest_of(request: Request | WebSocket) -> str | None:
    guest = request.scope.get("state", {}).get("guest")
    return guest if isinstance(guest, str) else None


def playable(kind: object) -> Entry | None:
    return REGISTRY.get(kind) if isinstance(kind, str) else None
