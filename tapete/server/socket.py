"""The WebSocket endpoint: parses, forwards typed messages to rooms, sends what they emit.

A connection has one writer task and a queue; the room never waits on a slow client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from tapete.rooms import Room, error
from tapete.server.render import lang_of
from tapete.server.state import Hall, guest_of

MAX_MESSAGE = 4096
"""Largest WebSocket message a client may send, in bytes."""

Joined = tuple[Room, int]
Out = asyncio.Queue[dict[str, Any] | None]


class Sockets:
    def __init__(self, hall: Hall) -> None:
        self.hall = hall

    async def endpoint(self, ws: WebSocket) -> None:
        await ws.accept()
        guest = guest_of(ws)
        lang = lang_of(ws)
        out: Out = asyncio.Queue()

        async def writer() -> None:
            while True:
                message = await out.get()
                if message is None:
                    return
                await ws.send_text(json.dumps(message, ensure_ascii=False, separators=(",", ":")))

        writer_task = asyncio.create_task(writer())
        joined: Joined | None = None
        try:
            while True:
                text = await ws.receive_text()
                reply = await self.handle(text, guest, lang, out, joined)
                if isinstance(reply, tuple):
                    joined = reply
                elif reply is not None:
                    out.put_nowait(reply)
        except WebSocketDisconnect:
            pass
        finally:
            if joined is not None:
                joined[0].unsubscribe(joined[1])
            out.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer_task

    async def handle(
        self, text: str, guest: str | None, lang: str, out: Out, joined: Joined | None
    ) -> dict[str, Any] | Joined | None:
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
            game_id = msg.get("game")
            room = (
                await self.hall.rooms.get(game_id) if isinstance(game_id, str) and game_id else None
            )
            if room is None or room.seat_of(guest) is None:
                return error("not_your_game", lang)
            if joined is not None:
                joined[0].unsubscribe(joined[1])
            since = msg.get("version")
            conn, message = room.subscribe(
                guest, out.put_nowait, since if type(since) is int else None, lang
            )
            out.put_nowait(message)
            return (room, conn)
        if joined is None:
            return error("not_joined", lang) if kind in ROOM_MESSAGES else unknown(kind, lang)
        room = joined[0]
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


ROOM_MESSAGES = frozenset({"move", "check", "hint", "sync"})
"""Messages that need a joined game."""


def unknown(kind: str, lang: str) -> dict[str, Any]:
    return error("unknown_type", lang, type=kind[:40])
