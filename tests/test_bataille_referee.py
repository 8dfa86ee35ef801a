"""Bataille referee scenarios: face-up cards confirmed in the players' zones, rulings out."""

from __future__ import annotations

from kiosk.referee.base import Observation
from kiosk.referee.bataille import BatailleReferee
from tests.quotes import decided, seed_says


def seen(ref: BatailleReferee, seat: int, card: str):
    return ref.observe(Observation("confirmed", card, f"seat{seat}"))


def test_layout_has_one_zone_per_player():
    assert BatailleReferee.layout(3).names == ("seat0", "seat1", "seat2")


def test_the_highest_face_up_card_takes():
    seed_says("la plus forte remporte les cartes (As, Roi, Dame, Valet, 10… jusqu’au 2).")
    ref = BatailleReferee(2)
    assert seen(ref, 0, "10H") == []
    rulings = seen(ref, 1, "JC")
    assert [(r.key, r.params["player"]) for r in rulings] == [("bataille.takes_seen", 2)]
    assert ref.status()["fights"] == 1 and ref.status()["to_act"] == 0
    assert ref.status()["scores"] == [0, 1]  # fights won: what the camera can prove


def test_a_tie_is_fought_by_the_tied_players_only():
    seed_says("Égalité ? Bataille !")
    decided("only the tied players fight;")
    ref = BatailleReferee(3)
    seen(ref, 0, "7H")
    seen(ref, 1, "3C")
    rulings = seen(ref, 2, "7S")
    assert rulings[0].key == "bataille.bataille" and rulings[0].params["players"] == "1 3"
    assert seen(ref, 1, "9D")[0].key == "bataille.not_fighting"
    seen(ref, 0, "2D")  # the face-down card is not seen; only the face-up one counts
    rulings = seen(ref, 2, "QS")
    assert rulings[0].key == "bataille.takes_seen" and rulings[0].params["player"] == 3
    assert rulings[0].params["cards"] == "7H 3C 7S 2D QS"
    assert ref.status()["fighters"] == [0, 1, 2]


def test_out_of_cards_during_a_bataille_loses():
    decided("a player without cards during a bataille loses;")
    ref = BatailleReferee(2)
    seen(ref, 0, "KH")
    seen(ref, 1, "KC")
    rulings = ref.on_input("out", player=1)
    keys = [r.key for r in rulings]
    assert keys == ["bataille.out_of_cards", "bataille.game_over"]
    assert ref.status()["over"] and ref.status()["winners"] == [0] and ref.inputs() == []


def test_out_of_cards_in_a_bataille_of_three_leaves_the_other_fighter_the_pot():
    ref = BatailleReferee(3)
    seen(ref, 0, "KH")
    seen(ref, 1, "KC")
    seen(ref, 2, "2C")
    rulings = ref.on_input("out", player=1)
    assert [r.key for r in rulings] == ["bataille.out_of_cards", "bataille.takes_seen"]
    assert rulings[1].params["player"] == 1 and ref.status()["fighters"] == [0, 2]


def test_manneken_pis_are_out():
    seed_says("Retire les Manneken-Pis")
    assert seen(BatailleReferee(2), 0, "JK1")[0].key == "bataille.manneken_out"


def test_inputs_offer_out_for_each_player_still_in():
    ref = BatailleReferee(3)
    assert [spec.params["player"] for spec in ref.inputs()] == [0, 1, 2]
    assert ref.on_input("out", player=7)[0].key == "bataille.input_not_now"
