"""Passport mode: which place to show for the cards the camera confirms, and its stamp.

The tracker confirms a card held in view only once (a hand passing over it does not re-confirm
it), so holding a card asks for one stamp; showing it again later asks again, and the stamp
queue's per-card cool-down decides whether it prints. The Manneken-Pis opens the surprise.
A stamp is asked for only for cards a real camera saw (or in ``kiosk demo``); a refusal is a
message key the screen shows and :attr:`PassportMode.refusals` counts.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from kiosk.counters import Counters
from kiosk.decks import Card, Deck
from kiosk.devices.queue import ERROR, Admission, JobRow
from kiosk.table import TableView

log = logging.getLogger(__name__)


class StampService(Protocol):
    """The stamp printer's durable queue (``kiosk.devices.printer_service``)."""

    def request(self, card_id: str, lang: str) -> Admission: ...
    def job_state(self, job_id: int) -> str: ...
    def pending(self, card_id: str | None = None) -> int: ...
    def state(self) -> str: ...
    def test_page(self) -> Admission: ...
    def counters(self) -> dict[str, int]: ...
    def jobs(self) -> list[JobRow]: ...
    def reprint(self, job_id: int) -> bool: ...
    def clear(self) -> int: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class CardSeen:
    """A card of any deck was confirmed (the status light answers it)."""

    card_id: str


@dataclass(frozen=True)
class ShowPlace:
    """Show ``card_id``'s place; its stamp was queued as ``job``, or refused for ``refused``."""

    card_id: str
    refused: str = ""
    job: int | None = None


@dataclass(frozen=True)
class Surprise:
    card_id: str


PassportEvent = CardSeen | ShowPlace | Surprise


def has_stamp(card: Card) -> bool:
    """Whether showing ``card`` shows a place and prints its stamp: every card but the
    Manneken-Pis, which opens the surprise instead."""
    return card.kind != "joker"


class PassportMode:
    """Table views in, places and surprises out, each place's stamp asked for on the way."""

    def __init__(
        self,
        deck: Deck,
        stamps: StampService | None = None,
        *,
        stamps_allowed: bool = False,
        counters: Counters | None = None,
    ) -> None:
        self.deck = deck
        self.stamps = stamps
        self.stamps_allowed = stamps_allowed
        self.counters = counters
        self.requested = 0
        self.refusals: Counter[str] = Counter()  # stamps not queued, by reason (a message key)

    def on_view(self, view: TableView, lang: str) -> list[PassportEvent]:
        """A :class:`CardSeen` when a card was confirmed, then a place (with its stamp) or a
        surprise for each card of the passport deck confirmed in ``view``."""
        confirmed = [e.card.card_id for e in view.events if e.kind == "confirmed"]
        events: list[PassportEvent] = [CardSeen(confirmed[0])] if confirmed else []
        for card_id in confirmed:
            if card_id not in self.deck:
                continue
            if has_stamp(self.deck[card_id]):
                events.append(self._stamp(card_id, lang))
            else:
                events.append(Surprise(card_id))
        return events

    def _stamp(self, card_id: str, lang: str) -> ShowPlace:
        """Ask for the stamp. Refused (a message key) when no real camera films the table
        (outside the demo), there is no printer, a flood limit, the queue is unavailable or
        failing, or the request fails."""
        if not self.stamps_allowed:
            admission = Admission(None, "app.stamp.no_camera")
        elif self.stamps is None:
            admission = Admission(None, "devices.stamp.no_printer")
        else:
            try:
                admission = self.stamps.request(card_id, lang)
            except Exception:
                log.exception("stamp request for %s failed", card_id)
                admission = Admission(None, ERROR)
        if not admission.accepted:
            self.refusals[admission.reason] += 1
            return ShowPlace(card_id, refused=admission.reason)
        self.requested += 1
        if self.counters:
            self.counters.stamp(card_id)
        return ShowPlace(card_id, job=admission.job_id)

    def stamp_status_key(self, refused: str, job: int | None) -> str:
        """What the passport screen says of its stamp: why it was refused (``refused``), else
        where its job is: printing, waiting for the printer, parked, or printed."""
        if refused or self.stamps is None or job is None:
            return refused or "app.stamp.done"
        state = self.stamps.job_state(job)
        if state in ("waiting", "printing"):
            return "app.stamp.printing" if self.stamps.state() in ("ready", "printing") else "app.stamp.waiting"
        return {"parked": "app.stamp.parked", "done": "app.stamp.done"}.get(state, "app.stamp.unknown")
