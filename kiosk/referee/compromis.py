"""Referee of Le Compromis à la belge: what the camera sees of the table, as the engine's moves.

It runs :class:`~kiosk.games.compromis.Compromis` at the table. The mat has one zone per seat
(where a government is laid down), the draw pile, the discard pile and the ``aside`` zone for the
Aces and Manneken-Pis that were played. The camera sees neither the hands nor the face-down draw
pile; it reports what lands face up:

- a card confirmed on the discard pile: :class:`~kiosk.games.compromis_moves.Discard` (the first
  card turned, a turn's discard, Binche's and Doudou's discards); the top card seen taken off it
  while the player draws: :class:`~kiosk.games.compromis_moves.TakeDiscard`;
- a card confirmed aside: :class:`~kiosk.games.compromis_moves.PlaySpecial`;
- 6 cards confirmed in a seat's zone: :class:`~kiosk.games.compromis_moves.GovernmentLaid`; a
  card laid there after the round's government: :class:`~kiosk.games.compromis_moves.ShowKing`.

Players tell it who shouted « Compromis, une fois ! » (``call``) and when the next round starts
(``next_round``). What stays here is the mat: the cards seen in each zone, and the seats whose 6
cards were judged until they pick them up.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games.base import Ruling
from kiosk.games.compromis import Compromis
from kiosk.games.compromis_government import GOVERNMENT
from kiosk.games.compromis_moves import (
    Called,
    Discard,
    GovernmentLaid,
    NextRound,
    PlaySpecial,
    ShowKing,
    TakeDiscard,
)
from kiosk.referee.base import EngineReferee, InputSpec, Observation
from kiosk.referee.zones import Layout, seat_of, seats_layout


class CompromisReferee(EngineReferee[Compromis]):
    game_id = "compromis"
    engine_class = Compromis
    seats_as_names = True

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> None:
        super().__init__(players, options, seed)
        self.zones: dict[str, list[str]] = {}  # the cards seen in each zone, until taken away
        self.judged: set[int] = set()  # seats whose 6 cards were judged (until they pick them up)
        self.round = self.engine.rounds

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players, centre=("draw", "discard", "aside"))

    def _play(self, move: Any) -> list[Ruling]:
        rulings = super()._play(move)
        if self.engine.rounds != self.round:  # a new round: the cards were gathered
            self.round, self.zones, self.judged = self.engine.rounds, {}, set()
        return rulings

    # -- observations --

    def observe(self, obs: Observation) -> list[Ruling]:
        engine = self.engine
        if obs.zone is None or obs.zone == "draw" or engine.over:
            return []
        cards = self.zones.setdefault(obs.zone, [])
        if obs.kind == "removed":
            return self._removed(obs.zone, obs.card_id)
        if obs.card_id in cards:  # seen again
            return []
        cards.append(obs.card_id)
        seat = seat_of(obs.zone)
        if seat is not None:
            return self._seat_card(seat, obs.card_id)
        if obs.card_id in engine.discard or obs.card_id in engine.aside:  # already there
            return []
        return self._play(PlaySpecial(obs.card_id) if obs.zone == "aside" else Discard(obs.card_id))

    def _removed(self, zone: str, card: str) -> list[Ruling]:
        cards = self.zones[zone]
        if card in cards:
            cards.remove(card)
        seat = seat_of(zone)
        if seat is not None and not cards:
            self.judged.discard(seat)
        taking = self.engine.discard[-1:] == [card] and bool(self._offered(TakeDiscard))
        return self._play(TakeDiscard()) if zone == "discard" and taking else []

    def _seat_card(self, seat: int, card: str) -> list[Ruling]:
        if seat == self.engine.king_due():
            return self._play(ShowKing(seat, card))
        cards = self.zones[f"seat{seat}"]
        if len(cards) != GOVERNMENT or seat in self.judged:
            return []
        self.judged.add(seat)
        return self._play(GovernmentLaid(seat, frozenset(cards)))

    # -- inputs --

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        seat = int(params["seat"]) if "seat" in params else None
        offered = [s for s in self.inputs() if s.action == action and s.params.get("seat") == seat]
        if not offered:
            return [Ruling("compromis.input_refused", {"action": action}, "violation")]
        return self._play(Called(seat) if seat is not None else NextRound())

    def inputs(self) -> list[InputSpec]:
        specs: list[InputSpec] = []
        for move in self._offered(Called, NextRound):
            if isinstance(move, Called):
                specs.append(InputSpec("call", "compromis.input_call", {"seat": move.seat}))
            else:
                specs.append(InputSpec("next_round", "compromis.input_next_round"))
        return specs

    def _details(self) -> Mapping[str, Any]:
        return {"target": self.engine.target_points, "specials": bool(self.engine.effects)}
