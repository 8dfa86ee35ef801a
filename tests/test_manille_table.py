"""The Manille engine at the table (``at_table=True``): it deals nothing, learns the visible pile
tops from the camera, refuses a renege they prove and proves the others from the hand cards laid
later. Seed: 004_7389259e18a88c97.txt."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_manille_rules import EXAMPLE

from kiosk.games.base import IllegalMove, Ruling
from kiosk.games.hands import UnseenHand
from kiosk.games.manille import ChooseTrump, Double, Manille, PileCard
from kiosk.games.tricks import ChooseDealer, LayCard, NotNow, OutOfTurn, PlayCard
from tests.quotes import Quotes

SEED = "004_7389259e18a88c97.txt"
quote = Quotes(SEED)


def example_table(trump: str | None = "S") -> Manille:
    """Seat 0 deals the seed's example; the camera sees the visible tops; nobody doubles."""
    engine = Manille(2, random.Random(0), at_table=True)
    for seat in (0, 1):
        for card in EXAMPLE["visible"][seat]:
            assert engine.play(PileCard(seat, card)) == []
    engine.play(ChooseDealer(0))
    engine.play(ChooseTrump(trump))
    engine.play(Double(False))
    return engine


def test_deals_nothing_and_keeps_the_tops_seen_before_the_dealer_is_named():
    engine = Manille(2, random.Random(0), at_table=True)
    assert engine.phase == "dealer" and engine.to_act is None and engine.hands == [UnseenHand(8)] * 2
    assert engine.expects() == ("manille.expect_dealer", {})
    engine.play(PileCard(1, "AS"))
    with pytest.raises(NotNow):
        engine.play(LayCard(1, "AS"))
    engine.play(ChooseDealer(0))
    quote("Le donneur choisit l’atout après avoir vu ses cartes, ou sans-atout. L’autre entame.")
    assert engine.phase == "trump" and engine.to_act == 0 and engine.visible_tops(1) == ["AS"]
    engine.play(ChooseTrump(None))
    engine.play(Double(False))
    assert engine.to_act == 1 and engine.factor == 2


def test_the_dealing_engine_refuses_the_moves_only_a_table_makes():
    game = Manille(2, random.Random(3), {"first_dealer": 0})
    for move in (ChooseDealer(0), PileCard(0, "7H"), LayCard(0, "7H")):
        with pytest.raises(IllegalMove):
            game.play(move)


def test_a_renege_the_visible_tops_prove_is_refused_and_the_card_taken_back():
    quote(
        "Pique atout. L’adversaire entame A♦. Votre pile montre 10♦ sur 7♥ caché. Même avec K♦ en "
        "main vous devez jouer le 10♦ disponible qui gagne."
    )
    engine = example_table("S")
    assert engine.play(LayCard(1, "AD")) == []
    assert LayCard(0, "10D") in engine.legal_moves() and LayCard(0, "KD") not in engine.legal_moves()
    rulings = engine.play(LayCard(0, "KD"))
    assert rulings == [
        Ruling("manille.renege_go_over", {"trick": 1, "player": 1, "card": "K♦", "proof": "10♦"}, "violation"),
        Ruling("manille.take_back", {"player": 1, "card": "K♦"}, "violation"),
    ]
    assert engine.table is not None and engine.table.plays == [(1, "AD")] and engine.hands[0] == UnseenHand(8)
    assert engine.prover.proven == [] and [r.card for r in engine.restored] == ["KD"]
    assert [r.key for r in engine.play(LayCard(0, "10D"))] == ["manille.trick_won"]
    assert engine.visible_tops(0) == ["10S", "8S", "9S"]


def test_cards_that_are_not_this_players_to_lay_are_refused():
    engine = example_table("S")
    with pytest.raises(OutOfTurn) as err:
        engine.play(LayCard(0, "KD"))  # seat 1 leads
    assert err.value.params == {"player": 1, "expected": 2}
    with pytest.raises(IllegalMove) as err:
        engine.play(LayCard(1, "10D"))  # face up on seat 0's piles
    assert err.value.key == "manille.not_available"
    with pytest.raises(IllegalMove):
        engine.play(PlayCard("AD"))  # the table names the seat


def test_a_hidden_card_turned_too_early_is_hidden_again_and_counts_after_the_trick():
    quote("Recachez un dessous révélé trop tôt avant de continuer, même si l’information est connue.")
    engine = example_table("S")
    engine.play(LayCard(1, "AS"))  # seat 1 leads its visible A♠, freeing a hidden card
    assert engine.play(PileCard(1, "KH")) == [Ruling("manille.hide_again", {"player": 2, "card": "K♥"}, "reminder")]
    assert "KH" not in engine.visible_tops(1)
    engine.play(LayCard(0, "10S"))
    assert "KH" in engine.visible_tops(1) and engine.to_act == 0


def test_a_renege_proven_by_a_later_hand_card_stops_the_deal_for_a_showdown_and_a_redeal():
    quote(
        "Convenez si une renonce avérée perd la donne ; notre table pédagogique restaure la "
        "position "
        "si possible, sinon redonne sans points."
    )
    engine = example_table(None)
    engine.play(LayCard(1, "7C"))
    keys = [r.key for r in engine.play(LayCard(0, "KD"))]  # from the hand: maybe seat 0 holds no club
    assert keys == ["manille.trick_won"] and engine.prover.proven == []
    engine.play(LayCard(1, "AH"))
    rulings = engine.play(LayCard(0, "8C"))  # a club from the hand: the K♦ was a renege
    assert [r.key for r in rulings] == ["manille.renege_go_over", "manille.trick_won", "manille.show_hands"]
    assert engine.phase == "showdown" and engine.to_act is None
    with pytest.raises(IllegalMove) as err:
        engine.play(LayCard(0, "10D"))  # a pile top is not a hand card
    assert err.value.key == "manille.show_hands"
    keys = []
    for seat in (0, 1):
        for card in EXAMPLE["hand"][seat]:
            if card not in {"KD", "8C", "7C"}:
                keys += [r.key for r in engine.play(LayCard(seat, card))]
    assert keys == ["manille.redeal"]
    assert engine.phase == "trump" and engine.dealer == 0 and engine.boam.totals == [0, 0]
    assert engine.log[0].result is None and [r.card for r in engine.log[0].reneges] == ["KD"]


def mirror_deal(seed: int) -> tuple[Manille, Manille, list[Ruling], list[Ruling]]:
    """One deal of the dealing engine's bots, reported to an engine at the table as the camera
    would: the visible tops before the play and after each trick, every card laid."""
    game = Manille(2, random.Random(seed), {"target": 1})
    table = Manille(2, random.Random(seed + 1), {"target": 1}, at_table=True)
    table.play(ChooseDealer(game.dealer))
    said: list[Ruling] = []
    shown: list[Ruling] = []
    while not game.over:
        if game.phase in ("trump", "play"):
            for seat in (0, 1):
                for card in game.visible_tops(seat):
                    shown += table.play(PileCard(seat, card))
        seat, move = game.to_act, game.bot_move()
        said += [r for r in game.play(move) if r.key != "manille.revealed"]
        shown += table.play(LayCard(seat, move.card) if isinstance(move, PlayCard) else move)
    return game, table, said, shown


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_a_fair_table_is_never_accused_and_scores_as_the_dealing_engine(seed):
    game, table, said, shown = mirror_deal(seed)
    assert table.over and table.boam.rows == game.boam.rows
    assert shown == said and all(deal.reneges == () for deal in table.log)
