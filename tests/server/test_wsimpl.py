"""The socket's direct way out (:mod:`tapete.server.socket.wsimpl`): a message already encoded is
written as one text frame without the ASGI round, on a real uvicorn server; it steps aside
(the ASGI way is taken) where it cannot write the same bytes: compression negotiated, a
``send`` that something wraps, a message queued ahead of it."""

from __future__ import annotations

import asyncio
import gc
import json
import socket
import weakref
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import uvicorn
import websockets

from tapete.aio import LeanQueue
from tapete.server.edge.limits import Limits
from tapete.server.socket import Conn
from tapete.server.socket.wsimpl import (
    LeanEvent,
    LeanHttpToolsProtocol,
    LeanSansIOProtocol,
    direct_writer,
)

SIZES = (12, 125, 126, 4000, 65535, 65536, 200_000)
"""Payload sizes on both sides of each of the frame header's three length forms."""


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _payload(size: int) -> bytes:
    """JSON text of exactly ``size`` bytes, with non-ASCII letters in it."""
    head = json.dumps({"ñ": ""}, ensure_ascii=False).encode()
    body = ("é" * ((size - len(head)) // 2) + "x" * ((size - len(head)) % 2)).encode()
    data = head[:-2] + body + head[-2:]
    assert len(data) == size
    return data


async def _app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Accepts, says whether it could write directly, then writes each size directly and
    one message the ASGI way, in order."""
    assert scope["type"] == "websocket"
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    write = direct_writer(send)
    taken = [write(_payload(n)) if write is not None else False for n in SIZES]
    await send({"type": "websocket.send", "text": json.dumps({"taken": taken})})
    while (await receive())["type"] != "websocket.disconnect":
        pass


@pytest.fixture
async def serve() -> AsyncIterator[Callable[..., str]]:
    servers: list[tuple[uvicorn.Server, asyncio.Task[None]]] = []

    def start(deflate: bool, app: Any = _app, http: Any = LeanHttpToolsProtocol) -> str:
        port = _port()
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            http=http,
            ws=LeanSansIOProtocol,
            ws_per_message_deflate=deflate,
            lifespan="off",
            log_level="warning",
        )
        server = uvicorn.Server(config)
        servers.append((server, asyncio.get_running_loop().create_task(server.serve())))
        return f"ws://127.0.0.1:{port}/"

    yield start
    for server, task in servers:
        server.should_exit = True
        await task


async def _connect(url: str, compression: str | None) -> Any:
    for _ in range(100):  # (until the server listens)
        try:
            return await websockets.connect(url, compression=compression, max_size=2**20)
        except OSError:
            await asyncio.sleep(0.02)
    raise AssertionError("the server never listened")


async def test_frames_written_directly_arrive_whole_and_in_order(
    serve: Callable[..., str],
) -> None:
    ws = await _connect(serve(False), None)
    async with ws:
        got = [await ws.recv() for _ in SIZES]
        assert [len(m.encode()) for m in got] == list(SIZES)
        assert [m.encode() for m in got] == [_payload(n) for n in SIZES]
        assert json.loads(await ws.recv()) == {"taken": [True] * len(SIZES)}


async def test_with_compression_negotiated_it_steps_aside(serve: Callable[..., str]) -> None:
    ws = await _connect(serve(True), "deflate")
    async with ws:
        assert json.loads(await ws.recv()) == {"taken": [False] * len(SIZES)}


def test_a_send_something_wraps_has_no_direct_way() -> None:
    async def wrapped(message: Any) -> None:
        return None

    assert direct_writer(wrapped) is None


def test_a_message_queued_first_is_not_overtaken() -> None:
    """The transport refused one message (paused): it waits in the queue, and the next one
    queues behind it instead of being written ahead."""
    written: list[bytes] = []
    accept = [False]

    def direct(data: bytes) -> bool:
        if accept[0]:
            written.append(data)
        return accept[0]

    conn = Conn("g", "es", Limits(), lambda conn, what: None, direct=direct)
    conn.send_bytes(b'{"n":1}')
    accept[0] = True
    conn.send_bytes(b'{"n":2}')
    assert written == []
    assert [text for text, _, _ in conn.out] == ['{"n":1}', '{"n":2}']


async def test_the_handshake_is_not_kept_and_frames_still_parse(
    serve: Callable[..., str],
) -> None:
    """Once accepted, nothing holds the parsed request (uvicorn's reference and the one in
    websockets' suspended parser are gone); the client's messages are still read, in order."""
    held: list[weakref.ref[Any]] = []

    async def echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()  # websocket.connect
        held.append(weakref.ref(send.__self__.request))
        await send({"type": "websocket.accept"})
        gc.collect()
        await send({"type": "websocket.send", "text": json.dumps(held[0]() is None)})
        while (message := await receive())["type"] == "websocket.receive":
            await send({"type": "websocket.send", "text": message["text"].upper()})

    async with await _connect(serve(False, echo), None) as ws:
        assert json.loads(await ws.recv()) is True
        for word in ("uno", "dos", "ñandú" * 5000):
            await ws.send(word)
        assert [await ws.recv() for _ in range(3)] == ["UNO", "DOS", "ÑANDÚ" * 5000]


@pytest.mark.parametrize("lean", [True, False], ids=["lean", "uvicorn's"])
async def test_an_upgraded_connection_leaves_nothing_to_the_collector(
    serve: Callable[..., str], lean: bool
) -> None:
    """Once a connection is a WebSocket its HTTP protocol is freed by reference counting
    alone — with uvicorn's own, it is left in a cycle with its parser (and the handshake's
    scope and the transport) until a full collection: hours, with ``tapete serve``'s policy
    (bench/RESULTS.md, «What the collector was left»)."""
    made: list[weakref.ref[Any]] = []
    stock = LeanHttpToolsProtocol.__mro__[1]

    class Counted(LeanHttpToolsProtocol if lean else stock):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(weakref.ref(self))

    url = serve(False, http=Counted)
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            async with await _connect(url, None) as ws:
                assert len((await ws.recv()).encode()) == SIZES[0]  # (a socket that works)
        await asyncio.sleep(0.05)  # (the server sees each one closed)
        left = [ref for ref in made if ref() is not None]
    finally:
        gc.enable()
    assert len(made) >= 3
    assert (left == []) is lean


async def test_the_lean_queue_hands_over_in_order_and_survives_a_cancelled_reader() -> None:
    queue: LeanQueue[str] = LeanQueue()
    assert queue.empty() and queue.qsize() == 0
    reader = asyncio.ensure_future(queue.get())
    await asyncio.sleep(0)
    assert not reader.done()  # nothing yet: it waits
    queue.put_nowait("a")
    queue.put_nowait("b")
    assert await reader == "a" and queue.qsize() == 1
    assert await queue.get() == "b" and queue.empty()
    gone = asyncio.ensure_future(queue.get())
    await asyncio.sleep(0)
    gone.cancel()  # a reader that went away
    with pytest.raises(asyncio.CancelledError):
        await gone
    queue.put_nowait("c")
    assert await asyncio.wait_for(queue.get(), 1.0) == "c"


async def test_the_lean_event_lets_every_waiter_go_when_set() -> None:
    event = LeanEvent()
    assert not event.is_set()
    waiters = [asyncio.ensure_future(event.wait()) for _ in range(3)]
    await asyncio.sleep(0)
    assert not any(w.done() for w in waiters)
    waiters[0].cancel()  # one gives up
    await asyncio.sleep(0)
    event.set()
    await asyncio.wait_for(asyncio.gather(*waiters[1:]), 1.0)
    assert event.is_set() and waiters[0].cancelled()
    await asyncio.wait_for(event.wait(), 1.0)  # set: no wait
    event.clear()
    late = asyncio.ensure_future(event.wait())
    await asyncio.sleep(0)
    assert not late.done()
    event.set()
    await asyncio.wait_for(late, 1.0)
