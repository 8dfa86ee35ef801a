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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from kiosk.decks import SUITS
from kiosk.decks.model import SUIT_SYMBOLS
from kiosk.games.base import GameEngine, IllegalMove, Ruling
from kiosk.games.tricks import (
    PIQUET,
    Duty,
    Play,
    PlayCard,
    Trick,
    TrickRules,
    TrickTable,
    allowed,
    deal_packets,
    label,
    rank,
    suit,
)

PLAYERS = 4
DEAL_TOTAL = 162  # 152 in the cards + 10 for the last trick
LAST_TRICK = 10
PIT_BONUS = 100
PIT_BONUS_MAX = 500

RULES = TrickRules(
    plain_order=("7", "8", "9", "J", "Q", "K", "10", "A"),
    trump_order=("7", "8", "Q", "K", "10", "A", "9", "J"),
    plain_points={"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2},
    trump_points={"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3},
)

RUN_ORDER = ("7", "8", "9", "10", "J", "Q", "K", "A")
RUN_ROEM = {3: 20, 4: 50}
FOUR_OF_A_KIND = {"J": 200, "A": 100, "10": 100, "K": 100, "Q": 100}
FOUR_LOW = {"7": 100, "8": 100, "9": 100}  # option four_low_roem
STUK = 20

VARIANTS = ("amsterdam", "rotterdam")
TRUMP_CHOICES = ("obligatory", "turned")
ROEM_MODES = ("detected", "claimed")


def team(seat: int) -> int:
    return seat % 2


def roem(cards: Sequence[str], trump: str | None, four_low: bool = False) -> int:
    """The roem in one trick: four of a kind, else the longest run of one suit plus stuk;
    ``four_low``: four 7s, 8s or 9s count too."""
    ranks = {rank(c) for c in cards}
    if len(cards) == 4 and len(ranks) == 1:
        return {**FOUR_OF_A_KIND, **(FOUR_LOW if four_low else {})}.get(rank(cards[0]), 0)
    total = 0
    for s in {suit(c) for c in cards}:
        positions = sorted(RUN_ORDER.index(rank(c)) for c in cards if suit(c) == s)
        longest = run = 1
        for a, b in pairwise(positions):
            run = run + 1 if b == a + 1 else 1
            longest = max(longest, run)
        total += RUN_ROEM.get(longest, 0)
    if trump is not None and f"K{trump}" in cards and f"Q{trump}" in cards:
        total += STUK
    return total


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


@dataclass(frozen=True)
class DealResult:
    """One line of the score sheet. Teams are 0 (seats 0+2) and 1 (seats 1+3)."""

    playing_team: int
    trump: str
    card_points: tuple[int, int]  # the last trick's 10 included
    roem: tuple[int, int]
    score: tuple[int, int]
    outcome: str  # "made" | "nat" | "renege"
    pit: int | None = None


def score_deal(
    tricks: Sequence[Trick],
    trump: str,
    playing_team: int,
    roem_per_trick: Sequence[int],
    renege_team: int | None = None,
    pit_bonus: int = PIT_BONUS,
) -> DealResult:
    """Score a deal from its tricks; ``renege_team`` (proven renege) loses the whole deal."""
    cards = [0, 0]
    won_roem = [0, 0]
    for trick, r in zip(tricks, roem_per_trick, strict=False):  # a stopped deal: fewer
        cards[team(trick.winner)] += trick.points
        won_roem[team(trick.winner)] += r
    if len(tricks) == 8:
        cards[team(tricks[-1].winner)] += LAST_TRICK
    all_roem = sum(won_roem)
    score = [0, 0]
    pit = None
    if renege_team is not None:
        outcome = "renege"
        score[1 - renege_team] = DEAL_TOTAL + all_roem
    else:
        p, d = playing_team, 1 - playing_team
        if cards[p] + won_roem[p] > cards[d] + won_roem[d]:
            outcome = "made"
            score = [cards[0] + won_roem[0], cards[1] + won_roem[1]]
        else:
            outcome = "nat"
            score[d] = DEAL_TOTAL + all_roem
        winners = {team(t.winner) for t in tricks}
        if len(tricks) == 8 and len(winners) == 1:
            pit = winners.pop()
            score[pit] += pit_bonus
    return DealResult(
        playing_team,
        trump,
        (cards[0], cards[1]),
        (won_roem[0], won_roem[1]),
        (score[0], score[1]),
        outcome,
        pit,
    )


class ScoreSheet:
    """The boompje: one :class:`DealResult` per deal, totals per team, over after ``deals``."""

    def __init__(self, deals: int):
        self.deals = deals
        self.rows: list[DealResult] = []

    def totals(self) -> tuple[int, int]:
        return (sum(r.score[0] for r in self.rows), sum(r.score[1] for r in self.rows))

    @property
    def over(self) -> bool:
        return len(self.rows) >= self.deals

    def winners(self) -> list[int]:
        if not self.over:
            return []
        a, b = self.totals()
        return [s for s in range(PLAYERS) if a == b or team(s) == (0 if a > b else 1)]

    def seat_scores(self) -> list[int]:
        totals = self.totals()
        return [totals[team(s)] for s in range(PLAYERS)]


def deal_rulings(result: DealResult, totals: tuple[int, int]) -> list[Ruling]:
    """What the table hears at the end of a deal (engine and referee say the same)."""
    out = []
    if result.outcome == "nat":
        out.append(Ruling("klaverjassen.nat", {"team": result.playing_team + 1}, "score"))
    if result.pit is not None:
        out.append(Ruling("klaverjassen.pit", {"team": result.pit + 1}, "score"))
    out.append(
        Ruling(
            "klaverjassen.deal_scored",
            {
                "score1": result.score[0],
                "score2": result.score[1],
                "total1": totals[0],
                "total2": totals[1],
            },
            "score",
        )
    )
    return out


def match_ruling(sheet: ScoreSheet) -> Ruling:
    a, b = sheet.totals()
    key = "klaverjassen.match_tied" if a == b else "klaverjassen.match_won"
    return Ruling(key, {"team": 1 if a > b else 2, "total1": a, "total2": b}, "game_over")


def trick_rulings(trick: Trick, trick_roem: int) -> list[Ruling]:
    out = [
        Ruling(
            "klaverjassen.trick_won",
            {"player": trick.winner + 1, "trick": trick.number, "points": trick.points},
            "ok",
        )
    ]
    if trick_roem:
        out.append(Ruling("klaverjassen.roem", {"player": trick.winner + 1, "roem": trick_roem}, "info"))
    return out


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

    def __init__(self, players: int, rng: random.Random, options: Mapping[str, Any] | None = None):
        super().__init__(players, rng, options)
        check_options(self.options)
        first = self.options["first_dealer"]
        self.dealer = rng.randrange(PLAYERS) if first is None else int(first) % PLAYERS
        self.sheet = ScoreSheet(self.options["deals"])
        self._deal()

    def _deal(self) -> None:
        dealt = deal_hands(self.rng, self.dealer)
        self.hands: list[set[str]] = [set(h) for h in dealt]
        turned = dealt[self.dealer][-1] if self.options["trump_choice"] == "turned" else None
        self.bidding = TrumpBidding(self.dealer, self.options["trump_choice"], turned)
        self.table: TrickTable | None = None
        self.roem: list[int] = []  # counted roem per finished trick
        self.claim_pending: Trick | None = None

    @property
    def trump(self) -> str | None:
        return self.bidding.trump

    @property
    def to_act(self) -> int | None:
        if self.over:
            return None
        if self.table is None:
            return self.bidding.seat
        if self.claim_pending is not None:
            return self.claim_pending.winner
        return self.table.to_play

    @property
    def over(self) -> bool:
        return self.sheet.over

    def legal_cards(self) -> list[str]:
        """The cards ``to_act`` may lay on the trick now."""
        assert self.table is not None and self.trump is not None
        seat = self.table.to_play
        return allowed(self.hands[seat], duties(self.table.plays, self.trump, self.options["variant"]))[1]

    def legal_moves(self) -> list[Any]:
        if self.over:
            return []
        if self.table is None:
            moves: list[Any] = [ChooseTrump(s) for s in self.bidding.suits]
            return moves + [Pass()] if self.bidding.may_pass else moves
        if self.claim_pending is not None:
            return [ClaimRoem(True), ClaimRoem(False)]
        return [PlayCard(c) for c in sorted(self.legal_cards())]

    def play(self, move: Any) -> list[Ruling]:
        if self.over:
            raise IllegalMove("klaverjassen.match_is_over")
        if self.table is None:
            return self._bid(move)
        if self.claim_pending is not None:
            if not isinstance(move, ClaimRoem):
                raise IllegalMove("klaverjassen.claim_first", player=self.claim_pending.winner + 1)
            trick = self.claim_pending
            self.claim_pending = None
            counted = roem(trick.cards, self.trump, self.options["four_low_roem"]) if move.claim else 0
            self.roem.append(counted)
            return trick_rulings(trick, counted) + self._maybe_end_deal()
        if not isinstance(move, PlayCard):
            raise IllegalMove("klaverjassen.play_a_card", player=self.table.to_play + 1)
        return self._play_card(move.card)

    def _bid(self, move: Any) -> list[Ruling]:
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

    def _play_card(self, card: str) -> list[Ruling]:
        assert self.table is not None and self.trump is not None
        seat = self.table.to_play
        if card not in self.hands[seat]:
            raise IllegalMove("klaverjassen.not_in_hand", player=seat + 1, card=card)
        duty, legal = allowed(self.hands[seat], duties(self.table.plays, self.trump, self.options["variant"]))
        if card not in legal:
            assert duty is not None
            raise IllegalMove(f"klaverjassen.rule_{duty.rule}", player=seat + 1, card=label(card))
        self.hands[seat].discard(card)
        trick = self.table.play(card)
        if trick is None:
            return []
        trick_roem = roem(trick.cards, self.trump, self.options["four_low_roem"])
        if self.options["roem"] == "claimed" and trick_roem:
            self.claim_pending = trick
            return [Ruling("klaverjassen.claim_offered", {"player": trick.winner + 1})]
        self.roem.append(trick_roem)
        return trick_rulings(trick, trick_roem) + self._maybe_end_deal()

    def _maybe_end_deal(self) -> list[Ruling]:
        assert self.table is not None and self.trump is not None and self.bidding.chooser is not None
        if len(self.table.tricks) < 8:
            return []
        result = score_deal(
            self.table.tricks, self.trump, team(self.bidding.chooser), self.roem, pit_bonus=self.options["pit_bonus"]
        )
        self.sheet.rows.append(result)
        out = deal_rulings(result, self.sheet.totals())
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
        out = [(c, f"hand:{s}") for s, hand in enumerate(self.hands) for c in hand]
        if self.table is not None:
            out += [(c, "trick") for _, c in self.table.plays]
            out += [(c, f"won:{team(t.winner)}") for t in self.table.tricks for c in t.cards]
        return out
