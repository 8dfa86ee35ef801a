"""Klaverjassen: seed 001 plus rules-decisions.md.

Four players, seats 0 and 2 against 1 and 3, play clockwise (seat + 1). 32 cards dealt 3-2-3
from the dealer's left. Trump: the dealer's left neighbour chooses a suit or passes, and so on
round the table; when all pass he must choose ("variante obligatoire"). Option
``trump_choice="turned"``: the dealer's last card is shown and is the first proposal; who
accepts it makes it trump; if all pass, a second round may name another suit, and if all pass
again the dealer's left neighbour must name one. The dealer's left neighbour leads.

Following (``variant``): follow suit; trump led: go over the highest trump if you can (both
variants). Void in the suit led: Rotterdam, trump and overtrump if you can, even over your
partner, and trump lower (undertrump) when your only trumps are below the trick's; Amsterdam,
trump and overtrump unless your partner is winning the trick, and never undertrump while another
card is allowed. Roem is detected by the kiosk (option ``roem="claimed"``: it counts only
when the trick's winner claims it). A deal scores 162 + roem; the playing team must make more
than the defenders or it is nat; pit (all 8 tricks) adds 100; a boompje is 16 deals.

House rules (options): ``four_low_roem`` makes four 7s, 8s or 9s in one trick roem (100, as four
Aces; off by default: rules-decisions.md lists no such roem); ``pit_bonus`` sets the pit's bonus.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.decks import SUITS
from kiosk.decks.model import SUIT_SYMBOLS
from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.games.hands import UnseenHand
from kiosk.games.klaverjassen_score import (
    PIT_BONUS,
    PIT_BONUS_MAX,
    PLAYERS,
    TRICKS,
    ScoreSheet,
    deal_rulings,
    match_ruling,
    roem,
    score_deal,
    team,
    trick_rulings,
)
from kiosk.games.renege import FinishedDeal, RenegeProver
from kiosk.games.tricks import (
    PIQUET,
    ChooseDealer,
    Duty,
    LayCard,
    NotNow,
    OutOfTurn,
    Play,
    PlayCard,
    Trick,
    TrickRules,
    TrickTable,
    allowed,
    deal_packets,
    label,
    suit,
)

CARDS = frozenset(PIQUET)

RULES = TrickRules(
    plain_order=("7", "8", "9", "J", "Q", "K", "10", "A"),
    trump_order=("7", "8", "Q", "K", "10", "A", "9", "J"),
    plain_points={"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2},
    trump_points={"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3},
)


#: phase -> what the table waits for then (``to_act`` is the ``player``)
EXPECTS = {
    "dealer": "klaverjassen.expect_dealer",
    "turned": "klaverjassen.expect_turned",
    "trump": "klaverjassen.expect_trump",
    "play": "klaverjassen.expect_card",
    "claim": "klaverjassen.expect_claim",
    "showdown": "klaverjassen.expect_show",
}

VARIANTS = ("amsterdam", "rotterdam")
TRUMP_CHOICES = ("obligatory", "turned")
ROEM_MODES = ("detected", "claimed")


def duties(plays: Sequence[Play], trump: str, variant: str) -> list[Duty]:
    """What binds the next player to the trick ``plays`` (empty: the leader plays freely)."""
    if not plays:
        return []
    led = suit(plays[0][1])
    cards = [c for _, c in plays]
    best = RULES.best_trump(cards, trump)

    def higher_trump(c: str) -> bool:
        return suit(c) == trump and RULES.trump_strength(c) > best

    if led == trump:
        return [Duty("go_over", higher_trump), Duty("follow_suit", lambda c: suit(c) == trump)]
    follow = Duty("follow_suit", lambda c: suit(c) == led)
    trump_duty = Duty("must_overtrump" if best >= 0 else "must_trump", higher_trump)
    if variant == "rotterdam":  # a trump lower than the trick's is still owed: an undertrump
        return [follow, trump_duty, Duty("must_trump", lambda c: suit(c) == trump)]
    seat = (plays[-1][0] + 1) % PLAYERS
    winner = plays[RULES.winning_index(cards, trump)][0]
    if winner == (seat + 2) % PLAYERS:  # Amsterdam: the partner's trick frees him from trumping
        return [follow, Duty("no_undertrump", lambda c: suit(c) != trump or higher_trump(c))]
    return [follow, trump_duty, Duty("no_undertrump", lambda c: suit(c) != trump)]


@dataclass(frozen=True)
class ChooseTrump:
    suit: str


@dataclass(frozen=True)
class Pass:
    """Leave the trump choice to the next player."""


@dataclass(frozen=True)
class TurnedCard:
    """At the table, option ``trump_choice="turned"``: the dealer's last card, seen face up in
    the centre."""

    card: str


@dataclass(frozen=True)
class ClaimRoem:
    """Option ``roem="claimed"``: the trick's winner claims its roem (or forgets to)."""

    claim: bool


