"""Pouilleux (seed 002, rule 1): Old Maid with math pairs and the blank Pouilleux card.

Phases of a round: everyone lays down his pairs (``opening``), then each player in turn draws a
card from the previous player still holding cards and lays what pairs (``draw``/``lay``). Every
pair laid is checked by the others (``check``): a spotted error sends the two cards back to its
author, and the spotter gives him a card (still in the game) or scores 1 (already out). The n-th
player out scores 5 - n; the round ends when the last one holds only the Pouilleux. A round that
cannot end (an unspotted wrong pair left cards without a partner) cancels its points and goes to
the error search of the seed (``search``). The dealer turns each round; most points wins.

At the table (``at_table=True``) nobody deals and the draws go hand to hand, out of the camera's
sight: the hands are not kept (``hands`` stay empty) and nobody's turn is followed (``to_act`` is
None). The record is the pairs the camera sees laid in the seat zones (:class:`LaidSeen`, or
taken back: :class:`TakenBack`) and the finishing order the players report (:class:`OutOfCards`).
Every pair seen is judged at once; a wrong one waits for the table's word on who spotted it
(:class:`SpottedBy`) or that nobody did (:class:`Unspotted`: the error stands). The players say
when a round cannot end (:class:`CannotFinish`), who found the error (:class:`FoundBy`; nobody:
the calculator points at a wrong pair it saw) and, where it cannot tell, whose it was
(:class:`MistakeOf`). The phases there are ``play``, ``check``, ``search``, ``author`` and
``over``; :meth:`legal_moves` lists the buttons' moves only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar

from kiosk.games import mathpairs
from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.games.mathpairs import SpottedBy, Unspotted

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


@dataclass(frozen=True)
class LaidSeen:
    """At the table: the camera sees the cards ``a`` and ``b`` laid together in ``seat``'s zone."""

    seat: int
    a: str
    b: str


@dataclass(frozen=True)
class TakenBack:
    """At the table: the pair ``a``, ``b`` seen laid in ``seat``'s zone has left it."""

    seat: int
    a: str
    b: str


@dataclass(frozen=True)
class OutOfCards:
    """At the table: player ``seat`` has no card left."""

    seat: int


@dataclass(frozen=True)
class CannotFinish:
    """At the table: the players say the round cannot end."""


@dataclass(frozen=True)
class FoundBy:
    """At the table, in the error search: player ``seat`` found an error (None: nobody did)."""

    seat: int | None


@dataclass(frozen=True)
class MistakeOf:
    """At the table, in the error search: the error found was player ``seat``'s."""

    seat: int


