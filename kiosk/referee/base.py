"""The referee adapter: table observations and touch/button input in, rulings out.

One adapter per game runs that game's engine built ``at_table=True``: the engine holds the
phases, legality, scoring and the end of the game, with hands it cannot see. The adapter only
translates: a card confirmed in a zone, or a button pressed, becomes the engine's move; the
engine's rulings (and an :class:`~kiosk.games.base.IllegalMove`'s) are what the table is told.
What stays here is the table's own bookkeeping: which zone is which seat, a card laid out of
turn that waits on the mat, a card to be taken back.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.referee.zones import Layout


@dataclass(frozen=True, slots=True)
class Observation:
    """A card confirmed in (or removed from) a zone of the mat; ``zone`` None when off the mat."""

    kind: str  # "confirmed" | "removed"
    card_id: str
    zone: str | None
    track_id: int = 0


@dataclass(frozen=True, slots=True)
class InputSpec:
    """A button the UI should offer now: ``action`` is sent back to ``on_input`` with ``params``.

    ``choices`` (value -> message key) turns it into a picker (a suit, a species, a number).
    """

    action: str
    label_key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    choices: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Expect:
    """What the camera waits for next, as a message key (``<game>.expect_<what>``) and its
    parameters: "player 2 lays a card on his seat", "the dealer shows his last card"."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RefereeStatus:
    """What the screen shows besides the rulings, read from the game's engine.

    ``scores`` has one entry per seat; ``team_totals`` one per team where the game has teams
    (team ``t`` holds the seats ``s`` with ``s % len(team_totals) == t``). ``details`` holds the
    game's own public state (trump, hand counts, the trick on the table) for tests and screens.
    """

    to_act: int | None
    scores: tuple[int, ...]
    over: bool = False
    winners: tuple[int, ...] = ()
    team_totals: tuple[int, ...] = ()
    expects: Expect | None = None
    details: Mapping[str, Any] = field(default_factory=dict)


class RefereeAdapter(ABC):
    """Base of every game's referee; subclasses set ``game_id`` and implement the hooks."""

    game_id: ClassVar[str]
    #: True when rulings carry seats as 0-based ints for the UI to show as player names
    #: ("{player} pioche"); False when they carry 1-based numbers the texts print themselves
    #: ("Joueur {player} pose").
    seats_as_names: ClassVar[bool] = False

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> None:
        """Every adapter is built this way by the app: seats, game options, the seed of its RNG."""
        self.players = players
        self.options = dict(options or {})
        self.seed = seed

    @classmethod
    @abstractmethod
    def layout(cls, players: int) -> Layout:
        """The zones this game uses on the mat for ``players`` players."""

    @abstractmethod
    def observe(self, obs: Observation) -> list[Ruling]:
        """React to a card confirmed in or removed from a zone."""

    @abstractmethod
    def on_input(self, action: str, **params: Any) -> list[Ruling]:
        """React to a touch/button action the UI offered through :meth:`inputs`."""

    @abstractmethod
    def inputs(self) -> list[InputSpec]:
        """The actions that make sense now (the UI draws them as big buttons)."""

    @abstractmethod
    def status(self) -> RefereeStatus:
        """Whose turn, the scores, the end of the game and what the camera expects next."""


E = TypeVar("E", bound=GameEngine)


class EngineReferee(RefereeAdapter, Generic[E]):
    """A referee over its game's engine built ``at_table=True``: subclasses turn observations
    and button presses into the engine's moves (:meth:`_play`), and say how to show them."""

    engine_class: ClassVar[type[GameEngine]]

    def __init__(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> None:
        super().__init__(players, options, seed)
        self.engine: E = self.engine_class(players, random.Random(seed), options, at_table=True)  # type: ignore[assignment]
        self.options = dict(self.engine.options)

    def _play(self, move: Any) -> list[Ruling]:
        """The engine's rulings for ``move``, or the refusal's when the rules refuse it."""
        try:
            return self.engine.play(move)
        except IllegalMove as exc:
            return [exc.ruling()]

    def _offered(self, *kinds: type) -> list[Any]:
        """The engine's legal moves of ``kinds`` now (the buttons a screen may show)."""
        return [move for move in self.engine.legal_moves() if isinstance(move, kinds)]

    def status(self) -> RefereeStatus:
        engine = self.engine
        return RefereeStatus(
            to_act=engine.to_act,
            scores=tuple(engine.scores()),
            over=engine.over,
            winners=tuple(engine.winners()),
            team_totals=self._team_totals(),
            expects=None if engine.over else self._expects(),
            details=self._details(),
        )

    def _expects(self) -> Expect | None:
        """What the table waits for: the engine's word, unless the mat shows more (a card to take back)."""
        found = self.engine.expects()
        return None if found is None else Expect(*found)

    def _team_totals(self) -> tuple[int, ...]:
        """The match score per team, for games played in teams."""
        return ()

    def _details(self) -> Mapping[str, Any]:
        """The game's own public state for the screen and the tests."""
        return {}


def seat_choices(seats: Iterable[int], key: str) -> dict[str, str]:
    """A seat picker: choice value (the 0-based seat) -> label key, ``key`` formatted with the
    1-based ``{n}`` (``"mathpairs.seat_{n}"``)."""
    return {str(s): key.format(n=s + 1) for s in seats}
