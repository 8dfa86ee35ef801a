"""The Manille à deux referee: pile rows and seat zones, the visible tops as part of what a
player could play, take-backs, late proofs, early reveals. Seed: 004_7389259e18a88c97.txt."""

from __future__ import annotations

import random

import pytest
from test_manille_rules import EXAMPLE

from kiosk.games.base import Ruling
from kiosk.games.manille import ChooseTrump, Double, Manille
from kiosk.referee.base import Observation
from kiosk.referee.manille import ManilleReferee
from kiosk.referee.registry import available_referees
from tests.quotes import Quotes

SEED = "004_7389259e18a88c97.txt"
quote = Quotes(SEED)


def see(ref: ManilleReferee, kind: str, card: str, zone: str) -> list[str]:
    return [r.key for r in ref.observe(Observation(kind, card, zone))]


def example_table(trump: str = "S") -> ManilleReferee:
    """Seat 0 deals the seed's example; the visible tops lie in the pile rows."""
    ref = ManilleReferee(2)
    ref.on_input("dealer", choice="0")
    for seat in (0, 1):
        for card in EXAMPLE["visible"][seat]:
            see(ref, "confirmed", card, f"piles{seat}")
    ref.on_input("trump", choice=trump)
    ref.on_input("decline")
    return ref


def test_registered_with_pile_rows_and_seat_zones():
    assert available_referees()["manille"] is ManilleReferee
    layout = ManilleReferee.layout(2)
    assert set(layout.names) == {"seat0", "seat1", "piles0", "piles1"}
    assert layout.zone_at((0.5, 0.9)) == "piles0" and layout.zone_at((0.5, 0.3)) == "seat1"


def test_buttons_dealer_trump_contre_surcontre():
    ref = ManilleReferee(2)
    ref.on_input("dealer", choice="1")
    spec = ref.inputs()[0]
    assert spec.action == "trump" and "none" in spec.choices and spec.params == {"player": 2}
    assert [r.key for r in ref.on_input("trump", choice="none")] == ["manille.no_trump"]
    assert [i.action for i in ref.inputs()] == ["double", "decline"]
    assert ref.inputs()[0].label_key == "manille.input_contre" and ref.status().to_act == 0
    ref.on_input("double")
    assert ref.inputs()[0].label_key == "manille.input_surcontre" and ref.status().to_act == 1
    assert [r.key for r in ref.on_input("double")] == ["manille.surcontre"]
    assert ref.status().details["factor"] == 8 and ref.status().to_act == 0


def test_worked_example_king_refused_the_visible_ten_must_win():
    quote("Vérifiez une renonce selon la main et les sommets disponibles à cet instant.")
    quote("notre table pédagogique restaure la position si possible")
    ref = example_table("S")
    assert see(ref, "confirmed", "AD", "seat1") == []
    rulings = ref.observe(Observation("confirmed", "KD", "seat0"))
    assert [r.key for r in rulings] == ["manille.renege_go_over", "manille.take_back"]
    assert rulings[0].params == {"trick": 1, "player": 1, "card": "K♦", "proof": "10♦"}
    assert ref.status().details["trick"] == [(1, "AD")]  # the position is restored
    see(ref, "removed", "KD", "seat0")
    see(ref, "removed", "10D", "piles0")
    rulings = ref.observe(Observation("confirmed", "10D", "seat0"))
    assert rulings[0].key == "manille.trick_won"
    assert rulings[0].params == {"player": 1, "trick": 1, "points": 9}
    quote("Le nouveau sept ne peut entrer dans la levée terminée.")
    see(ref, "confirmed", "7H", "piles0")  # the freed seven is turned after the trick
    assert "7H" in ref.status().details["visible"][0] and ref.status().to_act == 0


