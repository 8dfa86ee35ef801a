"""Memory engine: seed 002_0523c4126fa103ae.txt, the fourth (unnamed) rule."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.games.base import IllegalMove, Ruling
from kiosk.games.mathpairs import level_pairs, pair_params
from kiosk.games.memory import (
    Accept,
    Cleared,
    InSeatZone,
    Keep,
    Memory,
    Return,
    Reveal,
    Spot,
    SpottedBy,
    Turn,
    Unspotted,
)
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


def test_an_unspotted_false_pair_cancels_the_game_at_once() -> None:
    quote("si personne ne s'en rend compte, le jeu ne peut pas finir : la partie est annulée.")
    g = game(pairs=3)
    g.play(Turn(0))
    g.play(Turn(3))  # 1 + 0 and 2: 2 + 1 and 3 still pair face down
    g.play(Keep())
    rulings = g.play(Accept())
    assert g.over and rulings == [Ruling("memory.cancelled", {"cards": 2}, "game_over")]  # 1 and 1 + 1


def test_table_moves_and_dealt_moves_do_not_mix() -> None:
    with pytest.raises(IllegalMove):
        game().play(Reveal("1+0"))
    table = Memory(2, random.Random(0), {"level": "add-10", "pairs": 3}, at_table=True)
    with pytest.raises(IllegalMove):
        table.play(Turn(0))
    assert table.table == [] and table.legal_moves() == []  # nothing laid out is known


def test_at_the_table_cards_are_known_once_seen_and_a_false_pair_shows_in_a_seat_zone() -> None:
    g = Memory(3, random.Random(0), {"level": "add-10", "pairs": 4}, at_table=True)
    assert g.play(Reveal("1+0")) == []
    assert g.play(Reveal("1")) == [Ruling("memory.pair", {"player": 2, **pair_params("1+0", "1")}, "ok")]
    with pytest.raises(IllegalMove):
        g.play(Reveal("2"))  # two cards are face up already
    assert g.play(Cleared()) == [Ruling("memory.play_again", {"player": 2})]  # no check: the kiosk saw it
    assert g.piles[1] == ["1+0", "1"] and g.to_act == 1
    with pytest.raises(IllegalMove):
        g.play(Reveal("1"))  # kept
    g.play(Reveal("1+1"))
    assert g.play(Reveal("3"))[0].key == "memory.no_pair"
    assert g.play(Cleared())[0] == Ruling("memory.next_player", {"player": 3})
    assert g.table == [None, None, "1+1", "3"] and g.face_down() == [2, 3]
    assert g.play(InSeatZone("1")) == []  # a card kept, where it should be
    rulings = g.play(InSeatZone("3"))  # one of the two turned back: player 2 kept them after all
    assert rulings[0].key == "memory.false_pair_kept" and rulings[0].params["player"] == 2
    assert g.legal_moves() == [SpottedBy(2), SpottedBy(0), Unspotted()] and g.author == 1
    g.play(Reveal("1+3"))  # player 3 turns a card meanwhile
    assert g.play(SpottedBy(0))[0].key == "memory.error_spotted" and not g.over
    assert g.piles == [["1+0", "1", "1+1", "3"], [], []] and g.to_act == 2 and g.face_up() == ["1+3"]
    g.play(Reveal("4"))
    rulings = g.play(Cleared())
    # 2 and 2 + 1 lost their partners to the spotter: no pair is left face down
    assert g.over and rulings[-1].key == "memory.game_over_cards" and g.winners() == [0]
    assert g.scores() == [4, 0, 2]


def test_at_the_table_a_false_pair_nobody_spotted_cancels_the_game() -> None:
    g = Memory(2, random.Random(0), {"level": "add-10", "pairs": 4}, at_table=True)
    g.play(Reveal("1+0"))
    g.play(Reveal("2"))
    g.play(Cleared())
    g.play(Reveal("2"))  # seen again face up: it was turned back after all
    assert g.returned is None and g.play(InSeatZone("1+0")) == []
    g.play(Reveal("1+1"))
    g.play(Cleared())  # 2 and 1 + 1 pair
    g.play(Reveal("1+3"))
    g.play(Reveal("3"))
    g.play(Cleared())
    g.play(InSeatZone("1+3"))
    assert g.legal_moves() == [SpottedBy(1), Unspotted()]
    rulings = g.play(Unspotted())
    assert g.over and rulings == [Ruling("memory.cancelled", {"cards": 2}, "game_over")] and g.winners() == []


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), choices=st.lists(st.integers(0, 10**6), max_size=300))
def test_at_the_table_no_card_is_kept_twice_whatever_the_camera_reports(
    seed: int, players: int, choices: list[int]
) -> None:
    g = Memory(players, random.Random(seed), {"level": "add-10", "pairs": 5}, at_table=True)
    cards = [c for pair in level_pairs("add-10", 5) for c in pair]
    for choice in choices:
        if g.over:
            break
        card = cards[choice % len(cards)]
        moves = [Reveal(card), Cleared(), InSeatZone(card), *g.legal_moves()]
        try:
            g.play(moves[choice // 13 % len(moves)])
        except IllegalMove:
            pass  # refused, state unchanged
        kept = [c for pile in g.piles for c in pile]
        assert len(kept) == len(set(kept)) == sum(g.scores())
        assert not set(kept) & {c for c in g.table if c} and len(g.face_up()) <= 2
