"""Passport mode's logic: which place to show and when to print its stamp.

Pure (the caller passes the time): a confirmed L'Affiche Belge card shows its place and asks for
a stamp, unless the same card was stamped less than ``cooldown`` seconds ago. The tracker already
confirms a card held in view only once, so holding a card prints once; showing it again after the
cool-down prints again. The Manneken-Pis opens the surprise instead of a stamp.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.decks import Deck
from kiosk.table import TableView


@dataclass(frozen=True)
class ShowPlace:
    card_id: str
    stamp: bool  # False when the cool-down held the stamp back


@dataclass(frozen=True)
class Surprise:
    card_id: str


PassportEvent = ShowPlace | Surprise


class Passport:
    """Turns card confirmations into place displays and stamp requests."""

    def __init__(self, deck: Deck, cooldown: float) -> None:
        self.deck = deck
        self.cooldown = cooldown
        self._last_stamp: dict[str, float] = {}
        self.requested = 0

    def on_view(self, view: TableView, now: float) -> list[PassportEvent]:
        events: list[PassportEvent] = []
        for event in view.events:
            card_id = event.card.card_id
            if event.kind != "confirmed" or card_id not in self.deck:
                continue
            if self.deck[card_id].kind == "joker":
                events.append(Surprise(card_id))
                continue
            last = self._last_stamp.get(card_id)
            stamp = last is None or now - last >= self.cooldown
            if stamp:
                self._last_stamp[card_id] = now
                self.requested += 1
            events.append(ShowPlace(card_id, stamp))
        return events
