"""Recto-verso engine: the five cases of answer x validation, seed 002_0523c4126fa103ae.txt rule 3."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games import mathpairs
from kiosk.games.base import IllegalMove
from kiosk.games.recto_verso import Announce, Pick, RectoVerso, Validate, points
from tests.engine_checks import bots_play_to_the_end, cards_of
from tests.quotes import Quotes

SEED = "002_0523c4126fa103ae.txt"
quote = Quotes(SEED)


def play_one(right: bool, exact: bool, given_off: int | None = None) -> tuple[RectoVerso, list[int]]:
    """Player 2 announces the first card (right or 3 off); player 1 validates, on "faux" giving
    the result plus ``given_off`` (0: the right result)."""
    g = RectoVerso(2, random.Random(2), {"level": "tables-8-10", "pairs": 10})
    card = g.table[0][0]
    value = int(g.result_of[card])
    g.play(Announce(card, value if right else value + 3))
    g.play(Validate(exact, None if given_off is None else value + given_off))
    return g, g.scores()


def test_deal_lays_every_card_calculation_up_and_the_second_player_starts() -> None:
    quote(
        "Le premier joueur distribue toutes les cartes 1 par 1, avec le résultat caché, la face "
        "calcul apparente, devant les deux joueurs."
    )
    g = RectoVerso(2, random.Random(2), {"level": "tables-8-10", "pairs": 10})
    assert [len(t) for t in g.table] == [5, 5] and g.to_act == 1


def test_right_answer_validated_exact() -> None:
    quote("Si le deuxième a donné le bon résultat, il marque 2 points, sinon il ne marque rien.")
    quote(
        "Dans le cas où le deuxième joueur a donné le bon résultat, la validation « c’est exact » "
        "donne 1 point au premier joueur"
    )
    assert play_one(right=True, exact=True)[1] == [1, 2]


def test_right_answer_called_wrong() -> None:
    quote("la validation « c’est exact » donne 1 point au premier joueur, sinon il ne marque rien.")
    assert play_one(right=True, exact=False, given_off=1)[1] == [0, 2]


def test_wrong_answer_validated_exact() -> None:
    assert play_one(right=False, exact=True)[1] == [0, 0]


def test_wrong_answer_called_wrong_without_the_right_result() -> None:
    quote(
        "Dans le cas où le deuxième joueur a donné un résultat erroné, la validation « c’est faux "
        "» donne 1 point au premier joueur"
    )
    assert play_one(right=False, exact=False, given_off=2)[1] == [1, 0]


def test_wrong_answer_called_wrong_without_giving_a_result() -> None:
    quote("il en marque 2 s’il a donné en plus le bon résultat")
    assert play_one(right=False, exact=False)[1] == [1, 0]  # "c'est faux" alone: 1 point
    assert play_one(right=True, exact=False)[1] == [0, 2]
    assert points(56, 54, exact=False, given=None) == (0, 1)


def test_wrong_answer_called_wrong_with_the_right_result() -> None:
    quote("il en marque 2 s’il a donné en plus le bon résultat, sinon il ne marque rien.")
    assert play_one(right=False, exact=False, given_off=0)[1] == [2, 0]
    assert points(56, 54, exact=False, given=56) == (0, 2)


def test_card_leaves_the_game_roles_change_until_no_card_is_left() -> None:
    quote("La carte jouée est ensuite sortie du jeu.")
    quote("On change ensuite de joueur, et on continue jusqu’à ce qu’il n’y ait plus de carte.")
    g, _ = play_one(right=True, exact=True)
    assert len(g.on_table()) == 9 and g.to_act == 0
    assert {c for c, where in g.card_locations() if where == "out"} == {g.out[0], g.result_of[g.out[0]]}
    with pytest.raises(IllegalMove):
        g.play(Announce(g.out[0], 1))  # no longer on the table
    card = g.on_table()[0]
    g.play(Announce(card, 1))
    g.play(Validate(False))  # "c'est faux", no result given
    assert len(g.on_table()) == 8 and g.to_act == 1
    while not g.over:
        g.play(g.bot_move())
    assert g.on_table() == [] and len(g.out) == 10 and g.winners()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), pairs=st.sampled_from([10, 12]))
def test_no_card_lost_and_the_bot_ends_every_game(seed: int, pairs: int) -> None:
    g = RectoVerso(2, random.Random(seed), {"level": "mixed", "pairs": pairs})
    assert len(cards_of(g)) == 2 * pairs
    bots_play_to_the_end(g, 5000)
    assert g.winners()


def test_at_the_table_the_card_picked_is_seen_then_announced_and_validated() -> None:
    quote("Le deuxième joueur choisit une des cartes, et annonce le résultat.")
    g = RectoVerso(2, random.Random(2), {"level": "add-10", "pairs": 2}, at_table=True)
    assert g.cards_left() == 2 and g.on_table() == [] and g.legal_moves() == []  # the camera names the cards
    with pytest.raises(IllegalMove) as exc:
        g.play(Announce("3+4", 7))  # no card in the centre yet
    assert exc.value.key == "recto_verso.not_now"
    with pytest.raises(IllegalMove) as exc:
        g.play(Pick("7"))  # a result card
    assert exc.value.key == "recto_verso.show_calculation" and exc.value.params == {"player": 2}
    assert g.play(Pick("3+4"))[0].params == {"player": 2, "calculation": "3 + 4"}
    assert g.legal_moves() == [Announce("3+4", v) for v in mathpairs.answers()] and g.to_act == 1
    with pytest.raises(IllegalMove):
        g.play(Announce("2+1", 3))  # not the card in the centre
    g.play(Announce("3+4", 8))
    rulings = g.play(Validate(False))
    assert rulings[0].params["asker_points"] == 0 and rulings[0].params["validator_points"] == 1
    assert g.cards_left() == 1 and g.to_act == 0 and g.picked is None
    with pytest.raises(IllegalMove) as exc:
        g.play(Pick("3+4"))  # turned and out of the game
    assert exc.value.key == "recto_verso.not_on_table"
    g.play(Pick("2+1"))
    g.play(Announce("2+1", 3))
    rulings = g.play(Validate(True))
    assert g.over and rulings[-1].key == "recto_verso.game_over_points" and g.scores() == [3, 1]
    assert g.winners() == [0]


def test_a_pick_is_a_table_move() -> None:
    with pytest.raises(IllegalMove) as exc:
        RectoVerso(2, random.Random(0), {"level": "add-10"}).play(Pick("3+4"))
    assert exc.value.key == "recto_verso.not_now"
