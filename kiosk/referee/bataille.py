"""The Bataille referee: each player turns his card face up in his own zone of the mat.

It runs :class:`~kiosk.games.bataille.Bataille` at the table: a card confirmed in a seat's zone
is that seat's :class:`~kiosk.games.bataille.Shown` card, and the engine says who takes, who
fights a bataille (only the tied players) and who runs out, counting the piles it cannot see. A
player whose pile is empty may also say so with a button (:class:`~kiosk.games.bataille.OutOfCards`).

What stays here is table bookkeeping: a card seen again, or a second card in a zone whose card of
this step was already shown, is not a new card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games.base import Ruling
from kiosk.games.bataille import Bataille, OutOfCards, Shown
from kiosk.referee.base import EngineReferee, InputSpec, Observation
from kiosk.referee.zones import Layout, seat_of, seats_layout


class BatailleReferee(EngineReferee[Bataille]):
    game_id = "bataille"
    engine_class = Bataille

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players, centre=())

    def observe(self, obs: Observation) -> list[Ruling]:
        engine = self.engine
        seat = seat_of(obs.zone)
        if obs.kind != "confirmed" or seat is None or engine.over:
            return []
        if seat in engine.faces or obs.card_id in engine.shown:
            return []  # seen again, or read again under another name: one card per step
        return self._play(Shown(seat, obs.card_id))

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        seat = params.get("player")
        if action != "out" or not isinstance(seat, int):
            return [Ruling("bataille.input_not_now", {}, "reminder")]
        return self._play(OutOfCards(seat))

    def inputs(self) -> list[InputSpec]:
        return [InputSpec("out", "bataille.input_out", {"player": m.seat}) for m in self._offered(OutOfCards)]

    def _details(self) -> Mapping[str, Any]:
        engine = self.engine
        return {"fights": engine.rounds, "fighters": [s for s in engine.fighters if s not in engine.out]}
