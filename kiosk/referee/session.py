"""A refereed game at the table: places each confirmed card in a zone of the game's layout and
hands the adapter observations; keeps the rulings for the screen."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games.base import Ruling
from kiosk.referee.base import InputSpec, Observation, RefereeAdapter, RefereeStatus
from kiosk.referee.zones import Layout
from kiosk.table import TableView


class RefereeSession:
    """One game in progress: ``on_view`` and ``on_input`` return the new rulings."""

    def __init__(
        self,
        adapter_cls: type[RefereeAdapter],
        players: int,
        names: list[str] | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
    ) -> None:
        self.game_id = adapter_cls.game_id
        self.players = players
        self.names = names or [f"{i + 1}" for i in range(players)]
        self.layout: Layout = adapter_cls.layout(players)
        self.adapter = adapter_cls(players, options, seed)
        self.rulings: list[Ruling] = []

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
