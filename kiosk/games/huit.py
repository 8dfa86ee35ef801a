"""Huit américain (Pesten): the seed's rules plus rules-decisions.md.

Seed (000): 7 cards each (5 from 5 players), one card turned to start the discard pile, the rest
is the stock. On your turn lay a card of the same suit or the same value as the top card; else
draw a card. An 8 goes on anything and lets you choose the next suit. First without cards wins.

Decisions: the Manneken-Pis are out; no voluntary draw; one forced draw when no card fits, and
the drawn card is played at once if it fits (the player must play it); an empty stock is rebuilt
from the discard pile except its top card (shuffled); a starting 8 keeps its own suit.

Seat ``players - 1`` deals, so seat 0 (the dealer's left neighbour) plays first. Edge case the
texts do not reach: when no card can be drawn and a whole round of players passes, the game is
blocked and ends; the fewest cards wins.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kiosk.decks import SUITS, load_deck, parse_standard_id
from kiosk.decks.model import SUIT_SYMBOLS
from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.games.bataille import seats_text
from kiosk.games.cards import deal, reshuffle_except_top


def fits(card_id: str, top_id: str, suit: str) -> bool:
    """May ``card_id`` go on ``top_id`` when ``suit`` is the suit to follow? (an 8 always may)."""
    rank, card_suit = parse_standard_id(card_id)
    return rank == "8" or card_suit == suit or rank == parse_standard_id(top_id)[0]


def hand_size(players: int) -> int:
    return 5 if players >= 5 else 7


@dataclass(frozen=True)
class Play:
    """Lay ``card``; ``suit`` is the suit named with an 8 (None for any other card)."""

    card: str
    suit: str | None = None


@dataclass(frozen=True)
class Draw:
    """The forced draw: only when no card of the hand fits."""


@dataclass(frozen=True)
class Pass:
    """Nothing fits and nothing can be drawn (stock and discard pile exhausted)."""


class Huit(GameEngine):
    game_id = "huit"
    deck_id = "affiche-belge"
    min_players = 2
    max_players = 7

    def __init__(self, players: int, rng: random.Random, options: Mapping[str, Any] | None = None):
        super().__init__(players, rng, options)
        deck = load_deck(self.deck_id)
        self.aside = [c.id for c in deck if c.kind == "joker"]
        cards = [c.id for c in deck if c.kind == "standard"]
        rng.shuffle(cards)
        n = hand_size(players)
        self.hands: list[list[str]] = deal(cards, players, n)
        self.discard: list[str] = [cards[players * n]]
        self.stock: list[str] = cards[players * n + 1 :]  # top = last
        self.suit = parse_standard_id(self.discard[-1])[1]  # a starting 8 keeps its suit
        self.current = 0
        self.drawn: str | None = None  # the forced draw that fits, to be played at once
        self.passes = 0
        self._winners: list[int] = []

    @property
    def over(self) -> bool:
        return bool(self._winners)

    @property
    def to_act(self) -> int | None:
        return None if self.over else self.current

    @property
    def top(self) -> str:
        return self.discard[-1]

    def _plays(self, card: str) -> list[Play]:
        if parse_standard_id(card)[0] == "8":
            return [Play(card, s) for s in SUITS]
        return [Play(card)]

    def legal_moves(self) -> list[Any]:
        if self.over:
            return []
        if self.drawn is not None:
            return self._plays(self.drawn)
        moves = [m for c in self.hands[self.current] if fits(c, self.top, self.suit) for m in self._plays(c)]
        if moves:
            return moves
        return [Draw()] if self.stock or len(self.discard) > 1 else [Pass()]

    def play(self, move: Any) -> list[Ruling]:
        if self.over:
            raise IllegalMove("huit.game_over")
        if move not in self.legal_moves():
            raise self._refusal(move)
        seat = self.current
        if isinstance(move, Play):
            return self._lay(seat, move)
        if isinstance(move, Draw):
            return self._draw(seat)
        self.passes += 1
        if self.passes >= self.players:
            fewest = min(len(h) for h in self.hands)
            self._winners = [s for s in range(self.players) if len(self.hands[s]) == fewest]
            return [Ruling("huit.blocked", {"players": seats_text(self._winners)}, "game_over")]
        self._next()
        return [Ruling("huit.passes", {"player": seat + 1}, "info")]

    def _refusal(self, move: Any) -> IllegalMove:
        seat = self.current
        if isinstance(move, Play):
            if move.card not in self.hands[seat]:
                return IllegalMove("huit.not_in_hand", player=seat + 1, card=move.card)
            if self.drawn is not None and move.card != self.drawn:
                return IllegalMove("huit.play_drawn", player=seat + 1, card=self.drawn)
            if parse_standard_id(move.card)[0] == "8":
                return IllegalMove("huit.name_suit", player=seat + 1)
            if move.suit is not None:
                return IllegalMove("huit.suit_only_with_8", player=seat + 1)
            return IllegalMove(
                "huit.does_not_fit", player=seat + 1, card=move.card, top=self.top, suit=SUIT_SYMBOLS[self.suit]
            )
        if isinstance(move, Draw):
            if self.drawn is not None:
                return IllegalMove("huit.play_drawn", player=seat + 1, card=self.drawn)
            return IllegalMove("huit.no_voluntary_draw", player=seat + 1)
        return IllegalMove("huit.cannot_pass", player=seat + 1)

    def _lay(self, seat: int, move: Play) -> list[Ruling]:
        self.hands[seat].remove(move.card)
        self.discard.append(move.card)
        self.suit = move.suit or parse_standard_id(move.card)[1]
        self.drawn = None
        self.passes = 0
        rulings = [
            Ruling("huit.played", {"player": seat + 1, "card": move.card, "suit": SUIT_SYMBOLS[self.suit]}, "ok")
        ]
        if not self.hands[seat]:
            self._winners = [seat]
            return rulings + [Ruling("huit.wins", {"player": seat + 1}, "game_over")]
        self._next()
        return rulings

    def _draw(self, seat: int) -> list[Ruling]:
        rulings = []
        if not self.stock:
            reshuffle_except_top(self.stock, self.discard, self.rng)
            rulings.append(Ruling("huit.reshuffle", {"count": len(self.stock)}, "info"))
        card = self.stock.pop()
        self.hands[seat].append(card)
        self.passes = 0
        if fits(card, self.top, self.suit):
            self.drawn = card
            return rulings + [Ruling("huit.drawn_fits", {"player": seat + 1}, "reminder")]
        self._next()
        return rulings + [Ruling("huit.drew", {"player": seat + 1}, "info")]

    def _next(self) -> None:
        self.current = (self.current + 1) % self.players

    def bot_move(self) -> Any:
        """Keep the 8s for last; with an 8, name the suit held most."""
        moves = self.legal_moves()
        plain = [m for m in moves if isinstance(m, Play) and m.suit is None]
        if plain:
            return self.rng.choice(plain)
        eights = [m for m in moves if isinstance(m, Play)]
        if eights:
            held = Counter(parse_standard_id(c)[1] for c in self.hands[self.current] if c != eights[0].card)
            best = max(SUITS, key=lambda s: held[s])
            return next(m for m in eights if m.suit == best)
        return moves[0]

    def scores(self) -> list[int]:
        """1 for the winner (the first without cards), 0 for the others."""
        return [int(s in self._winners) for s in range(self.players)]

    def winners(self) -> list[int]:
        return list(self._winners)

    def card_locations(self) -> list[tuple[str, str]]:
        out = [(c, f"hand:{seat}") for seat, hand in enumerate(self.hands) for c in hand]
        out += [(c, "discard") for c in self.discard] + [(c, "stock") for c in self.stock]
        return out + [(c, "aside") for c in self.aside]
