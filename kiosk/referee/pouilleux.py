"""The Pouilleux referee: the kiosk is the seed's "calculatrice".

Each player lays his pairs face up in his seat zone; the camera sees two cards land there and
the engine (:mod:`kiosk.games.pouilleux`, built at the table) judges the pair at once, naming
the calculation and both values of a wrong one. The buttons tell it what the camera cannot see:
who spotted a wrong pair, who is out of cards, that the round cannot end, and in the error
search who found the error and whose it was. This adapter groups the cards seen in a zone into
pairs (:class:`~kiosk.games.mathpairs.PairWatcher`) and turns them and the buttons into the
engine's moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games import mathpairs
from kiosk.games.base import Ruling
from kiosk.games.mathpairs import SpottedBy, Unspotted
from kiosk.games.pouilleux import CannotFinish, FoundBy, LaidSeen, MistakeOf, OutOfCards, Pouilleux, TakenBack
from kiosk.referee.base import EngineReferee, InputSpec, Observation, seat_choices
from kiosk.referee.zones import Layout, seat_of, seats_layout

#: button -> the engine's move for the seat picked
_WITH_SEAT: dict[str, type[OutOfCards | SpottedBy | FoundBy | MistakeOf]] = {
    "out": OutOfCards,
    "spotted": SpottedBy,
    "found": FoundBy,
    "author": MistakeOf,
}
#: button -> the engine's move
_WITHOUT_SEAT: dict[str, Any] = {"unfinishable": CannotFinish(), "unspotted": Unspotted(), "calculator": FoundBy(None)}
#: the buttons in the order the screen shows them
_BUTTONS = ("out", "unfinishable", "spotted", "unspotted", "found", "calculator", "author")


class PouilleuxReferee(EngineReferee[Pouilleux]):
    game_id = "pouilleux"
    engine_class = Pouilleux

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> None:
        super().__init__(players, options, seed)
        self.watcher = mathpairs.PairWatcher()

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players, centre=())

    def _play(self, move: Any) -> list[Ruling]:
        """The engine's rulings; a new round starts with empty seat zones."""
        rounds = self.engine.rounds_played
        rulings = super()._play(move)
        if self.engine.rounds_played != rounds:
            self.watcher.clear()
        return rulings

    # --- camera ------------------------------------------------------------------------
    def observe(self, obs: Observation) -> list[Ruling]:
        seat = seat_of(obs.zone)
        if seat is None or obs.card_id not in mathpairs.math_deck() or self.engine.over:
            return []
        zone = f"seat{seat}"
        if obs.kind == "removed":
            broken = self.watcher.removed(zone, obs.card_id)
            return self._play(TakenBack(seat, *broken)) if broken else []
        if self.watcher.confirmed(zone, obs.card_id) is None:
            return []
        return self._play(LaidSeen(seat, *self.watcher.laid(zone)[-1]))

    # --- buttons -----------------------------------------------------------------------
    def inputs(self) -> list[InputSpec]:
        moves = self.engine.legal_moves()
        pending = self.engine.pending
        params = {"player": pending[0].seat + 1} if pending else {}
        specs = []
        for action in _BUTTONS:
            label = f"pouilleux.input.{action}"
            if action in _WITH_SEAT:
                kind = _WITH_SEAT[action]
                seats = [m.seat for m in moves if isinstance(m, kind) and m.seat is not None]
                if seats:
                    specs.append(InputSpec(action, label, params, seat_choices(seats, "mathpairs.seat_{n}")))
            elif _WITHOUT_SEAT[action] in moves:
                specs.append(InputSpec(action, label, params))
        return specs

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        spec = {s.action: s for s in self.inputs()}.get(action)
        choice = str(params.get("choice", ""))
        if spec is None or (spec.choices and choice not in spec.choices):
            return [Ruling("pouilleux.input_not_now", {}, "reminder")]
        return self._play(_WITH_SEAT[action](int(choice)) if spec.choices else _WITHOUT_SEAT[action])

    # --- screen ------------------------------------------------------------------------
    def _details(self) -> Mapping[str, Any]:
        """``out``: the finishing order so far; ``phase``: the engine's phase."""
        return {"out": list(self.engine.out), "phase": self.engine.phase}
