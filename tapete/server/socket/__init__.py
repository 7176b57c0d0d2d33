"""The game socket (``/ws``): the endpoint that reads each socket (:mod:`.endpoint`), a
socket as the hall holds it (:mod:`.conn`), the one way in for what it sends
(:mod:`.router`), its messages to and from other processes of the hall (:mod:`.relay`), and
the lean WebSocket implementation ``tapete serve`` may give uvicorn (:mod:`.wsimpl`, imported
only when chosen)."""

from tapete.server.socket.conn import Conn
from tapete.server.socket.endpoint import SocketFront, Sockets
from tapete.server.socket.router import Router

__all__ = ["Conn", "Router", "SocketFront", "Sockets"]
