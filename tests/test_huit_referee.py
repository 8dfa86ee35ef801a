"""Huit américain referee scenarios: cards confirmed on the discard pile, suits named by touch."""

from __future__ import annotations

from kiosk.referee.base import Observation
from kiosk.referee.huit import HuitReferee
from tests.quotes import decided, seed_says


def lay(ref: HuitReferee, card: str):
    return ref.observe(Observation("confirmed", card, "discard"))


def test_layout_has_draw_and_discard_piles():
    assert {"draw", "discard", "seat0", "seat1"} <= set(HuitReferee.layout(2).names)


def test_same_suit_or_same_value_fits_other_cards_go_back():
    seed_says("pose une carte du même symbole (♣ ♥ ♠ ♦) ou de la même valeur que celle du dessus.")
    ref = HuitReferee(3)
    assert lay(ref, "9H")[0].key == "huit.start"
    assert lay(ref, "3H")[0].key == "huit.played"  # seat 0, same suit
    assert lay(ref, "3C")[0].key == "huit.played"  # seat 1, same value
    wrong = lay(ref, "KD")
    assert wrong[0].key == "huit.does_not_fit" and wrong[0].params["player"] == 3
    assert lay(ref, "5C")[0].key == "huit.take_back"
    ref.observe(Observation("removed", "KD", "discard"))
    assert lay(ref, "5C")[0].key == "huit.played" and ref.status()["to_act"] == 0
    assert ref.status()["hand_counts"] == [6, 6, 6]


def test_an_8_on_anything_then_the_named_suit():
    seed_says("Le 8 se pose sur tout et te permet de choisir le symbole suivant.")
    ref = HuitReferee(2)
    lay(ref, "KS")
    rulings = lay(ref, "8D")
    assert [r.key for r in rulings] == ["huit.played", "huit.choose_suit"]
    spec = ref.inputs()[0]
    assert spec.action == "suit" and set(spec.choices) == {"C", "D", "H", "S"}
    assert lay(ref, "4H")[0].key == "huit.name_suit"
    ref.observe(Observation("removed", "4H", "discard"))
    assert ref.on_input("suit", choice="H")[0].key == "huit.suit_named"
    assert lay(ref, "4H")[0].key == "huit.played" and ref.status()["to_act"] == 0


def test_a_starting_8_keeps_its_suit():
    decided("a starting 8 keeps its suit.")
    ref = HuitReferee(2)
    lay(ref, "8C")
    assert ref.inputs()[0].action == "drew"  # no suit to name
    assert lay(ref, "KC")[0].key == "huit.played"


def test_forced_draw_reminder_and_pass():
    seed_says("Sinon, pioche une carte.")
    decided("one forced draw when no card fits, played at once if it fits;")
    ref = HuitReferee(2)
    lay(ref, "9H")
    assert ref.on_input("pass")[0].key == "huit.input_not_now"  # no pass without the draw
    assert ref.on_input("drew")[0].key == "huit.play_drawn_if_fits"
    assert ref.status()["hand_counts"] == [8, 7]
    assert ref.on_input("pass")[0].key == "huit.passes" and ref.status()["to_act"] == 1


def test_first_without_cards_wins():
    seed_says("Le premier qui n’a plus de cartes gagne.")
    ref = HuitReferee(2)
    lay(ref, "2C")
    hearts = ["2H", "3H", "4H", "5H", "6H", "7H", "9H", "10H", "JH", "QH", "KH", "AH", "8H"]
    for card in hearts[:-1]:
        assert lay(ref, card)[0].key == "huit.played"
    rulings = lay(ref, hearts[-1])
    assert rulings[-1].key == "huit.wins" and rulings[-1].params["player"] == 1
    assert ref.status()["over"] and ref.status()["winners"] == [0] and ref.inputs() == []


def test_manneken_out_and_hands_never_seen():
    decided("Manneken-Pis out;")
    ref = HuitReferee(2)
    assert lay(ref, "JK2")[0].key == "huit.manneken_out"
    assert ref.observe(Observation("confirmed", "5D", "seat1")) == []
