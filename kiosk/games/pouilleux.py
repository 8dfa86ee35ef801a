"""Pouilleux (seed 002, rule 1): Old Maid with math pairs and the blank Pouilleux card.

Phases of a round: everyone lays down his pairs (``opening``), then each player in turn draws a
card from the previous player still holding cards and lays what pairs (``draw``/``lay``). Every
pair laid is checked by the others (``check``): a spotted error sends the two cards back to its
author, and the spotter gives him a card (still in the game) or scores 1 (already out). The n-th
player out scores 5 - n; the round ends when the last one holds only the Pouilleux. A round that
cannot end (an unspotted wrong pair left cards without a partner) cancels its points and goes to
the error search of the seed (``search``). The dealer turns each round; most points wins.

:func:`finishing_points` and :func:`search_points` are the scoring rules, shared with the referee.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar

from kiosk.games import mathpairs
from kiosk.games.base import GameEngine, IllegalMove, Ruling

#: The seed's indicative deck: 16 or 18 cards at 2 players, 24 at 3, 30 at 4 (+ the Pouilleux).
PAIRS_BY_PLAYERS = {2: 9, 3: 12, 4: 15}


def finishing_points(rank: int) -> int:
    """Points of the ``rank``-th player out (1-based): 4, 3, 2, ..."""
    return max(0, 5 - rank)


def search_points(players: int, mistaken: int, finder: int | None) -> list[int]:
    """Points of an unfinishable round once the first error is found.

    ``finder`` None: nobody found it and the teacher (or the calculator) did.
    """
    if finder == mistaken:
        return [1] * players
    points = [1] * players
    points[mistaken] = 0
    if finder is not None:
        points[finder] = 2
    return points


@dataclass(frozen=True)
class LayPair:
    a: str
    b: str


@dataclass(frozen=True)
class EndTurn:
    """Done laying pairs (in the opening, or after a draw)."""


@dataclass(frozen=True)
class Accept:
    """A checker finds nothing wrong with the pair just laid."""


@dataclass(frozen=True)
class Spot:
    """A checker says the pair just laid is wrong; ``give`` is his card for the author (None when out)."""

    give: str | None


@dataclass(frozen=True)
class Draw:
    """Take the card at ``position`` of the previous player's hand (held face down)."""

    position: int


@dataclass(frozen=True)
class Search:
    """In an unfinishable round: point at laid pair ``index`` as an error, or None to pass."""

    index: int | None


@dataclass(frozen=True)
class Laid:
    seat: int
    a: str
    b: str


