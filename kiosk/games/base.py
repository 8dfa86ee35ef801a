"""The one shape every game engine has, so the app, the referee, the bots and the tests treat
all games alike (the OpenSpiel / boardgame.io idea: state + legal moves + transition, no I/O).

An engine is an object that owns its state. It never reads a clock, a file or a global RNG:
randomness comes from the ``random.Random`` given at construction.

- ``to_act``: the player whose decision it is (``None`` once the match is over).
- ``legal_moves()``: the moves that player may make now (a bot picks among them).
- ``play(move)``: apply a move for ``to_act``; returns the rulings it caused. An illegal move
  raises :class:`IllegalMove` with a message key and parameters, and leaves the state unchanged.
- ``over`` / ``scores()`` / ``winners()``: the end of the match and its result.
- ``card_locations()``: (card id, where) for every card in the game, one pair per physical card;
  the invariant tests check that no card is ever lost or duplicated.
- ``bot_move()``: the move a simple bot makes (default: a random legal move); ``kiosk simulate``
  plays whole matches with it.
- ``at_table``: built with ``at_table=True`` the engine referees a real table: it deals nothing,
  hands are unseen (``kiosk.games.hands``) and it takes the moves the camera and the players'
  buttons report. The phases, legality, scoring and end of the game are the same code either
  way; the table referee (``kiosk.referee``) only translates observations into these moves.
  At the table ``legal_moves()`` lists the moves the players' buttons make (a move the camera
  reports is judged when it arrives, so the list may be empty while the game goes on), ``to_act``
  is None while the whole table acts (naming the dealer, showing hands), and ``expects()`` says
  what the table is waiting for.

Moves are small frozen dataclasses defined by each game. Rulings are message keys with
parameters; the UI translates them (``kiosk.i18n``).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar


@dataclass(frozen=True)
class Ruling:
    """What the referee says: a message key (``<game>.<name>``) with its parameters.

    ``level`` decides the banner colour: ``ok`` (green), ``violation`` (red), ``reminder``
    (amber), ``info`` (neutral), ``score`` and ``game_over``.
    """

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    level: str = "info"


class IllegalMove(Exception):
    """A move the rules refuse; ``key``/``params`` say why, in any language."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params

    def ruling(self) -> Ruling:
        return Ruling(self.key, self.params, "violation")


class GameEngine(ABC):
    """Base of every game engine. Subclasses set the class attributes and implement the rest."""

    game_id: ClassVar[str]
    deck_id: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: option name -> default value; unknown options are refused at construction.
    default_options: ClassVar[Mapping[str, Any]] = {}
    #: the options a family table changes on the game's page in the menu -> the values offered
    #: (the label is the catalog's ``<game>.option.<name>``).
    menu_options: ClassVar[Mapping[str, tuple[Any, ...]]] = {}

    def __init__(
        self,
        players: int,
        rng: random.Random,
        options: Mapping[str, Any] | None = None,
        *,
        at_table: bool = False,
    ):
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.game_id}: {players} players; this game takes {self.min_players} to {self.max_players}"
            )
        unknown = set(options or {}) - set(self.default_options)
        if unknown:
            raise ValueError(
                f"{self.game_id}: unknown option(s) {sorted(unknown)}; known: {sorted(self.default_options)}"
            )
        self.players = players
        self.rng = rng
        self.at_table = at_table
        self.options: dict[str, Any] = {**self.default_options, **(options or {})}

    @property
    @abstractmethod
    def to_act(self) -> int | None:
        """The player (0-based seat) who must decide now; None when the match is over (and, at
        the table, while the whole table acts: naming the dealer, showing hands)."""

    @abstractmethod
    def legal_moves(self) -> list[Any]:
        """Every move ``to_act`` may make now: never empty while a dealt match is not over; at the
        table, only the moves the buttons make."""

    @abstractmethod
    def play(self, move: Any) -> list[Ruling]:
        """Apply ``move`` for ``to_act``; raise IllegalMove (state unchanged) if it is refused."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True once the match has ended."""

    @abstractmethod
    def scores(self) -> list[int]:
        """The match score of each seat (what the score sheet shows)."""

    @abstractmethod
    def winners(self) -> list[int]:
        """The winning seat(s) once over (several on a tie or for a team); [] before."""

    @abstractmethod
    def card_locations(self) -> list[tuple[str, str]]:
        """(card id, location) per physical card: ``hand:2``, ``discard``, ``stock``, ``aside`` ..."""

    def expects(self) -> tuple[str, dict[str, Any]] | None:
        """What the table is waiting for next, as a message key (``<game>.expect_<what>``) and
        its parameters; None when nothing is (the match is over)."""
        return None

    def bot_move(self) -> Any:
        """A simple bot's choice; games override it where random play would never end."""
        return self.rng.choice(self.legal_moves())
