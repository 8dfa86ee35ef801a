"""Card and Deck: the immutable vocabulary every other part of the kiosk speaks.

A card is identified by its id alone (``QS``, ``JK1``, ``rat-3``, ``7x8``); everything else
(place, region, species, arithmetic) is data loaded from the deck files so that the vision,
the games, the stamps and the UI never hard-code a card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
RED_SUITS = frozenset({"D", "H"})
LANGUAGES: tuple[str, ...] = ("fr", "nl", "de", "en")
REGIONS: tuple[str, ...] = ("flanders", "wallonia", "brussels")
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


@dataclass(frozen=True, slots=True)
class Card:
    """One face of a deck.

    ``kind`` is ``standard`` (rank + suit), ``joker`` (Manneken-Pis), ``animal``, ``math``
    (a calculation or a result) or ``blank`` (the Pouilleux card).
    """

    id: str
    deck: str
    kind: str
    rank: str | None = None
    suit: str | None = None
    names: Mapping[str, str] = field(default_factory=dict, compare=False)
    region: str | None = None
    province: str | None = None
    facts: Mapping[str, str] = field(default_factory=dict, compare=False)
    species: str | None = None
    expression: str | None = None
    value: int | None = None
    levels: tuple[str, ...] = field(default=(), compare=False)

    def __hash__(self) -> int:
        return hash((self.deck, self.id))

    @property
    def colour(self) -> str | None:
        """``red`` or ``black`` for suited cards, else None."""
        if self.suit is None:
            return None
        return "red" if self.suit in RED_SUITS else "black"

    @property
    def is_calculation(self) -> bool:
        return self.kind == "math" and self.expression is not None

    def name(self, lang: str = "fr") -> str:
        """The card's name in ``lang``, falling back to French, then to the id."""
        return self.names.get(lang) or self.names.get("fr") or self.id

    def fact(self, lang: str = "fr") -> str:
        return self.facts.get(lang) or self.facts.get("en") or self.facts.get("fr") or ""


@dataclass(frozen=True)
class Deck:
    """An ordered, immutable set of cards with unique ids.

    ``identify_by`` tells the vision how cards of this deck are told apart: ``index`` (the
    standard corner index, rank + suit, so any brand works), ``face`` (the whole artwork) or
    ``text`` (the big printed text of the kiosk's own cards, matched against their rendering).
    ``pips`` says whether its number cards show their suit in pips, as any standard printing
    does (the identifier then checks their suit; the kiosk's own posters have none).
    """

    id: str
    names: Mapping[str, str]
    identify_by: str
    cards: tuple[Card, ...]
    description: str = ""
    pips: bool = True
    # Named labels the cards point at by key: provinces, species, math levels (key -> lang -> text).
    provinces: Mapping[str, Mapping[str, str]] = field(default_factory=dict, compare=False)
    species: Mapping[str, Mapping[str, str]] = field(default_factory=dict, compare=False)
    levels: Mapping[str, Mapping[str, str]] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self.cards})

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id  # type: ignore[attr-defined]

    def __getitem__(self, card_id: str) -> Card:
        try:
            return self._by_id[card_id]  # type: ignore[attr-defined,no-any-return]
        except KeyError:
            raise KeyError(f"deck {self.id!r} has no card {card_id!r}") from None

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)

    def name(self, lang: str = "fr") -> str:
        return self.names.get(lang) or self.names.get("en") or self.id

    def subset(self, card_ids: list[str] | tuple[str, ...], new_id: str | None = None) -> Deck:
        """A deck restricted to ``card_ids`` (for example the 49 cards of the Choux)."""
        return Deck(
            id=new_id or self.id,
            names=self.names,
            identify_by=self.identify_by,
            cards=tuple(self[i] for i in card_ids),
            description=self.description,
            pips=self.pips,
            provinces=self.provinces,
            species=self.species,
            levels=self.levels,
        )

    def level_cards(self, level: str) -> tuple[Card, ...]:
        """The cards of one math level (a teacher's pick), in deck order."""
        if level not in self.levels:
            raise KeyError(f"deck {self.id!r} has no level {level!r}")
        return tuple(c for c in self.cards if level in c.levels)


def standard_id(rank: str, suit: str) -> str:
    """``standard_id('10', 'H') == '10H'``."""
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a standard card: rank {rank!r} suit {suit!r}")
    return f"{rank}{suit}"


def parse_standard_id(card_id: str) -> tuple[str, str]:
    """``'10H' -> ('10', 'H')``; raises ValueError for anything else (jokers included)."""
    rank, suit = card_id[:-1], card_id[-1:]
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a standard card id: {card_id!r}")
    return rank, suit
