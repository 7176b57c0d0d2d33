"""Live games: seats, clocks, bots taking turns, the move log, the versioned event stream."""

from tapete.rooms.inbox import Settings, error
from tapete.rooms.manager import Rooms, practice_seats
from tapete.rooms.stream import Subscriber
from tapete.rooms.table import Table

__all__ = ["Rooms", "Settings", "Subscriber", "Table", "error", "practice_seats"]
