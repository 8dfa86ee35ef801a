"""The Président referee: combos are laid face up in the centre of the mat.

It runs :class:`~kiosk.games.president.President` at the table, which counts the hands from the
deal and judges each combo (count, value, whether it beats the previous one; 2 high), who goes
out, the Président and the Balayeur. Passes are buttons (a pass shows nothing on the table).

What stays here is table bookkeeping: the cards seen one by one are grouped into the combo of the
player to act. A follower's combo goes to the engine as soon as it has the count it answers (or
a card of another value joins it); a leader's combo is closed by the next event: a card of
another value, a pass, the "done" button, or its fourth card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games.base import Ruling
from kiosk.games.cards import rank_of
from kiosk.games.president import Pass, Play, President
from kiosk.referee.base import EngineReferee, InputSpec, Observation
from kiosk.referee.zones import Layout, seats_layout


class PresidentReferee(EngineReferee[President]):
    game_id = "president"
    engine_class = President

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        super().__init__(players, options, seed)
        self.pending: list[str] = []  # the cards of the combo being laid

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players)

    def _close(self) -> list[Ruling]:
        """The pending cards are the combo of the player to act."""
        cards, self.pending = tuple(self.pending), []
        return self._play(Play(cards))

    def _leading(self) -> bool:
        return self.engine.previous is None

    def observe(self, obs: Observation) -> list[Ruling]:
        engine, card = self.engine, obs.card_id
        if obs.kind != "confirmed" or obs.zone != "centre" or engine.over:
            return []
        if card in self.pending or engine.laid_this_round(card):
            return []  # seen again
        if rank_of(card) is None:  # not a card of the game: the engine says which
            return self._play(Play((card,)))
        rulings: list[Ruling] = []
        if self.pending and rank_of(card) != rank_of(self.pending[0]):
            if not self._leading():  # a follower mixes values
                self.pending.append(card)
                return self._close()
            rulings = self._close()  # the leader is done: the card starts the next combo
        self.pending.append(card)
        previous = engine.previous
        if len(self.pending) == (len(previous) if previous else 4):
            rulings += self._close()
        return rulings

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        if action == "done" and self.pending and self._leading():
            return self._close()
        if action != "pass" or self.engine.over:
            return [Ruling("president.input_not_now", {}, "reminder")]
        rulings = self._close() if self.pending and self._leading() else []
        self.pending = []  # a follower's unfinished combo goes back to his hand
        return rulings + self._play(Pass())

    def inputs(self) -> list[InputSpec]:
        engine = self.engine
        player = {"player": (engine.to_act or 0) + 1}
        specs = [InputSpec("pass", "president.input_pass", player)] if Pass() in engine.legal_moves() else []
        if self.pending and self._leading():
            specs.append(InputSpec("done", "president.input_done", player))
        return specs

    def _details(self) -> Mapping[str, Any]:
        return {"hand_counts": [len(h) for h in self.engine.hands], "round": self.engine.round + 1}
