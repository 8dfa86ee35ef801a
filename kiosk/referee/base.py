"""The referee adapter: table observations and touch/button input in, rulings out.

One adapter per game wraps its engine. The camera cannot see hands, so an adapter only checks
what the visible cards (and what players tell it through :meth:`on_input`) prove; it never
pretends to know a hidden card.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from kiosk.games.base import Ruling
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
    def status(self) -> Mapping[str, Any]:
        """What the screen shows besides banners: ``to_act``, ``scores``, ``over``, ``winners``."""
