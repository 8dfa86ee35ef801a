"""The Recto-verso referee: the asker moves the card he picks to the centre, calculation up.

The camera reads the calculation; the asker announces his result and the other player says
"c'est exact" or "c'est faux" with his own result (pickers of the level's results). The kiosk
knows the true result from the card, scores the seed's five cases (:func:`points`) and counts
the cards left on the table until none is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.games import mathpairs
from kiosk.games.base import Ruling
from kiosk.games.recto_verso import RectoVerso, turned
from kiosk.referee.base import InputSpec
from kiosk.referee.cache_cache import QuizReferee


class RectoVersoReferee(QuizReferee):
    game_id = "recto-verso"
    engine = RectoVerso
    domain = "recto_verso"

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        super().__init__(players, options, seed)
        self.left = len(self.pairs)
        self.announced: int | None = None

    def inputs(self) -> list[InputSpec]:
        if self.finished or self.question is None:
            return []
        if self.announced is None:
            return [
                InputSpec("announce", "recto_verso.input.announce", {"player": self.asker + 1}, self._value_choices())
            ]
        return [
            InputSpec("exact", "recto_verso.input.exact", {"player": self.answerer + 1}),
            InputSpec("false", "recto_verso.input.false", {"player": self.answerer + 1}, self._value_choices()),
        ]

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        choice = str(params.get("choice", ""))
        offered = {spec.action for spec in self.inputs()}
        if action not in offered or (action != "exact" and not choice.isdigit()):
            return [Ruling("recto_verso.input_not_now", {}, "reminder")]
        if action == "announce":
            self.announced = int(choice)
            return [
                Ruling(
                    "recto_verso.announced",
                    {
                        "player": self.asker + 1,
                        "answer": self.announced,
                        "calculation": mathpairs.card(self.question or "").expression,
                    },
                )
            ]
        return self._validate(action == "exact", int(choice) if choice.isdigit() else None)

    def _validate(self, exact: bool, given: int | None) -> list[Ruling]:
        assert self.question is not None and self.announced is not None
        ruling = turned(self.question, self.announced, exact, given, self.asker, self.answerer)
        self.points[self.asker] += ruling.params["asker_points"]
        self.points[self.answerer] += ruling.params["validator_points"]
        out = [ruling]
        self.left -= 1
        self.announced = None
        self._next_question()
        return out + (self._game_over() if self.left == 0 else [])

    def status(self) -> Mapping[str, Any]:
        return {**super().status(), "left": self.left}