class TrumpBidding:
    """Who may name trump now, as the seed and the ``trump_choice`` option say."""

    def __init__(self, dealer: int, mode: str, turned: str | None = None):
        first = (dealer + 1) % PLAYERS
        order = [(first + i) % PLAYERS for i in range(PLAYERS)]
        if mode == "turned":
            if turned is None:
                raise ValueError("the turned-card choice needs the turned card")
            others = tuple(s for s in SUITS if s != suit(turned))
            self.steps = (
                [(s, (suit(turned),), True) for s in order]
                + [(s, others, True) for s in order]
                + [(first, others, False)]
            )
        else:
            self.steps = [(s, SUITS, True) for s in order] + [(first, SUITS, False)]
        self.turned = turned
        self.index = 0
        self.trump: str | None = None
        self.chooser: int | None = None

    @property
    def seat(self) -> int:
        return self.steps[self.index][0]

    @property
    def suits(self) -> tuple[str, ...]:
        return self.steps[self.index][1]

    @property
    def may_pass(self) -> bool:
        return self.steps[self.index][2]

    def choose(self, trump: str) -> None:
        if trump not in self.suits:
            raise IllegalMove("klaverjassen.trump_not_allowed", suit=SUIT_SYMBOLS.get(trump, trump))
        self.trump, self.chooser = trump, self.seat

    def pass_(self) -> None:
        if not self.may_pass:
            raise IllegalMove("klaverjassen.must_choose", player=self.seat + 1)
        self.index += 1


def check_options(options: Mapping[str, Any]) -> None:
    for name, values in (
        ("variant", VARIANTS),
        ("trump_choice", TRUMP_CHOICES),
        ("roem", ROEM_MODES),
    ):
        if options[name] not in values:
            raise ValueError(f"klaverjassen: option {name} must be one of {values}, not {options[name]!r}")
    if not isinstance(options["deals"], int) or options["deals"] < 1:
        raise ValueError("klaverjassen: option deals must be a positive integer")
    if not isinstance(options["four_low_roem"], bool):
        raise ValueError(f"klaverjassen: option four_low_roem must be true or false, not {options['four_low_roem']!r}")
    bonus = options["pit_bonus"]
    if isinstance(bonus, bool) or not isinstance(bonus, int) or not 0 <= bonus <= PIT_BONUS_MAX:
        raise ValueError(f"klaverjassen: option pit_bonus must be an integer 0..{PIT_BONUS_MAX}, not {bonus!r}")


def deal_hands(rng: random.Random, dealer: int) -> list[list[str]]:
    """Shuffle and deal 3-2-3 clockwise from the dealer's left; the dealer's card is last."""
    cards = list(PIQUET)
    rng.shuffle(cards)
    order = [(dealer + 1 + i) % PLAYERS for i in range(PLAYERS)]
    packets = deal_packets(cards, order, (3, 2, 3))
    return [[c for packet in packets for c in packet[s]] for s in range(PLAYERS)]


