"""Bataille / Oorlog, rule by rule: every sentence of seed 000_de7fdf0eefacbd60.txt about the
game and every decision of rules-decisions.md about it."""

from __future__ import annotations

import random

import pytest

from kiosk.games.base import IllegalMove
from kiosk.games.bataille import STRENGTH, Bataille, Flip, OutOfCards, Shown
from kiosk.games.hands import UnseenHand
from tests.quotes import decided, seed_says


def rig(piles: list[list[str]], **options) -> Bataille:
    """A game whose piles are ``piles`` (top card first); the other cards are out of play."""
    game = Bataille(len(piles), random.Random(0), options)
    game.piles = [list(p) for p in piles]
    return game


def test_manneken_out_and_every_card_dealt_face_down():
    seed_says("Retire les Manneken-Pis et distribue toutes les cartes, face cachée.")
    seed_says("Haal de Manneken-Pissen eruit en deel alle kaarten gedekt uit.")
    game = Bataille(3, random.Random(4))
    assert sorted(len(p) for p in game.piles) == [17, 17, 18]
    where = dict(game.card_locations())
    assert where["JK1"] == where["JK2"] == "aside"
    assert sum(1 for _, place in game.card_locations() if place.startswith("pile")) == 52


def test_highest_card_takes_the_cards():
    seed_says(
        "En même temps, chacun retourne la carte du dessus de son paquet : la plus forte "
        "remporte les cartes (As, Roi, Dame, Valet, 10… jusqu’au 2)."
    )
    order = sorted(STRENGTH, key=STRENGTH.get, reverse=True)
    assert order == ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    game = rig([["KH", "2C"], ["AS", "3D"], ["10C", "4S"]])
    rulings = game.play(Flip())
    assert rulings[-1].key == "bataille.takes" and rulings[-1].params["player"] == 2
    assert game.piles[1] == ["3D", "AS", "10C", "KH"]
    assert game.piles[0] == ["2C"] and game.piles[2] == ["4S"]


def test_a_tie_is_a_bataille_between_the_tied_players_only():
    seed_says(
        "Égalité ? Bataille ! Chacun pose une carte face cachée puis une face visible : la plus forte emporte tout."
    )
    decided("Bataille: only the tied players fight;")
    game = rig([["7H", "9C", "2D", "5S"], ["7S", "KC", "3D", "6S"], ["3C", "QS"]])
    rulings = game.play(Flip())
    assert rulings[-1].key == "bataille.bataille" and rulings[-1].params["players"] == "1 2"
    assert game.fighters == [0, 1] and game.piles[2] == ["QS"]
    game.play(Flip())  # 9C down, 2D up against KC down, 3D up
    assert game.piles[1] == ["6S", "7S", "KC", "3D", "3C", "7H", "9C", "2D"]  # clockwise from 1
    assert game.piles[0] == ["5S"] and game.piles[2] == ["QS"]


def test_a_player_without_cards_during_a_bataille_loses():
    decided("a player without cards during a bataille loses;")
    game = rig([["7H", "2C"], ["7S", "KC", "3D", "6S"]])
    game.play(Flip())  # bataille; player 1 has only one card left for two
    rulings = game.play(Flip())
    keys = [r.key for r in rulings]
    assert keys[0] == "bataille.out_of_cards" and rulings[0].params["player"] == 1
    assert game.over and game.winners() == [1] and len(game.piles[1]) == 6


def test_house_rule_last_card_face_up_fights_the_bataille() -> None:
    game = rig([["7H", "AC"], ["7S", "KC", "3D", "6S"]], last_card_up=True)
    game.play(Flip())  # bataille; player 1 lays his last card, the Ace, face up
    rulings = game.play(Flip())
    assert [r.key for r in rulings] == ["bataille.takes"] and rulings[0].params["player"] == 1
    assert game.piles[0] == ["7H", "AC", "7S", "KC", "3D"] and game.piles[1] == ["6S"]
    game = rig([["7H", "2C"], ["7S", "KC", "3D", "6S"]], last_card_up=True)
    game.play(Flip())
    game.play(Flip())  # the 2 loses to the 3: player 1 has no card left
    assert game.over and game.winners() == [1]
    with pytest.raises(ValueError, match="last_card_up must be true or false"):
        Bataille(2, random.Random(0), {"last_card_up": 1})


def test_won_cards_go_under_the_pile_winners_first_in_play_order():
    decided("cards won go under the pile in a fixed order (winner's first, in play order);")
    game = rig([["2C", "8H"], ["3C", "8D"], ["AC", "8S"], ["4C", "8C"]])
    game.play(Flip())
    assert game.piles[2] == ["8S", "AC", "4C", "2C", "3C"]  # winner, then clockwise from him


