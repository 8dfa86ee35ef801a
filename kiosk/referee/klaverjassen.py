"""The Klaverjassen referee: four seat zones round the centre, one card laid face up in front
of each player per trick.

It runs :class:`~kiosk.games.klaverjassen.Klaverjassen` at the table and translates: who deals,
trump, pass and roem claims are buttons; with the turned-card option the dealer's last card is
read from the centre; every card laid in a seat zone is that seat's. The engine follows the
bidding, turn order, tricks, roem, reneges (proven from the cards laid later, then the showdown)
and the score sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from kiosk.games.base import Ruling
from kiosk.games.klaverjassen import PLAYERS, ChooseTrump, ClaimRoem, Klaverjassen, Pass, TurnedCard
from kiosk.games.tricks import ChooseDealer
from kiosk.referee.base import Observation
from kiosk.referee.tricks import Button, TrickReferee
from kiosk.referee.zones import Layout, seats_layout


class KlaverjassenReferee(TrickReferee):
    game_id = "klaverjassen"
    engine_class = Klaverjassen
    engine: Klaverjassen

    @classmethod
    def layout(cls, players: int = PLAYERS) -> Layout:
        return seats_layout(PLAYERS)

    def _elsewhere(self, obs: Observation) -> list[Ruling]:
        """The dealer's turned card, shown in the centre while the engine waits for it."""
        if obs.zone != "centre" or self.engine.phase != "turned":
            return []
        return self._play(TurnedCard(obs.card_id))

    def _button(self, move: Any) -> Button | None:
        if isinstance(move, ChooseDealer):
            return self._dealer_button(move)
        if isinstance(move, ChooseTrump):
            return Button("trump", "klaverjassen.input_trump", move.suit, f"klaverjassen.suit_{move.suit}")
        if isinstance(move, Pass):
            return Button("pass", "klaverjassen.input_pass")
        if isinstance(move, ClaimRoem):
            return Button(
                "claim_roem" if move.claim else "skip_roem",
                "klaverjassen.input_claim_roem" if move.claim else "klaverjassen.input_skip_roem",
            )
        return None

    def _team_totals(self) -> tuple[int, ...]:
        return self.engine.sheet.totals()

    def _details(self) -> Mapping[str, Any]:
        engine = self.engine
        return {
            **super()._details(),
            "playing_team": engine.playing_team,
            "sheet": [asdict(r) for r in engine.sheet.rows],
            "reneges": [asdict(r) for r in engine.prover.proven],
        }
