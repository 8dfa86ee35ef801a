"""The Huit américain referee: the camera watches the discard pile.

The first card confirmed on the discard pile starts it (an 8 keeps its own suit). Every later
card is judged at once against the top card and the suit to follow: it fits or it must be taken
back. After an 8 the player names the suit with a picker. Hands are hidden, so the kiosk counts
them from the deal, the cards laid and the draws the players report with a button ("I drew");
the forced draw cannot be checked, so the kiosk only reminds that a drawn card that fits is
played at once. Seat 0, the dealer's left neighbour, plays first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kiosk.decks import SUITS
from kiosk.decks.model import SUIT_SYMBOLS
from kiosk.games.base import Ruling
from kiosk.games.huit import fits, hand_size
from kiosk.referee.base import InputSpec, Observation, RefereeAdapter
from kiosk.referee.zones import Layout, seats_layout


class HuitReferee(RefereeAdapter):
    game_id = "huit"

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0):
        super().__init__(players, options, seed)
        self.counts = [hand_size(players)] * players
        self.top: str | None = None
        self.suit: str | None = None
        self.current = 0
        self.naming = False  # an 8 was laid: waiting for the suit
        self.drew = False  # the current player reported his forced draw
        self.wrong: str | None = None  # a card that does not fit, to be taken back
        self.winner: int | None = None

    @classmethod
    def layout(cls, players: int) -> Layout:
        return seats_layout(players, centre=("draw", "discard"))

    def observe(self, obs: Observation) -> list[Ruling]:
        if obs.zone != "discard" or self.winner is not None:
            return []
        card = obs.card_id
        if obs.kind == "removed":
            if card == self.wrong:
                self.wrong = None
            return []
        if card == self.top or card == self.wrong:
            return []
        if card.startswith("JK"):
            return [Ruling("huit.manneken_out", {"card": card}, "violation")]
        if self.top is None:
            self.top, self.suit = card, card[-1]
            return [Ruling("huit.start", {"card": card, "suit": SUIT_SYMBOLS[self.suit]}, "info")]
        if self.wrong is not None:
            return [Ruling("huit.take_back", {"card": self.wrong}, "reminder")]
        if self.naming:
            self.wrong = card
            return [Ruling("huit.name_suit", {"player": self.current + 1}, "violation")]
        assert self.suit is not None
        if not fits(card, self.top, self.suit):
            self.wrong = card
            return [
                Ruling(
                    "huit.does_not_fit",
                    {"player": self.current + 1, "card": card, "top": self.top, "suit": SUIT_SYMBOLS[self.suit]},
                    "violation",
                )
            ]
        return self._laid(card)

    def _laid(self, card: str) -> list[Ruling]:
        seat = self.current
        self.top, self.suit, self.drew = card, card[-1], False
        self.counts[seat] -= 1
        rulings = [Ruling("huit.played", {"player": seat + 1, "card": card, "suit": SUIT_SYMBOLS[card[-1]]}, "ok")]
        if self.counts[seat] <= 0:
            self.winner = seat
            return rulings + [Ruling("huit.wins", {"player": seat + 1}, "game_over")]
        if card.startswith("8"):
            self.naming = True
            return rulings + [Ruling("huit.choose_suit", {"player": seat + 1}, "reminder")]
        self.current = (seat + 1) % self.players
        return rulings

    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        seat = self.current
        if self.winner is not None:
            return [Ruling("huit.input_not_now", {}, "reminder")]
        if action == "suit" and self.naming and params.get("choice") in SUITS:
            self.suit, self.naming = params["choice"], False
            self.current = (seat + 1) % self.players
            return [Ruling("huit.suit_named", {"player": seat + 1, "suit": SUIT_SYMBOLS[self.suit]}, "info")]
        if action == "drew" and not self.naming and not self.drew and self.top is not None:
            self.counts[seat] += 1
            self.drew = True
            return [Ruling("huit.play_drawn_if_fits", {"player": seat + 1}, "reminder")]
        if action == "pass" and self.drew:
            self.drew = False
            self.current = (seat + 1) % self.players
            return [Ruling("huit.passes", {"player": seat + 1}, "info")]
        return [Ruling("huit.input_not_now", {}, "reminder")]

    def inputs(self) -> list[InputSpec]:
        if self.winner is not None or self.top is None:
            return []
        player = {"player": self.current + 1}
        if self.naming:
            return [InputSpec("suit", "huit.input_suit", player, {s: f"huit.suit_{s}" for s in SUITS})]
        if self.drew:
            return [InputSpec("pass", "huit.input_pass", player)]
        return [InputSpec("drew", "huit.input_drew", player)]

    def status(self) -> Mapping[str, Any]:
        return {
            "to_act": None if self.winner is not None else self.current,
            "scores": [int(s == self.winner) for s in range(self.players)],
            "over": self.winner is not None,
            "winners": [] if self.winner is None else [self.winner],
            "hand_counts": list(self.counts),
            "suit": self.suit,
        }
