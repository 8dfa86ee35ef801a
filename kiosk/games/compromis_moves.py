"""Le Compromis à la belge: the moves of :class:`~kiosk.games.compromis.Compromis`.

The first ones are a player's own decisions; the last ones are what only a real table reports
(an engine built ``at_table=True`` takes them): a government seen laid down, a King shown for the
bonus, the shout « Compromis, une fois ! » and the start of the next round.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DrawStock:
    """Take the top card of the draw pile."""


@dataclass(frozen=True)
class TakeDiscard:
    """Take the top card of the discard pile."""


@dataclass(frozen=True)
class Discard:
    """Put ``card`` on the discard pile (the turn's discard, Doudou's swap, Binche's discard)."""

    card: str


@dataclass(frozen=True)
class PlaySpecial:
    """Play an Ace or a Manneken-Pis instead of discarding: it is set aside and acts."""

    card: str


@dataclass(frozen=True)
class Declare:
    """Lay 6 cards down as a government; ``called``: « Compromis, une fois ! » was shouted."""

    cards: frozenset[str]
    called: bool = True


@dataclass(frozen=True)
class Target:
    """Malmedy: the opponent whose hand is raided."""

    seat: int


@dataclass(frozen=True)
class ShowJack:
    """Malmedy's target shows a Jack (a speciality): the raid is cancelled, the Jack stays."""

    card: str


@dataclass(frozen=True)
class Yield:
    """Malmedy's target lets the raid happen."""


@dataclass(frozen=True)
class Give:
    """Malmedy: the card the raider gives back to the target."""

    card: str


@dataclass(frozen=True)
class Arrange:
    """Manneken-Pis: the cards looked at, put back with ``order[0]`` on top."""

    order: tuple[str, ...]


@dataclass(frozen=True)
class GovernmentLaid:
    """At the table: 6 cards seen laid down, face up, before ``seat``: a declaration."""

    seat: int
    cards: frozenset[str]


@dataclass(frozen=True)
class ShowKing:
    """At the table: a card shown before ``seat`` after its government, a King for the bonus."""

    seat: int
    card: str


@dataclass(frozen=True)
class Called:
    """At the table: ``seat`` shouted « Compromis, une fois ! »."""

    seat: int


@dataclass(frozen=True)
class NextRound:
    """At the table: the cards are shuffled and dealt again for the next round."""
