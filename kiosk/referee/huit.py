"""The Huit américain referee: the camera watches the discard pile.

It runs :class:`~kiosk.games.huit.Huit` at the table. The first card confirmed on the discard
pile is the dealer's :class:`~kiosk.games.huit.TurnUp`; every later one is a
:class:`~kiosk.games.huit.Play` the engine judges at once against the top card and the suit to
follow. After an 8 the player names the suit with a picker; the forced draw is a button ("I
drew"), then a card laid or "pass". The buttons offered are the engine's legal moves.

What stays here is table bookkeeping: a refused card waits on the pile until it is taken back,
and a card already on the pile seen again is not a new card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.decks import SUITS
from kiosk.games.base import IllegalMove, Ruling
from kiosk.games.huit import Draw, Huit, NameSuit, Pass, Play, TurnUp
from kiosk.referee.base import EngineReferee, Expect, InputSpec, Observation
from kiosk.referee.zones import Layout, seats_layout


class HuitReferee(EngineReferee[Huit]):
    game_id = "huit"
    engine_class = Huit

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        super().__init__(players, options, seed)
        self.wrong: str | None = None  # a refused card still on the pile, to be taken back

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players, centre=("draw", "discard"))

    def observe(self, obs: Observation) -> list[Ruling]:
        engine, card = self.engine, obs.card_id
        if obs.zone != "discard" or engine.over:
            return []
        if obs.kind == "removed":
            if card == self.wrong:
                self.wrong = None
            return []
        if card == self.wrong or card in engine.discard:
            return []
        if self.wrong is not None:
            return [Ruling("huit.take_back", {"card": self.wrong}, "reminder")]
        try:
            return engine.play(Play(card) if engine.discard else TurnUp(card))
        except IllegalMove as exc:
            self.wrong = card
            return [exc.ruling()]

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        if action == "suit" and params.get("choice") in SUITS:
            return self._play(NameSuit(params["choice"]))
        if action in ("drew", "pass"):
            return self._play(Draw() if action == "drew" else Pass())
        return [Ruling("huit.input_not_now", {}, "reminder")]

    def inputs(self) -> list[InputSpec]:
        moves = self.engine.legal_moves()
        player = {"player": (self.engine.to_act or 0) + 1}
        specs = []
        if any(isinstance(m, NameSuit) for m in moves):
            specs.append(InputSpec("suit", "huit.input_suit", player, {s: f"huit.suit_{s}" for s in SUITS}))
        if Draw() in moves:
            specs.append(InputSpec("drew", "huit.input_drew", player))
        if Pass() in moves:
            specs.append(InputSpec("pass", "huit.input_pass", player))
        return specs

    def _expects(self) -> Expect | None:
        if self.wrong is not None:
            return Expect("huit.expect_take_back", {"card": self.wrong})
        return super()._expects()

    def _details(self) -> Mapping[str, Any]:
        return {"hand_counts": [len(h) for h in self.engine.hands], "suit": self.engine.suit or None}
