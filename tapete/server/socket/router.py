"""The one way in for what a socket sends: decode it (once, :func:`~tapete.rooms.messages.
decode`), find who runs what it is for — this process, or another (:mod:`.relay`) — and
hand it over; the answer, if any, goes back on the socket.

A message from another process's socket, relayed here because this process runs its table
or room, goes through the same :meth:`Router.handle`, for a connection standing here for
that socket (:class:`~tapete.server.socket.relay.RemoteConn`).
"""

from __future__ import annotations

import asyncio
import logging

import msgspec

from tapete.aio import running_loop
from tapete.cluster import Node, Unreachable
from tapete.rooms import Elsewhere, PrivateRoom, Table, TableClosed, error
from tapete.rooms.inbox import Message, Moved, What
from tapete.rooms.messages import (
    Check,
    ClientMessageType,
    Enter,
    Handover,
    Hint,
    Join,
    Lobby,
    Move,
    Ping,
    Refusal,
    Sync,
    decode,
    raw_json,
)
from tapete.rooms.private_room import room_error
from tapete.server.socket.conn import Conn, Here, There
from tapete.server.socket.relay import Relay
from tapete.server.state import Hall

log = logging.getLogger(__name__)

CLOSE_REVOKED = 4001
"""Close code: the guest's account was deleted (its cookie is revoked)."""
CLOSE_UNAVAILABLE = 1012
"""Close code: what the socket followed could not be joined again."""
REJOIN_DELAY = 0.2
"""Seconds before a socket joins again a table that moved (the next owner takes it)."""
REJOIN_TRIES = 60
"""How many times, a second apart after the first, before the socket is closed (1012)."""


