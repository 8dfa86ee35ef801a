"""The games a kiosk offers, as the menu and the screens need to know them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kiosk.games.registry import available_games
from kiosk.referee.base import RefereeAdapter
from kiosk.referee.registry import available_referees
from kiosk.referee.zones import Layout


@dataclass(frozen=True)
class GameInfo:
    """One offered game: its deck, how many play it and the house rules the menu changes."""

    game_id: str
    deck_id: str
    min_players: int
    max_players: int
    default_options: Mapping[str, Any]
    menu_options: Mapping[str, tuple[Any, ...]]
    referee: type[RefereeAdapter]

    def clamp_players(self, n: int) -> int:
        return max(self.min_players, min(self.max_players, n))

    def layout(self, players: int) -> Layout:
        """The zones of the mat this game is refereed on, for ``players``."""
        return self.referee.layout(players)


def offered_games(wanted: Iterable[str] = ()) -> dict[str, GameInfo]:
    """Games with both an engine and a table referee, in ``wanted``'s order (all when empty)."""
    engines, referees = available_games(), available_referees()
    out: dict[str, GameInfo] = {}
    for game_id in list(wanted) or list(engines):
        engine, referee = engines.get(game_id), referees.get(game_id)
        if engine is None or referee is None:
            continue
        out[game_id] = GameInfo(
            game_id,
            engine.deck_id,
            engine.min_players,
            engine.max_players,
            dict(engine.default_options),
            dict(engine.menu_options),
            referee,
        )
    return out


def game_info(game_id: str) -> GameInfo:
    """One installed game; KeyError when its engine or its referee is missing."""
    return offered_games([game_id])[game_id]
