"""Klaverjassen's score: roem in a trick, a deal's score line and the boompje's sheet.

Seed 001 plus rules-decisions.md: a deal holds 162 points (152 in the cards and 10 for the last
trick) plus the roem; the playing team must make more than the defenders or it is nat and the
defenders take it all; pit (all 8 tricks) adds a bonus; a proven renege loses the whole deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from kiosk.games.base import Ruling
from kiosk.games.tricks import Trick, rank, suit

PLAYERS = 4
TRICKS = 8  # per deal: all 32 cards, 8 in each hand
DEAL_TOTAL = 162  # 152 in the cards + 10 for the last trick
LAST_TRICK = 10
PIT_BONUS = 100
PIT_BONUS_MAX = 500

RUN_ORDER = ("7", "8", "9", "10", "J", "Q", "K", "A")
RUN_ROEM = {3: 20, 4: 50}
FOUR_OF_A_KIND = {"J": 200, "A": 100, "10": 100, "K": 100, "Q": 100}
FOUR_LOW = {"7": 100, "8": 100, "9": 100}  # option four_low_roem
STUK = 20


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
    if len(tricks) == TRICKS:
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
        if len(tricks) == TRICKS and len(winners) == 1:
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
