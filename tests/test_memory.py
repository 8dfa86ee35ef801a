"""Memory engine: seed 002_0523c4126fa103ae.txt, the fourth (unnamed) rule."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games.base import IllegalMove
from kiosk.games.memory import Accept, Keep, Memory, Return, Spot, Turn
from tests.engine_checks import bots_play_to_the_end, cards_of
from tests.quotes import Quotes, decided

SEED = "002_0523c4126fa103ae.txt"
quote = Quotes(SEED)


def game(players: int = 2, pairs: int = 3) -> Memory:
    g = Memory(players, random.Random(0), {"level": "add-10", "pairs": pairs})
    g.table = ["1+0", "1", "1+1", "2", "2+1", "3", "1+3", "4"][: 2 * pairs]
    return g


def test_pair_is_kept_and_the_player_plays_again() -> None:
    quote("Le deuxième joueur retourne deux cartes : si elles sont appariées, il les garde et il peut rejouer")
    g = game()
    assert g.to_act == 1
    g.play(Turn(0))
    g.play(Turn(1))
    rulings = g.play(Keep())
    assert rulings[0].key == "memory.kept" and rulings[0].params["calculation"] == "1 + 0"
    g.play(Accept())
    assert g.to_act == 1 and g.scores() == [0, 2] and g.table[:2] == [None, None]


def test_no_pair_goes_back_face_down_and_the_turn_passes() -> None:
    quote("si elles ne sont pas appariées, il les retourne face cachée et il passe son tour.")
    g = game()
    g.play(Turn(0))
    g.play(Turn(2))
    g.play(Return())
    assert g.to_act == 0 and g.table[0] == "1+0" and g.scores() == [0, 0]
    with pytest.raises(IllegalMove):
        g.play(Keep())  # nothing turned


def test_game_ends_when_all_cards_are_paired_most_cards_wins() -> None:
    quote("Le jeu se termine quand toutes les cartes ont été appariées.")
    quote("Le joueur qui a le plus de cartes à la fin du jeu a gagné.")
    g = game(pairs=2)
    for slots in ((0, 1), (2, 3)):
        for s in slots:
            g.play(Turn(s))
        g.play(Keep())
        rulings = g.play(Accept())
    assert g.over and rulings[-1].key == "memory.game_over_cards" and g.winners() == [1]


def test_spotted_false_pair_gives_all_the_author_cards_that_pair_included_to_the_spotter() -> None:
    quote(
        "si un adversaire s'en rend compte, le joueur qui s'est trompé donne toutes ses cartes à "
        "son adversaire et la partie continue."
    )
    decided(
        "Memory with more than 2 players: a player caught with a false pair gives all his cards to whoever spotted it."
    )
    g = game(players=3, pairs=4)
    for s in (0, 1):
        g.play(Turn(s))
    g.play(Keep())
    g.play(Accept())
    g.play(Accept())
    g.play(Turn(2))
    g.play(Turn(5))  # 1 + 1 and 3: no pair
    g.play(Keep())
    assert g.to_act == 2
    rulings = g.play(Spot())
    assert rulings[0].key == "memory.error_spotted"
    assert rulings[0].params == {"spotter": 3, "player": 2, "calculation": "1 + 1", "value": 2, "shown": "3"}
    assert g.piles == [[], [], ["1+0", "1", "1+1", "3"]] and g.table[2] is None and g.table[5] is None
    assert not g.over and g.to_act == 2


def test_after_a_spotted_false_pair_the_game_ends_when_no_pair_is_left_face_down() -> None:
    g = game(players=3, pairs=4)
    for slot in (2, 5):  # player 2 keeps 1 + 1 and 3; player 3 spots it
        g.play(Turn(slot))
    g.play(Keep())
    g.play(Spot())
    assert not g.over and g.to_act == 2  # 1 + 0 and 1, 1 + 3 and 4 still pair on the table
    for slots in ((0, 1), (6, 7)):
        for slot in slots:
            g.play(Turn(slot))
        g.play(Keep())
        rulings = g.play(Accept()) + g.play(Accept())
    # 2 and 2 + 1 lost their partners to the spotter: they stay face down, counted for nobody.
    assert g.over and rulings[-1].key == "memory.game_over_cards"
    assert [c for c in g.table if c is not None] == ["2", "2+1"]
    assert g.scores() == [0, 0, 6] and g.winners() == [2]
    assert sorted(c for c, _ in g.card_locations()) == sorted(game(pairs=4).table)


def test_spotting_a_true_pair_is_refused() -> None:
    g = game()
    g.play(Turn(0))
    g.play(Turn(1))
    g.play(Keep())
    with pytest.raises(IllegalMove) as exc:
        g.play(Spot())
    assert exc.value.key == "memory.pair_is_right"


def test_unspotted_false_pair_cancels_the_game() -> None:
    quote("si personne ne s'en rend compte, le jeu ne peut pas finir : la partie est annulée.")
    g = game(pairs=2)
    g.play(Turn(0))
    g.play(Turn(3))  # 1 + 0 and 2
    g.play(Keep())
    rulings = g.play(Accept())
    assert g.over and rulings[-1].key == "memory.cancelled" and g.winners() == []


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), choices=st.lists(st.integers(0, 10**6), max_size=200))
def test_no_card_lost_and_the_bot_ends_every_game(seed: int, players: int, choices: list[int]) -> None:
    g = Memory(players, random.Random(seed), {"level": "tables-2-4"})
    cards = cards_of(g)
    for choice in choices:  # any legal moves, false pairs included
        if g.over:
            break
        moves = g.legal_moves()
        g.play(moves[choice % len(moves)])
        assert cards_of(g) == cards
    bots_play_to_the_end(g, 2000)
