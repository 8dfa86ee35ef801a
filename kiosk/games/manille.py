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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kiosk.decks import SUITS
from kiosk.decks.model import SUIT_SYMBOLS
from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.games.hands import UnseenHand
from kiosk.games.renege import FinishedDeal, Renege, RenegeProver, breach
from kiosk.games.tricks import (
    PIQUET,
    ChooseDealer,
    Duty,
    LayCard,
    NotNow,
    OutOfTurn,
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
HAND = 8  # cards in each hand; the other 8 of each player lie in his piles
CARDS = frozenset(PIQUET)
HALF = 30
CAPOT_BASE = 60
STAKES = {0: 1, 1: 2, 2: 4}  # doubles announced (none, contre, surcontre) -> factor
NO_TRUMP_FACTOR = 2
TIE_FACTOR = 2

#: phase -> what the table waits for then (``to_act`` is the ``player``)
EXPECTS = {
    "dealer": "manille.expect_dealer",
    "trump": "manille.expect_trump",
    "contre": "manille.expect_double",
    "surcontre": "manille.expect_double",
    "play": "manille.expect_card",
    "showdown": "manille.expect_show",
}

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


@dataclass(frozen=True)
class PileCard:
    """At the table: ``card`` seen face up on ``seat``'s pile row, a visible card of the deal or,
    during play, a hidden card turned."""

    seat: int
    card: str


class Piles:
    """One player's four double piles as dealt: a hidden card under a visible one, bottom first.
    Once the card on a hidden one is played, the hidden card is turned at the end of the trick."""

    def __init__(self, hidden: Sequence[str], visible: Sequence[str]):
        self.stacks = [[h, v] for h, v in zip(hidden, visible, strict=True)]
        self.face_down = set(hidden)

    def tops(self) -> list[str]:
        """The cards face up on top: what the player may play from the table."""
        return [p[-1] for p in self.stacks if p and p[-1] not in self.face_down]

    def take(self, card: str) -> None:
        next(p for p in self.stacks if p and p[-1] == card).pop()

    def turn_freed(self) -> list[str]:
        """End of a trick: turn face up every hidden card now on top; returns them."""
        freed = [p[-1] for p in self.stacks if p and p[-1] in self.face_down]
        self.face_down.difference_update(freed)
        return freed


class SeenPiles:
    """One player's pile row as the camera sees it at the table: the tops face up now, which of
    them were dealt on a hidden card, and the hidden cards turned too early ("recachez": such a
    card counts from the end of the trick that frees it)."""

    def __init__(self) -> None:
        self.up: set[str] = set()
        self.covering: set[str] = set()  # dealt face up on a hidden card
        self.early: set[str] = set()  # turned before their trick was over
        self.due = 0  # hidden cards freed and not yet turned

    def tops(self) -> list[str]:
        return sorted(self.up)

    def take(self, card: str) -> None:
        self.up.discard(card)

    def dealt(self, card: str) -> None:
        self.up.add(card)
        self.covering.add(card)

    def turned(self, card: str) -> bool:
        """A hidden card turned during play; False when no freed card was due (too early)."""
        if not self.due:
            self.early.add(card)
            return False
        self.due -= 1
        self.up.add(card)
        return True

    def trick_over(self, played: Iterable[str]) -> None:
        """The trick that took ``played`` (this row's cards among them) is over: the hidden cards
        they freed may be turned, and those turned too early count from now on."""
        self.due += sum(1 for c in played if c in self.covering)
        for card in sorted(self.early):
            if self.due:
                self.due -= 1
                self.up.add(card)
        self.early.clear()


class Manille(GameEngine):
    """The boam, dealt by the engine or refereed at a table.

    At the table (``at_table=True``) nothing is dealt: the table says who deals
    (:class:`ChooseDealer`, unless option ``first_dealer``), reports the pile tops it sees
    (:class:`PileCard`, taken in any phase) and every card laid (:class:`LayCard`). Hands are
    unseen; the visible tops are part of what a player could play, so a renege they prove is
    refused on the spot (the card is taken back, ``manille.take_back``). Other plays go to the
    :class:`RenegeProver`; one proven later stops the deal (the ``showdown``: both players lay
    their hand cards face up) and the same dealer redeals without points. ``to_act`` is None
    while the table names the dealer and during a showdown.
    """

    game_id = "manille"
    deck_id = "piquet-32"
    min_players = PLAYERS
    max_players = PLAYERS
    default_options = {"target": 101, "first_dealer": None}

    def __init__(
        self, players: int, rng: random.Random, options: Mapping[str, Any] | None = None, *, at_table: bool = False
    ):
        super().__init__(players, rng, options, at_table=at_table)
        check_options(self.options)
        first = self.options["first_dealer"]
        self.dealer: int | None = None
        if first is not None:
            self.dealer = int(first) % PLAYERS
        elif not at_table:
            self.dealer = rng.randrange(PLAYERS)  # the cut
        self.boam = Boam(self.options["target"])
        self.log: list[FinishedDeal] = []
        self._deal()

    def _deal(self) -> None:
        """A new deal: the dealt cards, or at the table unseen hands and piles yet to be seen."""
        self.trump: str | None = None
        self._phase = "dealer" if self.dealer is None else "trump"  # trump -> contre -> surcontre -> play
        self.doubles = 0
        self.table: TrickTable | None = None
        self.prover = RenegeProver()
        self.restored: list[Renege] = []  # reneges the visible tops proved: refused on the spot
        self.played: set[str] = set()  # at the table: the cards played or shown this deal
        self.hands: list[set[str] | UnseenHand]
        self.piles: list[Piles | SeenPiles]
        if self.at_table:
            self.hands = [UnseenHand(HAND) for _ in range(PLAYERS)]
            self.piles = [SeenPiles() for _ in range(PLAYERS)]
            return
        assert self.dealer is not None
        dealt = deal_cards(self.rng, self.dealer)
        self.hands = [set(h) for h in dealt["hand"]]
        self.piles = [Piles(dealt["hidden"][s], dealt["visible"][s]) for s in range(PLAYERS)]

    @property
    def phase(self) -> str:
        """``dealer`` (the table names who deals), ``trump``, ``contre``, ``surcontre``, ``play``,
        ``showdown`` or ``over``."""
        return "over" if self.over else self._phase

    @property
    def factor(self) -> int:
        """What the deal's match points are multiplied by: contre, surcontre, no-trump."""
        return stake_factor(self.doubles, self.trump)

    def visible_tops(self, seat: int) -> list[str]:
        return self.piles[seat].tops()

    def available(self, seat: int) -> list[str]:
        """Hand and visible pile tops: the set the seed says a player plays from (dealt hands)."""
        hand = self.hands[seat]
        assert isinstance(hand, set)
        return sorted(hand) + self.visible_tops(seat)

    @property
    def to_act(self) -> int | None:
        phase = self.phase
        if phase in ("trump", "surcontre"):
            return self.dealer
        if phase == "contre":
            assert self.dealer is not None
            return 1 - self.dealer
        if phase == "play":
            assert self.table is not None
            return self.table.to_play
        return None

    @property
    def over(self) -> bool:
        return self.boam.over

    def expects(self) -> tuple[str, dict[str, Any]] | None:
        """What the table waits for next: a message key and its parameters (None once over)."""
        if self.over:
            return None
        to_act = self.to_act
        return EXPECTS[self.phase], ({} if to_act is None else {"player": to_act + 1})

    def _duties(self) -> list[Duty]:
        assert self.table is not None
        return duties(self.table.plays[0][1], self.trump) if self.table.plays else []

    def legal_from(self, cards: Iterable[str]) -> list[str]:
        """The cards among ``cards`` the player to lay may lay now, were they all he can play
        (what a bot that knows its own hand asks at the table)."""
        return allowed(cards, self._duties())[1]

    def legal_cards(self) -> list[str]:
        assert self.table is not None
        return self.legal_from(self.available(self.table.to_play))

    def legal_moves(self) -> list[Any]:
        phase = self.phase
        if phase == "over":
            return []
        if phase == "dealer":
            return [ChooseDealer(s) for s in range(PLAYERS)]
        if phase == "trump":
            return [ChooseTrump(s) for s in SUITS] + [ChooseTrump(None)]
        if phase in ("contre", "surcontre"):
            return [Double(True), Double(False)]
        if phase == "showdown":
            return [LayCard(s, c) for s in range(PLAYERS) if len(self.hands[s]) for c in self._unseen()]
        if not self.at_table:
            return [PlayCard(c) for c in self.legal_cards()]
        assert self.table is not None
        seat = self.table.to_play
        tops = set(self.visible_tops(seat))
        cards = sorted(tops) + (self._unseen() if len(self.hands[seat]) else [])
        rules = self._duties()
        return [LayCard(seat, c) for c in cards if breach(c, tops | {c}, rules) is None]

    def _unseen(self) -> list[str]:
        """At the table: the cards not played and not face up on a pile row."""
        seen = self.played.union(*(p.up | p.early for p in self.piles if isinstance(p, SeenPiles)))
        return [c for c in PIQUET if c not in seen]

    def play(self, move: Any) -> list[Ruling]:
        phase = self.phase
        if self.at_table and isinstance(move, PileCard):
            return self._pile_card(move.seat, move.card)
        if self.at_table and isinstance(move, LayCard) and phase not in ("play", "showdown"):
            raise NotNow("manille.not_playing_now", player=move.seat + 1)
        if phase == "over":
            raise IllegalMove("manille.match_is_over")
        if phase == "dealer":
            if not isinstance(move, ChooseDealer) or move.seat not in range(PLAYERS):
                raise IllegalMove("manille.expect_dealer")
            self.dealer = move.seat
            self._phase = "trump"
            return [Ruling("manille.dealer", {"player": move.seat + 1})]
        if phase == "showdown":
            return self._show(move)
        seat = self.to_act
        assert seat is not None and self.dealer is not None
        if phase == "trump":
            if not isinstance(move, ChooseTrump) or move.suit not in (*SUITS, None):
                raise IllegalMove("manille.choose_trump", player=seat + 1)
            self.trump = move.suit
            self._phase = "contre"
            return [trump_ruling(seat, move.suit)]
        if phase in ("contre", "surcontre"):
            if not isinstance(move, Double):
                raise IllegalMove("manille.answer_double", player=seat + 1)
            if move.yes:
                self.doubles += 1
            self._phase = "surcontre" if move.yes and phase == "contre" else "play"
            if self._phase == "play":
                self.table = TrickTable(PLAYERS, 1 - self.dealer, self.trump, RULES)
            return [doubles_ruling(self.doubles, seat, move.yes)]
        if self.at_table and isinstance(move, LayCard):
            return self._lay(move.seat, move.card)
        if self.at_table or not isinstance(move, PlayCard):
            raise IllegalMove("manille.play_a_card", player=seat + 1)
        return self._play_card(seat, move.card)

    def _play_card(self, seat: int, card: str) -> list[Ruling]:
        """The dealing engine: ``seat`` plays ``card``, refused unless the rules allow it."""
        available = self.available(seat)
        if card not in available:
            raise IllegalMove("manille.not_available", player=seat + 1, card=label(card))
        duty, legal = allowed(available, self._duties())
        if card not in legal:
            assert duty is not None
            raise IllegalMove(f"manille.rule_{duty.rule}", player=seat + 1, card=label(card))
        hand = self.hands[seat]
        assert isinstance(hand, set)
        if card in hand:
            hand.discard(card)
        else:
            self.piles[seat].take(card)
        return self._put(card)

    def _pile_card(self, seat: int, card: str) -> list[Ruling]:
        """At the table: a card face up on ``seat``'s pile row. Before play it is one of the
        deal's visible cards; during play a turned hidden card, hidden again if turned early."""
        piles = self.piles[seat]
        assert isinstance(piles, SeenPiles)
        if card in piles.up or card in self.played or self.phase in ("showdown", "over"):
            return []  # nothing new: seen already, or the piles no longer matter
        if self.phase != "play":
            piles.dealt(card)
            return []
        if piles.turned(card):
            return []
        return [Ruling("manille.hide_again", {"player": seat + 1, "card": label(card)}, "reminder")]

    def _holds(self, seat: int, card: str) -> bool:
        """At the table: whether ``card`` may still be in ``seat``'s unseen hand."""
        return len(self.hands[seat]) > 0 and card in CARDS and card in self._unseen()

    def _lay(self, seat: int, card: str) -> list[Ruling]:
        """At the table: ``seat`` was seen laying ``card``. A renege its visible tops prove is
        refused (the card goes back); any other play goes to the prover."""
        assert self.table is not None
        to_play = self.table.to_play
        if seat != to_play:
            raise OutOfTurn("manille.out_of_turn", player=seat + 1, expected=to_play + 1)
        tops = set(self.visible_tops(seat))
        from_pile = card in tops
        if not from_pile and not self._holds(seat, card):
            raise IllegalMove("manille.not_available", player=seat + 1, card=label(card))
        rules = self._duties()
        shown = tops | {card}
        found = breach(card, shown, rules)
        if found is not None:
            renege = Renege(self.table.trick_number, seat, card, found[0].rule, found[1])
            self.restored.append(renege)
            return [
                renege.ruling(self.game_id),
                Ruling("manille.take_back", {"player": seat + 1, "card": label(card)}, "violation"),
            ]
        new = self.prover.record(self.table.trick_number, seat, card, rules, shown, not from_pile)
        self.played.add(card)
        hand = self.hands[seat]
        if from_pile:
            self.piles[seat].take(card)
        else:
            assert isinstance(hand, UnseenHand)
            hand.lay()
        out = [r.ruling(self.game_id) for r in new] + self._put(card)
        if self.prover.proven and self._phase == "play":  # proven now, and the deal goes on
            self._phase = "showdown"
            if not any(len(h) for h in self.hands):  # nothing left in the hands to show
                return out + self._end_deal()
            out.append(Ruling("manille.show_hands", {}, "violation"))
        return out

    def _show(self, move: Any) -> list[Ruling]:
        """A showdown: each card laid is one more card of that seat's hand, face up."""
        if not isinstance(move, LayCard) or not self._holds(move.seat, move.card):
            raise IllegalMove("manille.show_hands")
        hand = self.hands[move.seat]
        assert isinstance(hand, UnseenHand)
        hand.lay()
        self.played.add(move.card)
        out = [r.ruling(self.game_id) for r in self.prover.reveal(move.seat, move.card)]
        return out + self._end_deal() if not any(len(h) for h in self.hands) else out

    def _put(self, card: str) -> list[Ruling]:
        """``card`` joins the trick; at the trick's end the freed hidden cards are turned."""
        assert self.table is not None
        trick = self.table.play(card)
        if trick is None:
            return []
        out = [trick_ruling(trick)]
        for seat, piles in enumerate(self.piles):
            if isinstance(piles, SeenPiles):  # the players turn them; the camera reports them
                piles.trick_over(c for s, c in trick.plays if s == seat)
            else:
                out += [Ruling("manille.revealed", {"player": seat + 1, "card": label(c)}) for c in piles.turn_freed()]
        return out + self._end_deal() if len(self.table.tricks) == TRICKS else out

    def _end_deal(self) -> list[Ruling]:
        """Score the deal, or redeal it without points when a renege was proven."""
        assert self.table is not None and self.dealer is not None
        reneges = tuple(self.restored + self.prover.proven)
        offender = self.prover.first_offender()
        if offender is not None:
            self.log.append(FinishedDeal(tuple(self.table.tricks), reneges, None))
            self._deal()  # the same dealer
            return [Ruling("manille.redeal", {"player": offender + 1}, "violation")]
        points = (self.table.card_points([0]), self.table.card_points([1]))
        tricks = (self.table.taken_by(0), self.table.taken_by(1))
        row = self.boam.add(points, tricks, self.factor)
        self.log.append(FinishedDeal(tuple(self.table.tricks), reneges, row))
        out = deal_rulings(row, self.boam)
        if not self.boam.over:
            self.dealer = 1 - self.dealer
            self._deal()
        return out

    def scores(self) -> list[int]:
        return list(self.boam.totals)

    def winners(self) -> list[int]:
        return self.boam.winners()

    def card_locations(self) -> list[tuple[str, str]]:
        """Every card when dealt; at the table only the cards seen (hands are unseen)."""
        out = [(c, f"hand:{s}") for s, hand in enumerate(self.hands) if isinstance(hand, set) for c in hand]
        for s, piles in enumerate(self.piles):
            if isinstance(piles, Piles):
                out += [
                    (c, f"pile:{s}:{'hidden' if c in piles.face_down else 'visible'}") for p in piles.stacks for c in p
                ]
            else:
                out += [(c, f"pile:{s}:visible") for c in piles.tops()]
        if self.table is not None:
            out += [(c, "trick") for _, c in self.table.plays]
            out += [(c, f"won:{t.winner}") for t in self.table.tricks for c in t.cards]
        return out
