"""Bataille (Oorlog): the seed's rules plus rules-decisions.md.

Seed (000): the Manneken-Pis are removed, every card is dealt face down, everyone turns the top
card of his pile at the same time and the highest (A K Q J 10 ... 2) takes the cards; on a tie,
bataille: one card face down, then one face up, the highest takes everything; whoever wins all
the cards has won.

Decisions: only the tied players fight; a player without a card when he must lay one during a
bataille loses; the cards won go under the winner's pile in a fixed order (the winner's own cards
first, then the others' clockwise from him, each in the order laid); after ``max_rounds`` fights
(option, default 2000) the game ends and the most cards wins. House rule (option
``last_card_up``, off by default): a fighter left with one card for a bataille lays it face up
and fights with it instead of losing.

One move, :class:`Flip`, is one simultaneous turn of the table: every fighter lays his card(s).
Edge case the texts do not reach: when every fighter of a bataille runs out at once, the pot goes
under the pile of the next player still in; if there is none, those fighters share the result.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kiosk.decks import load_deck, parse_standard_id
from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.games.cards import deal

#: rank -> strength, 2 lowest, Ace highest (seed: "As, Roi, Dame, Valet, 10… jusqu'au 2").
STRENGTH: dict[str, int] = {
    r: i for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))
}


def strength(card_id: str) -> int:
    return STRENGTH[parse_standard_id(card_id)[0]]


def best_seats(faces: Mapping[int, str]) -> list[int]:
    """The seats whose face-up card is the highest: one seat takes, several fight a bataille."""
    top = max(strength(c) for c in faces.values())
    return sorted(seat for seat, c in faces.items() if strength(c) == top)


def pot_order(laid: Mapping[int, list[str]], winner: int, players: int) -> list[str]:
    """The fixed order the pot goes under the winner's pile: his cards, then clockwise."""
    order = [(winner + k) % players for k in range(players)]
    return [card for seat in order for card in laid.get(seat, [])]


def seats_text(seats: list[int]) -> str:
    """Seats as the table numbers them (from 1), for a message: ``"1 3"``."""
    return " ".join(str(s + 1) for s in seats)


@dataclass(frozen=True)
class Flip:
    """Every fighter lays his card(s): one face up, or face down + face up during a bataille."""


class Bataille(GameEngine):
    game_id = "bataille"
    deck_id = "affiche-belge"
    min_players = 2
    max_players = 6
    default_options = {"max_rounds": 2000, "last_card_up": False}
    menu_options = {"last_card_up": (False, True)}

    def __init__(self, players: int, rng: random.Random, options: Mapping[str, Any] | None = None):
        super().__init__(players, rng, options)
        if not isinstance(self.options["last_card_up"], bool):
            value = self.options["last_card_up"]
            raise ValueError(f"bataille: option last_card_up must be true or false, not {value!r}")
        deck = load_deck(self.deck_id)
        self.aside = [c.id for c in deck if c.kind == "joker"]
        cards = [c.id for c in deck if c.kind == "standard"]
        rng.shuffle(cards)
        self.piles: list[list[str]] = deal(cards, players)  # top = [0], won cards go to the end
        self.out: set[int] = set()
        self.fighters: list[int] = list(range(players))
        self.laid: dict[int, list[str]] = {}  # the pot, per seat, in the order laid
        self.in_bataille = False
        self.rounds = 0
        self._over = False
        self._winners: list[int] = []

    @property
    def to_act(self) -> int | None:
        return None if self._over else self.fighters[0]

    @property
    def over(self) -> bool:
        return self._over

    def legal_moves(self) -> list[Any]:
        return [] if self._over else [Flip()]

    def play(self, move: Any) -> list[Ruling]:
        if self._over:
            raise IllegalMove("bataille.game_over")
        if not isinstance(move, Flip):
            raise IllegalMove("bataille.only_flip")
        rulings: list[Ruling] = []
        faces: dict[int, str] = {}
        for seat in self.fighters:
            need = 2 if self.in_bataille else 1
            if need == 2 and len(self.piles[seat]) == 1 and self.options["last_card_up"]:
                need = 1
            if len(self.piles[seat]) < need:
                self.laid.setdefault(seat, []).extend(self.piles[seat])
                self.piles[seat] = []
                self.out.add(seat)
                rulings.append(Ruling("bataille.out_of_cards", {"player": seat + 1}, "violation"))
                continue
            laid = self.piles[seat][:need]
            del self.piles[seat][:need]
            self.laid.setdefault(seat, []).extend(laid)
            faces[seat] = laid[-1]
        if not faces:
            return rulings + self._pot_to_next_player()
        best = best_seats(faces)
        if len(best) > 1:
            self.fighters, self.in_bataille = best, True
            return rulings + [Ruling("bataille.bataille", {"players": seats_text(best)}, "info")]
        return rulings + self._take(best[0])

    def _take(self, winner: int) -> list[Ruling]:
        won = pot_order(self.laid, winner, self.players)
        self.piles[winner].extend(won)
        rulings = [Ruling("bataille.takes", {"player": winner + 1, "count": len(won)}, "ok")]
        self._end_fight()
        return rulings + self._check_end()

    def _pot_to_next_player(self) -> list[Ruling]:
        """Every fighter ran out at once: the pot goes to the next player still in, if any."""
        still_in = [s for s in range(self.players) if s not in self.out]
        if not still_in:
            self._over, self._winners = True, sorted(self.fighters)
            return [Ruling("bataille.game_over", {"players": seats_text(self._winners)}, "game_over")]
        after = max(self.fighters)
        heir = min(still_in, key=lambda s: (s - after) % self.players)
        return self._take(heir)

    def _end_fight(self) -> None:
        self.laid = {}
        self.in_bataille = False
        self.rounds += 1
        for seat in range(self.players):
            if not self.piles[seat]:
                self.out.add(seat)
        self.fighters = [s for s in range(self.players) if s not in self.out]

    def _check_end(self) -> list[Ruling]:
        if len(self.fighters) == 1:
            self._over, self._winners = True, list(self.fighters)
        elif self.rounds >= self.options["max_rounds"]:
            most = max(len(p) for p in self.piles)
            self._over = True
            self._winners = [s for s in range(self.players) if len(self.piles[s]) == most]
        if not self._over:
            return []
        return [Ruling("bataille.game_over", {"players": seats_text(self._winners)}, "game_over")]

    def scores(self) -> list[int]:
        """Cards in each pile: what decides the game at the round cap."""
        return [len(p) for p in self.piles]

    def winners(self) -> list[int]:
        return list(self._winners)

    def card_locations(self) -> list[tuple[str, str]]:
        out = [(c, f"pile:{seat}") for seat, pile in enumerate(self.piles) for c in pile]
        out += [(c, "table") for cards in self.laid.values() for c in cards]
        return out + [(c, "aside") for c in self.aside]
