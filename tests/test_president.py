"""Président / Presidenten, rule by rule: every sentence of seed 000_de7fdf0eefacbd60.txt about
the game and every decision of rules-decisions.md about it."""

from __future__ import annotations

import random

import pytest

from kiosk.games.base import IllegalMove
from kiosk.games.hands import UnseenHand
from kiosk.games.president import GiveBack, Pass, Play, President, best_card, value
from tests.quotes import decided, seed_says


def rig(hands: list[list[str]], current: int = 0, **options) -> President:
    """A round in progress with these hands; the other cards count as already played."""
    game = President(len(hands), random.Random(0), options)
    game.hands = [list(h) for h in hands]
    held = {c for h in hands for c in h}
    game.taken = [c for c in game.cards if c not in held]
    game.current = current
    return game


def test_manneken_out_and_every_card_dealt_from_the_dealers_left():
    seed_says("Retire les Manneken-Pis et distribue toutes les cartes.")
    decided("the dealer's left neighbour leads the first round;")
    game = President(5, random.Random(3))
    assert [len(h) for h in game.hands] == [11, 11, 10, 10, 10]  # seat 4 deals, seat 0 first
    assert game.to_act == 0
    assert {c for c, place in game.card_locations() if place == "aside"} == {"JK1", "JK2"}


def test_the_first_player_lays_one_card_or_several_of_the_same_value():
    seed_says("Le premier joueur pose une carte, ou plusieurs de même valeur.")
    game = rig([["5C", "5D", "5H", "9S"], ["KC"], ["2C"]])
    moves = game.legal_moves()
    assert Play(("5C", "5D", "5H")) in moves and Play(("9S",)) in moves and Pass() not in moves
    with pytest.raises(IllegalMove) as err:
        game.play(Play(("5C", "9S")))
    assert err.value.key == "president.mixed_values" and len(game.hands[0]) == 4
    with pytest.raises(IllegalMove) as err:
        game.play(Pass())
    assert err.value.key == "president.must_lead"


def test_each_in_turn_lays_as_many_equal_or_higher_or_passes():
    seed_says("Chacun à son tour pose autant de cartes, d’une valeur égale ou plus forte, ou passe.")
    game = rig([["7C", "7D", "3S"], ["6C", "6D", "7H", "7S", "KC"], ["AC"]])
    game.play(Play(("7C", "7D")))
    for bad, key in [(("KC",), "president.wrong_count"), (("6C", "6D"), "president.too_low")]:
        with pytest.raises(IllegalMove) as err:
            game.play(Play(bad))
        assert err.value.key == key
    assert Pass() in game.legal_moves()
    game.play(Play(("7H", "7S")))  # equal value is enough
    assert game.previous == ("7H", "7S") and game.to_act == 2


def test_the_2_is_the_highest_card():
    seed_says("Le 2 est la carte la plus forte.")
    decided("Président: 2 high;")
    assert value("2C") > value("AS") > value("KH") > value("3D")
    game = rig([["AS", "4C"], ["2H", "5C"], ["KC"]])
    game.play(Play(("AS",)))
    assert Play(("2H",)) in game.legal_moves()


def test_when_everyone_passes_the_last_to_play_starts_again():
    seed_says("Quand tout le monde passe, le dernier à avoir joué recommence.")
    seed_says("Past iedereen, dan begint wie het laatst speelde opnieuw.")
    game = rig([["9C", "4D"], ["5C", "6C"], ["3C", "QH"]])
    game.play(Play(("9C",)))
    game.play(Pass())
    rulings = game.play(Pass())
    assert rulings[-1].key == "president.trick_won" and game.to_act == 0
    assert game.previous is None and "9C" in game.taken


def test_a_player_who_passed_may_play_again_in_the_same_trick():
    decided("a player who passed may play again in the same trick;")
    game = rig([["4C", "JD"], ["5C", "9D"], ["7C", "QH"]])
    game.play(Play(("4C",)))
    game.play(Pass())  # seat 1 passes ...
    game.play(Play(("7C",)))
    game.play(Pass())  # seat 0
    assert game.to_act == 1 and Play(("9D",)) in game.legal_moves()
    game.play(Play(("9D",)))  # ... and plays again in the same trick
    assert game.previous == ("9D",)


