"""Live games: seats, bots taking turns, the move log, the versioned event stream."""

from tapete.rooms.manager import Rooms, practice_seats
from tapete.rooms.room import Room, Settings, Subscriber, error

__all__ = ["Room", "Rooms", "Settings", "Subscriber", "error", "practice_seats"]
