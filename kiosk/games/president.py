"""Président (Presidenten): the seed's rules plus rules-decisions.md.

Seed (000): the Manneken-Pis are removed and every card is dealt. The first player lays one card
or several of the same value; in turn each lays as many cards, of equal or higher value, or
passes. The 2 is the highest card. When everyone passes, the last to have played starts again.
The first to be rid of his cards becomes Président, the last becomes Balayeur: in the next round
he gives his best card to the Président.

Decisions: 2 high; the dealer's left neighbour leads the first round; a player who passed may
play again in the same trick; the Président gives nothing back (option ``president_gives_back``:
he gives one card of his choice in return).

Product choices where the texts are silent: a match is ``rounds`` rounds (option, default 3);
the score is the number of rounds won as Président; seat ``players - 1`` deals the first round,
then the Balayeur deals and his left neighbour leads; when the last player of a trick is already
out, the next player still in leads.

At the table (``at_table=True``) nothing is dealt: each hand is an :class:`UnseenHand` counting the
cards the deal gives it, so the engine knows who goes out. The table reports the same :class:`Play`
and :class:`Pass`; a card laid earlier in the round is not in a hand. The exchange between rounds
cannot be seen: the engine moves the Balayeur's card in the counts and reminds the players; with
``president_gives_back`` the card given back is a reminder too, and the counts stay as dealt.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from kiosk.decks import SUITS, load_deck, parse_standard_id
from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.games.bataille import seats_text
from kiosk.games.cards import deal
from kiosk.games.hands import UnseenHand

ORDER: tuple[str, ...] = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
STRENGTH: dict[str, int] = {r: i for i, r in enumerate(ORDER)}


def value(card_id: str) -> int:
    return STRENGTH[parse_standard_id(card_id)[0]]


def best_card(hand: list[str]) -> str:
    """The card the Balayeur owes: the highest value (suit order C D H S breaks the tie)."""
    return max(hand, key=lambda c: (value(c), -SUITS.index(parse_standard_id(c)[1])))


def combo_problem(cards: tuple[str, ...], previous: tuple[str, ...] | None) -> tuple[str, dict[str, Any]] | None:
    """Why ``cards`` may not follow ``previous`` (None when it may): key and params."""
    if not cards:
        return "president.empty_combo", {}
    values = {value(c) for c in cards}
    if len(values) > 1:
        return "president.mixed_values", {"count": len(cards)}
    if previous is None:
        return None
    if len(cards) != len(previous):
        return "president.wrong_count", {"count": len(cards), "needed": len(previous)}
    if value(cards[0]) < value(previous[0]):
        return "president.too_low", {
            "value": parse_standard_id(cards[0])[0],
            "previous": parse_standard_id(previous[0])[0],
        }
    return None


@dataclass(frozen=True)
class Play:
    """Lay ``cards`` (one or several of the same value)."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class Pass:
    """Not playing now; the player may still play later in the same trick."""


@dataclass(frozen=True)
class GiveBack:
    """With ``president_gives_back``: the Président returns one card to the Balayeur."""

    card: str


