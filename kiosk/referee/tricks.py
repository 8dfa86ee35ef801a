"""The table side both trick-taking referees share: translation only.

The engine (``kiosk.games.klaverjassen`` or ``kiosk.games.manille``, built ``at_table=True``)
holds the rules: whose turn, what is legal (its renege prover), tricks, scores, showdowns and the
end of the game. The adapter turns a card confirmed in a ``seatN`` zone into the engine's
:class:`~kiosk.games.tricks.LayCard` and a pressed button into the legal move it stands for, and
returns the engine's rulings. Its own bookkeeping is the table's: a card laid out of turn waits
on the mat until the engine takes it (its player's turn, or a showdown), and a card the tracker
sees again is not laid twice.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from kiosk.games.base import IllegalMove, Ruling
from kiosk.games.klaverjassen import Klaverjassen
from kiosk.games.manille import Manille
from kiosk.games.tricks import ChooseDealer, LayCard, NotNow, OutOfTurn
from kiosk.referee.base import EngineReferee, InputSpec, Observation
from kiosk.referee.zones import seat_of


@dataclass(frozen=True, slots=True)
class Button:
    """How one legal move is offered on the screen: the UI ``action`` and its label key; for a
    picker, the value the UI sends back as ``choice=`` and that value's label key."""

    action: str
    label_key: str
    choice: str | None = None
    choice_key: str = ""


class TrickReferee(EngineReferee[Klaverjassen | Manille]):
    """A trick-taking game's engine at the table, with seat zones round the mat."""

    game_id: ClassVar[str]

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        super().__init__(players, options, seed)
        self.pending: dict[int, str] = {}  # seat -> card laid out of turn, still on the mat

    # --- observations ----------------------------------------------------------------------

    def observe(self, obs: Observation) -> list[Ruling]:
        seat = seat_of(obs.zone)
        if obs.kind == "removed":
            if seat is not None and self.pending.get(seat) == obs.card_id:
                del self.pending[seat]
            return []
        if seat is None:
            return self._elsewhere(obs)
        if obs.card_id in self.engine.played:
            return []  # seen again (the tracker lost and found it): nothing new
        try:
            out = self.engine.play(LayCard(seat, obs.card_id))
        except OutOfTurn as exc:
            self.pending[seat] = obs.card_id
            return [exc.ruling()]
        except IllegalMove as exc:
            return [exc.ruling()]
        return out + self._take_pending()

    def _take_pending(self) -> list[Ruling]:
        """Offer the cards waiting on the mat again, until the engine takes none of them; a card
        the engine no longer wants now (a new deal began) is forgotten."""
        out: list[Ruling] = []
        taken = True
        while taken:
            taken = False
            for seat, card in list(self.pending.items()):
                try:
                    out += self.engine.play(LayCard(seat, card))
                except OutOfTurn:
                    continue
                except NotNow:
                    pass
                except IllegalMove as exc:
                    out.append(exc.ruling())
                del self.pending[seat]
                taken = True
                break
        return out

    @abstractmethod
    def _elsewhere(self, obs: Observation) -> list[Ruling]:
        """A card confirmed outside the seat zones (the centre, Manille's pile rows)."""

    # --- buttons ---------------------------------------------------------------------------

    @abstractmethod
    def _button(self, move: Any) -> Button | None:
        """How ``move`` is offered on the screen; None for a move the camera reports (a card)."""

    def _dealer_button(self, move: ChooseDealer) -> Button:
        """The picker of who deals: the camera cannot see it."""
        return Button("dealer", f"{self.game_id}.input_dealer", str(move.seat), f"{self.game_id}.seat_{move.seat + 1}")

    def inputs(self) -> list[InputSpec]:
        to_act = self.engine.to_act
        params = {} if to_act is None else {"player": to_act + 1}
        groups: dict[str, tuple[Button, dict[str, str]]] = {}
        for move in self.engine.legal_moves():
            button = self._button(move)
            if button is None:
                continue
            _, choices = groups.setdefault(button.action, (button, {}))
            if button.choice is not None:
                choices[button.choice] = button.choice_key
        return [InputSpec(b.action, b.label_key, params, choices) for b, choices in groups.values()]

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        choice = str(params.get("choice", ""))
        for move in self.engine.legal_moves():
            button = self._button(move)
            if button is not None and button.action == action and button.choice in (None, choice):
                try:
                    out = self.engine.play(move)
                except IllegalMove as exc:
                    return [exc.ruling()]
                return out + self._take_pending()
        return [Ruling(f"{self.game_id}.input_not_now", {"action": action}, "reminder")]

    # --- status ----------------------------------------------------------------------------

    def _details(self) -> Mapping[str, Any]:
        """The public state both games show: phase, dealer, trump, the trick on the table."""
        engine = self.engine
        return {
            "phase": engine.phase,
            "dealer": engine.dealer,
            "trump": engine.trump,
            "trick": list(engine.table.plays) if engine.table else [],
            "tricks_played": len(engine.table.tricks) if engine.table else 0,
        }
