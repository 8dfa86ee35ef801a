"""The Klaverjassen engine at the table (``at_table=True``): it deals nothing, takes the moves a
table reports, and proves reneges from the cards laid later. Seed: 001_40fe8032c5f19f76.txt."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games import klaverjassen
from kiosk.games.base import IllegalMove, Ruling
from kiosk.games.hands import UnseenHand
from kiosk.games.klaverjassen import ChooseTrump, ClaimRoem, Klaverjassen, Pass, TurnedCard
from kiosk.games.tricks import ChooseDealer, LayCard, NotNow, OutOfTurn, PlayCard
from tests.quotes import Quotes

SEED = "001_40fe8032c5f19f76.txt"
quote = Quotes(SEED)


def at_table(**options) -> Klaverjassen:
    return Klaverjassen(4, random.Random(0), options, at_table=True)


def trump_named(trump: str = "H", **options) -> Klaverjassen:
    """Seat 3 deals, seat 0 names ``trump`` and leads."""
    engine = at_table(**options)
    engine.play(ChooseDealer(3))
    engine.play(ChooseTrump(trump))
    return engine


def lay(engine: Klaverjassen, *plays: tuple[int, str]) -> list[Ruling]:
    out: list[Ruling] = []
    for seat, card in plays:
        out += engine.play(LayCard(seat, card))
    return out


def test_deals_nothing_and_waits_for_the_table_to_name_the_dealer():
    engine = at_table()
    assert engine.phase == "dealer" and engine.to_act is None and not engine.over
    assert engine.legal_moves() == [ChooseDealer(s) for s in range(4)]
    assert engine.card_locations() == [] and engine.hands == [UnseenHand(8)] * 4
    assert engine.expects() == ("klaverjassen.expect_dealer", {})
    with pytest.raises(NotNow) as err:
        engine.play(LayCard(0, "7H"))
    assert err.value.ruling() == Ruling("klaverjassen.not_playing_now", {"player": 1}, "reminder")
    assert engine.play(ChooseDealer(3)) == [Ruling("klaverjassen.dealer", {"player": 4})]
    quote(
        "Dans la variante obligatoire, le joueur à gauche du donneur choisit une couleur d'atout "
        "ou "
        "passe ; si tout le monde passe, le premier joueur a l'obligation d'en choisir une."
    )
    assert engine.phase == "trump" and engine.to_act == 0 and Pass() in engine.legal_moves()


def test_the_dealing_engine_refuses_the_moves_only_a_table_makes():
    game = Klaverjassen(4, random.Random(1), {"first_dealer": 3})
    for move in (ChooseDealer(0), TurnedCard("9D"), LayCard(0, "7H")):
        with pytest.raises(IllegalMove):
            game.play(move)
    game.play(ChooseTrump("H"))
    for move in (LayCard(0, sorted(game.hands[0])[0]), ChooseDealer(0)):
        with pytest.raises(IllegalMove) as err:
            game.play(move)
        assert err.value.key == "klaverjassen.play_a_card"


def test_the_turned_card_is_reported_from_the_centre():
    quote("Dans la variante avec carte retournée, la carte dévoilée constitue la première proposition d'atout.")
    engine = at_table(trump_choice="turned")
    engine.play(ChooseDealer(0))
    assert engine.phase == "turned" and engine.to_act == 0
    assert engine.expects() == ("klaverjassen.expect_turned", {"player": 1})
    assert engine.play(TurnedCard("9D")) == [Ruling("klaverjassen.turned_card", {"card": "9♦", "player": 2})]
    assert [m for m in engine.legal_moves() if isinstance(m, ChooseTrump)] == [ChooseTrump("D")]


def test_a_card_out_of_turn_is_refused_and_changes_nothing():
    engine = trump_named("H")
    with pytest.raises(OutOfTurn) as err:
        engine.play(LayCard(2, "KS"))
    assert err.value.ruling() == Ruling("klaverjassen.out_of_turn", {"player": 3, "expected": 1}, "violation")
    assert engine.table is not None and engine.table.plays == [] and engine.to_act == 0
    lay(engine, (0, "QS"))
    with pytest.raises(IllegalMove) as err:
        engine.play(LayCard(1, "QS"))  # already on the table
    assert err.value.key == "klaverjassen.not_in_hand"
    with pytest.raises(IllegalMove):
        engine.play(PlayCard("JS"))  # the table names the seat


def test_any_card_is_taken_until_a_later_card_proves_the_renege_then_the_showdown():
    quote("Niet bekennen terwijl je de gevraagde kleur wel bezit: dit is een ernstige overtreding (verzaken).")
    engine = trump_named("H")
    assert lay(engine, (0, "AS"), (1, "7D"), (2, "KS")) == []  # seat 1 shows no spade: maybe he has none
    lay(engine, (3, "QS"))
    assert engine.hands[1] == UnseenHand(7) and engine.to_act == 0
    rulings = lay(engine, (0, "10S"), (1, "8S"))  # he had a spade after all
    assert rulings == [
        Ruling("klaverjassen.renege_follow_suit", {"trick": 1, "player": 2, "card": "7♦", "proof": "8♠"}, "violation"),
        Ruling("klaverjassen.show_hands", {}, "violation"),
    ]
    assert engine.phase == "showdown" and engine.to_act is None
    assert engine.expects() == ("klaverjassen.expect_show", {})
    assert {m.seat for m in engine.legal_moves()} == {0, 1, 2, 3}
    rest = [c for c in klaverjassen.PIQUET if c not in {"AS", "7D", "KS", "QS", "10S", "8S"}]
    keys: list[str] = []
    for i, card in enumerate(rest):  # everyone lays his remaining cards face up
        keys += [r.key for r in engine.play(LayCard((2, 3, 0, 1)[i % 4], card))]
    assert keys[-2:] == ["klaverjassen.deal_lost", "klaverjassen.deal_scored"]
    assert engine.sheet.rows[0].outcome == "renege" and engine.log[0].reneges[0].card == "7D"
    assert engine.phase == "trump" and engine.dealer == 0 and engine.hands == [UnseenHand(8)] * 4


def test_claimed_roem_the_next_card_laid_leaves_it_unclaimed():
    quote("roem telt alleen mee als je dit aangeeft bij het spelen van de betreffende slag")
    engine = trump_named("H", roem="claimed")
    rulings = lay(engine, (0, "KH"), (1, "QH"), (2, "7H"), (3, "AH"))  # stuk and Q K A of trump
    assert rulings == [Ruling("klaverjassen.claim_offered", {"player": 4})]
    assert engine.phase == "claim" and engine.to_act == 3
    assert {ClaimRoem(True), ClaimRoem(False), LayCard(3, "8C")} <= set(engine.legal_moves())
    keys = [r.key for r in lay(engine, (3, "8C"))]
    assert keys == ["klaverjassen.trick_won"] and engine.roem == [0] and engine.to_act == 0


def mirror_deal(seed: int, options: dict) -> tuple[Klaverjassen, Klaverjassen, list[Ruling], list[Ruling]]:
    """One deal of the dealing engine's bots, reported move by move to an engine at the table."""
    game = Klaverjassen(4, random.Random(seed), {**options, "deals": 1})
    table = Klaverjassen(4, random.Random(seed + 1), {**options, "deals": 1}, at_table=True)
    table.play(ChooseDealer(game.dealer))
    said: list[Ruling] = []
    shown: list[Ruling] = []
    while not game.over:
        if table.phase == "turned":
            table.play(TurnedCard(game.bidding.turned))
        seat, move = game.to_act, game.bot_move()
        said += game.play(move)
        shown += table.play(LayCard(seat, move.card) if isinstance(move, PlayCard) else move)
    return game, table, said, shown


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from(klaverjassen.VARIANTS),
    st.sampled_from(klaverjassen.TRUMP_CHOICES),
    st.sampled_from(klaverjassen.ROEM_MODES),
)
def test_a_fair_table_is_never_accused_and_scores_as_the_dealing_engine(seed, variant, choice, roem):
    game, table, said, shown = mirror_deal(seed, {"variant": variant, "trump_choice": choice, "roem": roem})
    assert table.over and table.sheet.rows == game.sheet.rows
    assert shown == said and table.log[0].reneges == ()
