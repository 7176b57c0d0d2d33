"""Live games: seats, clocks, bots taking turns, the move log, the versioned event stream."""

from tapete.rooms.inbox import Settings, error
from tapete.rooms.manager import Rooms, practice_seats
from tapete.rooms.room import Room
from tapete.rooms.stream import Subscriber

__all__ = ["Room", "Rooms", "Settings", "Subscriber", "error", "practice_seats"]
