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

At the table (``at_table=True``) nothing is dealt: hands and the stock are :class:`UnseenHand`
counts and the discard pile holds the cards the camera saw land. The table reports
:class:`TurnUp` (the card that starts the pile), :class:`Play` (a card on the pile; an 8 comes
without its suit, named next by :class:`NameSuit`), :class:`Draw` ("I drew": the card is unseen,
so the player then lays a card that fits or passes with :class:`Pass`). That a drawn card which
fits is played at once, and that nothing fitted before a draw, cannot be seen: the engine only
reminds. Any card the camera sees must fit the pile; a card already on it is not in a hand.
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
from kiosk.games.hands import UnseenHand


def fits(card_id: str, top_id: str, suit: str) -> bool:
    """May ``card_id`` go on ``top_id`` when ``suit`` is the suit to follow? (an 8 always may)."""
    rank, card_suit = parse_standard_id(card_id)
    return rank == "8" or card_suit == suit or rank == parse_standard_id(top_id)[0]


def hand_size(players: int) -> int:
    return 5 if players >= 5 else 7


@dataclass(frozen=True)
class Play:
    """Lay ``card``; ``suit`` is the suit named with an 8 (None for any other card, and for an 8
    at the table, whose suit comes next as :class:`NameSuit`)."""

    card: str
    suit: str | None = None


@dataclass(frozen=True)
class Draw:
    """The forced draw: only when no card of the hand fits."""


@dataclass(frozen=True)
class Pass:
    """Nothing fits and nothing can be drawn (stock and discard pile exhausted); at the table also
    the end of a turn whose unseen drawn card does not fit."""


@dataclass(frozen=True)
class TurnUp:
    """At the table: the dealer turns ``card`` from the stock to start the discard pile."""

    card: str


@dataclass(frozen=True)
class NameSuit:
    """At the table: the player who laid an 8 names the next ``suit``."""

    suit: str


