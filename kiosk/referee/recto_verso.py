"""The Recto-verso referee: the asker moves the card he picks to the centre, calculation up.

The camera reads the calculation; the asker announces his result and the other player says
"c'est exact", "c'est faux" with his own result, or "c'est faux" without one (pickers of the
level's results). The engine (:mod:`kiosk.games.recto_verso`, built at the table) knows the true
result from the card, scores the seed's cases, counts the cards left on the table and ends the
game; this adapter turns the card seen and the buttons into its moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games.base import Ruling
from kiosk.games.recto_verso import Announce, Pick, RectoVerso, Validate
from kiosk.referee.base import InputSpec
from kiosk.referee.cache_cache import QuizReferee


class RectoVersoReferee(QuizReferee[RectoVerso]):
    game_id = "recto-verso"
    engine_class = RectoVerso

    def _waits_for_card(self) -> bool:
        return self.engine.picked is None

    def _shown(self, card: str) -> Any:
        return Pick(card)

    def inputs(self) -> list[InputSpec]:
        e = self.engine
        if self._offered(Announce):
            return [InputSpec("announce", "recto_verso.input.announce", {"player": e.asker + 1}, self._value_choices())]
        if not self._offered(Validate):
            return []
        validator = {"player": e.answerer + 1}
        return [
            InputSpec("exact", "recto_verso.input.exact", validator),
            InputSpec("false", "recto_verso.input.false", validator, self._value_choices()),
            InputSpec("false_no_result", "recto_verso.input.false_no_result", validator),
        ]

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        choice = str(params.get("choice", ""))
        offered = {spec.action: spec for spec in self.inputs()}
        if action not in offered or (offered[action].choices and not choice.isdigit()):
            return [Ruling("recto_verso.input_not_now", {}, "reminder")]
        if action == "announce":
            return self._play(Announce(self.engine.picked or "", int(choice)))
        if action == "false":
            return self._play(Validate(False, int(choice)))
        return self._play(Validate(action == "exact"))

    def _details(self) -> Mapping[str, Any]:
        """``left``: the cards still on the table."""
        return {"left": self.engine.cards_left()}
