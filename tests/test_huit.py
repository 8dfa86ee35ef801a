"""Huit américain / Pesten, rule by rule: every sentence of seed 000_de7fdf0eefacbd60.txt about
the game and every decision of rules-decisions.md about it."""

from __future__ import annotations

import random

import pytest

from kiosk.games.base import IllegalMove
from kiosk.games.huit import Draw, Huit, NameSuit, Pass, Play, TurnUp
from tests.quotes import decided, seed_says


def rig(
    hands: list[list[str]], discard: list[str], stock: list[str], suit: str | None = None, current: int = 0
) -> Huit:
    """A game in the given state (stock top = last); the other cards are out of play."""
    game = Huit(len(hands), random.Random(0))
    game.hands = [list(h) for h in hands]
    game.discard, game.stock = list(discard), list(stock)
    game.suit = suit or discard[-1][-1]
    game.current = current
    return game


def test_deal_7_each_5_from_5_players_one_card_turned_rest_stock():
    seed_says(
        "Distribue 7 cartes à chacun (5 à partir de 5 joueurs), retourne une carte pour "
        "commencer la défausse et garde le reste en pioche."
    )
    decided("7 cards each, 5 from 5 players.")
    four = Huit(4, random.Random(1))
    assert [len(h) for h in four.hands] == [7] * 4
    assert len(four.discard) == 1 and len(four.stock) == 52 - 28 - 1
    five = Huit(5, random.Random(1))
    assert [len(h) for h in five.hands] == [5] * 5 and len(five.stock) == 52 - 25 - 1


def test_manneken_pis_out():
    decided("Huit américain: Manneken-Pis out;")
    game = Huit(3, random.Random(2))
    assert {c for c, place in game.card_locations() if place == "aside"} == {"JK1", "JK2"}


def test_same_suit_or_same_value():
    seed_says("À ton tour, pose une carte du même symbole (♣ ♥ ♠ ♦) ou de la même valeur que celle du dessus.")
    game = rig([["3H", "9C", "KS"], ["2D"]], ["9H"], ["4C"])
    assert set(game.legal_moves()) == {Play("3H"), Play("9C")}
    with pytest.raises(IllegalMove) as err:
        game.play(Play("KS"))
    assert err.value.key == "huit.does_not_fit" and game.hands[0] == ["3H", "9C", "KS"]
    game.play(Play("9C"))
    assert game.top == "9C" and game.suit == "C" and game.to_act == 1


def test_otherwise_one_forced_draw_played_at_once_if_it_fits():
    seed_says("Sinon, pioche une carte.")
    decided("one forced draw when no card fits, played at once if it fits;")
    game = rig([["KS", "2D"], ["4D"]], ["9H"], ["5C", "3H"])
    assert game.legal_moves() == [Draw()]
    rulings = game.play(Draw())
    assert rulings[-1].key == "huit.drawn_fits" and game.to_act == 0
    assert game.legal_moves() == [Play("3H")]
    with pytest.raises(IllegalMove) as err:
        game.play(Play("KS"))
    assert err.value.key == "huit.play_drawn"
    game.play(Play("3H"))
    assert game.top == "3H" and game.to_act == 1


def test_a_forced_draw_that_does_not_fit_ends_the_turn():
    game = rig([["KS", "2D"], ["4D"]], ["9H"], ["5C"])
    game.play(Draw())
    assert game.hands[0] == ["KS", "2D", "5C"] and game.to_act == 1


def test_no_voluntary_draw():
    decided("no voluntary draw;")
    game = rig([["3H", "KS"], ["4D"]], ["9H"], ["5C"])
    with pytest.raises(IllegalMove) as err:
        game.play(Draw())
    assert err.value.key == "huit.no_voluntary_draw" and game.stock == ["5C"]


def test_an_8_goes_on_anything_and_names_the_next_suit():
    seed_says("Le 8 se pose sur tout et te permet de choisir le symbole suivant.")
    seed_says("Een 8 mag op alles en laat je het volgende symbool kiezen.")
    game = rig([["8C", "KS"], ["4D", "QH", "8S"]], ["9H"], ["5C"])
    assert {m.suit for m in game.legal_moves() if m.card == "8C"} == {"C", "D", "H", "S"}
    with pytest.raises(IllegalMove) as err:
        game.play(Play("8C"))
    assert err.value.key == "huit.name_suit"
    game.play(Play("8C", "D"))
    assert game.suit == "D" and set(game.legal_moves()) == {Play("4D"), *(Play("8S", s) for s in "CDHS")}


