"""Cheating bots before the table referee: the proof that every renege is caught and nobody is
accused falsely (``kiosk simulate --cheat``, ``bench/bench_tricks.py``).

Bots play whole matches of Klaverjassen or Manille and lay their cards where the camera would
see them; a bot that holds a card the rules refuse lays it with chance ``cheat_rate``. All of it
goes through the adapter the table uses: observations of cards in zones, and the buttons
``inputs()`` offers, pressed at random. The cards are the engine's deal (``deal_hands``,
``deal_cards`` and :class:`~kiosk.games.manille.Piles`, fed from the bots' own RNG since the
engine at the table deals nothing); which cards are legal the engine says (``legal_from``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from kiosk.games import klaverjassen, klaverjassen_score, manille
from kiosk.games.klaverjassen import Klaverjassen
from kiosk.games.manille import Manille, Piles
from kiosk.games.renege import FinishedDeal
from kiosk.referee.base import Observation
from kiosk.referee.klaverjassen import KlaverjassenReferee
from kiosk.referee.manille import ManilleReferee
from kiosk.referee.tricks import TrickReferee

Made = set[tuple[int, int, str]]  # the reneges the bots made: (trick, seat, card)


def _press(referee: TrickReferee, rng: random.Random) -> None:
    """Press one of the buttons on the screen, with a random value where it is a picker."""
    spec = rng.choice(referee.inputs())
    params = {"choice": rng.choice(sorted(spec.choices))} if spec.choices else {}
    referee.on_input(spec.action, **params)


def _bot_card(engine: Klaverjassen | Manille, cards: list[str], rng: random.Random, rate: float) -> tuple[str, bool]:
    """The card a bot holding ``cards`` lays, and whether it is a renege."""
    legal = engine.legal_from(cards)
    illegal = [c for c in cards if c not in legal]
    if illegal and rng.random() < rate:
        return rng.choice(illegal), True
    return rng.choice(legal), False


def _lay(referee: TrickReferee, seat: int, card: str) -> None:
    referee.observe(Observation("confirmed", card, f"seat{seat}"))


def _klaverjassen_deal(referee: TrickReferee, rng: random.Random, rate: float) -> Made:
    """One deal of a boompje: the turned card (option), the bidding, the play."""
    engine = referee.engine
    assert isinstance(engine, Klaverjassen) and engine.dealer is not None
    dealt = klaverjassen.deal_hands(rng, engine.dealer)
    hands = [set(h) for h in dealt]
    if engine.phase == "turned":
        referee.observe(Observation("confirmed", dealt[engine.dealer][-1], "centre"))
    made: Made = set()
    deals = len(engine.log)
    while len(engine.log) == deals:
        if engine.phase == "showdown":
            for seat, hand in enumerate(hands):
                for card in sorted(hand):
                    _lay(referee, seat, card)
        elif engine.phase == "play":
            assert engine.table is not None
            seat = engine.table.to_play
            card, renege = _bot_card(engine, sorted(hands[seat]), rng, rate)
            if renege:
                made.add((engine.table.trick_number, seat, card))
            hands[seat].discard(card)
            _lay(referee, seat, card)
        else:
            _press(referee, rng)
    return made


def _manille_deal(referee: TrickReferee, rng: random.Random, rate: float) -> Made:
    """One deal of a boam: the piles' visible cards, trump and doubling, the play with its
    take-backs and the hidden cards turned after each trick."""
    engine = referee.engine
    assert isinstance(engine, Manille) and engine.dealer is not None
    dealt = manille.deal_cards(rng, engine.dealer)
    hands = [set(h) for h in dealt["hand"]]
    piles = [Piles(dealt["hidden"][s], dealt["visible"][s]) for s in range(manille.PLAYERS)]
    for seat, row in enumerate(piles):
        for card in row.tops():
            referee.observe(Observation("confirmed", card, f"piles{seat}"))
    made: Made = set()
    deals = len(engine.log)
    refused = False
    while len(engine.log) == deals:
        if engine.phase == "showdown":
            for seat, hand in enumerate(hands):
                for card in sorted(hand):
                    _lay(referee, seat, card)
            continue
        if engine.phase != "play":
            _press(referee, rng)
            continue
        assert engine.table is not None
        seat = engine.table.to_play
        card, renege = _bot_card(engine, sorted(hands[seat]) + piles[seat].tops(), rng, 0.0 if refused else rate)
        trick, tricks = engine.table.trick_number, len(engine.table.tricks)
        _lay(referee, seat, card)
        if renege:
            made.add((trick, seat, card))
        if len(engine.log) > deals:
            break
        refused = card not in engine.played
        if refused:  # the referee had it taken back
            referee.observe(Observation("removed", card, f"seat{seat}"))
            continue
        if card in hands[seat]:
            hands[seat].discard(card)
        else:
            piles[seat].take(card)
        if len(engine.table.tricks) > tricks and engine.phase == "play":
            for s, row in enumerate(piles):
                for freed in row.turn_freed():
                    referee.observe(Observation("confirmed", freed, f"piles{s}"))
    return made


def _klaverjassen_points(deal: FinishedDeal) -> bool:
    return len(deal.tricks) != klaverjassen.TRICKS or sum(deal.result.card_points) == klaverjassen_score.DEAL_TOTAL


def _manille_points(deal: FinishedDeal) -> bool:
    return len(deal.tricks) != manille.TRICKS or sum(t.points for t in deal.tricks) == 2 * manille.HALF


#: game id -> (referee, one deal with cheating bots, whether a deal played out holds all points)
CHEATING: dict[
    str,
    tuple[type[TrickReferee], Callable[[TrickReferee, random.Random, float], Made], Callable[[FinishedDeal], bool]],
] = {
    "klaverjassen": (KlaverjassenReferee, _klaverjassen_deal, _klaverjassen_points),
    "manille": (ManilleReferee, _manille_deal, _manille_points),
}


def simulate_cheating(
    game_id: str, players: int, seed: int, options: Mapping[str, Any], cheat_rate: float
) -> dict[str, Any]:
    """Play one match before the referee with bots that renege with ``cheat_rate`` when they
    can: ``deals``, ``reneges`` made, ``flagged`` (proven), ``false_accusations`` and
    ``card_points_ok`` (every deal played to its last trick holds all the card points)."""
    referee_cls, one_deal, points_ok = CHEATING[game_id]
    referee = referee_cls(players, options, seed)
    rng = random.Random(seed)
    referee.on_input("dealer", choice=str(rng.randrange(players)))
    report = {"deals": 0, "reneges": 0, "flagged": 0, "false_accusations": 0, "card_points_ok": True}
    while not referee.engine.over:
        made = one_deal(referee, rng, cheat_rate)
        deal = referee.engine.log[-1]
        proven = {(r.trick, r.seat, r.card) for r in deal.reneges}
        report["deals"] += 1
        report["reneges"] += len(made)
        report["flagged"] += len(made & proven)
        report["false_accusations"] += len(proven - made)
        report["card_points_ok"] &= points_ok(deal)
    return report
