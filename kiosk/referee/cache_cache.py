"""The Cache-cache referee, and the question-and-answer referee it shares with Recto-verso.

Two seats and a centre zone. The asker lays the calculation card of his question in the centre
(its result card stays hidden under his hand); the camera reads the calculation, the answerer
types his answer (a picker of the level's results) and the kiosk checks it against the card:
right scores 1 and the double card leaves the game, wrong sends it to the answerer. The kiosk
counts the double cards each player holds from the deal on, so it knows when one has none left.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from kiosk.games import mathpairs
from kiosk.games.base import Ruling
from kiosk.games.cache_cache import CacheCache
from kiosk.referee.base import InputSpec, Observation, RefereeAdapter
from kiosk.referee.zones import Layout, seats_layout


class QuizReferee(RefereeAdapter):
    """Two players, roles alternating after each question, a calculation shown in the centre.

    Subclasses name their ``engine`` (for options and pairs) and handle the answers.
    """

    engine: ClassVar[type[mathpairs.QuizEngine]]
    domain: ClassVar[str]  # message key prefix: the game id with "_" for "-"

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        if players != 2:
            raise ValueError(f"{self.game_id} is played by 2, not {players}")
        unknown = set(options or {}) - set(self.engine.default_options)
        if unknown:
            raise ValueError(f"{self.game_id}: unknown option(s) {sorted(unknown)}")
        self.options = {**self.engine.default_options, **(options or {})}
        self.pairs = mathpairs.options_pairs(self.options, 12)
        self.level = mathpairs.level_pairs(self.options["level"])
        self.asker = 1 - self.options["dealer"]
        self.points = [0, 0]
        self.question: str | None = None  # the calculation card in the centre
        self.finished = False

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(2)

    @property
    def answerer(self) -> int:
        return 1 - self.asker

    def _value_choices(self) -> dict[str, str]:
        """The level's results as picker buttons; a number reads the same in every language."""
        values = sorted({mathpairs.card(result).value or 0 for _, result in self.level})
        return {str(v): str(v) for v in values}

    def observe(self, obs: Observation) -> list[Ruling]:
        if (
            obs.kind != "confirmed"
            or obs.zone != "centre"
            or self.finished
            or self.question
            or obs.card_id not in mathpairs.math_deck()
        ):
            return []
        card = mathpairs.card(obs.card_id)
        if card.id not in dict(self.level):  # a result, or a card of another level
            return [Ruling(f"{self.domain}.show_calculation", {"player": self.asker + 1}, "reminder")]
        self.question = card.id
        return [Ruling(f"{self.domain}.question", {"player": self.asker + 1, "calculation": card.expression})]

    def _next_question(self) -> None:
        self.question = None
        self.asker = self.answerer

    def status(self) -> Mapping[str, Any]:
        best = max(self.points)
        return {
            "to_act": None if self.finished else (self.answerer if self.question else self.asker),
            "scores": list(self.points),
            "over": self.finished,
            "winners": [s for s in (0, 1) if self.points[s] == best] if self.finished else [],
        }

    def _game_over(self) -> list[Ruling]:
        self.finished = True
        return [Ruling(f"{self.domain}.game_over_points", {"points": " - ".join(map(str, self.points))}, "game_over")]


class CacheCacheReferee(QuizReferee):
    game_id = "cache-cache"
    engine = CacheCache
    domain = "cache_cache"

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        super().__init__(players, options, seed)
        n = len(self.pairs)
        self.held = [0, 0]  # double cards in each hand: dealt one by one, from the non-dealer
        self.held[self.asker], self.held[self.answerer] = (n + 1) // 2, n // 2

    def inputs(self) -> list[InputSpec]:
        if self.finished or self.question is None:
            return []
        return [InputSpec("answer", "cache_cache.input.answer", {"player": self.answerer + 1}, self._value_choices())]

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        choice = str(params.get("choice", ""))
        if action != "answer" or self.question is None or not choice.isdigit():
            return [Ruling("cache_cache.input_not_now", {}, "reminder")]
        calc = mathpairs.card(self.question)
        answer = int(choice)
        params = {"player": self.answerer + 1, "calculation": calc.expression, "value": calc.value, "answer": answer}
        self.held[self.asker] -= 1
        if answer == calc.value:
            self.points[self.answerer] += 1
            out = [Ruling("cache_cache.right", params, "score")]
        else:
            self.held[self.answerer] += 1
            out = [Ruling("cache_cache.wrong", {**params, "giver": self.asker + 1}, "info")]
        self._next_question()
        return out + (self._game_over() if 0 in self.held else [])

    def status(self) -> Mapping[str, Any]:
        return {**super().status(), "held": list(self.held)}
