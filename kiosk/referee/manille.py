"""The Manille à deux referee: each player has a pile row at his edge of the mat (4 double piles,
the visible tops face up) and a seat zone nearer the centre where he lays his card.

It runs :class:`~kiosk.games.manille.Manille` at the table and translates: who deals, trump and
the doubles are buttons; a card face up in a pile row is a :class:`~kiosk.games.manille.PileCard`
(the engine knows what each player could play from the table); a card in a seat zone is laid by
that seat. A renege the visible tops prove is refused on the spot (``manille.take_back``), one
proven later stops the deal for a showdown and a redeal; a hidden card turned too early is
hidden again (``manille.hide_again``): all of it the engine's rulings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from kiosk.games.base import Ruling
from kiosk.games.manille import PLAYERS, ChooseTrump, Double, Manille, PileCard
from kiosk.games.tricks import ChooseDealer
from kiosk.referee.base import Observation
from kiosk.referee.tricks import Button, TrickReferee
from kiosk.referee.zones import Layout, Zone

NO_TRUMP = "none"

LAYOUT = Layout(
    (
        Zone("piles1", (0.05, 0.0, 0.95, 0.2)),
        Zone("seat1", (0.3, 0.22, 0.7, 0.44)),
        Zone("seat0", (0.3, 0.56, 0.7, 0.78)),
        Zone("piles0", (0.05, 0.8, 0.95, 1.0)),
    )
)


def pile_seat(zone: str | None) -> int | None:
    return int(zone[5:]) if zone in ("piles0", "piles1") else None


class ManilleReferee(TrickReferee):
    game_id = "manille"
    engine_class = Manille
    engine: Manille

    @classmethod
    def layout(cls, players: int = PLAYERS) -> Layout:
        return LAYOUT

    def _elsewhere(self, obs: Observation) -> list[Ruling]:
        """A card face up in a pile row."""
        seat = pile_seat(obs.zone)
        if seat is None:
            return []
        return self._play(PileCard(seat, obs.card_id))

    def _button(self, move: Any) -> Button | None:
        if isinstance(move, ChooseDealer):
            return self._dealer_button(move)
        if isinstance(move, ChooseTrump):
            if move.suit is None:
                return Button("trump", "manille.input_trump", NO_TRUMP, "manille.suit_none")
            return Button("trump", "manille.input_trump", move.suit, f"manille.suit_{move.suit}")
        if isinstance(move, Double) and not move.yes:
            return Button("decline", "manille.input_decline")
        if isinstance(move, Double):
            contre = self.engine.phase == "contre"
            return Button("double", "manille.input_contre" if contre else "manille.input_surcontre")
        return None

    def _details(self) -> Mapping[str, Any]:
        engine = self.engine
        return {
            **super()._details(),
            "factor": engine.factor,
            "double_pending": engine.boam.double_pending,
            "visible": [engine.visible_tops(s) for s in range(PLAYERS)],
            "sheet": [asdict(r) for r in engine.boam.rows],
            "reneges": [asdict(r) for r in engine.restored + engine.prover.proven],
        }