class Pouilleux(GameEngine):
    game_id = "pouilleux"
    deck_id = mathpairs.DECK_ID
    min_players = 2
    max_players = 4
    default_options: ClassVar[Mapping[str, Any]] = {
        "level": mathpairs.DEFAULT_LEVEL,
        "pairs": None,
        "rounds": 1,
        "dealer": 0,
    }

    def __init__(self, players: int, rng: random.Random, options: Mapping[str, Any] | None = None):
        super().__init__(players, rng, options)
        self.pairs = mathpairs.options_pairs(self.options, PAIRS_BY_PLAYERS[players])
        if self.options["rounds"] < 1 or not 0 <= self.options["dealer"] < players:
            raise ValueError("pouilleux: rounds must be >= 1 and dealer a seat")
        self.totals = [0] * players
        self.rounds_played = 0
        self.dealer = self.options["dealer"]
        self._deal()

    # --- round life --------------------------------------------------------------------
    def _deal(self) -> None:
        cards = [c for pair in self.pairs for c in pair] + [mathpairs.BLANK]
        self.hands = mathpairs.dealt(cards, self.players, self.dealer + 1, self.rng)
        self.laid: list[Laid] = []
        self.round_points = [0] * self.players
        self.out: list[int] = []
        self.phase = "opening"
        self.seat = (self.dealer + 1) % self.players  # who lays, draws or searches
        self.opened = 0
        self.checkers: list[int] = []
        self.searchers: list[int] = []
        self.resume = "opening"

    def _seat_after(self, seat: int) -> int:
        return (seat + 1) % self.players

    def _holders(self) -> list[int]:
        return [s for s in range(self.players) if self.hands[s]]

    def _mark_out(self) -> list[Ruling]:
        rulings = []
        for s in range(self.players):
            if not self.hands[s] and s not in self.out:
                self.out.append(s)
                points = finishing_points(len(self.out))
                self.round_points[s] += points
                rulings.append(
                    Ruling("pouilleux.out", {"player": s + 1, "rank": len(self.out), "points": points}, "score")
                )
        return rulings

    def _next_holder(self, seat: int) -> int:
        nxt = self._seat_after(seat)
        while not self.hands[nxt]:
            nxt = self._seat_after(nxt)
        return nxt

    def victim(self) -> int:
        """The previous player still holding cards: the one the drawer takes from."""
        prev = (self.seat - 1) % self.players
        while not self.hands[prev]:
            prev = (prev - 1) % self.players
        return prev

    def wrong_pairs(self) -> list[int]:
        return [i for i, p in enumerate(self.laid) if not mathpairs.is_pair(p.a, p.b)]

    def _end_of_turn(self) -> list[Ruling]:
        holders = self._holders()
        held = [c for s in holders for c in self.hands[s]]
        if mathpairs.find_pair(held):
            if len(holders) == 1:  # the last holder still has pairs to lay
                self.seat, self.phase = holders[0], "lay"
                return [Ruling("pouilleux.lay_your_pairs", {"player": holders[0] + 1}, "reminder")]
            self.seat = self._next_holder(self.seat)
            self.phase = "draw"
            return []
        if len(holders) == 1 and held == [mathpairs.BLANK]:
            rulings = [Ruling("pouilleux.round_over", {"player": holders[0] + 1}, "score")]
            return rulings + self._close_round(self.round_points)
        self.phase = "search"
        self.round_points = [0] * self.players
        self.searchers = [(self.dealer + 1 + i) % self.players for i in range(self.players)]
        self.seat = self.searchers.pop(0)
        return [Ruling("pouilleux.unfinishable", {}, "violation")]

    def _close_round(self, points: list[int]) -> list[Ruling]:
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        self.rounds_played += 1
        self.round_points = [0] * self.players
        if self.rounds_played >= self.options["rounds"]:
            self.phase = "over"
            return [
                Ruling("pouilleux.match_over", {"players": " ".join(str(w + 1) for w in self.winners())}, "game_over")
            ]
        self.dealer = self._seat_after(self.dealer)
        self._deal()
        return [Ruling("pouilleux.new_round", {"dealer": self.dealer + 1})]

    # --- GameEngine --------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        if self.phase == "over":
            return None
        return self.checkers[0] if self.phase == "check" else self.seat

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def scores(self) -> list[int]:
        """Points of the finished rounds plus this round's, as they stand."""
        return [t + p for t, p in zip(self.totals, self.round_points, strict=True)]

    def winners(self) -> list[int]:
        if not self.over:
            return []
        best = max(self.totals)
        return [s for s, t in enumerate(self.totals) if t == best]

    def card_locations(self) -> list[tuple[str, str]]:
        out = [(c, f"hand:{s}") for s in range(self.players) for c in self.hands[s]]
        return out + [(c, f"laid:{p.seat}") for p in self.laid for c in (p.a, p.b)]

    def legal_moves(self) -> list[Any]:
        phase = self.phase
        if phase in ("opening", "lay"):
            return [EndTurn()] + [LayPair(a, b) for a, b in combinations(self.hands[self.seat], 2)]
        if phase == "check":
            moves: list[Any] = [Accept()]
            last = self.laid[-1]
            if not mathpairs.is_pair(last.a, last.b):
                hand = self.hands[self.checkers[0]]
                moves += [Spot(c) for c in hand] if hand else [Spot(None)]
            return moves
        if phase == "draw":
            return [Draw(i) for i in range(len(self.hands[self.victim()]))]
        if phase == "search":
            return [Search(None)] + [Search(i) for i in self.wrong_pairs()]
        return []

    def play(self, move: Any) -> list[Ruling]:
        handler = {
            ("opening", LayPair): self._lay,
            ("lay", LayPair): self._lay,
            ("opening", EndTurn): self._end_opening,
            ("lay", EndTurn): self._end_lay,
            ("check", Accept): self._accept,
            ("check", Spot): self._spot,
            ("draw", Draw): self._draw,
            ("search", Search): self._search,
        }.get((self.phase, type(move)))
        if handler is None:
            raise IllegalMove("pouilleux.not_now", phase=self.phase)
        return handler(move)  # type: ignore[operator]

    # --- moves -------------------------------------------------------------------------
    def _lay(self, move: LayPair) -> list[Ruling]:
        hand = self.hands[self.seat]
        if move.a == move.b or move.a not in hand or move.b not in hand:
            raise IllegalMove("pouilleux.not_in_hand", player=self.seat + 1)
        hand.remove(move.a)
        hand.remove(move.b)
        self.laid.append(Laid(self.seat, move.a, move.b))
        self.resume = self.phase
        self.phase = "check"
        self.checkers = [(self.seat + i) % self.players for i in range(1, self.players)]
        return [Ruling("pouilleux.pair_laid", {"player": self.seat + 1, **mathpairs.pair_params(move.a, move.b)})]

    def _close_check(self) -> list[Ruling]:
        self.phase = self.resume
        self.checkers = []
        return self._mark_out()

    def _accept(self, move: Accept) -> list[Ruling]:
        self.checkers.pop(0)
        return [] if self.checkers else self._close_check()

    def _spot(self, move: Spot) -> list[Ruling]:
        spotter, pair = self.checkers[0], self.laid[-1]
        params = {"spotter": spotter + 1, "player": pair.seat + 1, **mathpairs.pair_params(pair.a, pair.b)}
        if mathpairs.is_pair(pair.a, pair.b):
            raise IllegalMove("pouilleux.pair_is_right", **params)
        hand = self.hands[spotter]
        if hand and move.give not in hand:
            raise IllegalMove("pouilleux.must_give_a_card", player=spotter + 1)
        if not hand and move.give is not None:
            raise IllegalMove("pouilleux.nothing_to_give", player=spotter + 1)
        self.laid.pop()
        self.hands[pair.seat] += [pair.a, pair.b]
        rulings = [Ruling("pouilleux.error_spotted", params, "violation")]
        if move.give is not None:
            hand.remove(move.give)
            self.hands[pair.seat].append(move.give)
            rulings.append(Ruling("pouilleux.card_given", {"spotter": spotter + 1, "player": pair.seat + 1}))
        else:
            self.round_points[spotter] += 1
            rulings.append(Ruling("pouilleux.spot_bonus", {"player": spotter + 1}, "score"))
        return rulings + self._close_check()

    def _end_opening(self, move: EndTurn) -> list[Ruling]:
        self.opened += 1
        if self.opened < self.players:
            self.seat = self._seat_after(self.seat)
            return []
        # play starts with the player who got the first card (dealer + 1), or the next holder
        self.seat = self.dealer
        return self._end_of_turn()

    def _end_lay(self, move: EndTurn) -> list[Ruling]:
        return self._end_of_turn()

    def _draw(self, move: Draw) -> list[Ruling]:
        victim = self.victim()
        if not 0 <= move.position < len(self.hands[victim]):
            raise IllegalMove("pouilleux.no_such_card", position=move.position)
        self.hands[self.seat].append(self.hands[victim].pop(move.position))
        self.phase = "lay"
        return [Ruling("pouilleux.drew", {"player": self.seat + 1, "from": victim + 1})] + self._mark_out()

    def _search(self, move: Search) -> list[Ruling]:
        wrong = self.wrong_pairs()
        if move.index is not None:
            if move.index not in range(len(self.laid)):
                raise IllegalMove("pouilleux.no_such_pair", index=move.index)
            pair = self.laid[move.index]
            if move.index not in wrong:
                raise IllegalMove(
                    "pouilleux.pair_is_right", player=pair.seat + 1, **mathpairs.pair_params(pair.a, pair.b)
                )
            return self._found(pair, self.seat)
        if self.searchers:
            self.seat = self.searchers.pop(0)
            return []
        # nobody found it: the teacher (or the calculator) finds the first one
        return self._found(self.laid[wrong[0]], None)

    def _found(self, pair: Laid, finder: int | None) -> list[Ruling]:
        params = {"player": pair.seat + 1, **mathpairs.pair_params(pair.a, pair.b)}
        if finder is None:
            key = "pouilleux.calculator_found"
        elif finder == pair.seat:
            key = "pouilleux.own_error_found"
        else:
            key, params["finder"] = "pouilleux.error_found", finder + 1
        points = search_points(self.players, pair.seat, finder)
        return [Ruling(key, params, "score")] + self._close_round(points)

    def bot_move(self) -> Any:
        """Lays every true pair, spots every wrong one, draws at random."""
        if self.phase in ("opening", "lay"):
            pair = mathpairs.find_pair(self.hands[self.seat])
            return LayPair(*pair) if pair else EndTurn()
        if self.phase == "check":
            moves = self.legal_moves()
            return self.rng.choice(moves[1:]) if len(moves) > 1 else moves[0]
        return super().bot_move()
