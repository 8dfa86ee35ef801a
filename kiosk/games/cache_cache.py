"""Cache-cache (seed 002, rule 2): guess the hidden result of the other player's card.

Each "double card" is a pair of the math deck (calculation + result). The asker shows the
calculation of one of his pairs and hides the result; a right answer scores 1 for the answerer
and the pair leaves the game, a wrong one makes the asker give the pair to the answerer. Roles
alternate after each question until one player has no card; most points wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.games import mathpairs
from kiosk.games.base import IllegalMove, Ruling


@dataclass(frozen=True)
class Ask:
    """The asker shows the calculation card ``card`` of one of his pairs."""

    card: str


@dataclass(frozen=True)
class Answer:
    value: int


class CacheCache(mathpairs.QuizEngine):
    game_id = "cache-cache"

    def _deal(self, calculations: list[str]) -> None:
        self.hands = mathpairs.dealt(calculations, 2, self.asker, self.rng)
        self.question: str | None = None

    @property
    def to_act(self) -> int | None:
        if self.finished:
            return None
        return self.answerer if self.question else self.asker

    def card_locations(self) -> list[tuple[str, str]]:
        out = [loc for s in (0, 1) for c in self.hands[s] for loc in self._pair_locations(c, f"hand:{s}")]
        return out + [loc for c in self.out for loc in self._pair_locations(c, "out")]

    def legal_moves(self) -> list[Any]:
        if self.finished:
            return []
        if self.question is None:
            return [Ask(c) for c in self.hands[self.asker]]
        return [Answer(v) for v in mathpairs.answers()]

    def play(self, move: Any) -> list[Ruling]:
        if self.finished:
            raise IllegalMove("cache_cache.game_over")
        if isinstance(move, Ask) and self.question is None:
            if move.card not in self.hands[self.asker]:
                raise IllegalMove("cache_cache.not_your_card", player=self.asker + 1)
            self.question = move.card
            return [
                Ruling(
                    "cache_cache.question",
                    {"player": self.answerer + 1, "calculation": mathpairs.card(move.card).expression},
                )
            ]
        if isinstance(move, Answer) and self.question is not None:
            return self._answer(move.value)
        raise IllegalMove("cache_cache.not_now")

    def _answer(self, value: int) -> list[Ruling]:
        calc = mathpairs.card(self.question or "")
        params = {"player": self.answerer + 1, "calculation": calc.expression, "value": calc.value, "answer": value}
        self.hands[self.asker].remove(calc.id)
        self.question = None
        if value == calc.value:
            self.points[self.answerer] += 1
            self.out.append(calc.id)
            rulings = [Ruling("cache_cache.right", params, "score")]
        else:
            self.hands[self.answerer].append(calc.id)
            rulings = [Ruling("cache_cache.wrong", {**params, "giver": self.asker + 1}, "info")]
        self._switch()
        if not self.hands[0] or not self.hands[1]:
            self.finished = True
            rulings.append(
                Ruling("cache_cache.game_over_points", {"points": " - ".join(map(str, self.points))}, "game_over")
            )
        return rulings

    def bot_move(self) -> Any:
        """Asks a random card; answers right three times in four, else one off."""
        if self.question is None:
            return super().bot_move()
        value = mathpairs.card(self.question).value or 0
        return Answer(value if self.rng.random() < 0.75 else value + 1)
