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

At the table (``at_table=True``) nothing is dealt: each pile is an :class:`UnseenHand` counting its
cards from the deal, the cards laid and the pots taken, so the engine knows who runs out and
applies the round cap. The table reports each face-up card as it lands, :class:`Shown` (the
face-down card of a bataille is not seen, its count is), and a player may say his pile is empty,
:class:`OutOfCards`. Once every fighter still standing has shown his card, the step is judged as a
Flip would be; a fighter who cannot lay what he must is out at once, and the last fighter standing
takes the pot without laying.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kiosk.decks import load_deck, parse_standard_id
from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.games.cards import deal
from kiosk.games.hands import UnseenHand

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


def pot_order(laid: Mapping[int, list[str | None]], winner: int, players: int) -> list[str | None]:
    """The fixed order the pot goes under the winner's pile: his cards, then clockwise."""
    order = [(winner + k) % players for k in range(players)]
    return [card for seat in order for card in laid.get(seat, [])]


def seats_text(seats: list[int]) -> str:
    """Seats as the table numbers them (from 1), for a message: ``"1 3"``."""
    return " ".join(str(s + 1) for s in seats)


@dataclass(frozen=True)
class Flip:
    """Every fighter lays his card(s): one face up, or face down + face up during a bataille."""


@dataclass(frozen=True)
class Shown:
    """At the table: ``seat`` turned ``card`` face up in his zone (in a bataille, on his face-down
    card)."""

    seat: int
    card: str


@dataclass(frozen=True)
class OutOfCards:
    """At the table: ``seat`` says his pile is empty; he is out now (the table's word wins over the
    count, say for a card dropped on the floor)."""

    seat: int


