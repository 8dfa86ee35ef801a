"""Referee of Le Choux de Bruxelles: the pairs laid face up in each player's zone.

It runs :class:`~kiosk.games.choux.Choux` at the table. The camera never sees a hand nor a draw,
so what it reports are the cards laid face up before a seat: two cards of one value side by side
there are the engine's :class:`~kiosk.games.choux.LayPair` (judged by the engine: a wrong colour
is called out; with the naming variant the pair counts once a place of it is named, ``name``
input), and the Choux de Bruxelles is :class:`~kiosk.games.choux.ShowChoux` (refused until every
pair is down, then its holder is the Puant; the table may say so with the ``puant`` input).

What stays here is the mat: the cards laid before a seat that wait for their partner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games.base import IllegalMove, Ruling
from kiosk.games.cards import rank_of
from kiosk.games.choux import CHOUX, Choux, LayPair, Name, ShowChoux
from kiosk.referee.base import EngineReferee, InputSpec, Observation
from kiosk.referee.zones import Layout, seat_of, seats_layout


class ChouxReferee(EngineReferee[Choux]):
    game_id = "choux"
    engine_class = Choux
    seats_as_names = True

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> None:
        super().__init__(players, options, seed)
        self.loose: dict[int, list[str]] = {s: [] for s in range(players)}  # face up, waiting for a partner
        self.round = self.engine.rounds_played

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players, centre=())

    def _play(self, move: Any) -> list[Ruling]:
        rulings = super()._play(move)
        if self.engine.rounds_played != self.round:  # a new round: the mat is cleared
            self.round = self.engine.rounds_played
            self.loose = {s: [] for s in range(self.players)}
        return rulings

    # -- observations --

    def observe(self, obs: Observation) -> list[Ruling]:
        engine = self.engine
        seat, card = seat_of(obs.zone), obs.card_id
        if seat is None or seat not in self.loose or card not in engine.deck or engine.over:
            return []
        loose = self.loose[seat]
        if obs.kind == "removed":
            if card in loose:
                loose.remove(card)
            return []
        if card == CHOUX:
            return self._play(ShowChoux(seat))
        known = {c for cards in engine.laid for c in cards} | {c for pair in engine.pending for c in pair}
        if card in loose or card in known:  # a card seen again
            return []
        partners = [c for c in loose if rank_of(c) == rank_of(card)]
        loose.append(card)
        refusal: IllegalMove | None = None
        for partner in partners:  # laid beside a card of its value: the player lays a pair
            try:
                rulings = engine.play(LayPair(seat, partner, card))
            except IllegalMove as exc:
                refusal = refusal or exc
                continue
            loose.remove(partner)
            loose.remove(card)
            return rulings
        return [refusal.ruling()] if refusal else []

    # -- inputs --

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        seat = int(params.get("seat", -1))
        offered = [s for s in self.inputs() if s.action == action and s.params.get("seat") == seat]
        if not offered:
            return [Ruling("choux.input_refused", {"action": action}, "violation")]
        if action == "puant":
            return self._play(ShowChoux(seat))
        pair = self.engine.pending[0]
        rulings = self._play(Name(str(params.get("text", ""))))
        if not set(pair) <= {c for cards in self.engine.laid for c in cards}:
            self.loose[seat] += list(pair)  # a wrong name: the pair goes back to hand from the mat
        return rulings

    def inputs(self) -> list[InputSpec]:
        engine = self.engine
        if engine.pending and self._offered(Name):
            a, b = engine.pending[0]
            return [InputSpec("name", "choux.input_name", {"seat": engine.to_act, "card_a": a, "card_b": b})]
        return [InputSpec("puant", "choux.input_puant", {"seat": m.seat}) for m in self._offered(ShowChoux)]

    def _details(self) -> Mapping[str, Any]:
        engine = self.engine
        drawer, giver = engine.first_draw()
        return {
            "pairs": [len(laid) // 2 for laid in engine.laid],
            "pairs_down": engine.pairs_down(),
            "opening": {"player": drawer, "giver": giver},
        }
