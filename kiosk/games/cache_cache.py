"""Cache-cache (seed 002, rule 2): guess the hidden result of the other player's card.

Each "double card" is a pair of the math deck (calculation + result). The asker shows the
calculation of one of his pairs and hides the result; a right answer scores 1 for the answerer
and the pair leaves the game, a wrong one makes the asker give the pair to the answerer. Roles
alternate after each question until one player has no card; most points wins.

At the table (``at_table=True``) nobody deals: each hand is an :class:`UnseenHand` counting its
double cards (dealt one by one from the non-dealer), a question is the calculation card the
camera reads in the centre and the answer comes from the keypad. :meth:`legal_moves` then lists
the keypad's answers only; a card shown is checked when it is seen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.games import mathpairs
from kiosk.games.base import IllegalMove, Ruling
from kiosk.games.hands import UnseenHand


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
        self.hands: list[list[str] | UnseenHand]
        if self.at_table:
            n = len(calculations)
            self.hands = [UnseenHand((n + 1) // 2 if s == self.asker else n // 2) for s in (0, 1)]
        else:
            self.hands = [*mathpairs.dealt(calculations, 2, self.asker, self.rng)]
        self.question: str | None = None

    @property
    def to_act(self) -> int | None:
        if self.finished:
            return None
        return self.answerer if self.question else self.asker

    def card_locations(self) -> list[tuple[str, str]]:
        """Every double card; at the table only those out of the game (the hands are unseen)."""
        out = [loc for c in self.out for loc in self._pair_locations(c, "out")]
        for s, hand in enumerate(self.hands):
            if not isinstance(hand, UnseenHand):
                out += [loc for c in hand for loc in self._pair_locations(c, f"hand:{s}")]
        return out

    def expects(self) -> tuple[str, dict[str, Any]] | None:
        if self.over:
            return None
        if self.question is None:
            return "cache_cache.expect_question", {"player": self.asker + 1}
        return "cache_cache.expect_answer", {"player": self.answerer + 1}

    def legal_moves(self) -> list[Any]:
        if self.finished:
            return []
        if self.question is None:
            hand = self.hands[self.asker]
            return [] if isinstance(hand, UnseenHand) else [Ask(c) for c in hand]
        return [Answer(v) for v in mathpairs.answers()]

    def play(self, move: Any) -> list[Ruling]:
        if self.finished:
            raise IllegalMove("cache_cache.game_over")
        if isinstance(move, Ask) and self.question is None:
            if self.at_table:
                self._check_shown(move.card)
            hand = self.hands[self.asker]
            if move.card in self.out or not (isinstance(hand, UnseenHand) or move.card in hand):
                raise IllegalMove("cache_cache.not_your_card", player=self.asker + 1)
            self.question = move.card
            return [
                Ruling(
                    "cache_cache.question",
                    {"player": self.asker + 1, "calculation": mathpairs.card(move.card).expression},
                )
            ]
        if isinstance(move, Answer) and self.question is not None:
            return self._answer(move.value)
        raise IllegalMove("cache_cache.not_now")

    def _answer(self, value: int) -> list[Ruling]:
        calc = mathpairs.card(self.question or "")
        params = {"player": self.answerer + 1, "calculation": calc.expression, "value": calc.value, "answer": value}
        asker, answerer = self.hands[self.asker], self.hands[self.answerer]
        if isinstance(asker, UnseenHand):
            asker.lay()
        else:
            asker.remove(calc.id)
        self.question = None
        if value == calc.value:
            self.points[self.answerer] += 1
            self.out.append(calc.id)
            rulings = [Ruling("cache_cache.right", params, "score")]
        else:
            if isinstance(answerer, UnseenHand):
                answerer.take()
            else:
                answerer.append(calc.id)
            rulings = [Ruling("cache_cache.wrong", {**params, "giver": self.asker + 1}, "info")]
        self._switch()
        if not len(self.hands[0]) or not len(self.hands[1]):
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
