"""Referee mode: one game refereed at the table, from table views and button presses to rulings.

Each card the vision confirms (or removes) is placed in a zone of the game's mat layout and given
to the game's table adapter (``kiosk.referee``), whose engine holds the rules; the rulings are
kept for the screen. The screen forwards what the players do and draws :class:`RefereeStatus`,
the rulings and the buttons (:class:`InputSpec`) this mode gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games.base import Ruling
from kiosk.modes.games import GameInfo
from kiosk.referee.base import Expect, InputSpec, Observation, RefereeStatus
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
        self.players = players
        self.names = names or [f"{i + 1}" for i in range(players)]
        self.layout: Layout = game.layout(players)
        self.adapter = game.referee(players, options, seed)
        self.rulings: list[Ruling] = []

    @property
    def game_id(self) -> str:
        return self.game.game_id

    @property
    def deck_id(self) -> str:
        return self.game.deck_id

    @property
    def options(self) -> Mapping[str, Any]:
        """The options the game runs with: its defaults, then those asked for."""
        return self.adapter.options

    @property
    def seats_as_names(self) -> bool:
        """Whether rulings carry 0-based seats the screen shows as names (else 1-based numbers)."""
        return self.adapter.seats_as_names

    def on_view(self, view: TableView) -> list[Ruling]:
        new: list[Ruling] = []
        for event in view.events:
            zone = self.layout.zone_at(event.card.mat_xy)
            obs = Observation(event.kind, event.card.card_id, zone, event.card.track_id)
            new.extend(self.adapter.observe(obs))
        self.rulings.extend(new)
        return new

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        new = self.adapter.on_input(action, **params)
        self.rulings.extend(new)
        return new

    def inputs(self) -> list[InputSpec]:
        return self.adapter.inputs()

    def status(self) -> RefereeStatus:
        return self.adapter.status()
