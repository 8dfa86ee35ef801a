"""What the four math games share: which cards they use and what makes a pair.

A pair is a calculation card and the result card of the same value (``7x8`` and ``56``). Two
calculations of equal value are not a pair, nor is anything with the blank Pouilleux card.
The games take a teacher's level from the ``math-pairs`` deck; within one level every result
has exactly one calculation, so every pair is unique.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from kiosk.decks import Card, Deck, load_deck
from kiosk.games.base import GameEngine, IllegalMove

DECK_ID = "math-pairs"
BLANK = "pouilleux"
DEFAULT_LEVEL = "add-20"


def math_deck() -> Deck:
    return load_deck(DECK_ID)


def level_pairs(level: str, count: int | None = None) -> list[tuple[str, str]]:
    """(calculation id, result id) of ``level`` in deck order, the first ``count`` of them.

    Raises ValueError for an unknown level or a count the level cannot give, so a game refuses
    a bad option at construction instead of dealing a short deck.
    """
    deck = math_deck()
    if level not in deck.levels:
        raise ValueError(f"unknown math level {level!r}; known: {', '.join(deck.levels)}")
    cards = deck.level_cards(level)
    results = {c.value: c.id for c in cards if not c.is_calculation}
    pairs = [(c.id, results[c.value]) for c in cards if c.is_calculation]
    if count is None:
        return pairs
    if not 1 <= count <= len(pairs):
        raise ValueError(f"level {level!r} has {len(pairs)} pairs; cannot use {count}")
    return pairs[:count]


def card(card_id: str) -> Card:
    return math_deck()[card_id]


def is_pair(a: str, b: str) -> bool:
    """True when one card is a calculation and the other its result."""
    ca, cb = card(a), card(b)
    if ca.kind != "math" or cb.kind != "math" or ca.is_calculation == cb.is_calculation:
        return False
    return ca.value == cb.value


def partner(card_id: str, among: list[str] | tuple[str, ...]) -> str | None:
    """The card of ``among`` that pairs with ``card_id``, if any."""
    return next((other for other in among if other != card_id and is_pair(card_id, other)), None)


def find_pair(cards: list[str] | tuple[str, ...]) -> tuple[str, str] | None:
    """Any true pair among ``cards`` (what a careful player would lay down)."""
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            if is_pair(a, b):
                return a, b
    return None


def _label(c: Card) -> str:
    if c.expression:
        return c.expression
    return str(c.value) if c.value is not None else c.name()


def pair_params(a: str, b: str) -> dict[str, Any]:
    """Message parameters that show two cards laid as a pair: the calculation and both values.

    ``calculation``/``value`` come from the calculation card when there is one; ``shown`` is
    what the other card says (its number, its calculation, or the blank card's name).
    """
    ca, cb = card(a), card(b)
    calc, other = (cb, ca) if cb.is_calculation and not ca.is_calculation else (ca, cb)
    value = calc.value if calc.value is not None else "-"
    return {"calculation": _label(calc), "value": value, "shown": _label(other)}


def dealt(cards: list[str], players: int, first: int, rng: random.Random) -> list[list[str]]:
    """Shuffle ``cards`` and deal them one by one, starting at seat ``first``."""
    pile = list(cards)
    rng.shuffle(pile)
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, cid in enumerate(pile):
        hands[(first + i) % players].append(cid)
    return hands


def options_pairs(options: Mapping[str, Any], default: int) -> list[tuple[str, str]]:
    """The pairs a game uses from its ``level`` and ``pairs`` options (None = ``default``, capped)."""
    level = options["level"]
    available = len(level_pairs(level))
    count = options["pairs"] if options["pairs"] is not None else min(default, available)
    return level_pairs(level, count)


@dataclass(frozen=True)
class SpottedBy:
    """At the table: player ``seat`` spotted a wrong pair first (Pouilleux, Memory)."""

    seat: int


@dataclass(frozen=True)
class Unspotted:
    """At the table: nobody spotted the wrong pair."""


@dataclass(frozen=True)
class PairCheck:
    """The verdict on two cards laid together: ``ok`` and the parameters to show."""

    ok: bool
    params: Mapping[str, Any]


def check_pair(a: str, b: str) -> PairCheck:
    return PairCheck(is_pair(a, b), pair_params(a, b))


def answers() -> range:
    """Every answer the keypad can give: 0 up to the deck's largest result."""
    return range(0, max(c.value or 0 for c in math_deck()) + 1)


class QuizEngine(GameEngine):
    """Cache-cache and Recto-verso: two players, one asks, the other answers, roles alternate.

    The dealer deals; the other player asks first (rules-decisions). Subclasses deal in
    :meth:`_deal` (at the table: count the cards nobody has named yet) and call :meth:`_switch`
    after each question.
    """

    deck_id = DECK_ID
    min_players = 2
    max_players = 2
    #: pairs: None = the seed's 12 "cartes doubles" (or the whole level when smaller).
    default_options: ClassVar[Mapping[str, Any]] = {"level": DEFAULT_LEVEL, "pairs": None, "dealer": 0}

    def __init__(
        self,
        players: int,
        rng: random.Random,
        options: Mapping[str, Any] | None = None,
        *,
        at_table: bool = False,
    ):
        super().__init__(players, rng, options, at_table=at_table)
        if self.options["dealer"] not in (0, 1):
            raise ValueError(f"{self.game_id}: dealer must be seat 0 or 1")
        self.pairs = options_pairs(self.options, 12)
        #: the result card of every calculation of the level (a table may use any of its pairs)
        self.result_of = dict(level_pairs(self.options["level"]))
        self.points = [0, 0]
        self.out: list[str] = []  # calculations answered right: out of the game
        self.asker = 1 - self.options["dealer"]
        self.finished = False
        self._deal([calc for calc, _ in self.pairs])

    @abstractmethod
    def _deal(self, calculations: list[str]) -> None:
        """Deal the pairs (named by their calculation card) as the game's seed says."""

    @property
    def answerer(self) -> int:
        return 1 - self.asker

    def _switch(self) -> None:
        self.asker = self.answerer

    @property
    def over(self) -> bool:
        return self.finished

    def scores(self) -> list[int]:
        return list(self.points)

    def winners(self) -> list[int]:
        if not self.finished:
            return []
        best = max(self.points)
        return [s for s in (0, 1) if self.points[s] == best]

    def _pair_locations(self, calc: str, where: str) -> list[tuple[str, str]]:
        return [(calc, where), (self.result_of[calc], where)]

    def _check_shown(self, card: str) -> None:
        """At the table, the card shown in the centre must be a calculation of the level."""
        if card not in self.result_of:  # a result, the blank card or a card of another level
            raise IllegalMove(f"{self.game_id.replace('-', '_')}.show_calculation", player=self.asker + 1)


class PairWatcher:
    """Pairs laid in zones, from the cards the camera confirms and removes there.

    Two cards confirmed one after the other in the same zone are a pair laid down; the verdict
    comes back once, when the second card lands. A card removed from a zone leaves it (a pair
    taken back breaks up). Pure bookkeeping: the referees decide what a verdict means.
    """

    def __init__(self) -> None:
        self.loose: dict[str, list[str]] = {}
        self.pairs: dict[str, list[tuple[str, str]]] = {}

    def confirmed(self, zone: str, card_id: str) -> PairCheck | None:
        loose = self.loose.setdefault(zone, [])
        if card_id in loose or any(card_id in p for p in self.pairs.get(zone, [])):
            return None  # seen again after a flicker
        loose.append(card_id)
        if len(loose) < 2:
            return None
        a, b = loose
        loose.clear()
        self.pairs.setdefault(zone, []).append((a, b))
        return check_pair(a, b)

    def removed(self, zone: str, card_id: str) -> tuple[str, str] | None:
        """Forget ``card_id`` in ``zone``; returns the pair it broke up, if it was in one."""
        loose = self.loose.get(zone, [])
        if card_id in loose:
            loose.remove(card_id)
            return None
        pairs = self.pairs.get(zone, [])
        for pair in pairs:
            if card_id in pair:
                pairs.remove(pair)
                other = pair[1] if pair[0] == card_id else pair[0]
                self.loose.setdefault(zone, []).append(other)
                return pair
        return None

    def laid(self, zone: str) -> list[tuple[str, str]]:
        return list(self.pairs.get(zone, []))

    def clear(self) -> None:
        self.loose.clear()
        self.pairs.clear()
