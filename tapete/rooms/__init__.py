"""Live games: seats, bots taking turns, the move log, the versioned event stream."""

from tapete.rooms.manager import Rooms, practice_seats
from tapete.rooms.room import Room, Subscriber, error

__all__ = ["Room", "Rooms", "Subscriber", "error", "practice_seats"]