def test_first_out_is_president_last_is_balayeur_who_gives_his_best_card():
    seed_says(
        "Le premier qui se débarrasse de ses cartes devient Président, le dernier devient "
        "Balayeur : à la manche suivante, il donne sa meilleure carte au Président."
    )
    game = rig([["AC"], ["3C", "4C"], ["5D", "6D"]])
    game.play(Play(("AC",)))  # seat 0 is out first
    game.play(Pass())
    game.play(Pass())  # seat 0 is out: the next player still in leads
    game.play(Play(("3C",)))
    game.play(Play(("5D",)))
    game.play(Pass())  # seat 2 leads again and goes out: seat 1 is the last, Balayeur
    rulings = game.play(Play(("6D",)))
    roles = next(r for r in rulings if r.key == "president.roles")
    assert roles.params == {"president": 1, "balayeur": 2} and game.titles == [1, 0, 0]
    given = next(r for r in rulings if r.key == "president.gives_best").params
    assert given["player"] == 2 and given["to"] == 1
    card = given["card"]
    assert card in game.hands[0] and all(value(c) <= value(card) for c in game.hands[1])
    assert game.to_act == 2  # the Balayeur dealt; his left neighbour leads


def test_the_president_gives_nothing_back_by_default_option_one_card():
    decided("the Président gives nothing back (option).")
    assert President.default_options["president_gives_back"] is False
    game = rig([["AC"], ["3C"], ["5D", "6D"]], president_gives_back=True)
    game.play(Play(("AC",)))
    game.play(Pass())
    game.play(Pass())
    game.play(Play(("3C",)))  # seat 1 out too: seat 2 is Balayeur
    assert game.roles == {"president": 0, "balayeur": 2} and game.to_act == 0
    assert all(isinstance(m, GiveBack) for m in game.legal_moves())
    card = game.hands[0][0]
    game.play(GiveBack(card))
    assert card in game.hands[2] and game.to_act == 0  # seat 0 is the Balayeur's left neighbour


def test_best_card_is_the_highest_value():
    assert best_card(["KC", "2D", "AS"]) == "2D"


def test_match_of_rounds_most_presidencies_wins():
    game = President(4, random.Random(5), {"rounds": 2})
    while not game.over:
        game.play(game.bot_move())
    assert game.round == 2 and sum(game.scores()) == 2
    assert game.winners() == [s for s in range(4) if game.titles[s] == max(game.titles)]


def test_at_the_table_the_hands_are_counted_from_the_deal():
    decided("the dealer's left neighbour leads the first round;")
    game = President(5, random.Random(3), at_table=True)
    assert [len(h) for h in game.hands] == [11, 11, 10, 10, 10] and game.to_act == 0
    assert game.card_locations() == [("JK1", "aside"), ("JK2", "aside")]
    game.play(Play(("5C", "5D")))
    assert [len(h) for h in game.hands] == [9, 11, 10, 10, 10] and game.laid_this_round("5D")
    for cards, key in [
        (("5H", "5D"), "president.not_in_hand"),  # 5D lies on the table: in nobody's hand
        (("JK1", "JK2"), "president.manneken_out"),
        (("4C", "4D"), "president.too_low"),
    ]:
        with pytest.raises(IllegalMove) as err:
            game.play(Play(cards))
        assert err.value.key == key and len(game.hands[1]) == 11


def test_at_the_table_the_balayeur_s_card_moves_in_the_counts():
    seed_says("à la manche suivante, il donne sa meilleure carte au Président.")
    game = President(3, random.Random(0), at_table=True)
    game.hands = [UnseenHand(1), UnseenHand(1), UnseenHand(18)]
    game.play(Play(("KC",)))  # seat 0 out: Président
    game.play(Pass())
    game.play(Pass())
    rulings = game.play(Play(("3C",)))  # seat 1 out: seat 2 is Balayeur and deals
    keys = [r.key for r in rulings]
    assert keys[-2:] == ["president.roles", "president.give_best_card"] and game.to_act == 0
    assert [len(h) for h in game.hands] == [19, 17, 16]
