"""The WebSocket endpoint: parses, forwards typed messages to rooms, sends what they emit.

A connection has one writer task and a queue; the room never waits on a slow client. A
connection may be in one game (``join``) and in one private room (``enter``) at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from tapete.rooms import Room, error
from tapete.rooms.lobby import Lobby, lobby_error
from tapete.server.origin import socket_allowed
from tapete.server.render import lang_of
from tapete.server.state import Hall, guest_of

MAX_MESSAGE = 4096
"""Largest WebSocket message a client may send, in bytes."""

Out = asyncio.Queue[dict[str, Any] | None]


@dataclass(slots=True)
class Conn:
    guest: str | None
    lang: str
    out: Out
    game: tuple[Room, int] | None = None
    lobby: tuple[Lobby, int] | None = None

    def leave(self) -> None:
        if self.game is not None:
            self.game[0].unsubscribe(self.game[1])
            self.game = None
        if self.lobby is not None:
            self.lobby[0].leave_conn(self.lobby[1])
            self.lobby = None


class Sockets:
    def __init__(self, hall: Hall) -> None:
        self.hall = hall

    async def endpoint(self, ws: WebSocket) -> None:
        if not socket_allowed(ws.scope, self.hall.limits):  # another site's page (4003)
            await ws.close(code=4003)
            return
        await ws.accept()
        conn = Conn(guest_of(ws), lang_of(ws), asyncio.Queue())

        async def writer() -> None:
            while True:
                message = await conn.out.get()
                if message is None:
                    return
                await ws.send_text(json.dumps(message, ensure_ascii=False, separators=(",", ":")))

        writer_task = asyncio.create_task(writer())
        try:
            while True:
                text = await ws.receive_text()
                reply = await self.handle(text, conn)
                if reply is not None:
                    conn.out.put_nowait(reply)
        except WebSocketDisconnect:
            pass
        finally:
            conn.leave()
            conn.out.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer_task

    async def handle(self, text: str, conn: Conn) -> dict[str, Any] | None:
        lang, guest = conn.lang, conn.guest
        if len(text) > MAX_MESSAGE:
            return error("bad_message", lang, detail=f"> {MAX_MESSAGE} bytes")
        try:
            msg = json.loads(text)
        except ValueError:
            return error("bad_json", lang)
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            return error("bad_message", lang, detail="type")
        kind = msg["type"]
        ref = msg.get("ref")
        if kind == "ping":
            return {"type": "pong", "ref": ref}
        if kind == "join":
            return await self.join(msg, conn)
        if kind == "enter":
            return await self.enter(msg, conn)
        if kind == "lobby":
            if conn.lobby is None:
                return error("not_joined", lang)
            reply = await conn.lobby[0].act(guest, msg, lang)
            if reply is not None:
                reply["ref"] = ref
            return reply
        if conn.game is None:
            return error("not_joined", lang) if kind in ROOM_MESSAGES else unknown(kind, lang)
        room = conn.game[0]
        if kind == "move":
            reply = await room.submit(guest, msg.get("version"), msg.get("move"), lang)
            if reply is not None:
                reply["ref"] = ref
            return reply
        if kind == "check":
            reply = room.check_draft(guest, msg.get("table"), lang)
            reply["ref"] = ref
            return reply
        if kind == "hint":
            return await room.hint(guest, lang)
        if kind == "sync":
            return dict(room.view_message(room.seat_of(guest)))
        return unknown(kind, lang)

    async def join(self, msg: dict[str, Any], conn: Conn) -> dict[str, Any] | None:
        """Subscribe to a game: a seat's own, or (a game among friends) as a spectator."""
        game_id = msg.get("game")
        room = await self.hall.rooms.get(game_id) if isinstance(game_id, str) and game_id else None
        if room is None or (room.seat_of(conn.guest) is None and not room.online):
            return error("not_your_game", conn.lang)
        if conn.game is not None:
            conn.game[0].unsubscribe(conn.game[1])
        since = msg.get("version")
        cid, message = room.subscribe(
            conn.guest, conn.out.put_nowait, since if type(since) is int else None, conn.lang
        )
        conn.game = (room, cid)
        conn.out.put_nowait(message)
        return None

    async def enter(self, msg: dict[str, Any], conn: Conn) -> dict[str, Any] | None:
        """Be in a private room: its state now and every change (``lobby`` messages)."""
        lobby = await self.hall.rooms.lobby(msg.get("room"))
        if lobby is None:
            return lobby_error("room_not_found", conn.lang)
        if conn.lobby is not None:
            conn.lobby[0].leave_conn(conn.lobby[1])
        cid, state = lobby.enter(conn.guest, conn.out.put_nowait, conn.lang)
        conn.lobby = (lobby, cid)
        return state


ROOM_MESSAGES = frozenset({"move", "check", "hint", "sync"})
"""Messages that need a joined game."""


def unknown(kind: str, lang: str) -> dict[str, Any]:
    return error("unknown_type", lang, type=kind[:40])
