"""Le Compromis à la belge: what makes 6 cards a government (seed 000_de7fdf0eefacbd60.txt).

A government is 3 pairs, each a lion-role and a coq-role minister (2..10) of the same value;
Laeken (7) and the Cinquantenaire (5), Brussels, play either role but one per government. The
engine judges a declaration with :func:`check_government`; the bots look for one with
:func:`find_government`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

from kiosk.decks import Deck, load_deck
from kiosk.games.cards import number_of

GOVERNMENT = 6


@dataclass(frozen=True)
class Verdict:
    """Whether 6 cards form a government; ``problems`` are (message key, params) naming the cards
    at fault, ``pairs`` the (lion role, coq role) pairs found when it is one."""

    problems: tuple[tuple[str, Mapping[str, Any]], ...]
    pairs: tuple[tuple[str, str], ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


def check_government(cards: Collection[str], deck: Deck) -> Verdict:
    """Judge ``cards`` as a government: 3 pairs of a lion and a coq of the same value (2..10),
    a Brussels minister playing one role of its choice, two pairs of one value allowed."""
    cards = sorted(cards)
    if len(cards) != GOVERNMENT or len(set(cards)) != GOVERNMENT:
        return Verdict((("compromis.gov_count", {"count": len(set(cards))}),))
    problems: list[tuple[str, Mapping[str, Any]]] = []
    by_value: dict[int, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for card in cards:
        value = number_of(card)
        if value is None:
            problems.append(("compromis.gov_not_minister", {"card": card}))
        else:
            by_value[value][deck[card].region or ""].append(card)
    pairs: list[tuple[str, str]] = []
    for value in sorted(by_value):
        found, wrong = _pair_up(by_value[value])
        pairs.extend(found)
        problems.extend(wrong)
    return Verdict(tuple(problems), tuple(pairs) if not problems else ())


def _pair_up(
    roles: Mapping[str, list[str]],
) -> tuple[list[tuple[str, str]], list[tuple[str, Mapping[str, Any]]]]:
    """Pairs of one value: lions with coqs, the Brussels card filling the side that lacks one."""
    lions, coqs, brussels = (
        list(roles.get("flanders", [])),
        list(roles.get("wallonia", [])),
        list(roles.get("brussels", [])),
    )
    if len(lions) + len(coqs) + len(brussels) == 3 and brussels:
        others = sorted(lions + coqs)
        return [], [
            (
                "compromis.gov_both_roles",
                {"card": brussels[0], "card_a": others[0], "card_b": others[1]},
            )
        ]
    pairs: list[tuple[str, str]] = []
    while lions and coqs:
        pairs.append((lions.pop(0), coqs.pop(0)))
    for b in brussels:
        if lions:
            pairs.append((lions.pop(0), b))
        elif coqs:
            pairs.append((b, coqs.pop(0)))
        else:
            lions.append(b)  # alone below
    problems: list[tuple[str, Mapping[str, Any]]] = []
    for same, key in ((lions, "compromis.gov_two_lions"), (coqs, "compromis.gov_two_coqs")):
        while len(same) >= 2:
            problems.append((key, {"card_a": same.pop(0), "card_b": same.pop(0)}))
        if same:
            problems.append(("compromis.gov_alone", {"card": same.pop()}))
    return pairs, problems


def can_pair(a: str, b: str, deck: Deck) -> bool:
    """Could ``a`` and ``b`` be one pair of a government?"""
    return (a, b) in _pairable(deck.id)


@cache
def _pairable(deck_id: str) -> frozenset[tuple[str, str]]:
    """Every ordered (a, b) that can pair: the bots ask this thousands of times per match."""
    deck = load_deck(deck_id)
    ministers = [c for c in deck if number_of(c.id) is not None]
    return frozenset(
        (a.id, b.id)
        for a in ministers
        for b in ministers
        if a.id != b.id
        and number_of(a.id) == number_of(b.id)
        and {a.region, b.region} not in ({"flanders"}, {"wallonia"})
    )


def find_government(hand: Iterable[str], deck: Deck) -> frozenset[str] | None:
    """A government among the cards of ``hand``, or None (the bots declare as soon as they can)."""
    ministers = sorted(c for c in hand if number_of(c) is not None)
    ministers = [c for c in ministers if any(can_pair(c, o, deck) for o in ministers)]
    for six in combinations(ministers, GOVERNMENT):
        if check_government(six, deck).ok:
            return frozenset(six)
    return None
