"""Manille belge à deux: seed 004 plus rules-decisions.md.

Two players, 32 cards. The deal, starting with the non-dealer and alternating: 3 in hand, 4
hidden on the table, 2 in hand, one visible card on each hidden one, 3 in hand: 8 private cards
and 4 double piles each. The dealer names trump after seeing his cards, or no-trump; the other
may contre, then the dealer surcontre. The non-dealer leads.

Order 10 A K Q J 9 8 7, values 5 4 3 2 1. A player plays from his hand or a visible pile top;
answering, he must follow and go over if he can ("fournir et monter"), else follow, else trump
(if the suit led is not trump), else discard freely. Hidden cards create no duty until shown.
After the trick the winner leads and every freed hidden card is turned face up.

Scoring: 60 card points; above 30 scores the excess, capot (all 16 tricks) scores 60 instead,
times contre 2 / surcontre 4 and no-trump 2. 30–30 scores nothing and doubles the next decisive
deal, once. First to 101 match points wins the boam.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kiosk.decks import SUITS
from kiosk.decks.model import SUIT_SYMBOLS
from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.games.tricks import (
    PIQUET,
    Duty,
    PlayCard,
    Trick,
    TrickRules,
    TrickTable,
    allowed,
    deal_packets,
    label,
    suit,
)

PLAYERS = 2
TRICKS = 16
HALF = 30
CAPOT_BASE = 60
STAKES = {0: 1, 1: 2, 2: 4}  # doubles announced (none, contre, surcontre) -> factor
NO_TRUMP_FACTOR = 2
TIE_FACTOR = 2

_ORDER = ("7", "8", "9", "J", "Q", "K", "A", "10")
_POINTS = {"10": 5, "A": 4, "K": 3, "Q": 2, "J": 1}
RULES = TrickRules(_ORDER, _ORDER, _POINTS, _POINTS)

#: The seed's deal, round by round: (cards per player, where they go).
DEAL_SCHEDULE: tuple[tuple[int, str], ...] = (
    (3, "hand"),
    (4, "hidden"),
    (2, "hand"),
    (4, "visible"),
    (3, "hand"),
)


def deal_cards(rng: random.Random, dealer: int) -> dict[str, list[list[str]]]:
    """Shuffle and deal as the seed says, non-dealer first: ``where -> seat -> cards`` for
    ``hand``, ``hidden`` and ``visible`` (the i-th visible card lies on the i-th hidden one)."""
    cards = list(PIQUET)
    rng.shuffle(cards)
    packets = deal_packets(cards, (1 - dealer, dealer), [n for n, _ in DEAL_SCHEDULE])
    dealt: dict[str, list[list[str]]] = {where: [[] for _ in range(PLAYERS)] for _, where in DEAL_SCHEDULE}
    for (_, where), packet in zip(DEAL_SCHEDULE, packets, strict=True):
        for seat in range(PLAYERS):
            dealt[where][seat] += packet[seat]
    return dealt


def duties(lead: str, trump: str | None) -> list[Duty]:
    """What binds the player answering ``lead``: go over, follow, trump, else free."""
    led = suit(lead)
    strength = RULES.plain_strength(lead)
    out = [
        Duty("go_over", lambda c: suit(c) == led and RULES.plain_strength(c) > strength),
        Duty("follow_suit", lambda c: suit(c) == led),
    ]
    if trump is not None and led != trump:
        out.append(Duty("must_trump", lambda c: suit(c) == trump))
    return out


def check_options(options: Mapping[str, Any]) -> None:
    if not isinstance(options["target"], int) or options["target"] < 1:
        raise ValueError("manille: option target must be a positive integer")


def stake_factor(doubles: int, trump: str | None) -> int:
    return STAKES[doubles] * (NO_TRUMP_FACTOR if trump is None else 1)


@dataclass(frozen=True)
class DealScore:
    """One deal on the score sheet: the card points, who scored and how many match points."""

    points: tuple[int, int]
    winner: int | None
    match_points: int
    capot: bool = False


@dataclass
class Boam:
    """Match points up to ``target``, with the pending double a 30–30 tie leaves."""

    target: int = 101
    totals: list[int] = field(default_factory=lambda: [0, 0])
    double_pending: bool = False
    rows: list[DealScore] = field(default_factory=list)

    def add(self, points: tuple[int, int], tricks: tuple[int, int], factor: int) -> DealScore:
        """Score a finished deal (card points, tricks taken per seat, announced factor)."""
        if points[0] == points[1]:
            self.double_pending = True
            row = DealScore(points, None, 0)
        else:
            winner = 0 if points[0] > points[1] else 1
            capot = tricks[winner] == TRICKS
            base = CAPOT_BASE if capot else points[winner] - HALF
            if self.double_pending:
                factor *= TIE_FACTOR
                self.double_pending = False
            self.totals[winner] += base * factor
            row = DealScore(points, winner, base * factor, capot)
        self.rows.append(row)
        return row

    @property
    def over(self) -> bool:
        return max(self.totals) >= self.target

    def winners(self) -> list[int]:
        return [s for s in range(PLAYERS) if self.totals[s] >= self.target]


def deal_rulings(row: DealScore, boam: Boam) -> list[Ruling]:
    """What the table hears at the end of a deal (engine and referee say the same)."""
    totals = {"total1": boam.totals[0], "total2": boam.totals[1]}
    if row.winner is None:
        out = [Ruling("manille.tie", totals, "score")]
    else:
        out = [
            Ruling(
                "manille.capot" if row.capot else "manille.deal_scored",
                {
                    "player": row.winner + 1,
                    "points": row.points[row.winner],
                    "match_points": row.match_points,
                    **totals,
                },
                "score",
            )
        ]
    if boam.over:
        out.append(Ruling("manille.match_won", {"player": boam.winners()[0] + 1, **totals}, "game_over"))
    return out


def trick_ruling(trick: Trick) -> Ruling:
    return Ruling(
        "manille.trick_won",
        {"player": trick.winner + 1, "trick": trick.number, "points": trick.points},
        "ok",
    )


def doubles_ruling(doubles: int, seat: int, yes: bool) -> Ruling:
    """The contre (first double) or surcontre (second) of ``seat``, or its refusal."""
    if not yes:
        return Ruling("manille.no_double", {"player": seat + 1})
    return Ruling("manille.contre" if doubles == 1 else "manille.surcontre", {"player": seat + 1})


def trump_ruling(seat: int, trump: str | None) -> Ruling:
    if trump is None:
        return Ruling("manille.no_trump", {"player": seat + 1})
    return Ruling("manille.trump_chosen", {"player": seat + 1, "suit": SUIT_SYMBOLS[trump]})


@dataclass(frozen=True)
class ChooseTrump:
    """The dealer's choice: a suit, or None for no-trump."""

    suit: str | None