class Klaverjassen(GameEngine):
    """The boompje, dealt by the engine or refereed at a table.

    At the table (``at_table=True``) nothing is dealt and hands are unseen: the table says who
    deals (:class:`ChooseDealer`, unless option ``first_dealer``), shows the turned card
    (:class:`TurnedCard`) and reports every card laid (:class:`LayCard`). Each play is recorded
    in the :class:`RenegeProver`; a renege proven before the deal's end stops it (the
    ``showdown``: every remaining card is laid face up, every play checked), and the team of the
    first renege loses the deal. ``to_act`` is None while the table names the dealer and during a
    showdown, where nobody in particular acts.
    """

    game_id = "klaverjassen"
    deck_id = "piquet-32"
    min_players = PLAYERS
    max_players = PLAYERS
    default_options = {
        "variant": "amsterdam",
        "trump_choice": "obligatory",
        "roem": "detected",
        "deals": 16,
        "first_dealer": None,
        "four_low_roem": False,
        "pit_bonus": PIT_BONUS,
    }
    menu_options = {"four_low_roem": (False, True), "pit_bonus": (0, 50, PIT_BONUS, 200)}

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
            self.dealer = rng.randrange(PLAYERS)
        self.sheet = ScoreSheet(self.options["deals"])
        self.log: list[FinishedDeal] = []
        self._deal()

    def _deal(self) -> None:
        """A new deal: the dealt hands, or at the table unseen hands and a fresh renege record."""
        self.table: TrickTable | None = None
        self.roem: list[int] = []  # counted roem per finished trick
        self.claim_pending: Trick | None = None
        self.prover = RenegeProver()
        self.played: set[str] = set()  # at the table: the cards played or shown this deal
        self.bidding: TrumpBidding | None = None
        self.hands: list[set[str] | UnseenHand]
        if self.at_table:
            self.hands = [UnseenHand(TRICKS) for _ in range(PLAYERS)]
            if self.dealer is not None and self.options["trump_choice"] == "obligatory":
                self.bidding = TrumpBidding(self.dealer, "obligatory")
            return
        assert self.dealer is not None
        dealt = deal_hands(self.rng, self.dealer)
        self.hands = [set(h) for h in dealt]
        turned = dealt[self.dealer][-1] if self.options["trump_choice"] == "turned" else None
        self.bidding = TrumpBidding(self.dealer, self.options["trump_choice"], turned)

    @property
    def trump(self) -> str | None:
        return self.bidding.trump if self.bidding else None

    @property
    def playing_team(self) -> int | None:
        """The team of the player who chose trump (None while trump is open)."""
        chooser = self.bidding.chooser if self.bidding else None
        return None if chooser is None else team(chooser)

    @property
    def phase(self) -> str:
        """``dealer`` (the table names who deals), ``turned`` (the table shows the turned card),
        ``trump``, ``play``, ``claim`` (the trick's winner may claim its roem), ``showdown`` or
        ``over``."""
        if self.over:
            return "over"
        if self.dealer is None:
            return "dealer"
        if self.bidding is None:
            return "turned"
        if self.table is None:
            return "trump"
        if self.prover.proven:
            return "showdown"
        return "play" if self.claim_pending is None else "claim"

    @property
    def to_act(self) -> int | None:
        phase = self.phase
        if phase == "turned":
            return self.dealer
        if phase == "trump":
            assert self.bidding is not None
            return self.bidding.seat
        if phase in ("play", "claim"):  # the winner of a trick with roem claims, then leads
            assert self.table is not None
            return self.table.to_play
        return None

    @property
    def over(self) -> bool:
        return self.sheet.over

    def expects(self) -> tuple[str, dict[str, Any]] | None:
        """What the table waits for next: a message key and its parameters (None once over)."""
        if self.over:
            return None
        to_act = self.to_act
        return EXPECTS[self.phase], ({} if to_act is None else {"player": to_act + 1})

    def legal_from(self, cards: Iterable[str]) -> list[str]:
        """The cards among ``cards`` the player to lay may lay on the trick now, were they his
        whole hand (what a bot that knows its own hand asks at the table)."""
        assert self.table is not None and self.trump is not None
        return allowed(cards, self._duties())[1]

    def legal_cards(self) -> list[str]:
        """The cards ``to_act`` may lay on the trick now (the dealing engine knows his hand)."""
        assert self.table is not None
        hand = self.hands[self.table.to_play]
        assert isinstance(hand, set)
        return self.legal_from(hand)

    def legal_moves(self) -> list[Any]:
        phase = self.phase
        if phase == "over":
            return []
        if phase == "dealer":
            return [ChooseDealer(s) for s in range(PLAYERS)]
        if phase == "turned":
            return [TurnedCard(c) for c in PIQUET]
        if phase == "trump":
            assert self.bidding is not None
            moves: list[Any] = [ChooseTrump(s) for s in self.bidding.suits]
            return moves + [Pass()] if self.bidding.may_pass else moves
        if phase == "showdown":
            return [LayCard(s, c) for s in range(PLAYERS) if len(self.hands[s]) for c in self._unseen()]
        assert self.table is not None
        moves = [ClaimRoem(True), ClaimRoem(False)] if phase == "claim" else []
        if not self.at_table:
            return moves or [PlayCard(c) for c in sorted(self.legal_cards())]
        if len(self.table.tricks) == TRICKS:  # a claim of the deal's last trick
            return moves
        return moves + [LayCard(self.table.to_play, c) for c in self._unseen()]

    def _unseen(self) -> list[str]:
        return [c for c in PIQUET if c not in self.played]

    def _duties(self) -> list[Duty]:
        assert self.table is not None and self.trump is not None
        return duties(self.table.plays, self.trump, self.options["variant"])

    def play(self, move: Any) -> list[Ruling]:
        phase = self.phase
        if self.at_table and isinstance(move, LayCard) and phase in ("over", "dealer", "turned", "trump"):
            raise NotNow("klaverjassen.not_playing_now", player=move.seat + 1)
        if phase == "over":
            raise IllegalMove("klaverjassen.match_is_over")
        if phase == "dealer":
            return self._choose_dealer(move)
        if phase == "turned":
            return self._turn(move)
        if phase == "trump":
            return self._bid(move)
        if phase == "showdown":
            return self._show(move)
        assert self.table is not None
        if phase == "claim" and isinstance(move, ClaimRoem):
            return self._settle_claim(move.claim)
        if self.at_table and isinstance(move, LayCard):
            return self._lay(move.seat, move.card)
        if phase == "claim":
            raise IllegalMove("klaverjassen.claim_first", player=self.table.to_play + 1)
        if self.at_table or not isinstance(move, PlayCard):
            raise IllegalMove("klaverjassen.play_a_card", player=self.table.to_play + 1)
        return self._play_card(move.card)

    def _choose_dealer(self, move: Any) -> list[Ruling]:
        if not isinstance(move, ChooseDealer) or move.seat not in range(PLAYERS):
            raise IllegalMove("klaverjassen.expect_dealer")
        self.dealer = move.seat
        self._deal()
        return [Ruling("klaverjassen.dealer", {"player": move.seat + 1})]

    def _turn(self, move: Any) -> list[Ruling]:
        assert self.dealer is not None
        if not isinstance(move, TurnedCard) or move.card not in CARDS:
            raise IllegalMove("klaverjassen.expect_turned", player=self.dealer + 1)
        self.bidding = TrumpBidding(self.dealer, "turned", move.card)
        return [Ruling("klaverjassen.turned_card", {"card": label(move.card), "player": self.bidding.seat + 1})]

    def _bid(self, move: Any) -> list[Ruling]:
        assert self.bidding is not None and self.dealer is not None
        seat = self.bidding.seat
        if isinstance(move, Pass):
            self.bidding.pass_()
            return [Ruling("klaverjassen.passed", {"player": seat + 1})]
        if not isinstance(move, ChooseTrump):
            raise IllegalMove("klaverjassen.choose_trump", player=seat + 1)
        self.bidding.choose(move.suit)
        self.table = TrickTable(PLAYERS, (self.dealer + 1) % PLAYERS, move.suit, RULES)
        return [
            Ruling(
                "klaverjassen.trump_chosen",
                {"player": seat + 1, "suit": SUIT_SYMBOLS[move.suit], "team": team(seat) + 1},
            )
        ]

    def _holds(self, seat: int, card: str) -> bool:
        """Whether ``seat`` may hold ``card``: in his dealt hand, or at the table a card not seen
        this deal while his hand is not empty."""
        hand = self.hands[seat]
        if isinstance(hand, UnseenHand):
            return len(hand) > 0 and card in CARDS and card not in self.played
        return card in hand

    def _check_holds(self, seat: int, card: str) -> None:
        if not self._holds(seat, card):
            raise IllegalMove("klaverjassen.not_in_hand", player=seat + 1, card=card)

    def _take(self, seat: int, card: str) -> None:
        """``card`` leaves ``seat``'s hand."""
        hand = self.hands[seat]
        if isinstance(hand, UnseenHand):
            hand.lay()
            self.played.add(card)
        else:
            hand.discard(card)

    def _play_card(self, card: str) -> list[Ruling]:
        """The dealing engine: ``to_act`` lays ``card``, refused unless the rules allow it."""
        assert self.table is not None
        seat = self.table.to_play
        self._check_holds(seat, card)
        hand = self.hands[seat]
        assert isinstance(hand, set)
        duty, legal = allowed(hand, self._duties())
        if card not in legal:
            assert duty is not None
            raise IllegalMove(f"klaverjassen.rule_{duty.rule}", player=seat + 1, card=label(card))
        self._take(seat, card)
        return self._put(card)

    def _lay(self, seat: int, card: str) -> list[Ruling]:
        """At the table: ``seat`` was seen laying ``card``; the prover checks it against what
        the seat shows later. Laid while a claim is open, it leaves the roem unclaimed."""
        assert self.table is not None
        to_play = self.table.to_play
        if seat != to_play:
            raise OutOfTurn("klaverjassen.out_of_turn", player=seat + 1, expected=to_play + 1)
        claim = self.claim_pending is not None
        if claim and len(self.table.tricks) == TRICKS:  # after the deal's last trick: no trick to join
            reminder = Ruling("klaverjassen.not_playing_now", {"player": seat + 1}, "reminder")
            return self._settle_claim(False) + [reminder]
        self._check_holds(seat, card)
        out = self._settle_claim(False) if claim else []
        new = self.prover.record(self.table.trick_number, seat, card, self._duties())
        self._take(seat, card)
        out += [r.ruling(self.game_id) for r in new] + self._put(card)
        if new and self.phase == "showdown":
            out.append(Ruling("klaverjassen.show_hands", {}, "violation"))
        return out

    def _put(self, card: str) -> list[Ruling]:
        """``card`` joins the trick; a finished trick is offered for a claim or counted."""
        assert self.table is not None and self.trump is not None
        trick = self.table.play(card)
        if trick is None:
            return []
        trick_roem = roem(trick.cards, self.trump, self.options["four_low_roem"])
        if self.options["roem"] == "claimed" and trick_roem and not self.prover.proven:
            self.claim_pending = trick
            return [Ruling("klaverjassen.claim_offered", {"player": trick.winner + 1})]
        self.roem.append(trick_roem)
        return trick_rulings(trick, trick_roem) + self._maybe_end_deal()

    def _settle_claim(self, claimed: bool) -> list[Ruling]:
        assert self.claim_pending is not None
        trick, self.claim_pending = self.claim_pending, None
        counted = roem(trick.cards, self.trump, self.options["four_low_roem"]) if claimed else 0
        self.roem.append(counted)
        return trick_rulings(trick, counted) + self._maybe_end_deal()

    def _show(self, move: Any) -> list[Ruling]:
        """A showdown: each card laid is one more card of that seat's hand, face up."""
        if not isinstance(move, LayCard):
            raise IllegalMove("klaverjassen.show_hands")
        self._check_holds(move.seat, move.card)
        self._take(move.seat, move.card)
        out = [r.ruling(self.game_id) for r in self.prover.reveal(move.seat, move.card)]
        return out + self._end_deal() if not any(len(h) for h in self.hands) else out

    def _maybe_end_deal(self) -> list[Ruling]:
        assert self.table is not None
        return self._end_deal() if len(self.table.tricks) == TRICKS else []

    def _end_deal(self) -> list[Ruling]:
        """Score the deal (a proven renege: the first offender's team loses it), then deal the
        next one or end the match."""
        assert self.table is not None and self.trump is not None and self.dealer is not None
        assert self.bidding is not None and self.bidding.chooser is not None
        offender = self.prover.first_offender()
        renege_team = None if offender is None else team(offender)
        result = score_deal(
            self.table.tricks,
            self.trump,
            team(self.bidding.chooser),
            self.roem,
            renege_team,
            self.options["pit_bonus"],
        )
        self.sheet.rows.append(result)
        self.log.append(FinishedDeal(tuple(self.table.tricks), tuple(self.prover.proven), result))
        out = [] if renege_team is None else [Ruling("klaverjassen.deal_lost", {"team": renege_team + 1}, "violation")]
        out += deal_rulings(result, self.sheet.totals())
        if self.sheet.over:
            return out + [match_ruling(self.sheet)]
        self.dealer = (self.dealer + 1) % PLAYERS
        self._deal()
        return out

    def scores(self) -> list[int]:
        return self.sheet.seat_scores()

    def winners(self) -> list[int]:
        return self.sheet.winners()

    def card_locations(self) -> list[tuple[str, str]]:
        """Every card when dealt; at the table only the cards seen (hands are unseen)."""
        out = [(c, f"hand:{s}") for s, hand in enumerate(self.hands) if isinstance(hand, set) for c in hand]
        if self.table is not None:
            out += [(c, "trick") for _, c in self.table.plays]
            out += [(c, f"won:{team(t.winner)}") for t in self.table.tricks for c in t.cards]
        return out
