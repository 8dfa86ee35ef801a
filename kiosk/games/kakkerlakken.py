"""Kakkerlakkenpoker (seed 003): bluff a face-down card onto someone; one player loses.

A round: the starter slides a card face down to another player with a claimed species. The
receiver either judges ("vrai"/"faux": is the claim true?) or looks and passes it on, with a
claim of his own, to a player who has not seen it; the last possible receiver must judge. A
right judge makes the last giver take the card face up, a wrong one takes it; the taker starts
the next round. A player loses at his fourth face-up card of one species, or when he must start
with an empty hand. Two players (official variant): cards are set aside face down before the
deal, and the loss comes at five of a species or at every card of a species still in play.

At the table (``at_table=True``) nothing is dealt and the hands are unseen: the starter slides
a card nobody names (:class:`Slide`), "vrai"/"faux" waits for the card to be turned over
(:class:`Reveal`, what the camera sees) and an empty hand is declared (:class:`EmptyHand`). The
cards set aside in the two-player variant stay face down there, so only five of a species loses.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from kiosk.decks import load_deck
from kiosk.games.base import GameEngine, IllegalMove, Ruling

DECK_ID = "kakkerlakken-64"


def species_of(card_id: str) -> str:
    """``rat-3`` -> ``rat``; a bare species key (what the camera answers) is returned as is."""
    return card_id.split("-", 1)[0]


def all_species() -> tuple[str, ...]:
    return tuple(load_deck(DECK_ID).species)


def taker(giver: int, judge: int, says_true: bool, claim: str, species: str) -> int:
    """Who takes the card face up: the giver when the judge is right, else the judge."""
    right = says_true == (claim == species)
    return giver if right else judge


def pass_targets(players: int, seen: set[int] | frozenset[int], receiver: int) -> list[int]:
    """Who the receiver may pass the card to: players who have not seen it this round."""
    return [s for s in range(players) if s not in seen and s != receiver]


def loss_limit(players: int) -> int:
    """Four of a species loses; five in the two-player variant."""
    return 5 if players == 2 else 4


def species_limit(species: str, limit: int, in_play: Mapping[str, int] | None = None) -> int:
    """How many face-up cards of ``species`` lose: ``limit``, or fewer when ``in_play`` (species ->
    cards not set aside, two-player rule) says that is every card of the species left."""
    if in_play is None:
        return limit
    return min(limit, in_play.get(species, 0))


def losing_species(front: list[str], limit: int, in_play: Mapping[str, int] | None = None) -> str | None:
    """The species that makes a player with face-up cards ``front`` lose, if any."""
    counts = Counter(species_of(c) for c in front)
    return next((sp for sp, n in counts.items() if n >= species_limit(sp, limit, in_play)), None)


@dataclass(frozen=True)
class Offer:
    """The starter slides ``card`` face down to ``to`` and says "it is a ``claim``"."""

    card: str
    to: int
    claim: str


@dataclass(frozen=True)
class Judge:
    """The receiver says "vrai" (``says_true``) or "faux" about the current claim."""

    says_true: bool


@dataclass(frozen=True)
class Pass:
    """The receiver looks at the card and slides it on to ``to`` with his own ``claim``."""

    to: int
    claim: str


@dataclass(frozen=True)
class Slide:
    """At the table: the starter slides an unseen card face down to ``to``, saying ``claim``."""

    to: int
    claim: str


@dataclass(frozen=True)
class Reveal:
    """At the table: the travelling card seen face up once turned over (a species or a card id)."""

    card: str


@dataclass(frozen=True)
class EmptyHand:
    """At the table: the starter has no card left to play."""


@dataclass
class _InPlay:
    card: str | None  # None at the table until the card is turned over
    giver: int
    receiver: int
    claim: str
    seen: set[int]
    says_true: bool | None = None  # at the table, the judgement waiting for the card to turn


class Kakkerlakken(GameEngine):
    game_id = "kakkerlakken"
    deck_id = DECK_ID
    min_players = 2
    max_players = 6
    #: starter: the youngest player's seat; aside: cards set aside in the two-player variant.
    default_options: ClassVar[Mapping[str, Any]] = {"starter": 0, "aside": 16}

    def __init__(
        self,
        players: int,
        rng: random.Random,
        options: Mapping[str, Any] | None = None,
        *,
        at_table: bool = False,
    ):
        super().__init__(players, rng, options, at_table=at_table)
        if not 0 <= self.options["starter"] < players:
            raise ValueError(f"kakkerlakken: starter must be a seat 0..{players - 1}")
        deck = list(load_deck(DECK_ID).ids)
        if not at_table:
            rng.shuffle(deck)
        aside = self.options["aside"] if players == 2 else 0
        if not 0 <= aside <= len(deck) - players:
            raise ValueError(f"kakkerlakken: aside must be 0..{len(deck) - players}")
        self.front: list[list[str]] = [[] for _ in range(players)]
        self.aside: list[str] = []
        self.hands: list[list[str]] = [[] for _ in range(players)]  # at the table: unseen, never held
        self.in_play_counts: dict[str, int] | None = None
        if not at_table:
            self.aside = deck[:aside]
            self.hands = [deck[aside + i :: players] for i in range(players)]
            if players == 2:
                self.in_play_counts = dict(Counter(species_of(c) for c in deck[aside:]))
        self.starter = self.options["starter"]
        self.current: _InPlay | None = None
        self.loser: int | None = None
        self.species = all_species()

    # --- state -------------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        if self.loser is not None:
            return None
        return self.current.receiver if self.current else self.starter

    @property
    def over(self) -> bool:
        return self.loser is not None

    def scores(self) -> list[int]:
        """1 for each winner and 0 for the loser once over (all share the victory); 0 before."""
        if self.loser is None:
            return [0] * self.players
        return [0 if seat == self.loser else 1 for seat in range(self.players)]

    def winners(self) -> list[int]:
        return [] if self.loser is None else [s for s in range(self.players) if s != self.loser]

    def card_locations(self) -> list[tuple[str, str]]:
        out = [(c, "aside") for c in self.aside]
        for seat in range(self.players):
            out += [(c, f"hand:{seat}") for c in self.hands[seat]]
            out += [(c, f"front:{seat}") for c in self.front[seat]]
        if self.current and self.current.card is not None:
            out.append((self.current.card, f"passing:{self.current.receiver}"))
        return out

    def pass_targets(self) -> list[int]:
        """Players the current card may still go to: those who have not seen it."""
        if self.current is None:
            return []
        return pass_targets(self.players, self.current.seen, self.current.receiver)

    def species_counts(self, seat: int) -> dict[str, int]:
        return dict(Counter(species_of(c) for c in self.front[seat]))

    def expects(self) -> tuple[str, dict[str, Any]] | None:
        """What the table does next (message key, parameters); None once over."""
        cur = self.current
        if self.over:
            return None
        if cur is None:
            return "kakkerlakken.expect_offer", {"player": self.starter + 1}
        if cur.says_true is None:
            return "kakkerlakken.expect_judgement", {"player": cur.receiver + 1}
        return "kakkerlakken.expect_reveal", {"player": cur.receiver + 1}

    def _hand_empty(self, seat: int) -> bool:
        """Whether ``seat`` is known to hold no card; at the table the starter declares it."""
        return not self.at_table and not self.hands[seat]

    # --- moves -------------------------------------------------------------------------
    def legal_moves(self) -> list[Any]:
        if self.over:
            return []
        seat = self.starter
        others = [to for to in range(self.players) if to != seat]
        if self.current is None and self.at_table:
            return [Slide(to, sp) for to in others for sp in self.species] + [EmptyHand()]
        if self.current is None:
            return [Offer(c, to, sp) for c in self.hands[seat] for to in others for sp in self.species]
        if self.current.says_true is not None:
            return [Reveal(sp) for sp in self.species]
        moves: list[Any] = [Judge(True), Judge(False)]
        moves += [Pass(to, sp) for to in self.pass_targets() for sp in self.species]
        return moves

    def play(self, move: Any) -> list[Ruling]:
        if self.over:
            raise IllegalMove("kakkerlakken.game_over")
        if isinstance(move, (Slide, Reveal, EmptyHand)) and not self.at_table:
            raise IllegalMove("kakkerlakken.table_only")
        if self.current is not None and self.current.says_true is not None and not isinstance(move, Reveal):
            raise IllegalMove("kakkerlakken.turn_card", player=self.current.receiver + 1)
        if isinstance(move, (Offer, Slide)):
            return self._offer(move)
        if isinstance(move, Pass):
            return self._pass(move)
        if isinstance(move, Judge):
            return self._judge(move)
        if isinstance(move, Reveal):
            return self._reveal(move.card)
        if isinstance(move, EmptyHand):
            return self._empty_hand()
        raise IllegalMove("kakkerlakken.unknown_move")

    def _check_claim(self, claim: str) -> None:
        if claim not in self.species:
            raise IllegalMove("kakkerlakken.unknown_species", species=claim)

    def _offer(self, move: Offer | Slide) -> list[Ruling]:
        seat = self.starter
        card = move.card if isinstance(move, Offer) else None
        if self.current is not None:
            raise IllegalMove("kakkerlakken.card_in_play")
        if card is not None and (self.at_table or card not in self.hands[seat]):  # a table's hands are unseen
            raise IllegalMove("kakkerlakken.not_in_hand", player=seat + 1)
        if move.to == seat or not 0 <= move.to < self.players:
            raise IllegalMove("kakkerlakken.bad_target", player=move.to + 1)
        self._check_claim(move.claim)
        if card is not None:
            self.hands[seat].remove(card)
        self.current = _InPlay(card, seat, move.to, move.claim, {seat})
        return [Ruling("kakkerlakken.offered", {"player": seat + 1, "receiver": move.to + 1, "species": move.claim})]

    def _pass(self, move: Pass) -> list[Ruling]:
        cur = self.current
        if cur is None:
            raise IllegalMove("kakkerlakken.no_card_in_play")
        targets = self.pass_targets()
        if not targets:
            raise IllegalMove("kakkerlakken.must_judge", player=cur.receiver + 1)
        if move.to not in targets:
            raise IllegalMove("kakkerlakken.already_seen", player=move.to + 1)
        self._check_claim(move.claim)
        passer = cur.receiver
        cur.seen.add(passer)
        cur.giver, cur.receiver, cur.claim = passer, move.to, move.claim
        rulings = [
            Ruling("kakkerlakken.passed", {"player": passer + 1, "receiver": move.to + 1, "species": move.claim})
        ]
        if not self.pass_targets():
            rulings.append(Ruling("kakkerlakken.last_must_judge", {"player": move.to + 1}, "reminder"))
        return rulings

    def _judge(self, move: Judge) -> list[Ruling]:
        cur = self.current
        if cur is None:
            raise IllegalMove("kakkerlakken.no_card_in_play")
        cur.says_true = move.says_true
        if cur.card is None:  # at the table: the camera names the card once it is turned over
            return [Ruling("kakkerlakken.turn_card", {"player": cur.receiver + 1}, "reminder")]
        return self._take(cur, cur.card)

    def _reveal(self, card: str) -> list[Ruling]:
        cur = self.current
        if cur is None:
            raise IllegalMove("kakkerlakken.no_card_in_play")
        if cur.says_true is None:
            raise IllegalMove("kakkerlakken.judge_first", player=cur.receiver + 1)
        if species_of(card) not in self.species:
            raise IllegalMove("kakkerlakken.unknown_species", species=card)
        return self._take(cur, card)

    def _empty_hand(self) -> list[Ruling]:
        if self.current is not None:
            raise IllegalMove("kakkerlakken.card_in_play")
        self.loser = self.starter
        return [Ruling("kakkerlakken.loses_empty_hand", {"player": self.starter + 1}, "game_over")]

    def _take(self, cur: _InPlay, card: str) -> list[Ruling]:
        """The judgement on ``card`` is known: who takes it, lays it face up and starts next."""
        assert cur.says_true is not None
        species = species_of(card)
        who = taker(cur.giver, cur.receiver, cur.says_true, cur.claim, species)
        right = who == cur.giver
        self.current = None
        self.front[who].append(card)
        self.starter = who
        params = {"player": cur.receiver + 1, "species": species, "claim": cur.claim, "taker": who + 1}
        rulings = [
            Ruling(
                "kakkerlakken.judged_right" if right else "kakkerlakken.judged_wrong", params, "ok" if right else "info"
            )
        ]
        rulings += self._after_take(who, species)
        return rulings

    def _after_take(self, seat: int, species: str) -> list[Ruling]:
        limit = loss_limit(self.players)
        lost = losing_species(self.front[seat], limit, self.in_play_counts)
        count = self.species_counts(seat)[species]
        if lost is not None:
            self.loser = seat
            n = self.species_counts(seat)[lost]
            return [
                Ruling("kakkerlakken.loses_species", {"player": seat + 1, "species": lost, "count": n}, "game_over")
            ]
        if self._hand_empty(seat):
            self.loser = seat
            return [Ruling("kakkerlakken.loses_empty_hand", {"player": seat + 1}, "game_over")]
        if count == species_limit(species, limit, self.in_play_counts) - 1:
            return [
                Ruling("kakkerlakken.warning", {"player": seat + 1, "species": species, "count": count}, "reminder")
            ]
        return []