@dataclass(frozen=True)
class Double:
    """Contre (non-dealer) or surcontre (dealer), or decline."""

    yes: bool


class Manille(GameEngine):
    game_id = "manille"
    deck_id = "piquet-32"
    min_players = PLAYERS
    max_players = PLAYERS
    default_options = {"target": 101, "first_dealer": None}

    def __init__(self, players: int, rng: random.Random, options: Mapping[str, Any] | None = None):
        super().__init__(players, rng, options)
        check_options(self.options)
        first = self.options["first_dealer"]
        self.dealer = rng.randrange(PLAYERS) if first is None else int(first) % PLAYERS  # the cut
        self.boam = Boam(self.options["target"])
        self._deal()

    def _deal(self) -> None:
        dealt = deal_cards(self.rng, self.dealer)
        self.hands: list[set[str]] = [set(h) for h in dealt["hand"]]
        # A pile is [hidden, visible], bottom first; a card in face_down is not yet shown.
        self.piles: list[list[list[str]]] = [
            [[h, v] for h, v in zip(dealt["hidden"][s], dealt["visible"][s], strict=True)] for s in range(PLAYERS)
        ]
        self.face_down: set[str] = {c for s in range(PLAYERS) for c in dealt["hidden"][s]}
        self.trump: str | None = None
        self.phase = "trump"  # trump -> contre -> surcontre -> play
        self.doubles = 0
        self.table: TrickTable | None = None

    def visible_tops(self, seat: int) -> list[str]:
        return [p[-1] for p in self.piles[seat] if p and p[-1] not in self.face_down]

    def available(self, seat: int) -> list[str]:
        """Hand and visible pile tops: the set the seed says a player plays from."""
        return sorted(self.hands[seat]) + self.visible_tops(seat)

    @property
    def to_act(self) -> int | None:
        if self.over:
            return None
        if self.phase == "contre":
            return 1 - self.dealer
        if self.table is None:
            return self.dealer
        return self.table.to_play

    @property
    def over(self) -> bool:
        return self.boam.over

    def legal_cards(self) -> list[str]:
        assert self.table is not None
        cards = self.available(self.table.to_play)
        if not self.table.plays:
            return cards
        return allowed(cards, duties(self.table.plays[0][1], self.trump))[1]

    def legal_moves(self) -> list[Any]:
        if self.over:
            return []
        if self.phase == "trump":
            return [ChooseTrump(s) for s in SUITS] + [ChooseTrump(None)]
        if self.phase in ("contre", "surcontre"):
            return [Double(True), Double(False)]
        return [PlayCard(c) for c in self.legal_cards()]

    def play(self, move: Any) -> list[Ruling]:
        if self.over:
            raise IllegalMove("manille.match_is_over")
        seat = self.to_act
        assert seat is not None
        if self.phase == "trump":
            if not isinstance(move, ChooseTrump) or move.suit not in (*SUITS, None):
                raise IllegalMove("manille.choose_trump", player=seat + 1)
            self.trump = move.suit
            self.phase = "contre"
            return [trump_ruling(seat, move.suit)]
        if self.phase in ("contre", "surcontre"):
            if not isinstance(move, Double):
                raise IllegalMove("manille.answer_double", player=seat + 1)
            if move.yes:
                self.doubles += 1
            self.phase = "surcontre" if move.yes and self.phase == "contre" else "play"
            if self.phase == "play":
                self.table = TrickTable(PLAYERS, 1 - self.dealer, self.trump, RULES)
            return [doubles_ruling(self.doubles, seat, move.yes)]
        if not isinstance(move, PlayCard):
            raise IllegalMove("manille.play_a_card", player=seat + 1)
        return self._play_card(seat, move.card)

    def _play_card(self, seat: int, card: str) -> list[Ruling]:
        assert self.table is not None
        if card not in self.available(seat):
            raise IllegalMove("manille.not_available", player=seat + 1, card=label(card))
        if self.table.plays:
            duty, legal = allowed(self.available(seat), duties(self.table.plays[0][1], self.trump))
            if card not in legal:
                assert duty is not None
                raise IllegalMove(f"manille.rule_{duty.rule}", player=seat + 1, card=label(card))
        if card in self.hands[seat]:
            self.hands[seat].discard(card)
        else:
            next(p for p in self.piles[seat] if p and p[-1] == card).pop()
        trick = self.table.play(card)
        if trick is None:
            return []
        out = [trick_ruling(trick)] + self._turn_freed()
        if len(self.table.tricks) < TRICKS:
            return out
        points = (self.table.card_points([0]), self.table.card_points([1]))
        tricks = (self.table.taken_by(0), self.table.taken_by(1))
        row = self.boam.add(points, tricks, stake_factor(self.doubles, self.trump))
        out += deal_rulings(row, self.boam)
        if not self.boam.over:
            self.dealer = 1 - self.dealer
            self._deal()
        return out

    def _turn_freed(self) -> list[Ruling]:
        """End of trick: turn face up every hidden card whose visible card was played."""
        out = []
        for seat in range(PLAYERS):
            for pile in self.piles[seat]:
                if pile and pile[-1] in self.face_down:
                    self.face_down.discard(pile[-1])
                    out.append(Ruling("manille.revealed", {"player": seat + 1, "card": label(pile[-1])}))
        return out

    def scores(self) -> list[int]:
        return list(self.boam.totals)

    def winners(self) -> list[int]:
        return self.boam.winners()

    def card_locations(self) -> list[tuple[str, str]]:
        out = [(c, f"hand:{s}") for s, hand in enumerate(self.hands) for c in hand]
        for s, piles in enumerate(self.piles):
            out += [(c, f"pile:{s}:{'hidden' if c in self.face_down else 'visible'}") for p in piles for c in p]
        if self.table is not None:
            out += [(c, "trick") for _, c in self.table.plays]
            out += [(c, f"won:{t.winner}") for t in self.table.tricks for c in t.cards]
        return out