def test_whoever_wins_all_the_cards_has_won():
    seed_says("Celui qui gagne toutes les cartes a gagné.")
    seed_says("Wie alle kaarten wint, is de winnaar.")
    game = rig([["AS"], ["2H"]])
    rulings = game.play(Flip())
    assert game.over and game.winners() == [0] and rulings[-1].level == "game_over"
    assert game.scores() == [2, 0] and game.to_act is None and game.legal_moves() == []


def test_round_cap_then_most_cards_wins():
    decided("a cap on rounds (option, default 2000) ends the game, most cards wins.")
    assert Bataille.default_options["max_rounds"] == 2000
    game = rig([["AS", "2C", "3C"], ["2H", "4D"]], max_rounds=1)
    game.play(Flip())
    assert game.over and game.scores() == [4, 1] and game.winners() == [0]


def test_only_flip_is_a_move_and_a_refusal_changes_nothing():
    game = Bataille(2, random.Random(1))
    before = list(game.card_locations())
    with pytest.raises(IllegalMove) as err:
        game.play("peek")
    assert err.value.key == "bataille.only_flip" and game.card_locations() == before
    assert game.legal_moves() == [Flip()]


def test_unknown_option_is_refused():
    with pytest.raises(ValueError, match="unknown option"):
        Bataille(2, random.Random(0), {"rounds": 5})


def table(counts: list[int], **options) -> Bataille:
    """A game at the table whose piles hold ``counts`` cards."""
    game = Bataille(len(counts), random.Random(0), options, at_table=True)
    game.piles = [UnseenHand(n) for n in counts]
    return game


def test_at_the_table_the_piles_are_counted_and_the_cards_shown_one_by_one():
    seed_says("Retire les Manneken-Pis et distribue toutes les cartes, face cachée.")
    game = Bataille(3, random.Random(0), at_table=True)
    assert game.scores() == [18, 17, 17] and game.card_locations() == [("JK1", "aside"), ("JK2", "aside")]
    assert game.play(Shown(1, "9C")) == [] and game.to_act == 0
    for move, key in [(Shown(1, "2C"), "bataille.already_shown"), (Shown(2, "9C"), "bataille.already_shown")]:
        with pytest.raises(IllegalMove) as err:
            game.play(move)
        assert err.value.key == key
    game.play(Shown(0, "9D"))
    rulings = game.play(Shown(2, "3S"))
    assert rulings[0].key == "bataille.bataille" and game.to_act == 0 and game.scores() == [17, 16, 16]
    with pytest.raises(IllegalMove) as err:
        game.play(Shown(2, "4S"))
    assert err.value.key == "bataille.not_fighting"
    game.play(Shown(0, "2D"))
    rulings = game.play(Shown(1, "KD"))  # each laid a card face down, then this one
    assert rulings[0].params == {"player": 2, "cards": "9C 9D 3S 2D KD"} and game.scores() == [15, 21, 16]


def test_at_the_table_a_fighter_short_of_cards_is_out_when_the_bataille_is_called():
    decided("a player without cards during a bataille loses;")
    game = table([1, 4, 3])
    game.play(Shown(0, "7H"))
    game.play(Shown(1, "7S"))
    rulings = game.play(Shown(2, "2C"))
    keys = [r.key for r in rulings]
    assert keys == ["bataille.bataille", "bataille.out_of_cards", "bataille.takes_seen"]
    assert rulings[-1].params["player"] == 2 and game.scores() == [0, 6, 2] and not game.over
    assert game.fighters == [1, 2] and game.to_act == 1


def test_at_the_table_the_house_rule_fights_with_the_last_card():
    game = table([2, 4], last_card_up=True)
    game.play(Shown(0, "7H"))
    game.play(Shown(1, "7S"))
    game.play(Shown(0, "AC"))  # his last card, face up
    rulings = game.play(Shown(1, "KD"))
    assert rulings[0].params["player"] == 1 and game.scores() == [5, 1]


def test_at_the_table_the_round_cap_counts_the_piles():
    decided("a cap on rounds (option, default 2000) ends the game, most cards wins.")
    game = table([3, 2], max_rounds=1)
    game.play(Shown(0, "AS"))
    rulings = game.play(Shown(1, "2H"))
    assert rulings[-1].key == "bataille.game_over" and game.winners() == [0] and game.scores() == [4, 1]


def test_a_player_who_says_his_pile_is_empty_is_out():
    game = table([10, 10, 10])
    game.play(Shown(0, "7H"))
    assert [r.key for r in game.play(OutOfCards(1))] == ["bataille.out_of_cards"]
    rulings = game.play(Shown(2, "8H"))
    assert rulings[0].params["player"] == 3 and game.scores() == [9, 0, 11] and game.fighters == [0, 2]


def test_table_moves_are_refused_when_dealt_and_flip_at_the_table():
    for game, move in [(Bataille(2, random.Random(0)), Shown(0, "2C")), (table([5, 5]), Flip())]:
        with pytest.raises(IllegalMove) as err:
            game.play(move)
        assert err.value.key == "bataille.only_flip"
