"""What every trick-taking game here shares: card orders and values, the duties of a player who
answers a trick, who wins a trick, and the public side of a deal (whose turn, tricks taken).

Both Klaverjassen and Manille state their following rules as an ordered list of *duties*
(:class:`Duty`): the first duty that some card of the player fits decides which cards are legal.
Written that way, a play that is illegal for part of a hand is illegal for the whole hand, which
is what lets an engine at the table prove a renege from the cards a player shows later
(``kiosk.games.renege``) without ever accusing a fair player.

At the table (``at_table=True``) both engines take the moves below that only a table makes: who
deals, and a card seen landing in a seat's zone (a play in turn, or a card shown in a showdown).

Cards are piquet ids (``10H``, ``QS``, ``7C``); suits are ``C D H S``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from kiosk.decks import load_deck
from kiosk.decks.model import SUIT_SYMBOLS
from kiosk.games.base import IllegalMove, Ruling

#: The 32 card ids of the piquet deck, in deck order.
PIQUET: tuple[str, ...] = load_deck("piquet-32").ids

Play = tuple[int, str]  # (seat, card id)


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def label(card: str) -> str:
    """``10H`` -> ``10♥``: how rulings show a card, the same in every language."""
    return rank(card) + SUIT_SYMBOLS[suit(card)]


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Lay ``card`` on the trick (from the hand, or in Manille from a visible pile top)."""

    card: str


@dataclass(frozen=True, slots=True)
class ChooseDealer:
    """At the table: ``seat`` deals the first deal (the camera cannot see who deals)."""

    seat: int


@dataclass(frozen=True, slots=True)
class LayCard:
    """At the table: ``card`` was seen landing in ``seat``'s zone. In turn it is a play; during a
    showdown it is a card of that seat's hand shown face up."""

    seat: int
    card: str


class OutOfTurn(IllegalMove):
    """A card laid by a seat whose turn it is not: the table keeps it waiting on the mat."""


class NotNow(IllegalMove):
    """A move nobody was asked for (a card laid while trump is being chosen): a reminder, not a
    violation."""

    def ruling(self) -> Ruling:
        return Ruling(self.key, self.params, "reminder")


@dataclass(frozen=True, slots=True)
class Duty:
    """One following rule: ``rule`` names it (``follow_suit``, ``go_over`` ...), ``allows`` says
    which cards satisfy it."""

    rule: str
    allows: Callable[[str], bool]


def allowed(cards: Iterable[str], duties: Sequence[Duty]) -> tuple[Duty | None, list[str]]:
    """The duty that binds a player holding ``cards`` and the cards it leaves; (None, all) when
    no duty binds (free play)."""
    cards = list(cards)
    for duty in duties:
        fit = [c for c in cards if duty.allows(c)]
        if fit:
            return duty, fit
    return None, cards


@dataclass(frozen=True)
class TrickRules:
    """Card order (weakest first) and card points, in the trump suit and in the other suits."""

    plain_order: tuple[str, ...]
    trump_order: tuple[str, ...]
    plain_points: dict[str, int]
    trump_points: dict[str, int]
    _plain: dict[str, int] = field(init=False, repr=False, compare=False)
    _trump: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_plain", {r: i for i, r in enumerate(self.plain_order)})
        object.__setattr__(self, "_trump", {r: i for i, r in enumerate(self.trump_order)})

    def trump_strength(self, card: str) -> int:
        """Position of ``card`` in the trump order (higher beats lower)."""
        return self._trump[rank(card)]

    def plain_strength(self, card: str) -> int:
        return self._plain[rank(card)]

    def points(self, card: str, trump: str | None) -> int:
        table = self.trump_points if suit(card) == trump else self.plain_points
        return table.get(rank(card), 0)

    def winning_index(self, cards: Sequence[str], trump: str | None) -> int:
        """Index of the card that takes the trick: the highest trump, else the highest card of the
        suit led."""
        led = suit(cards[0])
        best, best_key = 0, -1
        for i, card in enumerate(cards):
            s = suit(card)
            if s == trump:
                key = 100 + self._trump[rank(card)]
            elif s == led:
                key = self._plain[rank(card)]
            else:
                continue
            if key > best_key:
                best, best_key = i, key
        return best

    def best_trump(self, cards: Iterable[str], trump: str | None) -> int:
        """Strength of the highest trump among ``cards``; -1 when there is none."""
        return max((self._trump[rank(c)] for c in cards if suit(c) == trump), default=-1)


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: its number in the deal (1-based), the plays in order, who took it."""

    number: int
    plays: tuple[Play, ...]
    winner: int
    points: int

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(card for _, card in self.plays)


class TrickTable:
    """The public side of one deal: who plays next, the trick on the table, the tricks taken.

    It accepts any card: checking a card against the hand is the engine's job (it knows hands)
    or the renege prover's (the referee learns hands only as they are played).
    """

    def __init__(self, players: int, leader: int, trump: str | None, rules: TrickRules):
        self.players = players
        self.trump = trump
        self.rules = rules
        self.leader = leader
        self.plays: list[Play] = []
        self.tricks: list[Trick] = []

    @property
    def to_play(self) -> int:
        return (self.leader + len(self.plays)) % self.players

    @property
    def trick_number(self) -> int:
        """Number of the trick being played (1-based)."""
        return len(self.tricks) + 1

    def play(self, card: str) -> Trick | None:
        """``to_play`` lays ``card``; returns the trick when this card completes it."""
        self.plays.append((self.to_play, card))
        if len(self.plays) < self.players:
            return None
        cards = [c for _, c in self.plays]
        winner = self.plays[self.rules.winning_index(cards, self.trump)][0]
        trick = Trick(
            self.trick_number,
            tuple(self.plays),
            winner,
            sum(self.rules.points(c, self.trump) for c in cards),
        )
        self.tricks.append(trick)
        self.plays = []
        self.leader = winner
        return trick

    def taken_by(self, seat: int) -> int:
        return sum(1 for t in self.tricks if t.winner == seat)

    def card_points(self, seats: Iterable[int]) -> int:
        group = set(seats)
        return sum(t.points for t in self.tricks if t.winner in group)


def deal_packets(cards: Sequence[str], order: Sequence[int], sizes: Sequence[int]) -> list[list[list[str]]]:
    """Deal ``cards`` from the top in rounds: round ``r`` gives ``sizes[r]`` cards to each seat of
    ``order``. Returns ``packets[r][seat]``."""
    seats = max(order) + 1
    out: list[list[list[str]]] = []
    pos = 0
    for size in sizes:
        packet: list[list[str]] = [[] for _ in range(seats)]
        for seat in order:
            packet[seat] = list(cards[pos : pos + size])
            pos += size
        out.append(packet)
    return out