class Huit(GameEngine):
    game_id = "huit"
    deck_id = "affiche-belge"
    min_players = 2
    max_players = 7

    def __init__(
        self, players: int, rng: random.Random, options: Mapping[str, Any] | None = None, *, at_table: bool = False
    ):
        super().__init__(players, rng, options, at_table=at_table)
        deck = load_deck(self.deck_id)
        self.aside = [c.id for c in deck if c.kind == "joker"]
        self.cards = [c.id for c in deck if c.kind == "standard"]
        n = hand_size(players)
        self.hands: list[list[str]] | list[UnseenHand]
        self.stock: list[str] | UnseenHand  # top = last
        if at_table:
            self.hands = [UnseenHand(n) for _ in range(players)]
            self.discard: list[str] = []
            self.stock = UnseenHand(len(self.cards) - players * n - 1)
            self.suit = ""  # no pile yet
        else:
            cards = list(self.cards)
            rng.shuffle(cards)
            self.hands = deal(cards, players, n)
            self.discard = [cards[players * n]]
            self.stock = cards[players * n + 1 :]
            self.suit = parse_standard_id(self.discard[-1])[1]  # a starting 8 keeps its suit
        self.current = 0
        self.drawn: str | None = None  # the forced draw that fits, to be played at once
        self.drew = False  # at the table: the player drew a card nobody saw
        self.naming = False  # at the table: an 8 was laid, its suit is not named yet
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
        if parse_standard_id(card)[0] != "8":
            return [Play(card)]
        return [Play(card, s) for s in SUITS] + ([Play(card)] if self.at_table else [])

    def _may_hold(self, seat: int, card: str) -> bool:
        """Whether ``card`` may be in ``seat``'s hand: any card not on the pile at the table."""
        hand = self.hands[seat]
        if isinstance(hand, UnseenHand):
            return card in self.cards and card not in self.discard
        return card in hand

    def _drawable(self) -> bool:
        return bool(self.stock) or len(self.discard) > 1

    def legal_moves(self) -> list[Any]:
        if self.over:
            return []
        if not self.discard:
            return [TurnUp(c) for c in self.cards]
        if self.naming:
            return [NameSuit(s) for s in SUITS]
        if self.drawn is not None:
            return self._plays(self.drawn)
        seat = self.current
        hand = self.hands[seat]
        held = self.cards if isinstance(hand, UnseenHand) else hand
        moves: list[Any] = [
            m for c in held if self._may_hold(seat, c) and fits(c, self.top, self.suit) for m in self._plays(c)
        ]
        if self.drew:
            return moves + [Pass()]
        if self.at_table:  # a hand nobody sees may hold no card that fits
            return moves + [Draw() if self._drawable() else Pass()]
        if moves:
            return moves
        return [Draw()] if self._drawable() else [Pass()]

    def play(self, move: Any) -> list[Ruling]:
        if self.over:
            raise IllegalMove("huit.game_over")
        if move not in self.legal_moves():
            raise self._refusal(move)
        seat = self.current
        if isinstance(move, TurnUp):
            self.discard.append(move.card)
            self.suit = parse_standard_id(move.card)[1]
            return [Ruling("huit.start", {"card": move.card, "suit": SUIT_SYMBOLS[self.suit]}, "info")]
        if isinstance(move, NameSuit):
            self.suit, self.naming = move.suit, False
            self._next()
            return [Ruling("huit.suit_named", {"player": seat + 1, "suit": SUIT_SYMBOLS[self.suit]}, "info")]
        if isinstance(move, Play):
            return self._lay(seat, move)
        if isinstance(move, Draw):
            return self._draw(seat)
        if self.drew:  # the unseen drawn card does not fit
            self.drew = False
            self._next()
            return [Ruling("huit.passes", {"player": seat + 1}, "info")]
        self.passes += 1
        if self.passes >= self.players:
            fewest = min(len(h) for h in self.hands)
            self._winners = [s for s in range(self.players) if len(self.hands[s]) == fewest]
            return [Ruling("huit.blocked", {"players": seats_text(self._winners)}, "game_over")]
        self._next()
        return [Ruling("huit.passes", {"player": seat + 1}, "info")]

    def _refusal(self, move: Any) -> IllegalMove:
        seat = self.current
        card = move.card if isinstance(move, (Play, TurnUp)) else None
        if isinstance(move, (TurnUp, NameSuit)) and not self.at_table:
            return IllegalMove("huit.input_not_now")
        if card in self.aside:
            return IllegalMove("huit.manneken_out", card=card)
        if not self.discard or isinstance(move, (TurnUp, NameSuit)):
            return IllegalMove("huit.input_not_now")
        if self.naming:
            return IllegalMove("huit.name_suit", player=seat + 1)
        if isinstance(move, Play):
            if not self._may_hold(seat, move.card):
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
            if self.drew:
                return IllegalMove("huit.input_not_now")
            return IllegalMove("huit.no_voluntary_draw", player=seat + 1)
        return IllegalMove("huit.cannot_pass", player=seat + 1)

    def _lay(self, seat: int, move: Play) -> list[Ruling]:
        hand = self.hands[seat]
        if isinstance(hand, UnseenHand):
            hand.lay()
        else:
            hand.remove(move.card)
        self.discard.append(move.card)
        self.suit = move.suit or parse_standard_id(move.card)[1]
        self.drawn, self.drew = None, False
        self.passes = 0
        rulings = [
            Ruling("huit.played", {"player": seat + 1, "card": move.card, "suit": SUIT_SYMBOLS[self.suit]}, "ok")
        ]
        if not hand:
            self._winners = [seat]
            return rulings + [Ruling("huit.wins", {"player": seat + 1}, "game_over")]
        if move.suit is None and parse_standard_id(move.card)[0] == "8":
            self.naming = True
            return rulings + [Ruling("huit.choose_suit", {"player": seat + 1}, "reminder")]
        self._next()
        return rulings

    def _draw(self, seat: int) -> list[Ruling]:
        rulings = []
        if not self.stock:
            if isinstance(self.stock, UnseenHand):  # the table shuffles; the kiosk counts
                self.stock.take(len(self.discard) - 1)
                del self.discard[:-1]
            else:
                reshuffle_except_top(self.stock, self.discard, self.rng)
            rulings.append(Ruling("huit.reshuffle", {"count": len(self.stock)}, "info"))
        hand = self.hands[seat]
        self.passes = 0
        if isinstance(self.stock, UnseenHand):  # nobody sees the card drawn
            self.stock.lay()
            assert isinstance(hand, UnseenHand)
            hand.take()
            self.drew = True
            return rulings + [Ruling("huit.play_drawn_if_fits", {"player": seat + 1}, "reminder")]
        assert isinstance(hand, list)
        card = self.stock.pop()
        hand.append(card)
        if fits(card, self.top, self.suit):
            self.drawn = card
            return rulings + [Ruling("huit.drawn_fits", {"player": seat + 1}, "reminder")]
        self._next()
        return rulings + [Ruling("huit.drew", {"player": seat + 1}, "info")]

    def _next(self) -> None:
        self.current = (self.current + 1) % self.players

    def expects(self) -> tuple[str, dict[str, Any]] | None:
        """What the table does next (message key, parameters); None once over."""
        if self.over:
            return None
        player = {"player": self.current + 1}
        if not self.discard:
            return "huit.expect_start", {}
        if self.naming:
            return "huit.expect_suit", player
        if self.drew or self.drawn is not None:
            return "huit.expect_drawn", player
        return "huit.expect_card", player

    def bot_move(self) -> Any:
        """Keep the 8s for last; with an 8, name the suit held most."""
        moves = self.legal_moves()
        plain = [m for m in moves if isinstance(m, Play) and m.suit is None]
        if plain:
            return self.rng.choice(plain)
        eights = [m for m in moves if isinstance(m, Play)]
        if eights:
            hand = self.hands[self.current]
            others = [c for c in hand if c != eights[0].card] if isinstance(hand, list) else []
            held = Counter(parse_standard_id(c)[1] for c in others)
            best = max(SUITS, key=lambda s: held[s])
            return next(m for m in eights if m.suit == best)
        return moves[0]

    def scores(self) -> list[int]:
        """1 for the winner (the first without cards), 0 for the others."""
        return [int(s in self._winners) for s in range(self.players)]

    def winners(self) -> list[int]:
        return list(self._winners)

    def card_locations(self) -> list[tuple[str, str]]:
        out = [(c, f"hand:{seat}") for seat, hand in enumerate(self.hands) if isinstance(hand, list) for c in hand]
        out += [(c, "discard") for c in self.discard]
        out += [(c, "stock") for c in self.stock] if isinstance(self.stock, list) else []
        return out + [(c, "aside") for c in self.aside]
