"""Live games: tables (a game in play: seats, clocks, bots taking turns, the move log, the
versioned event stream) and private rooms (friends who play one table after another), and
which process of the hall runs each."""

from tapete.rooms.inbox import Settings, error
from tapete.rooms.live import Live
from tapete.rooms.ownership import Elsewhere
from tapete.rooms.private_room import PrivateRoom
from tapete.rooms.stream import Subscriber
from tapete.rooms.table import Table, TableClosed
from tapete.rooms.tables import practice_seats

__all__ = [
    "Elsewhere",
    "Live",
    "PrivateRoom",
    "Settings",
    "Subscriber",
    "Table",
    "TableClosed",
    "error",
    "practice_seats",
]
