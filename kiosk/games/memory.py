"""Memory (seed 002, the fourth rule): turn two face-down cards, keep them if they pair.

A pair kept lets the player play again; two cards that do not pair go back face down and the
turn passes. A player may wrongly keep two cards that do not pair: the others then check, and a
spotter receives all the author's cards, that false pair included; the author's turn ends. The
partners of those two cards can then never be paired: the game ends when every pair has a card
kept (the cards left face down hold no pair), those partners staying face down, counted for
nobody (our choice), and most cards kept wins. A false pair nobody spots leaves cards that can
never be paired too, and then the game cannot finish: it is cancelled at once (the seed).

At the table (``at_table=True``) nobody lays the cards out: the engine knows a face-down card
once the camera has seen it face up (:class:`Reveal`). The two face-up cards leaving the centre
(:class:`Cleared`) are kept when they pair (the kiosk saw the pair, nobody checks it) and turned
back otherwise; one of them seen later in a seat zone (:class:`InSeatZone`) is a false pair its
player kept after all, and the table tells who spotted it (:class:`SpottedBy`) or that nobody
did (:class:`Unspotted`). :meth:`legal_moves` then lists these two buttons' moves only.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from kiosk.games import mathpairs
from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.games.mathpairs import SpottedBy, Unspotted


@dataclass(frozen=True)
class Turn:
    """Turn the face-down card at table position ``slot`` face up."""

    slot: int


@dataclass(frozen=True)
class Keep:
    """Keep the two cards turned (as a pair)."""


@dataclass(frozen=True)
class Return:
    """Turn the two cards face down again; the turn passes."""


@dataclass(frozen=True)
class Accept:
    """A checker sees nothing wrong with the pair just kept."""


@dataclass(frozen=True)
class Spot:
    """A checker says the pair just kept is wrong."""


@dataclass(frozen=True)
class Reveal:
    """At the table: the camera sees ``card`` turned face up in the centre."""

    card: str


@dataclass(frozen=True)
class Cleared:
    """At the table: both face-up cards have left the centre (kept, or turned face down)."""


@dataclass(frozen=True)
class InSeatZone:
    """At the table: the camera sees ``card`` in a seat zone, where the cards kept lie."""

    card: str


TABLE_MOVES = (Reveal, Cleared, InSeatZone, SpottedBy, Unspotted)


class Memory(GameEngine):
    game_id = "memory"
    deck_id = mathpairs.DECK_ID
    min_players = 2
    max_players = 6
    default_options: ClassVar[Mapping[str, Any]] = {"level": mathpairs.DEFAULT_LEVEL, "pairs": None, "dealer": 0}

    def __init__(
        self,
        players: int,
        rng: random.Random,
        options: Mapping[str, Any] | None = None,
        *,
        at_table: bool = False,
    ):
        super().__init__(players, rng, options, at_table=at_table)
        if not 0 <= self.options["dealer"] < players:
            raise ValueError(f"memory: dealer must be a seat 0..{players - 1}")
        cards = [c for pair in mathpairs.options_pairs(self.options, 10) for c in pair]
        self.total = len(cards) // 2
        #: the cards laid out, by position (None once kept); at the table, those seen so far
        self.table: list[str | None] = []
        if not at_table:
            rng.shuffle(cards)
            self.table = list(cards)
        self.known: dict[int, str] = {}  # slots seen face up at least once (a perfect memory)
        self.piles: list[list[str]] = [[] for _ in range(players)]
        self.player = (self.options["dealer"] + 1) % players
        self.turned: list[int] = []
        self.checkers: list[int] = []
        self.kept: tuple[str, str] | None = None  # the pair the checkers check
        self.author = self.player  # who kept it
        self.returned: tuple[int, str, str] | None = None  # at the table: the last non-pair turned back
        self.result: str | None = None  # "finished" | "cancelled"

    # --- GameEngine --------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        if self.result:
            return None
        return self.checkers[0] if self.checkers else self.player

    @property
    def over(self) -> bool:
        return self.result is not None

    def scores(self) -> list[int]:
        """Cards kept by each player."""
        return [len(p) for p in self.piles]

    def winners(self) -> list[int]:
        if self.result != "finished":
            return []  # a cancelled game has no winner
        best = max(self.scores())
        return [s for s, n in enumerate(self.scores()) if n == best]

    def card_locations(self) -> list[tuple[str, str]]:
        out = [(c, f"table:{i}") for i, c in enumerate(self.table) if c is not None]
        return out + [(c, f"pile:{s}") for s in range(self.players) for c in self.piles[s]]

    def face_down(self) -> list[int]:
        return [i for i, c in enumerate(self.table) if c is not None and i not in self.turned]

    def face_up(self) -> list[str]:
        """The cards turned face up this turn."""
        return [self.table[i] or "" for i in self.turned]

    def expects(self) -> tuple[str, dict[str, Any]] | None:
        if self.over:
            return None
        if self.checkers:
            return "memory.expect_spotter", {"player": self.author + 1}
        if len(self.face_up()) < 2:
            return "memory.expect_turn", {"player": self.player + 1}
        return "memory.expect_clear", {"player": self.player + 1}

    def legal_moves(self) -> list[Any]:
        if self.result:
            return []
        if self.checkers:
            assert self.kept is not None
            if self.at_table:
                return [SpottedBy(s) for s in self.checkers] + [Unspotted()]
            return [Accept()] + ([] if mathpairs.is_pair(*self.kept) else [Spot()])
        if self.at_table:
            return []  # what the camera sees is checked when it comes
        if len(self.turned) < 2:
            return [Turn(i) for i in self.face_down()]
        return [Keep(), Return()]

    def play(self, move: Any) -> list[Ruling]:
        if isinstance(move, TABLE_MOVES):
            return self._table_move(move)
        if self.at_table or move not in self.legal_moves():
            if isinstance(move, Spot) and self.checkers and not self.at_table:
                assert self.kept is not None
                raise IllegalMove("memory.pair_is_right", **mathpairs.pair_params(*self.kept))
            raise IllegalMove("memory.not_now")
        if isinstance(move, Turn):
            rulings = [Ruling("memory.turned", {"player": self.player + 1, "slot": move.slot + 1})]
            return rulings + self._turn(move.slot)
        if isinstance(move, Return):
            return self._return()
        if isinstance(move, Keep):
            return self._keep()
        if isinstance(move, Spot):
            return self._spot(self.checkers[0])
        self.checkers.pop(0)  # Accept
        return [] if self.checkers else self._end_check()

    def _table_move(self, move: Any) -> list[Ruling]:
        if not self.at_table or self.result:
            raise IllegalMove("memory.not_now")
        if isinstance(move, Reveal):
            return self._reveal(move.card)
        if isinstance(move, Cleared) and len(self.turned) == 2:
            return self._cleared()
        if isinstance(move, InSeatZone):
            return self._in_seat_zone(move.card)
        if isinstance(move, SpottedBy) and move.seat in self.checkers:
            return self._spot(move.seat)
        if isinstance(move, Unspotted) and self.checkers:
            self.checkers = []
            return self._end_check()
        raise IllegalMove("memory.not_now")

    # --- turning cards -----------------------------------------------------------------
    def _turn(self, slot: int) -> list[Ruling]:
        """Turn ``slot`` face up; the second card turned gets its verdict."""
        self.turned.append(slot)
        self.known[slot] = self.table[slot] or ""
        if len(self.turned) < 2:
            return []
        a, b = self.face_up()
        params = {"player": self.player + 1, **mathpairs.pair_params(a, b)}
        if mathpairs.is_pair(a, b):
            return [Ruling("memory.pair", params, "ok")]
        return [Ruling("memory.no_pair", params, "info")]

    def _reveal(self, card: str) -> list[Ruling]:
        if len(self.turned) == 2 or card in self.face_up() or any(card in pile for pile in self.piles):
            raise IllegalMove("memory.not_now")
        if self.returned and card in self.returned[1:]:
            self.returned = None  # turned face down after all: seen again in the centre
        if card not in self.table:
            self.table.append(card)
        return self._turn(self.table.index(card))

    def _cleared(self) -> list[Ruling]:
        a, b = self.face_up()
        if not mathpairs.is_pair(a, b):
            self.returned = (self.player, a, b)
            return self._return()
        self._take(self.player, self.turned)
        return self._check_end() or [Ruling("memory.play_again", {"player": self.player + 1})]

    def _return(self) -> list[Ruling]:
        self.turned = []
        self.player = (self.player + 1) % self.players
        return [Ruling("memory.next_player", {"player": self.player + 1})]

    def _take(self, seat: int, slots: list[int]) -> None:
        """The cards at ``slots`` go to ``seat``'s pile."""
        for i in slots:
            self.piles[seat].append(self.table[i] or "")
            self.table[i] = None
            self.known.pop(i, None)
        self.turned = [i for i in self.turned if i not in slots]

    # --- the check of a pair kept --------------------------------------------------------
    def _keep(self) -> list[Ruling]:
        a, b = self.face_up()
        self._take(self.player, self.turned)
        self._check(self.player, a, b)
        return [Ruling("memory.kept", {"player": self.player + 1, **mathpairs.pair_params(a, b)})]

    def _in_seat_zone(self, card: str) -> list[Ruling]:
        """A card kept is where it should be; one of the last two turned back was kept after all."""
        if self.returned is None or card not in self.returned[1:] or self.checkers:
            return []
        author, a, b = self.returned
        self.returned = None
        self._take(author, [self.table.index(a), self.table.index(b)])
        self._check(author, a, b)
        params = {"player": author + 1, **mathpairs.pair_params(a, b)}
        return [Ruling("memory.false_pair_kept", params, "violation")]

    def _check(self, author: int, a: str, b: str) -> None:
        """The others check the pair ``author`` kept, in turn from his left."""
        self.kept, self.author = (a, b), author
        self.checkers = [(author + i) % self.players for i in range(1, self.players)]

    def _spot(self, spotter: int) -> list[Ruling]:
        assert self.kept is not None
        author = self.author
        params = {"spotter": spotter + 1, "player": author + 1, **mathpairs.pair_params(*self.kept)}
        self.piles[spotter] += self.piles[author]
        self.piles[author] = []
        self.checkers = []
        if not self.at_table:  # at the table the turn passed when the cards left the centre
            self.player = (author + 1) % self.players
        return [Ruling("memory.error_spotted", params, "violation")] + self._check_end()

    def _end_check(self) -> list[Ruling]:
        """Every checker let the pair pass: a false one cancels the game, a right one plays on."""
        assert self.kept is not None
        if not mathpairs.is_pair(*self.kept):
            self.result = "cancelled"
            return [Ruling("memory.cancelled", {"cards": self._orphans()}, "game_over")]
        return self._check_end()  # the author plays again

    # --- the end -----------------------------------------------------------------------
    def _kept_values(self) -> Counter[int]:
        """How many cards of each pair (named by its value) are kept."""
        return Counter(mathpairs.card(c).value or 0 for pile in self.piles for c in pile)

    def _orphans(self) -> int:
        """Face-down cards whose partner is kept: they can never be paired."""
        return sum(1 for n in self._kept_values().values() if n == 1)

    def _check_end(self) -> list[Ruling]:
        """The game ends, once no check is pending, when every pair has a card kept."""
        if self.checkers or len(self._kept_values()) < self.total:
            return []
        self.result = "finished"
        return [
            Ruling("memory.game_over_cards", {"players": " ".join(str(w + 1) for w in self.winners())}, "game_over")
        ]

    def bot_move(self) -> Any:
        """A player with a perfect memory: turns a known pair, else unknown cards; keeps only pairs."""
        if self.checkers:
            return self.legal_moves()[-1]  # spots every wrong pair
        if len(self.turned) == 2:
            a, b = self.face_up()
            return Keep() if mathpairs.is_pair(a, b) else Return()
        known = {i: c for i, c in self.known.items() if i not in self.turned and self.table[i]}
        if self.turned:
            first = self.table[self.turned[0]] or ""
            match = next((i for i, c in known.items() if mathpairs.is_pair(first, c)), None)
        else:
            pair = mathpairs.find_pair(list(known.values()))
            match = next(i for i, c in known.items() if c == pair[0]) if pair else None
        if match is not None:
            return Turn(match)
        unknown = [i for i in self.face_down() if i not in known]
        return Turn(self.rng.choice(unknown or self.face_down()))