def test_hidden_card_turned_too_early_is_hidden_again_and_counts_later():
    quote("Recachez un dessous révélé trop tôt avant de continuer, même si l’information est connue.")
    ref = example_table("S")
    see(ref, "confirmed", "AS", "seat1")  # seat 1 leads its visible A♠, freeing a hidden K♥
    assert see(ref, "confirmed", "KH", "piles1") == ["manille.hide_again"]
    assert "KH" not in ref.engine.visible_tops(1)
    see(ref, "confirmed", "10S", "seat0")  # the visible 10♠ goes over: seat 0 wins
    assert "KH" in ref.engine.visible_tops(1)


def test_renege_proven_later_stops_the_deal_and_it_is_redealt_without_points():
    quote(
        "Convenez si une renonce avérée perd la donne ; notre table pédagogique restaure la "
        "position "
        "si possible, sinon redonne sans points."
    )
    ref = example_table("none")
    see(ref, "confirmed", "7C", "seat1")
    see(ref, "confirmed", "KD", "seat0")  # seat 0 discards from hand while it holds clubs
    assert ref.engine.prover.proven == [] and ref.status().to_act == 1
    see(ref, "confirmed", "AH", "seat1")  # seat 1 leads its visible A♥; seat 0 shows no heart
    rulings = ref.observe(Observation("confirmed", "8C", "seat0"))  # the clubs were in the hand
    keys = [r.key for r in rulings]
    assert "manille.renege_go_over" in keys and keys[-1] == "manille.show_hands"
    assert ref.engine.phase == "showdown"
    hand = [c for c in EXAMPLE["hand"][0] if c not in ("KD", "8C")]
    keys = []
    for card in hand:
        keys += see(ref, "confirmed", card, "seat0")
    for card in [c for c in EXAMPLE["hand"][1] if c != "7C"]:
        keys += see(ref, "confirmed", card, "seat1")
    assert keys[-1] == "manille.redeal"
    assert ref.engine.phase == "trump" and ref.engine.dealer == 0 and ref.engine.boam.totals == [0, 0]
    assert {(r.trick, r.card) for r in ref.engine.log[-1].reneges} == {(1, "KD")}


def mirror(seed: int) -> tuple[Manille, ManilleReferee, list[Ruling], list[Ruling]]:
    """Play a boam with the engine's bots and show the same table to the referee; returns both,
    with the rulings each gave (the engine's without ``revealed``: at the table the players turn
    the freed cards and the camera sees them)."""
    game = Manille(2, random.Random(seed), {"first_dealer": 0})
    ref = ManilleReferee(2)
    ref.on_input("dealer", choice="0")
    said: list[Ruling] = []
    shown: list[Ruling] = []
    while not game.over:
        if game.phase == "trump":
            for seat in (0, 1):
                for card in game.visible_tops(seat):
                    shown += ref.observe(Observation("confirmed", card, f"piles{seat}"))
        seat, move = game.to_act, game.bot_move()
        said += [r for r in game.play(move) if r.key != "manille.revealed"]
        if isinstance(move, ChooseTrump):
            shown += ref.on_input("trump", choice=move.suit or "none")
        elif isinstance(move, Double):
            shown += ref.on_input("double" if move.yes else "decline")
        else:
            shown += ref.observe(Observation("confirmed", move.card, f"seat{seat}"))
            if game.phase == "play":
                for s in (0, 1):
                    for card in game.visible_tops(s):
                        shown += ref.observe(Observation("confirmed", card, f"piles{s}"))
    return game, ref, said, shown


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_boam_through_the_adapter_shows_the_engines_rulings_and_result(seed):
    quote("Premier à 101 points de match gagne le boam.")
    game, ref, said, shown = mirror(seed)
    assert shown == said  # the same words, the same order
    assert said[-1].key == "manille.match_won"
    status = ref.status()
    assert status.over and status.expects is None and ref.inputs() == []
    assert ref.engine.boam.rows == game.boam.rows and max(game.boam.totals) >= 101
    assert list(status.scores) == game.boam.totals and list(status.winners) == game.winners()
    assert not any(deal.reneges for deal in ref.engine.log)  # a fair table is never accused