#: What the table waits for in each phase of a round (a message key).
_EXPECTS = {
    "play": "pouilleux.expect_pairs",
    "check": "pouilleux.expect_spotter",
    "search": "pouilleux.expect_finder",
    "author": "pouilleux.expect_author",
}


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

    def __init__(
        self,
        players: int,
        rng: random.Random,
        options: Mapping[str, Any] | None = None,
        *,
        at_table: bool = False,
    ):
        super().__init__(players, rng, options, at_table=at_table)
        self.pairs = mathpairs.options_pairs(self.options, PAIRS_BY_PLAYERS[players])
        if self.options["rounds"] < 1 or not 0 <= self.options["dealer"] < players:
            raise ValueError("pouilleux: rounds must be >= 1 and dealer a seat")
        self.totals = [0] * players
        self.rounds_played = 0
        self.dealer = self.options["dealer"]
        self._deal()

    # --- round life --------------------------------------------------------------------
    def _deal(self) -> None:
        self.hands: list[list[str]] = [[] for _ in range(self.players)]  # at the table: out of sight
        if not self.at_table:
            cards = [c for pair in self.pairs for c in pair] + [mathpairs.BLANK]
            self.hands = mathpairs.dealt(cards, self.players, self.dealer + 1, self.rng)
        self.laid: list[Laid] = []
        self.round_points = [0] * self.players
        self.out: list[int] = []
        self.phase = "play" if self.at_table else "opening"
        self.seat = (self.dealer + 1) % self.players  # who lays, draws or searches
        self.opened = 0
        self.checkers: list[int] = []
        self.searchers: list[int] = []
        self.resume = "opening"
        self.pending: list[Laid] = []  # at the table: wrong pairs waiting for the table's word
        self.finder: int | None = None  # at the table, in the error search: who found it

    def _seat_after(self, seat: int) -> int:
        return (seat + 1) % self.players

    def _holders(self) -> list[int]:
        return [s for s in range(self.players) if self.hands[s]]

    def _mark_out(self) -> list[Ruling]:
        return [self._finish(s) for s in range(self.players) if not self.hands[s] and s not in self.out]

    def _finish(self, seat: int) -> Ruling:
        """``seat`` has no card left: the next finishing place and its points."""
        self.out.append(seat)
        points = finishing_points(len(self.out))
        self.round_points[seat] += points
        return Ruling("pouilleux.out", {"player": seat + 1, "rank": len(self.out), "points": points}, "score")

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
            return self._round_over(holders[0])
        self.searchers = [(self.dealer + 1 + i) % self.players for i in range(self.players)]
        self.seat = self.searchers.pop(0)
        return self._unfinishable()

    def _round_over(self, holder: int) -> list[Ruling]:
        """Everyone but ``holder`` is out: he keeps the Pouilleux and the round's points stand."""
        rulings = [Ruling("pouilleux.round_over", {"player": holder + 1}, "score")]
        return rulings + self._close_round(self.round_points)

    def _unfinishable(self) -> list[Ruling]:
        """The round cannot end: its points are cancelled and the error search begins."""
        self.phase = "search"
        self.round_points = [0] * self.players
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
        """None also at the table, where the turns go out of the camera's sight."""
        if self.phase == "over" or self.at_table:
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

    def expects(self) -> tuple[str, dict[str, Any]] | None:
        if self.over:
            return None
        return _EXPECTS[self.phase], {"player": self.pending[0].seat + 1} if self.pending else {}

    def legal_moves(self) -> list[Any]:
        if self.at_table:
            return self._table_buttons()
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

    def _table_buttons(self) -> list[Any]:
        everyone = range(self.players)
        if self.phase == "play":
            return [OutOfCards(s) for s in everyone if s not in self.out] + [CannotFinish()]
        if self.phase == "check":
            return [SpottedBy(s) for s in everyone if s != self.pending[0].seat] + [Unspotted()]
        if self.phase == "search":
            return [FoundBy(s) for s in everyone] + [FoundBy(None)]
        if self.phase == "author":
            return [MistakeOf(s) for s in everyone]
        return []

    def play(self, move: Any) -> list[Ruling]:
        if self.at_table:
            return self._play_at_table(move)
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

    def _play_at_table(self, move: Any) -> list[Ruling]:
        seen = isinstance(move, (LaidSeen, TakenBack)) and self.phase != "over"
        if not seen and move not in self._table_buttons():
            raise IllegalMove("pouilleux.not_now", phase=self.phase)
        handler = {
            LaidSeen: self._laid_seen,
            TakenBack: self._taken_back,
            OutOfCards: self._out_of_cards,
            CannotFinish: self._cannot_finish,
            SpottedBy: self._spotted_by,
            Unspotted: self._unspotted,
            FoundBy: self._found_by,
            MistakeOf: self._mistake_of,
        }[type(move)]
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
        self.hands[pair.seat] += [pair.a, pair.b]
        if move.give is not None:
            hand.remove(move.give)
            self.hands[pair.seat].append(move.give)
        rulings = [Ruling("pouilleux.error_spotted", params, "violation")] + self._error_spotted(spotter, pair)
        return rulings + self._close_check()

    def _error_spotted(self, spotter: int, pair: Laid) -> list[Ruling]:
        """The author takes ``pair`` back; the spotter gives him a card, or scores 1 when already out."""
        if pair in self.laid:
            self.laid.remove(pair)
        if spotter in self.out:
            self.round_points[spotter] += 1
            return [Ruling("pouilleux.spot_bonus", {"player": spotter + 1}, "score")]
        return [Ruling("pouilleux.card_given", {"spotter": spotter + 1, "player": pair.seat + 1})]

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
        return self._settle_search(pair.seat, finder, mathpairs.pair_params(pair.a, pair.b))

    def _settle_search(self, author: int, finder: int | None, shown: Mapping[str, Any]) -> list[Ruling]:
        """The error found is ``author``'s (``shown``: the pair's parameters, where known)."""
        params = {"player": author + 1, **shown}
        if finder is None:
            key = "pouilleux.calculator_found"
        elif finder == author:
            key = "pouilleux.own_error_found"
        else:
            key, params["finder"] = "pouilleux.error_found", finder + 1
        points = search_points(self.players, author, finder)
        return [Ruling(key, params, "score")] + self._close_round(points)

    # --- table moves -------------------------------------------------------------------
    def _laid_seen(self, move: LaidSeen) -> list[Ruling]:
        if move.seat not in range(self.players) or move.seat in self.out:
            raise IllegalMove("pouilleux.not_in_hand", player=move.seat + 1)
        if self.phase not in ("play", "check"):
            raise IllegalMove("pouilleux.not_now", phase=self.phase)
        pair = Laid(move.seat, move.a, move.b)
        self.laid.append(pair)
        params = {"player": move.seat + 1, **mathpairs.pair_params(move.a, move.b)}
        if mathpairs.is_pair(move.a, move.b):
            return [Ruling("pouilleux.pair_ok", params, "ok")]
        self.pending.append(pair)
        self.phase = "check"
        return [Ruling("pouilleux.wrong_pair", params, "violation")]

    def _taken_back(self, move: TakenBack) -> list[Ruling]:
        pair = Laid(move.seat, move.a, move.b)
        if pair in self.laid:
            self.laid.remove(pair)
        return []

    def _out_of_cards(self, move: OutOfCards) -> list[Ruling]:
        rulings = [self._finish(move.seat)]
        if len(self.out) < self.players - 1:
            return rulings
        return rulings + self._round_over(next(s for s in range(self.players) if s not in self.out))

    def _cannot_finish(self, move: CannotFinish) -> list[Ruling]:
        return self._unfinishable()

    def _settled(self) -> Laid:
        """The wrong pair the table has just given its word on."""
        pair = self.pending.pop(0)
        self.phase = "check" if self.pending else "play"
        return pair

    def _spotted_by(self, move: SpottedBy) -> list[Ruling]:
        pair = self._settled()
        rulings = self._error_spotted(move.seat, pair)
        return rulings + [Ruling("pouilleux.take_back", {"player": pair.seat + 1}, "reminder")]

    def _unspotted(self, move: Unspotted) -> list[Ruling]:
        pair = self._settled()
        params = {"player": pair.seat + 1, **mathpairs.pair_params(pair.a, pair.b)}
        return [Ruling("pouilleux.error_stands", params, "info")]

    def _found_by(self, move: FoundBy) -> list[Ruling]:
        wrong = self.wrong_pairs()
        if move.seat is None and wrong:  # the calculator points at a wrong pair it saw
            return self._found(self.laid[wrong[0]], None)
        self.finder, self.phase = move.seat, "author"
        return []

    def _mistake_of(self, move: MistakeOf) -> list[Ruling]:
        return self._settle_search(move.seat, self.finder, {})

    def bot_move(self) -> Any:
        """Lays every true pair, spots every wrong one, draws at random."""
        if self.phase in ("opening", "lay"):
            pair = mathpairs.find_pair(self.hands[self.seat])
            return LayPair(*pair) if pair else EndTurn()
        if self.phase == "check":
            moves = self.legal_moves()
            return self.rng.choice(moves[1:]) if len(moves) > 1 else moves[0]
        return super().bot_move()
