"""The decks as data: :func:`load_deck` turns the shipped TOML files into :class:`Deck` objects."""

from kiosk.decks.loader import DECK_IDS, deck_ids, load_deck, load_deck_file
from kiosk.decks.model import LANGUAGES, RANKS, REGIONS, SUITS, Card, Deck, parse_standard_id

__all__ = [
    "DECK_IDS",
    "LANGUAGES",
    "RANKS",
    "REGIONS",
    "SUITS",
    "Card",
    "Deck",
    "deck_ids",
    "load_deck",
    "load_deck_file",
    "parse_standard_id",
]
