"""Bataille referee scenarios: face-up cards confirmed in the players' zones, rulings out; whole
dealt games shown to the referee card by card, as the camera would confirm them."""

from __future__ import annotations

import itertools
import random

from kiosk.games.base import Ruling
from kiosk.games.bataille import Bataille, Flip
from kiosk.referee.base import Expect, Observation
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
    assert ref.status().details["fights"] == 1 and ref.status().to_act == 0
    assert ref.status().scores == (25, 27)  # the cards in each pile, counted from the deal


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
    assert ref.status().details["fighters"] == [0, 1, 2]
    assert ref.status().scores == (15, 16, 21)  # dealt 18 17 17; the 7 cards of the pot to seat 2


def test_out_of_cards_during_a_bataille_loses():
    decided("a player without cards during a bataille loses;")
    ref = BatailleReferee(2)
    seen(ref, 0, "KH")
    seen(ref, 1, "KC")
    assert ref.status().expects == Expect("bataille.expect_bataille", {"player": 1})
    rulings = ref.on_input("out", player=1)
    keys = [r.key for r in rulings]
    assert keys == ["bataille.out_of_cards", "bataille.takes_seen", "bataille.game_over"]
    status = ref.status()
    assert status.over and status.winners == (0,) and ref.inputs() == [] and status.expects is None


def test_out_of_cards_in_a_bataille_of_three_leaves_the_other_fighter_the_pot():
    ref = BatailleReferee(3)
    seen(ref, 0, "KH")
    seen(ref, 1, "KC")
    seen(ref, 2, "2C")
    rulings = ref.on_input("out", player=1)
    assert [r.key for r in rulings] == ["bataille.out_of_cards", "bataille.takes_seen"]
    assert rulings[1].params["player"] == 1 and ref.status().details["fighters"] == [0, 2]


def test_manneken_pis_are_out():
    seed_says("Retire les Manneken-Pis")
    assert seen(BatailleReferee(2), 0, "JK1")[0].key == "bataille.manneken_out"


def test_inputs_offer_out_for_each_player_still_in():
    ref = BatailleReferee(3)
    assert [spec.params["player"] for spec in ref.inputs()] == [0, 1, 2]
    assert ref.on_input("out", player=7)[0].key == "bataille.input_not_now"


def show_flip(game: Bataille, ref: BatailleReferee) -> list[Ruling]:
    """Play one Flip of the dealt game and show the referee each face-up card it lays; a last
    fighter standing lays nothing at the table (the referee gave him the pot already)."""
    faces = {}
    for seat in game.fighters:
        pile = game.piles[seat]
        need = 2 if game.in_bataille and not (game.options["last_card_up"] and len(pile) == 1) else 1
        if len(pile) >= need:
            faces[seat] = pile[need - 1]
    game.play(Flip())
    rulings = []
    for seat, card in faces.items() if len(faces) > 1 else ():
        rulings += seen(ref, seat, card)
    return rulings


def test_whole_dealt_games_reach_the_same_end_at_the_table():
    seed_says("Celui qui gagne toutes les cartes a gagné.")
    decided("a cap on rounds (option, default 2000) ends the game, most cards wins.")
    keys: set[str] = set()
    for players, seed, last_up in itertools.product((2, 3, 6), range(3), (False, True)):
        options = {"max_rounds": 300, "last_card_up": last_up}
        game, ref = Bataille(players, random.Random(seed), options), BatailleReferee(players, options, seed)
        shown: list[Ruling] = []
        while not game.over:
            shown += show_flip(game, ref)
            if not game.in_bataille:
                assert ref.status().scores == tuple(game.scores())
        wrong = [r for r in shown if r.level == "violation" and r.key != "bataille.out_of_cards"]
        assert not wrong
        status = ref.status()
        assert status.over and status.winners == tuple(game.winners()) and status.scores == tuple(game.scores())
        assert status.details["fights"] == game.rounds and shown[-1].key == "bataille.game_over"
        keys |= {r.key for r in shown}
    assert {"bataille.bataille", "bataille.takes_seen", "bataille.out_of_cards"} <= keys
