"""Cache-cache engine: seed 002_0523c4126fa103ae.txt, rule 2."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games import mathpairs
from kiosk.games.base import IllegalMove
from kiosk.games.cache_cache import Answer, Ask, CacheCache
from tests.engine_checks import bots_play_to_the_end, cards_of
from tests.quotes import Quotes

SEED = "002_0523c4126fa103ae.txt"
quote = Quotes(SEED)


def test_twelve_double_cards_dealt_and_the_non_dealer_asks_first() -> None:
    quote(
        "Cartes : 10 ou 12 cartes doubles. Nombre de joueurs : 2. Le premier joueur mélange, puis "
        "distribue toutes les cartes 1 par 1."
    )
    g = CacheCache(2, random.Random(3), {"level": "tables-5-7"})
    assert [len(h) for h in g.hands] == [6, 6]
    assert len(g.card_locations()) == 24  # a calculation card and its result card per double card
    assert g.to_act == 1
    assert CacheCache(2, random.Random(3), {"level": "add-10"}).pairs[-1] == ("6+4", "10")  # level of 10


def test_right_answer_scores_one_and_the_card_leaves_the_game() -> None:
    quote("Si le premier joueur donne le bon résultat, il marque 1 point et la carte double est sortie du jeu")
    g = CacheCache(2, random.Random(3), {"level": "tables-5-7"})
    card = g.hands[1][0]
    g.play(Ask(card))
    assert g.to_act == 0
    rulings = g.play(Answer(int(g.result_of[card])))
    assert rulings[0].key == "cache_cache.right"
    assert g.scores() == [1, 0] and card in g.out and card not in g.hands[1] + g.hands[0]
    assert dict(g.card_locations())[card] == "out"


def test_wrong_answer_gives_the_double_card_to_the_answerer_and_roles_change() -> None:
    quote("sinon, le deuxième joueur donne la carte double au premier.")
    quote("On change ensuite de joueur, et on continue jusqu’à ce que l’un des deux joueurs n’ait plus de carte.")
    g = CacheCache(2, random.Random(3), {"level": "tables-5-7"})
    card = g.hands[1][0]
    g.play(Ask(card))
    rulings = g.play(Answer(int(g.result_of[card]) + 1))
    assert rulings[0].key == "cache_cache.wrong" and rulings[0].params["giver"] == 2
    assert card in g.hands[0] and g.scores() == [0, 0]
    assert g.to_act == 0  # the other player asks now
    with pytest.raises(IllegalMove):
        g.play(Ask(g.hands[1][0]))  # not his card


def test_game_ends_when_one_player_has_no_card_and_most_points_wins() -> None:
    quote("Celui qui a marqué le plus de points a gagné.")
    g = CacheCache(2, random.Random(3), {"level": "add-10", "pairs": 2})
    assert [len(h) for h in g.hands] == [1, 1]
    card = g.hands[1][0]
    g.play(Ask(card))
    rulings = g.play(Answer(int(g.result_of[card])))
    assert g.over and rulings[-1].level == "game_over"
    assert g.winners() == [0] and g.legal_moves() == []
    with pytest.raises(IllegalMove):
        g.play(Answer(1))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), pairs=st.sampled_from([10, 12]))
def test_no_card_lost_and_the_bot_ends_every_game(seed: int, pairs: int) -> None:
    g = CacheCache(2, random.Random(seed), {"level": "add-20", "pairs": pairs})
    assert len(cards_of(g)) == 2 * pairs
    bots_play_to_the_end(g, 5000)
    assert g.winners()


def test_the_question_names_the_asker() -> None:
    quote("Le deuxième joueur propose le calcul d’une de ses cartes au premier")
    g = CacheCache(2, random.Random(3), {"level": "tables-5-7"})
    rulings = g.play(Ask(g.hands[1][0]))
    assert rulings[0].key == "cache_cache.question" and rulings[0].params["player"] == 2


def test_at_the_table_the_hands_are_counted_and_the_card_shown_is_checked() -> None:
    g = CacheCache(2, random.Random(3), {"level": "tables-5-7", "pairs": 5}, at_table=True)
    assert [len(h) for h in g.hands] == [2, 3] and g.legal_moves() == []  # the non-dealer gets the first card
    for card, key in (("56", "cache_cache.show_calculation"), ("3+4", "cache_cache.show_calculation")):
        with pytest.raises(IllegalMove) as exc:
            g.play(Ask(card))
        assert exc.value.key == key and exc.value.params == {"player": 2}
    g.play(Ask("7x8"))  # any calculation of the level: the hand is unseen
    assert g.legal_moves() == [Answer(v) for v in mathpairs.answers()]
    g.play(Answer(56))
    assert [len(h) for h in g.hands] == [2, 2] and g.out == ["7x8"] and g.scores() == [1, 0]
    assert g.card_locations() == [("7x8", "out"), ("56", "out")]
    with pytest.raises(IllegalMove) as exc:
        g.play(Ask("7x8"))  # out of the game, so in nobody's hand
    assert exc.value.key == "cache_cache.not_your_card"
    g.play(Ask("6x7"))
    g.play(Answer(41))
    assert [len(h) for h in g.hands] == [1, 3]  # the double card went to the answerer
