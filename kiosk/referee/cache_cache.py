"""The Cache-cache referee, and the question-and-answer referee it shares with Recto-verso.

Two seats and a centre zone. The asker lays the calculation card of his question in the centre
(its result card stays hidden under his hand); the camera reads the calculation, the answerer
types his answer (a picker of the level's results). The engine (:mod:`kiosk.games.cache_cache`,
built at the table) checks the card, scores the answer, counts the double cards in each hand and
ends the game; this adapter turns the card seen and the answer typed into its moves.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, TypeVar

from kiosk.games import mathpairs
from kiosk.games.base import Ruling
from kiosk.games.cache_cache import Answer, Ask, CacheCache
from kiosk.referee.base import EngineReferee, InputSpec, Observation
from kiosk.referee.zones import Layout, seats_layout

Q = TypeVar("Q", bound=mathpairs.QuizEngine)


class QuizReferee(EngineReferee[Q]):
    """Two players, roles alternating after each question, a calculation shown in the centre.

    Subclasses say which move a card shown in the centre is, when the engine waits for one, and
    translate the buttons.
    """

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(2)

    def _value_choices(self) -> dict[str, str]:
        """The level's results as picker buttons; a number reads the same in every language."""
        level = mathpairs.level_pairs(self.engine.options["level"])
        values = sorted({mathpairs.card(result).value or 0 for _, result in level})
        return {str(v): str(v) for v in values}

    def observe(self, obs: Observation) -> list[Ruling]:
        if obs.kind != "confirmed" or obs.zone != "centre" or obs.card_id not in mathpairs.math_deck():
            return []
        if self.engine.over or not self._waits_for_card():
            return []  # the card of the question seen again, or a card after the end
        return self._play(self._shown(obs.card_id))

    @abstractmethod
    def _waits_for_card(self) -> bool:
        """True while the engine waits for the asker's card in the centre."""

    @abstractmethod
    def _shown(self, card: str) -> Any:
        """The engine's move for ``card`` laid in the centre."""


class CacheCacheReferee(QuizReferee[CacheCache]):
    game_id = "cache-cache"
    engine_class = CacheCache

    def _waits_for_card(self) -> bool:
        return self.engine.question is None

    def _shown(self, card: str) -> Any:
        return Ask(card)

    def inputs(self) -> list[InputSpec]:
        if not self._offered(Answer):
            return []
        return [
            InputSpec("answer", "cache_cache.input.answer", {"player": self.engine.answerer + 1}, self._value_choices())
        ]

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        choice = str(params.get("choice", ""))
        if action != "answer" or not self._offered(Answer) or not choice.isdigit():
            return [Ruling("cache_cache.input_not_now", {}, "reminder")]
        return self._play(Answer(int(choice)))

    def _details(self) -> Mapping[str, Any]:
        """``held``: the double cards in each hand."""
        return {"held": [len(hand) for hand in self.engine.hands]}
