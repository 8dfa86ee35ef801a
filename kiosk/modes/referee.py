"""Referee mode: one game refereed at the table, from table views and button presses to rulings.

The screen forwards what the players do and draws :class:`RefereeStatus`, the rulings and the
buttons (:class:`InputSpec`) this mode gives; the rules are the game engine's, run by its table
adapter (``kiosk.referee``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games.base import Ruling
from kiosk.modes.games import GameInfo
from kiosk.referee.base import Expect, InputSpec, RefereeStatus
from kiosk.referee.session import RefereeSession
from kiosk.referee.zones import Layout
from kiosk.table import TableView

__all__ = ["Expect", "InputSpec", "RefereeMode", "RefereeStatus", "Ruling"]


class RefereeMode:
    """A game in progress: ``on_view`` and ``on_input`` return the rulings the table is told."""

    def __init__(
        self,
        game: GameInfo,
        players: int,
        names: list[str] | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
    ) -> None:
        self.game = game
        self._session = RefereeSession(game.referee, players, names, options, seed)

    @property
    def game_id(self) -> str:
        return self.game.game_id

    @property
    def deck_id(self) -> str:
        return self.game.deck_id

    @property
    def options(self) -> Mapping[str, Any]:
        """The options the game runs with: its defaults, then those asked for."""
        return self._session.adapter.options

    @property
    def players(self) -> int:
        return self._session.players

    @property
    def names(self) -> list[str]:
        return self._session.names

    @property
    def layout(self) -> Layout:
        return self._session.layout

    @property
    def seats_as_names(self) -> bool:
        """Whether rulings carry 0-based seats the screen shows as names (else 1-based numbers)."""
        return self._session.adapter.seats_as_names

    @property
    def rulings(self) -> list[Ruling]:
        return self._session.rulings

    def on_view(self, view: TableView) -> list[Ruling]:
        return self._session.on_view(view)

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        return self._session.on_input(action, **params)

    def inputs(self) -> list[InputSpec]:
        return self._session.inputs()

    def status(self) -> RefereeStatus:
        return self._session.status()
