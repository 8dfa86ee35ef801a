"""Small facts about standard cards that several game engines need: rank, number, colour, dealing
and rebuilding a stock from the discard pile. Piles are lists whose top card is the last item."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from kiosk.decks.model import RED_SUITS, parse_standard_id

#: Numbered ranks in order; their int value is the number printed in the corner.
NUMBERED: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10")


@cache
def rank_of(card_id: str) -> str | None:
    """The rank of a standard card id (``'10H' -> '10'``), None for a joker."""
    try:
        return parse_standard_id(card_id)[0]
    except ValueError:
        return None


@cache
def number_of(card_id: str) -> int | None:
    """The printed number of a 2..10 card, None for aces, faces and jokers."""
    rank = rank_of(card_id)
    return int(rank) if rank in NUMBERED else None


@cache
def colour_of(card_id: str) -> str | None:
    """``red`` (♥ ♦) or ``black`` (♣ ♠); None for a joker."""
    try:
        suit = parse_standard_id(card_id)[1]
    except ValueError:
        return None
    return "red" if suit in RED_SUITS else "black"


def deal(cards: Sequence[str], players: int, per_player: int | None = None, first: int = 0) -> list[list[str]]:
    """Deal one card at a time, seat ``first`` first, going left (seat + 1).

    ``per_player`` None deals every card (some seats get one more, as in the Choux).
    """
    count = len(cards) if per_player is None else per_player * players
    if count > len(cards):
        raise ValueError(f"cannot deal {per_player} cards to {players} players from {len(cards)}")
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, card in enumerate(cards[:count]):
        hands[(first + i) % players].append(card)
    return hands


def reshuffle_except_top(stock: list[str], discard: list[str], rng: random.Random) -> bool:
    """Shuffle the discard pile except its top card and slide it under the stock (in place).

    Called when the stock is empty, or short (the Manneken-Pis wants 3 cards). Returns whether
    a card can be drawn now, so the caller decides what an exhausted stock means.
    """
    if len(discard) >= 2:
        moved = discard[:-1]
        del discard[:-1]
        rng.shuffle(moved)
        stock[:0] = moved
    return bool(stock)
