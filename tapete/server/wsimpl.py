"""The WebSocket implementation ``tapete serve`` gives uvicorn.

uvicorn's sans-I/O implementation on ``websockets`` (the lightest of its three here, see
bench/RESULTS.md), less what it keeps of the handshake for the whole life of the socket:
the parsed request and the response, with their headers (about 3 kB an open socket).
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class LeanSansIOProtocol(WebSocketsSansIOProtocol):
    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            del self.request  # (neither is read once the handshake is complete)
            del self.response


IMPLEMENTATIONS: dict[str, Any] = {
    "websockets-sansio": LeanSansIOProtocol,
    "websockets": "websockets",
    "wsproto": "wsproto",
}
"""``tapete serve --ws``: the name → what uvicorn's ``ws`` setting is given."""