class President(GameEngine):
    game_id = "president"
    deck_id = "affiche-belge"
    min_players = 3
    max_players = 7
    default_options = {"rounds": 3, "president_gives_back": False}

    def __init__(
        self, players: int, rng: random.Random, options: Mapping[str, Any] | None = None, *, at_table: bool = False
    ):
        super().__init__(players, rng, options, at_table=at_table)
        deck = load_deck(self.deck_id)
        self.aside = [c.id for c in deck if c.kind == "joker"]
        self.cards = [c.id for c in deck if c.kind == "standard"]
        self.titles = [0] * players
        self.round = 0
        self.roles: dict[str, int] = {}  # "president" / "balayeur" of the last finished round
        self._over = False
        self._deal(dealer=players - 1)

    def _deal(self, dealer: int) -> None:
        n = self.players
        self.hands: list[list[str]] | list[UnseenHand]
        if self.at_table:
            self.hands = [UnseenHand(len(hand)) for hand in deal(self.cards, n, first=(dealer + 1) % n)]
        else:
            cards = list(self.cards)
            self.rng.shuffle(cards)
            self.hands = deal(cards, n, first=(dealer + 1) % n)
        self.table: list[tuple[str, ...]] = []  # combos of the trick in progress
        self.taken: list[str] = []  # cards of finished tricks
        self.finished: list[int] = []  # seats in the order they went out
        self.last_player: int | None = None
        self.passes = 0
        self.current = (dealer + 1) % n
        self.owed: int | None = None  # the Balayeur to receive a card back

    def _exchange(self) -> list[Ruling]:
        """The Balayeur's best card goes to the Président; the rulings that say so."""
        pres, bal = self.roles["president"], self.roles["balayeur"]
        giver, taker = self.hands[bal], self.hands[pres]
        if isinstance(giver, UnseenHand) and isinstance(taker, UnseenHand):
            rulings = [Ruling("president.give_best_card", {"player": bal + 1, "to": pres + 1}, "reminder")]
            if self.options["president_gives_back"]:
                return rulings + [
                    Ruling("president.give_back_reminder", {"player": pres + 1, "to": bal + 1}, "reminder")
                ]
            giver.lay()
            taker.take()
            return rulings
        assert isinstance(giver, list) and isinstance(taker, list)
        card = best_card(giver)
        giver.remove(card)
        taker.append(card)
        if self.options["president_gives_back"]:
            self.owed = bal
        return [Ruling("president.gives_best", {"player": bal + 1, "to": pres + 1, "card": card}, "reminder")]

    @property
    def over(self) -> bool:
        return self._over

    @property
    def to_act(self) -> int | None:
        if self._over:
            return None
        return self.roles["president"] if self.owed is not None else self.current

    @property
    def previous(self) -> tuple[str, ...] | None:
        return self.table[-1] if self.table else None

    def laid_this_round(self, card: str) -> bool:
        """Whether ``card`` was laid in this round (on the table or in a finished trick)."""
        return card in self.taken or any(card in combo for combo in self.table)

    def _held(self, seat: int) -> list[str]:
        """The cards ``seat`` may hold: his hand, or at the table every card not laid this round."""
        hand = self.hands[seat]
        if isinstance(hand, UnseenHand):
            return [c for c in self.cards if not self.laid_this_round(c)]
        return hand

    def legal_moves(self) -> list[Any]:
        if self._over:
            return []
        if self.owed is not None:
            return [GiveBack(c) for c in self._held(self.roles["president"])]
        by_value: dict[int, list[str]] = {}
        for card in sorted(self._held(self.current)):
            by_value.setdefault(value(card), []).append(card)
        prev = self.previous
        sizes = [len(prev)] if prev else [k for k in (1, 2, 3, 4) if k <= len(self.hands[self.current])]
        floor = value(prev[0]) if prev else 0
        moves: list[Any] = [
            Play(combo)
            for v, same in sorted(by_value.items())
            if v >= floor
            for k in sizes
            for combo in combinations(same, k)
        ]
        return moves + ([Pass()] if prev else [])

    def play(self, move: Any) -> list[Ruling]:
        if self._over:
            raise IllegalMove("president.game_over")
        if self.owed is not None:
            return self._give_back(move)
        seat = self.current
        if isinstance(move, Pass):
            if self.previous is None:
                raise IllegalMove("president.must_lead", player=seat + 1)
            return self._pass(seat)
        if not isinstance(move, Play):
            raise IllegalMove("president.unknown_move")
        aside = [c for c in move.cards if c in self.aside]
        if aside:
            raise IllegalMove("president.manneken_out", card=aside[0])
        hand, held = self.hands[seat], self._held(seat)
        missing = [c for c in move.cards if c not in held]
        if missing or len(set(move.cards)) != len(move.cards) or len(move.cards) > len(hand):
            raise IllegalMove("president.not_in_hand", player=seat + 1, cards=list(move.cards))
        problem = combo_problem(move.cards, self.previous)
        if problem:
            raise IllegalMove(problem[0], player=seat + 1, **problem[1])
        for card in move.cards:
            if isinstance(hand, UnseenHand):
                hand.lay()
            else:
                hand.remove(card)
        self.table.append(move.cards)
        self.last_player, self.passes = seat, 0
        rulings = [
            Ruling(
                "president.combo_ok",
                {"player": seat + 1, "count": len(move.cards), "value": parse_standard_id(move.cards[0])[0]},
                "ok",
            )
        ]
        if not self.hands[seat]:
            self.finished.append(seat)
            rulings.append(Ruling("president.out", {"player": seat + 1, "place": len(self.finished)}, "info"))
            if len(self.finished) == self.players - 1:
                return rulings + self._end_round()
        self.current = self._next_in(seat)
        return rulings

    def _give_back(self, move: Any) -> list[Ruling]:
        pres = self.roles["president"]
        giver = self.hands[pres]
        if not isinstance(move, GiveBack) or not isinstance(giver, list) or move.card not in giver:
            raise IllegalMove("president.give_back_card", player=pres + 1)
        balayeur, self.owed = self.owed, None
        assert balayeur is not None
        taker = self.hands[balayeur]
        assert isinstance(taker, list)
        giver.remove(move.card)
        taker.append(move.card)
        rulings = [Ruling("president.gave_back", {"player": pres + 1, "to": balayeur + 1}, "info")]
        return rulings

    def _in(self, seat: int) -> bool:
        return bool(self.hands[seat])

    def _next_in(self, seat: int) -> int:
        for k in range(1, self.players + 1):
            nxt = (seat + k) % self.players
            if self._in(nxt):
                return nxt
        return seat

    def _pass(self, seat: int) -> list[Ruling]:
        self.passes += 1
        others = sum(1 for s in range(self.players) if self._in(s) and s != self.last_player)
        rulings = [Ruling("president.passes", {"player": seat + 1}, "info")]
        if self.passes < others:
            self.current = self._next_in(seat)
            return rulings
        leader = self.last_player
        assert leader is not None
        self.taken.extend(c for combo in self.table for c in combo)
        self.table, self.passes = [], 0
        self.current = leader if self._in(leader) else self._next_in(leader)
        return rulings + [Ruling("president.trick_won", {"player": leader + 1, "next": self.current + 1}, "info")]

    def _end_round(self) -> list[Ruling]:
        balayeur = next(s for s in range(self.players) if s not in self.finished)
        president = self.finished[0]
        self.titles[president] += 1
        self.roles = {"president": president, "balayeur": balayeur}
        self.round += 1
        rulings = [Ruling("president.roles", {"president": president + 1, "balayeur": balayeur + 1}, "score")]
        if self.round >= self.options["rounds"]:
            self._over = True
            return rulings + [Ruling("president.game_over", {"players": seats_text(self.winners())}, "game_over")]
        self._deal(dealer=balayeur)
        return rulings + self._exchange()

    def expects(self) -> tuple[str, dict[str, Any]] | None:
        """What the table does next (message key, parameters); None once over."""
        if self._over:
            return None
        if self.owed is not None:
            return "president.expect_give_back", {"player": self.roles["president"] + 1}
        prev, player = self.previous, self.current + 1
        if prev is None:
            return "president.expect_lead", {"player": player}
        return "president.expect_answer", {"player": player, "count": len(prev), "value": parse_standard_id(prev[0])[0]}

    def bot_move(self) -> Any:
        """Lowest combo that may be laid (all copies of the lowest value when leading)."""
        moves = self.legal_moves()
        plays = [m for m in moves if isinstance(m, Play)]
        if not plays:
            return moves[0]
        if self.owed is None and self.previous is None:
            low = value(plays[0].cards[0])
            return max((m for m in plays if value(m.cards[0]) == low), key=lambda m: len(m.cards))
        return plays[0]

    def scores(self) -> list[int]:
        """Rounds won as Président."""
        return list(self.titles)

    def winners(self) -> list[int]:
        if not self._over:
            return []
        best = max(self.titles)
        return [s for s in range(self.players) if self.titles[s] == best]

    def card_locations(self) -> list[tuple[str, str]]:
        out = [(c, f"hand:{seat}") for seat, hand in enumerate(self.hands) if isinstance(hand, list) for c in hand]
        out += [(c, "table") for combo in self.table for c in combo]
        out += [(c, "taken") for c in self.taken]
        return out + [(c, "aside") for c in self.aside]
