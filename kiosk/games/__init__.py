"""Pure game engines (no I/O, no clock, seeded RNG), one module per game."""

from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.games.registry import available_games, get_game

__all__ = ["GameEngine", "IllegalMove", "Ruling", "available_games", "get_game"]