class Router:
    """Where every socket message of this process goes (and every one relayed to it)."""

    def __init__(self, hall: Hall, node: Node | None = None) -> None:
        self.hall = hall
        self.relay = Relay(node, hall.limits, self.handle, self.moved) if node else None
        """Several processes: the sockets whose table or room another process runs, and
        the other processes' sockets in the tables and rooms run here."""
        self._rejoining: set[asyncio.Task[None]] = set()

    async def close(self) -> None:
        for task in list(self._rejoining):
            task.cancel()
        if self.relay is not None:
            await self.relay.close()

    # what this process's node hears (NodeHandler: several processes)

    def push(self, sender: str, body: bytes) -> None:
        if self.relay is not None:
            self.relay.received(sender, body)

    async def request(self, sender: str, body: bytes) -> bytes:
        return await self.hall.live.answer(sender, body)

    async def lost(self, units: list[str]) -> None:
        await self.hall.live.lost(units)

    async def orphan(self, unit: str) -> None:
        await self.hall.live.orphan(unit)

    def back(self) -> None:
        if self.relay is not None:
            self.relay.back()

    async def handle(self, conn: Conn, text: str, limited: bool = True) -> Message | None:
        """The answer to one message (or None: nothing, or what is sent is sent already).
        ``limited``: counted against the socket's rate (not a message sent again, nor one
        relayed by its own process, which counted it)."""
        lang = conn.lang
        if self.hall.revoked(conn.guest):  # (its account was deleted meanwhile)
            conn.close(CLOSE_REVOKED, "revoked")
            return None
        if limited and not conn.bucket.take():
            return error("too_fast", lang)
        try:
            message = decode(text)
        except Refusal as exc:
            return error(exc.code, lang, **exc.params)
        try:
            return await self.route(conn, message, text)
        except Unreachable:  # (several processes: Redis or the owner did not answer)
            what: What | None = (
                "table"
                if isinstance(message, Join)
                else "room"
                if isinstance(message, Enter)
                else None
            )
            if what is not None and conn.relayed is not None and self.hall.draining:
                conn.send(Moved(what))  # (handed over meanwhile: its process asks again)
                return None
            return error("busy", lang)
        except TableClosed:  # (closed while this waited for it: join it again, anew)
            conn.send(Moved("table"))
            return None

    async def route(self, conn: Conn, message: ClientMessageType, text: str) -> Message | None:
        """Hand ``message`` (``text`` as it came) to whoever runs what it is for."""
        match message:
            case Ping(ref=ref):
                return {"type": "pong", "ref": ref}
            case Join():
                return await self.join(conn, message, text)
            case Enter():
                return await self.enter(conn, message, text)
            case Lobby():
                return await self.to_room(conn, message, text)
            case Move() | Check() | Hint() | Sync() | Handover():
                return await self.to_table(conn, message, text)

    # a table

    async def join(self, conn: Conn, message: Join, text: str) -> Message | None:
        """Follow a table: a seat's own, or (a game among friends) as a spectator."""
        found = await self.hall.live.find_table(message.game) if message.game else None
        if isinstance(found, Elsewhere):
            self._elsewhere(conn, "table", found.owner, message, text)
            return None
        if found is None or (found.seat_of(conn.guest) is None and not found.online):
            return error("not_your_game", conn.lang)
        table = found
        conn.leave("table")
        conn.routes["table"] = message
        await table.durable()
        cid, joined = table.subscribe(conn.guest, conn.send, message.version, conn.lang)
        conn.table = Here(table, cid)
        conn.send(joined)
        return None

    async def to_table(
        self, conn: Conn, message: Move | Check | Hint | Sync | Handover, text: str
    ) -> Message | None:
        link, guest, lang = conn.table, conn.guest, conn.lang
        if isinstance(link, There):
            self._forward(conn, "table", link.owner, text)
            return None
        if link is None:
            if conn.relayed is not None:  # (relayed here, but no longer run here)
                conn.send(Moved("table"))
                return None
            return error("not_joined", lang)
        table = link.target
        reply: Message | None
        match message:
            case Move(version=version, move=move, ref=ref):
                reply = await table.submit(guest, version, raw_json(move), lang)
                if reply is not None:
                    reply["ref"] = ref
                return reply
            case Check(table=draft, ref=ref):
                await table.durable()
                reply = table.check_draft(guest, raw_json(draft), lang)
                reply["ref"] = ref
                return reply
            case Hint():
                return await table.hint(guest, lang)
            case Sync():
                await self.sync(table, conn)
                return None
            case Handover(seat=seat):
                await table.durable()
                return table.hand_over(guest, seat, lang)

    async def sync(self, table: Table, conn: Conn) -> None:
        """Queue the full view again, once it is durable: at most one such reply waits in
        the queue (another ``sync`` meanwhile is ``too_fast``)."""
        if conn.syncs:
            conn.send(error("too_fast", conn.lang))
            return
        await table.durable()
        conn.send(dict(table.view_message(table.view_seat(conn.guest))), sync=True)

    # a private room

    async def enter(self, conn: Conn, message: Enter, text: str) -> Message | None:
        """Be in a private room: its state now and every change (``lobby`` messages). Wrong
        codes count in the hall's one throttle, the HTTP join's too (a connection relayed
        here was counted by its own process)."""
        codes = self.hall.wrong_codes if conn.relayed is None else None
        if codes is not None and await codes.throttled(conn.guest, conn.address):
            return room_error("throttled", conn.lang)
        found = await self.hall.live.find_room(message.room)
        if isinstance(found, Elsewhere):
            self._elsewhere(conn, "room", found.owner, message, text)
            return None
        if found is None:
            if codes is not None:
                await codes.wrong(conn.guest, conn.address)
            return room_error("room_not_found", conn.lang)
        room: PrivateRoom = found
        conn.leave("room")
        conn.routes["room"] = message
        cid, state = room.enter(conn.guest, conn.send, conn.lang)
        conn.room = Here(room, cid)
        return state

    async def to_room(self, conn: Conn, message: Lobby, text: str) -> Message | None:
        link = conn.room
        if isinstance(link, There):
            self._forward(conn, "room", link.owner, text)
            return None
        if link is None:
            if conn.relayed is not None:
                conn.send(Moved("room"))
                return None
            return error("not_joined", conn.lang)
        reply = await link.target.act(conn.guest, message.action, conn.lang)
        if reply is not None:
            reply["ref"] = message.ref
        return reply

    # elsewhere: another process runs it

    def _elsewhere(
        self, conn: Conn, what: What, owner: str, message: Join | Enter, text: str
    ) -> None:
        """``conn`` joins a table or enters a room that process ``owner`` runs: the message
        goes there. A connection relayed here was sent here for it: it is told it moved,
        and its own process asks again."""
        if conn.relayed is not None:
            conn.send(Moved(what))
            return
        conn.leave(what)
        conn.routes[what] = message
        self._forward(conn, what, owner, text)

    def _forward(self, conn: Conn, what: What, owner: str, text: str) -> None:
        assert self.relay is not None
        self.relay.forward(conn, owner, what, text)
        if what == "table":
            conn.table = There(owner)
        else:
            conn.room = There(owner)

    # moved: join again

    def moved(self, conn: Conn, what: What) -> None:
        """``conn``'s table or room is not run where it was: join it again where it is run
        now (often here), the way its client last asked to."""
        task = running_loop().create_task(self._rejoin(conn, what))
        self._rejoining.add(task)
        task.add_done_callback(self._rejoining.discard)

    async def _rejoin(self, conn: Conn, what: What) -> None:
        await asyncio.sleep(REJOIN_DELAY)
        for _ in range(REJOIN_TRIES):
            message = conn.routes.get(what)
            if conn.closed is not None or message is None:
                return
            if conn.link(what) is not None:
                return  # (joined meanwhile: the client asked again)
            try:
                reply = await self.route(conn, message, msgspec.json.encode(message).decode())
            except Unreachable:
                await asyncio.sleep(1.0)
                continue
            except TableClosed:  # (closed again as it was joined: once more)
                await asyncio.sleep(REJOIN_DELAY)
                continue
            if reply is not None:
                conn.send(reply)
            return
        conn.close(CLOSE_UNAVAILABLE, "unavailable")
