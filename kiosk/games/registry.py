"""Where game engines are found: the shipped games by id, plus any a venue installs through the
``kiosk.games`` entry-point group. A game whose module is not present is simply not offered."""

from __future__ import annotations

from importlib.metadata import entry_points

from kiosk.games.base import GameEngine
from kiosk.plugins import load_optional

#: game id -> "module:Class" of the shipped engines, in the order the menu shows them.
BUILTIN: dict[str, str] = {
    "compromis": "kiosk.games.compromis:Compromis",
    "choux": "kiosk.games.choux:Choux",
    "bataille": "kiosk.games.bataille:Bataille",
    "huit": "kiosk.games.huit:Huit",
    "president": "kiosk.games.president:President",
    "patience": "kiosk.games.patience:Patience",
    "klaverjassen": "kiosk.games.klaverjassen:Klaverjassen",
    "manille": "kiosk.games.manille:Manille",
    "kakkerlakken": "kiosk.games.kakkerlakken:Kakkerlakken",
    "pouilleux": "kiosk.games.pouilleux:Pouilleux",
    "cache-cache": "kiosk.games.cache_cache:CacheCache",
    "recto-verso": "kiosk.games.recto_verso:RectoVerso",
    "memory": "kiosk.games.memory:Memory",
}


def available_games() -> dict[str, type[GameEngine]]:
    """game id -> engine class for every game installed, built-ins first."""
    games: dict[str, type[GameEngine]] = {}
    for game_id, target in BUILTIN.items():
        cls = load_optional(target)
        if cls is not None:
            games[game_id] = cls
    for ep in entry_points(group="kiosk.games"):
        games.setdefault(ep.name, ep.load())
    return games


def get_game(game_id: str) -> type[GameEngine]:
    games = available_games()
    if game_id not in games:
        raise KeyError(f"unknown or uninstalled game {game_id!r}; available: {', '.join(games)}")
    return games[game_id]
