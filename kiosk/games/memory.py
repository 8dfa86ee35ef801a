"""Memory (seed 002, the fourth rule): turn two face-down cards, keep them if they pair.

A pair kept lets the player play again; two cards that do not pair go back face down and the
turn passes. A player may wrongly keep two cards that do not pair: the others then check, and a
spotter receives all the author's cards, that false pair included; the author's turn ends. The
game ends when the cards left face down hold no pair: the partners of a spotted false pair stay
there, counted for nobody (our choice), and most cards kept wins. An error nobody spots leaves
cards without a partner too, but then the game cannot finish and is cancelled (the seed).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from kiosk.games import mathpairs
from kiosk.games.base import GameEngine, IllegalMove, Ruling


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


class Memory(GameEngine):
    game_id = "memory"
    deck_id = mathpairs.DECK_ID
    min_players = 2
    max_players = 6
    default_options: ClassVar[Mapping[str, Any]] = {"level": mathpairs.DEFAULT_LEVEL, "pairs": None, "dealer": 0}

    def __init__(self, players: int, rng: random.Random, options: Mapping[str, Any] | None = None):
        super().__init__(players, rng, options)
        if not 0 <= self.options["dealer"] < players:
            raise ValueError(f"memory: dealer must be a seat 0..{players - 1}")
        cards = [c for pair in mathpairs.options_pairs(self.options, 10) for c in pair]
        rng.shuffle(cards)
        self.table: list[str | None] = list(cards)
        self.known: dict[int, str] = {}  # slots seen face up at least once (a perfect memory)
        self.piles: list[list[str]] = [[] for _ in range(players)]
        self.player = (self.options["dealer"] + 1) % players
        self.turned: list[int] = []
        self.checkers: list[int] = []
        self.kept: tuple[str, str] | None = None
        self.unspotted = False  # a false pair was kept and every checker let it pass
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

    def legal_moves(self) -> list[Any]:
        if self.result:
            return []
        if self.checkers:
            assert self.kept is not None
            return [Accept()] + ([] if mathpairs.is_pair(*self.kept) else [Spot()])
        if len(self.turned) < 2:
            return [Turn(i) for i in self.face_down()]
        return [Keep(), Return()]

    def play(self, move: Any) -> list[Ruling]:
        if move not in self.legal_moves():
            if isinstance(move, Spot) and self.checkers:
                assert self.kept is not None
                raise IllegalMove("memory.pair_is_right", **mathpairs.pair_params(*self.kept))
            raise IllegalMove("memory.not_now")
        if isinstance(move, Turn):
            self.turned.append(move.slot)
            self.known[move.slot] = self.table[move.slot] or ""
            return [Ruling("memory.turned", {"player": self.player + 1, "slot": move.slot + 1})]
        if isinstance(move, Return):
            self.turned = []
            self.player = (self.player + 1) % self.players
            return [Ruling("memory.next_player", {"player": self.player + 1})]
        if isinstance(move, Keep):
            return self._keep()
        if isinstance(move, Spot):
            return self._spot()
        self.checkers.pop(0)  # Accept
        return [] if self.checkers else self._end_check()

    def _keep(self) -> list[Ruling]:
        a, b = (self.table[i] for i in self.turned)
        assert a is not None and b is not None
        self.kept = (a, b)
        self.piles[self.player] += [a, b]
        for i in self.turned:
            self.table[i] = None
            self.known.pop(i, None)
        self.checkers = [(self.player + i) % self.players for i in range(1, self.players)]
        return [Ruling("memory.kept", {"player": self.player + 1, **mathpairs.pair_params(a, b)})]

    def _spot(self) -> list[Ruling]:
        assert self.kept is not None
        spotter, author = self.checkers[0], self.player
        params = {"spotter": spotter + 1, "player": author + 1, **mathpairs.pair_params(*self.kept)}
        self.piles[spotter] += self.piles[author]
        self.piles[author] = []
        self.checkers = []
        self.turned = []
        self.player = (author + 1) % self.players
        return [Ruling("memory.error_spotted", params, "violation")] + self._check_end()

    def _end_check(self) -> list[Ruling]:
        assert self.kept is not None
        self.unspotted |= not mathpairs.is_pair(*self.kept)
        self.turned = []  # the author plays again
        return self._check_end()

    def _check_end(self) -> list[Ruling]:
        left = [c for c in self.table if c is not None]
        if mathpairs.find_pair(left):
            return []
        if self.unspotted:
            self.result = "cancelled"
            return [Ruling("memory.cancelled", {"cards": len(left)}, "game_over")]
        self.result = "finished"
        return [
            Ruling("memory.game_over_cards", {"players": " ".join(str(w + 1) for w in self.winners())}, "game_over")
        ]

    def bot_move(self) -> Any:
        """A player with a perfect memory: turns a known pair, else unknown cards; keeps only pairs."""
        if self.checkers:
            return self.legal_moves()[-1]  # spots every wrong pair
        if len(self.turned) == 2:
            a, b = (self.table[i] for i in self.turned)
            return Keep() if a and b and mathpairs.is_pair(a, b) else Return()
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