def test_a_suit_is_named_only_with_an_8():
    game = rig([["3H", "KS"], ["4D"]], ["9H"], ["5C"])
    with pytest.raises(IllegalMove) as err:
        game.play(Play("3H", "S"))
    assert err.value.key == "huit.suit_only_with_8"


def test_a_starting_8_keeps_its_suit():
    decided("a starting 8 keeps its suit.")
    seed = next(s for s in range(500) if Huit(2, random.Random(s)).top.startswith("8"))
    game = Huit(2, random.Random(seed))
    assert game.suit == game.top[-1] and game.to_act == 0
    assert all(m.card[-1] == game.suit or m.card[0] == "8" for m in game.legal_moves() if isinstance(m, Play))


def test_empty_stock_reshuffles_the_discard_pile_except_its_top():
    decided("empty stock: reshuffle the discard pile except its top;")
    game = rig([["KS"], ["4D"]], ["2C", "3C", "4C", "9H"], [])
    rulings = game.play(Draw())
    assert rulings[0].key == "huit.reshuffle" and game.discard == ["9H"]
    assert sorted(game.stock + game.hands[0]) == sorted(["2C", "3C", "4C", "KS"])


def test_first_without_cards_wins():
    seed_says("Le premier qui n’a plus de cartes gagne.")
    seed_says("Wie eerst geen kaarten meer heeft, wint.")
    game = rig([["3H"], ["4D", "5D"]], ["9H"], ["5C"])
    rulings = game.play(Play("3H"))
    assert game.over and game.winners() == [0] and game.scores() == [1, 0]
    assert rulings[-1].key == "huit.wins" and game.to_act is None


def test_nothing_to_draw_and_nobody_can_play_ends_the_game():
    game = rig([["KS", "2S"], ["4D"]], ["9H"], [])
    assert game.legal_moves() == [Pass()]
    game.play(Pass())
    rulings = game.play(Pass())
    assert rulings[-1].key == "huit.blocked" and game.winners() == [1]


def test_at_the_table_nothing_is_dealt_and_the_hands_are_counted():
    decided("7 cards each, 5 from 5 players.")
    game = Huit(5, random.Random(0), at_table=True)
    assert [len(h) for h in game.hands] == [5] * 5 and len(game.stock) == 52 - 25 - 1
    assert game.card_locations() == [("JK1", "aside"), ("JK2", "aside")]
    assert {type(m) for m in game.legal_moves()} == {TurnUp}
    with pytest.raises(IllegalMove) as err:
        game.play(TurnUp("JK1"))
    assert err.value.key == "huit.manneken_out"
    game.play(TurnUp("8S"))
    assert game.suit == "S" and game.to_act == 0  # a starting 8 keeps its suit


def test_at_the_table_an_8_is_laid_then_its_suit_named():
    seed_says("Le 8 se pose sur tout et te permet de choisir le symbole suivant.")
    game = Huit(2, random.Random(0), at_table=True)
    game.play(TurnUp("9H"))
    rulings = game.play(Play("8C"))
    assert [r.key for r in rulings] == ["huit.played", "huit.choose_suit"] and game.to_act == 0
    assert game.legal_moves() == [NameSuit(s) for s in "CDHS"]
    with pytest.raises(IllegalMove) as err:
        game.play(Play("4D"))
    assert err.value.key == "huit.name_suit"
    game.play(NameSuit("D"))
    assert game.suit == "D" and game.to_act == 1 and len(game.hands[0]) == 6
    with pytest.raises(IllegalMove) as err:
        game.play(Play("9H"))  # on the pile already: in nobody's hand
    assert err.value.key == "huit.not_in_hand"


def test_a_dealt_game_refuses_the_moves_only_a_table_makes():
    game = Huit(2, random.Random(0))
    for move in (TurnUp("3H"), NameSuit("H")):
        with pytest.raises(IllegalMove) as err:
            game.play(move)
        assert err.value.key == "huit.input_not_now"
