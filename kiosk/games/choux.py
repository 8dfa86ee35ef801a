"""Le Choux de Bruxelles / De Spruitjes (seed 000_de7fdf0eefacbd60.txt and rules-decisions.md).

Old Maid on 49 cards: the 2 Manneken-Pis and the Jacks ♣ ♥ ♦ are out, the Choux de Bruxelles
(J♠) stays alone and never pairs. Every card is dealt one by one; a pair is two cards of the same
value and colour. Everyone first lays down the pairs in hand. The player with the single odd
hand is drawn from first: his left neighbour starts (when no single player has an odd count, the
dealer's left neighbour draws first, from the dealer). A turn: draw a random card from the right
neighbour still in play, lay down the pair it makes. A player without cards is out and has won;
whoever keeps the Choux is the Puant and deals the next round.

Naming variant (option ``naming``): a pair is laid only after saying the name of one of its two
places, in any language the deck knows; a wrong name keeps the pair in hand until the next turn.
Seats go clockwise: the left neighbour of seat s is s + 1, the right neighbour s - 1.

At the table (``at_table=True``) the cards are dealt by hand and the draws happen between fanned,
face-down hands, out of the camera's sight: the engine does not follow them (``to_act`` is None
but for a pair waiting for its name). It keeps the public record instead: the pairs seen laid
before each seat (:class:`LayPair`, judged there), the names said for them, who draws first (from
the deal's hand sizes) and the Choux shown once every pair is down (:class:`ShowChoux`): its
holder is the Puant.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from kiosk.decks import Deck, load_deck
from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.games.cards import colour_of, deal, rank_of

CHOUX = "JS"
OUT_OF_THE_GAME = ("JK1", "JK2", "JC", "JD", "JH")


def choux_deck() -> Deck:
    """The 49 cards of the game (the L'Affiche Belge deck without the Manneken-Pis and 3 Jacks)."""
    full = load_deck("affiche-belge")
    return full.subset([c for c in full.ids if c not in OUT_OF_THE_GAME], new_id="affiche-belge-49")


def is_pair(a: str, b: str) -> bool:
    """Same value and same colour: two blacks (♣ ♠) or two reds (♥ ♦); the Choux never pairs."""
    return a != b and CHOUX not in (a, b) and rank_of(a) == rank_of(b) and colour_of(a) == colour_of(b)


def pairs_in(hand: list[str]) -> list[tuple[str, str]]:
    """Every pair a hand holds (a card belongs to at most one: one partner per value and colour)."""
    found: list[tuple[str, str]] = []
    used: set[str] = set()
    for i, a in enumerate(hand):
        for b in hand[i + 1 :]:
            if a not in used and b not in used and is_pair(a, b):
                found.append((a, b))
                used.update((a, b))
    return found


def first_holder(counts: Sequence[int], dealer: int) -> int:
    """The seat drawn from first: the single odd hand, else the dealer (rules-decisions.md)."""
    odd = [seat for seat, n in enumerate(counts) if n % 2]
    return odd[0] if len(odd) == 1 else dealer


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    letters = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(letters.replace("-", " ").replace("'", " ").split())


def names_match(said: str, pair: tuple[str, str], deck: Deck) -> bool:
    """Did the player name one of the pair's places (any language; case, accents, hyphens free)?"""
    wanted = {_plain(name) for card in pair for name in deck[card].names.values()}
    return bool(said.strip()) and _plain(said) in wanted


@dataclass(frozen=True)
class Draw:
    """Take the card at ``position`` in the fanned, face-down hand of the right neighbour."""

    position: int


@dataclass(frozen=True)
class Name:
    """Naming variant: what the player says for the pair being laid ('' = nothing or wrong)."""

    said: str


@dataclass(frozen=True)
class LayPair:
    """At the table: two cards seen laid face up, side by side, before ``seat`` as a pair."""

    seat: int
    card_a: str
    card_b: str


@dataclass(frozen=True)
class ShowChoux:
    """At the table: the Choux seen face up before ``seat`` (or the table says ``seat`` holds it)."""

    seat: int


def all_pairs(deck: Deck) -> list[tuple[str, str]]:
    """The 24 pairs of the game's deck, each card in exactly one."""
    return pairs_in([c for c in deck.ids if c != CHOUX])


class Choux(GameEngine):
    game_id = "choux"
    deck_id = "affiche-belge"
    min_players = 2
    max_players = 10
    #: ``naming``: the naming variant. ``dealer``: the first round's dealer (then the Puant deals).
    #: ``rounds``: rounds in the match; the score is the rounds a seat went out (was not the Puant).
    default_options: ClassVar[Mapping[str, Any]] = {"naming": False, "dealer": 0, "rounds": 1}

    def __init__(
        self,
        players: int,
        rng: random.Random,
        options: Mapping[str, Any] | None = None,
        *,
        at_table: bool = False,
    ):
        super().__init__(players, rng, options, at_table=at_table)
        if not 0 <= int(self.options["dealer"]) < players:
            raise ValueError(f"choux: dealer seat {self.options['dealer']} is not a seat")
        if int(self.options["rounds"]) < 1:
            raise ValueError("choux: rounds must be at least 1")
        self.deck = choux_deck()
        self.pairs = all_pairs(self.deck)
        self._scores = [0] * players
        self.rounds_played = 0
        self.hands: list[list[str]] = []
        self.laid: list[list[str]] = []
        self.finished: list[int] = []  # seats out this round, in order
        self.puant: int | None = None
        self.current = 0
        self.dealer = 0
        self.naming: list[int] = []  # naming variant, the opening: seats still naming their pairs
        self.pending: list[tuple[str, str]] = []  # pairs the player to act must name now
        self.to_name: list[int] = []  # at the table: the seat of each pending pair
        self._over = False
        self.opening = self._new_round(int(self.options["dealer"]))

    # -- the GameEngine shape --

    @property
    def to_act(self) -> int | None:
        if self._over:
            return None
        if self.at_table:
            return self.to_name[0] if self.to_name else None
        return self.naming[0] if self.naming else self.current

    @property
    def over(self) -> bool:
        return self._over

    def scores(self) -> list[int]:
        return list(self._scores)

    def winners(self) -> list[int]:
        if not self._over:
            return []
        best = max(self._scores)
        return [s for s in range(self.players) if self._scores[s] == best]

    def card_locations(self) -> list[tuple[str, str]]:
        out = [(c, f"hand:{s}") for s, hand in enumerate(self.hands) for c in hand]
        return out + [(c, f"pairs:{s}") for s, laid in enumerate(self.laid) for c in laid]

    def in_play(self, seat: int) -> bool:
        return bool(self.hands[seat])

    def pairs_down(self) -> int:
        return sum(len(laid) for laid in self.laid) // 2

    def first_draw(self) -> tuple[int, int]:
        """(drawer, giver) of the round's first draw, from the hand sizes of the deal: one card
        at a time from the dealer's left (laying pairs keeps each size's parity)."""
        sizes = [len(h) for h in deal(self.deck.ids, self.players, first=(self.dealer + 1) % self.players)]
        giver = first_holder(sizes, self.dealer)
        return (giver + 1) % self.players, giver

    def expects(self) -> tuple[str, dict[str, Any]] | None:
        """At the table, what the camera waits for next (message key, parameters); None once over."""
        if self._over:
            return None
        if self.pending:
            a, b = self.pending[0]
            return "choux.expect_name", {"player": self.to_act, "card_a": a, "card_b": b}
        if self.pairs_down() == len(self.pairs):
            return "choux.expect_choux", {}
        return "choux.expect_pairs", {}

    def holder(self) -> int:
        """The seat the player to act draws from: the first one still in play on his right."""
        seat = (self.current - 1) % self.players
        while not self.in_play(seat) and seat != self.current:
            seat = (seat - 1) % self.players
        return seat

    def legal_moves(self) -> list[Any]:
        if self._over:
            return []
        if self.pending:
            pair = self.pending[0]
            said = sorted({n for card in pair for n in self.deck[card].names.values()})
            return [Name(n) for n in said] + [Name("")]
        if self.at_table and self.pairs_down() == len(self.pairs):
            return [ShowChoux(seat) for seat in range(self.players)]
        if self.at_table:
            laid = {c for cards in self.laid for c in cards}
            free = [p for p in self.pairs if not set(p) & laid]
            return [LayPair(seat, a, b) for seat in range(self.players) for a, b in free]
        return [Draw(i) for i in range(len(self.hands[self.holder()]))]

    def play(self, move: Any) -> list[Ruling]:
        if self._over:
            raise IllegalMove("choux.illegal_over")
        if isinstance(move, (LayPair, ShowChoux)) and not self.at_table:
            raise IllegalMove("choux.table_only")
        if isinstance(move, Draw) and self.at_table:
            raise IllegalMove("choux.draws_unseen")
        if isinstance(move, Name) and self.pending:
            return self._name(move)
        if isinstance(move, (LayPair, ShowChoux)) and not 0 <= move.seat < self.players:
            raise IllegalMove("choux.illegal_seat", seat=move.seat)
        if isinstance(move, LayPair):
            return self._lay_seen(move)
        if isinstance(move, ShowChoux):
            return self._show_choux(move.seat)
        if isinstance(move, Draw) and not self.pending:
            count = len(self.hands[self.holder()])
            if not 0 <= move.position < count:
                raise IllegalMove("choux.illegal_position", position=move.position, count=count)
            return self._draw(move.position)
        if self.pending:
            raise IllegalMove("choux.illegal_must_name")
        raise IllegalMove("choux.draws_unseen" if self.at_table else "choux.illegal_must_draw")

    # -- the round --

    def _new_round(self, dealer: int) -> list[Ruling]:
        self.laid = [[] for _ in range(self.players)]
        self.finished, self.puant = [], None
        self.dealer = dealer
        rulings = [Ruling("choux.round_start", {"round": self.rounds_played + 1, "by": dealer})]
        if self.at_table:  # dealt by hand: the hands stay unseen
            self.hands = [[] for _ in range(self.players)]
            self.pending, self.to_name = [], []
            drawer, giver = self.first_draw()
            return rulings + [Ruling("choux.turn", {"player": drawer, "giver": giver})]
        cards = list(self.deck.ids)
        self.rng.shuffle(cards)
        self.hands = deal(cards, self.players, first=(dealer + 1) % self.players)
        if self.options["naming"]:
            self.naming = [(dealer + k) % self.players for k in range(1, self.players + 1)]
            rulings += self._next_namer()
        else:
            for seat in range(self.players):
                for pair in pairs_in(self.hands[seat]):
                    rulings += self._lay(seat, pair)
            rulings += self._first_turn()
        return rulings

    def _next_namer(self) -> list[Ruling]:
        """Naming variant, before the first turn: each seat in turn names the pairs it holds."""
        while self.naming:
            self.pending = pairs_in(self.hands[self.naming[0]])
            if self.pending:
                return [self._ask_name()]
            self.naming.pop(0)
        return self._first_turn()

    def _first_turn(self) -> list[Ruling]:
        self.current = first_holder([len(h) for h in self.hands], self.dealer)
        return self._next_turn()

    def _next_turn(self) -> list[Ruling]:
        """Hand over to the next seat still in play on the left, or end the round."""
        if sum(map(len, self.hands)) == 1:
            return self._end_round()
        seat = (self.current + 1) % self.players
        while not self.in_play(seat):
            seat = (seat + 1) % self.players
        self.current = seat
        if self.holder() == seat:  # alone in play: only pairs kept back by the variant are left
            self.pending = pairs_in(self.hands[seat])
            return [self._ask_name()]
        return [Ruling("choux.turn", {"player": seat, "giver": self.holder()})]

    def _draw(self, position: int) -> list[Ruling]:
        holder, seat = self.holder(), self.current
        card = self.hands[holder].pop(position)
        self.hands[seat].append(card)
        self.rng.shuffle(self.hands[seat])  # the fan is mixed again before the next draw
        rulings = [Ruling("choux.drew", {"player": seat, "giver": holder})]
        if not self.hands[holder]:
            rulings += self._out(holder)
        if self.options["naming"]:
            self.pending = pairs_in(self.hands[seat])
            if self.pending:
                return rulings + [self._ask_name()]
        else:
            for pair in pairs_in(self.hands[seat]):
                rulings += self._lay(seat, pair)
        return rulings + self._next_turn()

    def _ask_name(self) -> Ruling:
        a, b = self.pending[0]
        return Ruling("choux.name_it", {"player": self.to_act, "card_a": a, "card_b": b})

    def _name(self, move: Name) -> list[Ruling]:
        seat = self.to_act
        assert seat is not None
        pair = self.pending.pop(0)
        if self.at_table:
            self.to_name.pop(0)
        params = {"player": seat, "card_a": pair[0], "card_b": pair[1]}
        if names_match(move.said, pair, self.deck):
            rulings = [Ruling("choux.named_right", params, "ok")] + self._lay(seat, pair)
        else:
            rulings = [Ruling("choux.named_wrong", params, "violation")]
        if self.pending:
            return rulings + [self._ask_name()]
        if self.at_table:
            return rulings
        if self.naming:
            self.naming.pop(0)
            return rulings + self._next_namer()
        return rulings + self._next_turn()

    def _lay(self, seat: int, pair: tuple[str, str]) -> list[Ruling]:
        rulings = [Ruling("choux.pair", {"player": seat, "card_a": pair[0], "card_b": pair[1]}, "ok")]
        self.laid[seat].extend(pair)
        if self.at_table:
            return rulings + ([Ruling("choux.all_pairs", {}, "info")] if self.pairs_down() == len(self.pairs) else [])
        for card in pair:
            self.hands[seat].remove(card)
        return rulings + ([] if self.hands[seat] else self._out(seat))

    def _lay_seen(self, move: LayPair) -> list[Ruling]:
        """At the table: two cards laid before ``move.seat`` as a pair, judged as they lie."""
        seat, a, b = move.seat, move.card_a, move.card_b
        if CHOUX in (a, b):
            raise IllegalMove("choux.never_pairs", player=seat, card=CHOUX)
        laid = {c for cards in self.laid for c in cards} | {c for p in self.pending for c in p}
        for card in (a, b):
            if card not in self.deck:
                raise IllegalMove("choux.not_in_game", card=card)
            if card in laid:
                raise IllegalMove("choux.illegal_laid", card=card)
        if not is_pair(a, b):
            key = "choux.not_pair_colour" if rank_of(a) == rank_of(b) else "choux.not_pair_value"
            raise IllegalMove(key, player=seat, card_a=a, card_b=b)
        if self.options["naming"]:  # counted once a place of it is named
            self.pending.append((a, b))
            self.to_name.append(seat)
            return [self._ask_name()] if len(self.pending) == 1 else []
        return self._lay(seat, (a, b))

    def _show_choux(self, seat: int) -> list[Ruling]:
        """At the table: the Choux shown before ``seat``; once every pair is down, the Puant."""
        if self.pairs_down() < len(self.pairs):
            raise IllegalMove("choux.never_pairs", player=seat, card=CHOUX)
        self.hands = [[CHOUX] if s == seat else [] for s in range(self.players)]
        return self._end_round()

    def _out(self, seat: int) -> list[Ruling]:
        self.finished.append(seat)
        return [Ruling("choux.out", {"player": seat, "rank": len(self.finished)}, "ok")]

    def _end_round(self) -> list[Ruling]:
        puant = next(s for s in range(self.players) if self.hands[s])
        self.puant = puant
        self.rounds_played += 1
        for seat in range(self.players):
            if seat != puant:
                self._scores[seat] += 1
        rulings = [Ruling("choux.puant", {"player": puant}, "score")]
        if self.rounds_played >= int(self.options["rounds"]):
            self._over = True
            return rulings + [Ruling("choux.match_won", {"winner": w}, "game_over") for w in self.winners()]
        return rulings + self._new_round(puant)  # the Puant shuffles and deals

    # -- the bot --

    def bot_move(self) -> Any:
        """Draw anywhere; name a pair right nine times out of ten (the variant's errors happen)."""
        if self.pending:
            pair = self.pending[0]
            if self.rng.random() < 0.9:
                return Name(self.deck[pair[0]].name(self.rng.choice(("fr", "nl", "de", "en"))))
            return Name("")
        return Draw(self.rng.randrange(len(self.hands[self.holder()])))
