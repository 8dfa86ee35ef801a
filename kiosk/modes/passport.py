"""Passport mode's logic: which place to show for the cards the camera confirms.

The tracker confirms a card held in view only once (a hand passing over it does not re-confirm
it), so holding a card asks for one stamp; showing it again later asks again, and the stamp
queue's per-card cool-down decides whether it prints. The Manneken-Pis opens the surprise.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.decks import Card, Deck
from kiosk.table import TableView


@dataclass(frozen=True)
class ShowPlace:
    card_id: str


@dataclass(frozen=True)
class Surprise:
    card_id: str


PassportEvent = ShowPlace | Surprise


def has_stamp(card: Card) -> bool:
    """Whether showing ``card`` shows a place and prints its stamp: every card but the
    Manneken-Pis, which opens the surprise instead."""
    return card.kind != "joker"


def passport_events(deck: Deck, view: TableView) -> list[PassportEvent]:
    """A place to show (and stamp) or a surprise for each card of ``deck`` confirmed in ``view``."""
    events: list[PassportEvent] = []
    for event in view.events:
        card_id = event.card.card_id
        if event.kind != "confirmed" or card_id not in deck:
            continue
        events.append(ShowPlace(card_id) if has_stamp(deck[card_id]) else Surprise(card_id))
    return events
