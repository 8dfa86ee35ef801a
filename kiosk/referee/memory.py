"""The Memory referee: cards face down in the centre, kept pairs in front of each player.

The camera sees the two cards a player turns face up in the centre and the engine
(:mod:`kiosk.games.memory`, built at the table) says at once whether they pair. When both have
left the centre they were kept (a pair: the player plays again) or turned back (the turn
passes). A face-down card is not recognised, so "turned back" and "taken" look alike from the
centre: the seat zones decide, and one of two cards turned back seen there is a false pair kept.
The buttons then say who spotted it or that nobody did. This adapter turns those sightings and
buttons into the engine's moves; it keeps only which face-up cards still lie in the centre.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games import mathpairs
from kiosk.games.base import Ruling
from kiosk.games.mathpairs import SpottedBy, Unspotted
from kiosk.games.memory import Cleared, InSeatZone, Memory, Reveal
from kiosk.referee.base import EngineReferee, InputSpec, Observation, seat_choices
from kiosk.referee.zones import Layout, seats_layout


class MemoryReferee(EngineReferee[Memory]):
    game_id = "memory"
    engine_class = Memory

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> None:
        super().__init__(players, options, seed)
        self.in_centre: set[str] = set()  # face-up cards the camera still sees in the centre

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players)

    def observe(self, obs: Observation) -> list[Ruling]:
        if self.engine.over or obs.card_id not in mathpairs.math_deck():
            return []
        card = obs.card_id
        if obs.zone != "centre":
            return self._play(InSeatZone(card)) if obs.kind == "confirmed" and obs.zone else []
        if obs.kind == "confirmed":
            rulings = [] if card in self.engine.face_up() else self._play(Reveal(card))  # or seen again
            if card in self.engine.face_up():
                self.in_centre.add(card)
            return rulings
        self.in_centre.discard(card)
        face_up = self.engine.face_up()
        if len(face_up) == 2 and not self.in_centre & set(face_up):
            return self._play(Cleared())
        return []

    def inputs(self) -> list[InputSpec]:
        spotters = [m.seat for m in self.engine.legal_moves() if isinstance(m, SpottedBy)]
        if not spotters:
            return []
        author = {"player": self.engine.author + 1}
        return [
            InputSpec("spotted", "memory.input.spotted", author, seat_choices(spotters, "mathpairs.seat_{n}")),
            InputSpec("unspotted", "memory.input.unspotted", author),
        ]

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        offered = {spec.action: spec for spec in self.inputs()}
        choice = str(params.get("choice", ""))
        if action == "unspotted" and action in offered:
            return self._play(Unspotted())
        if action == "spotted" and action in offered and choice in offered[action].choices:
            return self._play(SpottedBy(int(choice)))
        return [Ruling("memory.input_not_now", {}, "reminder")]

    def _details(self) -> Mapping[str, Any]:
        """``face_up``: the cards turned face up this turn."""
        return {"face_up": self.engine.face_up()}