class Bataille(GameEngine):
    game_id = "bataille"
    deck_id = "affiche-belge"
    min_players = 2
    max_players = 6
    default_options = {"max_rounds": 2000, "last_card_up": False}
    menu_options = {"last_card_up": (False, True)}

    def __init__(
        self, players: int, rng: random.Random, options: Mapping[str, Any] | None = None, *, at_table: bool = False
    ):
        super().__init__(players, rng, options, at_table=at_table)
        if not isinstance(self.options["last_card_up"], bool):
            value = self.options["last_card_up"]
            raise ValueError(f"bataille: option last_card_up must be true or false, not {value!r}")
        deck = load_deck(self.deck_id)
        self.aside = [c.id for c in deck if c.kind == "joker"]
        self.cards = [c.id for c in deck if c.kind == "standard"]
        self.piles: list[list[str]] | list[UnseenHand]  # top = [0], won cards go to the end
        if at_table:
            self.piles = [UnseenHand(len(pile)) for pile in deal(self.cards, players)]
        else:
            cards = list(self.cards)
            rng.shuffle(cards)
            self.piles = deal(cards, players)
        self.out: set[int] = set()
        self.fighters: list[int] = list(range(players))
        self.laid: dict[int, list[str | None]] = {}  # the pot, per seat, in the order laid (None: unseen)
        self.faces: dict[int, str] = {}  # at the table: this step's face-up card per fighter
        self.shown: list[str] = []  # at the table: the fight's face-up cards, in the order seen
        self.in_bataille = False
        self.rounds = 0
        self._over = False
        self._winners: list[int] = []

    @property
    def to_act(self) -> int | None:
        if self._over:
            return None
        if self.at_table:
            return next((s for s in self._standing() if s not in self.faces), None)
        return self.fighters[0]

    @property
    def over(self) -> bool:
        return self._over

    def _standing(self) -> list[int]:
        """The fighters of this step who are not out."""
        return [s for s in self.fighters if s not in self.out]

    def _need(self, seat: int) -> int:
        """The cards ``seat`` lays now: one, or two in a bataille (one with ``last_card_up``)."""
        if self.in_bataille and not (self.options["last_card_up"] and len(self.piles[seat]) == 1):
            return 2
        return 1

    def legal_moves(self) -> list[Any]:
        if self._over:
            return []
        if not self.at_table:
            return [Flip()]
        waiting = [s for s in self._standing() if s not in self.faces]
        moves: list[Any] = [Shown(s, c) for s in waiting for c in self.cards if c not in self.shown]
        return moves + [OutOfCards(s) for s in range(self.players) if s not in self.out]

    def play(self, move: Any) -> list[Ruling]:
        if self._over:
            raise IllegalMove("bataille.game_over")
        if isinstance(move, Flip) and not self.at_table:
            return self._flip()
        if isinstance(move, Shown) and self.at_table:
            return self._show(move.seat, move.card) + self._settle()
        if isinstance(move, OutOfCards) and self.at_table:
            return self._declare_out(move.seat) + self._settle()
        raise IllegalMove("bataille.only_flip")

    def _lay(self, seat: int, count: int) -> list[str | None]:
        """Take ``count`` cards from the top of ``seat``'s pile (None for each card nobody sees)."""
        pile = self.piles[seat]
        if isinstance(pile, UnseenHand):
            for _ in range(count):
                pile.lay()
            return [None] * count
        laid: list[str | None] = list(pile[:count])
        del pile[:count]
        return laid

    def _run_out(self, seat: int) -> Ruling:
        """``seat`` cannot lay what he must: his last cards stay in the pot and he is out."""
        self.laid.setdefault(seat, []).extend(self._lay(seat, len(self.piles[seat])))
        self.out.add(seat)
        self.faces.pop(seat, None)
        return Ruling("bataille.out_of_cards", {"player": seat + 1}, "violation")

    def _flip(self) -> list[Ruling]:
        rulings: list[Ruling] = []
        faces: dict[int, str] = {}
        for seat in self.fighters:
            need = self._need(seat)
            if len(self.piles[seat]) < need:
                rulings.append(self._run_out(seat))
                continue
            laid = self._lay(seat, need)
            self.laid.setdefault(seat, []).extend(laid)
            face = laid[-1]
            assert face is not None
            faces[seat] = face
        return rulings + self._resolve(faces)

    def _show(self, seat: int, card: str) -> list[Ruling]:
        if card not in self.cards:
            raise IllegalMove("bataille.manneken_out", card=card)
        if seat not in self._standing():
            raise IllegalMove("bataille.not_fighting", player=seat + 1)
        if seat in self.faces:
            raise IllegalMove("bataille.already_shown", player=seat + 1, card=self.faces[seat])
        if card in self.shown:
            owner = next(s for s, cards in self.laid.items() if card in cards)
            raise IllegalMove("bataille.already_shown", player=owner + 1, card=card)
        laid = self._lay(seat, self._need(seat))
        laid[-1] = card
        self.laid.setdefault(seat, []).extend(laid)
        self.faces[seat] = card
        self.shown.append(card)
        return []

    def _declare_out(self, seat: int) -> list[Ruling]:
        if not 0 <= seat < self.players or seat in self.out:
            raise IllegalMove("bataille.input_not_now")
        pile = self.piles[seat]
        assert isinstance(pile, UnseenHand)
        pile.count = 0
        return [self._run_out(seat)]

    def _settle(self) -> list[Ruling]:
        """At the table, after each report: fighters who cannot lay what they must are out; once
        every fighter still standing has shown his card, the step is judged as a Flip would be."""
        rulings: list[Ruling] = []
        while not self._over:
            for seat in self._standing():
                if seat not in self.faces and len(self.piles[seat]) < self._need(seat):
                    rulings.append(self._run_out(seat))
            standing = self._standing()
            if len(standing) > 1 and any(s not in self.faces for s in standing):
                break
            faces = {s: self.faces[s] for s in standing if s in self.faces}
            self.faces = {}
            if len(standing) != 1:
                rulings += self._resolve(faces)
            elif any(self.laid.values()):
                rulings += self._take(standing[0])
            else:  # the others are out before anything was laid: no fight took place
                self.fighters = standing
                rulings += self._check_end()
        return rulings

    def _resolve(self, faces: dict[int, str]) -> list[Ruling]:
        """Judge the face-up cards of a step: one takes, several tied fight a bataille."""
        if not faces:
            return self._pot_to_next_player()
        best = best_seats(faces)
        if len(best) > 1:
            self.fighters, self.in_bataille = best, True
            return [Ruling("bataille.bataille", {"players": seats_text(best)}, "info")]
        return self._take(best[0])

    def _take(self, winner: int) -> list[Ruling]:
        won = pot_order(self.laid, winner, self.players)
        pile = self.piles[winner]
        if isinstance(pile, UnseenHand):
            pile.take(len(won))
            ruling = Ruling("bataille.takes_seen", {"player": winner + 1, "cards": " ".join(self.shown)}, "ok")
        else:
            pile.extend(c for c in won if c is not None)
            ruling = Ruling("bataille.takes", {"player": winner + 1, "count": len(won)}, "ok")
        return [ruling] + self._end_fight()

    def _pot_to_next_player(self) -> list[Ruling]:
        """Every fighter ran out at once: the pot goes to the next player still in, if any."""
        still_in = [s for s in range(self.players) if s not in self.out]
        if not still_in:
            self._over, self._winners = True, sorted(self.fighters)
            return [Ruling("bataille.game_over", {"players": seats_text(self._winners)}, "game_over")]
        after = max(self.fighters)
        heir = min(still_in, key=lambda s: (s - after) % self.players)
        return self._take(heir)

    def _end_fight(self) -> list[Ruling]:
        """The pot is taken: players left without a card are out; the end of the game, if it is."""
        self.laid, self.faces, self.shown = {}, {}, []
        self.in_bataille = False
        self.rounds += 1
        rulings = []
        for seat in range(self.players):
            if not self.piles[seat] and seat not in self.out:
                self.out.add(seat)
                rulings.append(Ruling("bataille.out_of_cards", {"player": seat + 1}, "violation"))
        self.fighters = [s for s in range(self.players) if s not in self.out]
        return rulings + self._check_end()

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

    def expects(self) -> tuple[str, dict[str, Any]] | None:
        """What the table does next (message key, parameters); None once over."""
        seat = self.to_act
        if seat is None:
            return None
        return ("bataille.expect_bataille" if self.in_bataille else "bataille.expect_card"), {"player": seat + 1}

    def scores(self) -> list[int]:
        """Cards in each pile: what decides the game at the round cap."""
        return [len(p) for p in self.piles]

    def winners(self) -> list[int]:
        return list(self._winners)

    def card_locations(self) -> list[tuple[str, str]]:
        out = [(c, f"pile:{seat}") for seat, pile in enumerate(self.piles) if isinstance(pile, list) for c in pile]
        out += [(c, "table") for cards in self.laid.values() for c in cards if c is not None]
        return out + [(c, "aside") for c in self.aside]
