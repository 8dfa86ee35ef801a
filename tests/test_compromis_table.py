"""Le Compromis à la belge refereeing a real table (``at_table=True``): nothing is dealt, the
hands and the stock stay unseen, and the engine takes what the camera and the buttons report."""

from __future__ import annotations

import random

import pytest

from kiosk.games.base import IllegalMove
from kiosk.games.compromis import Compromis
from kiosk.games.compromis_moves import (
    Called,
    Declare,
    Discard,
    DrawStock,
    GovernmentLaid,
    NextRound,
    PlaySpecial,
    ShowKing,
    TakeDiscard,
)
from tests.quotes import decided, seed_says

GOOD = frozenset({"3H", "3C", "4H", "4C", "7S", "7H"})  # the seed's example


def table(players: int = 3, **options) -> Compromis:
    return Compromis(players, random.Random(0), options, at_table=True)


def keys(rulings) -> list[str]:
    return [r.key for r in rulings]


@pytest.mark.parametrize("move", [GovernmentLaid(0, GOOD), ShowKing(0, "KD"), Called(0), NextRound()])
def test_the_table_moves_are_refused_by_a_dealing_engine(move):
    game = Compromis(3, random.Random(0))
    with pytest.raises(IllegalMove) as err:
        game.play(move)
    assert err.value.key == "compromis.table_only"


def test_nothing_is_dealt_and_the_table_turns_the_first_card():
    seed_says("Distribuez 7 cartes à chaque joueur. Le reste forme la pioche, face cachée ;")
    decided("First card turned for the discard pile is an Ace or Manneken-Pis: set it aside, turn the next.")
    game = table()
    assert game.card_locations() == [] and game.turn.phase == "first" and game.unseen_stock == 54 - 21
    with pytest.raises(IllegalMove) as err:
        game.play(Discard("AS"))  # an Ace never starts the discard pile
    assert err.value.key == "compromis.illegal_special_on_discard"
    assert keys(game.play(PlaySpecial("AS"))) == ["compromis.first_card_aside"]
    assert keys(game.play(Discard("QC"))) == ["compromis.your_turn"]
    assert game.discard == ["QC"] and game.aside == ["AS"] and game.unseen_stock == 31
    assert game.turn.phase == "draw" and game.to_act == 0


def test_a_card_seen_discarded_means_the_player_drew_from_the_stock_unseen():
    game = table()
    game.play(Discard("QC"))
    assert game.legal_moves() == [Called(0), Called(1), Called(2), TakeDiscard()]
    assert keys(game.play(Discard("QD"))) == ["compromis.discarded", "compromis.your_turn"]
    assert game.unseen_stock == 31 and game.discard == ["QC", "QD"] and game.to_act == 1
    for seen in ("QC", "QD"):  # a card on the pile is in no hand
        with pytest.raises(IllegalMove) as err:
            game.play(Discard(seen))
        assert err.value.key == "compromis.illegal_not_in_hand"
    with pytest.raises(IllegalMove) as err:
        game.play(Declare(GOOD))  # the hands are unseen: a government is what is laid down
    assert err.value.key == "compromis.illegal_phase"
    game.play(DrawStock())  # a table may say so, too
    assert game.unseen_stock == 30 and game.turn.phase == "act"


def test_an_empty_stock_is_the_discard_pile_but_its_top_reshuffled_and_then_the_round_is_void():
    seed_says("Si la pioche est vide, remélange la défausse, sauf la carte du dessus.")
    decided("Draw pile empty and only the top discard left: the round ends without a government.")
    game = table(2)
    game.play(Discard("QC"))
    game.unseen_stock = 1
    game.play(Discard("QD"))  # seat 0 draws the last card: seat 1 finds the pile but its top reshuffled
    assert game.discard == ["QD"] and game.unseen_stock == 1 and game.to_act == 1
    game.unseen_stock = 1
    rulings = game.play(PlaySpecial("JK1"))  # the last card drawn, nothing discarded: nothing to draw
    assert keys(rulings) == ["compromis.special_manneken", "compromis.round_void", "compromis.round_start"]
    assert game.turn.phase == "first" and game.round_starter == 1 and game.rounds == 2


def test_malmedy_and_the_manneken_act_between_hands_and_end_the_turn():
    game = table()
    game.play(Discard("QC"))
    assert keys(game.play(PlaySpecial("AH"))) == ["compromis.special_malmedy", "compromis.your_turn"]
    assert keys(game.play(PlaySpecial("JK1"))) == ["compromis.special_manneken", "compromis.your_turn"]
    assert game.to_act == 2 and game.aside == ["AH", "JK1"]


def test_a_government_is_judged_in_whichever_zone_it_is_laid_and_its_author_skips():
    seed_says("Un gouvernement faux ? Son auteur reprend ses cartes et passe son prochain tour.")
    game = table()
    game.play(Discard("QC"))
    rulings = game.play(GovernmentLaid(2, frozenset({"3C", "3D", "4H", "4C", "7S", "7H"})))
    assert keys(rulings) == ["compromis.gov_two_coqs", "compromis.gov_false"]
    assert game.skips == [0, 0, 1] and game.to_act == 0
    game.play(Discard("QD"))
    assert keys(game.play(Discard("QH"))) == [
        "compromis.discarded",
        "compromis.turn_skipped",
        "compromis.your_turn",
    ]
    rulings = game.play(GovernmentLaid(0, frozenset({"3C", "3D", "4H", "4C", "7S", "7H"})))
    assert keys(rulings)[-1] == "compromis.gov_false"
    with pytest.raises(IllegalMove) as err:
        game.play(GovernmentLaid(0, GOOD))  # one declaration a turn
    assert err.value.key == "compromis.illegal_declared_twice"


def test_the_king_shown_after_the_government_is_the_bonus_once_then_the_next_round():
    seed_says("J’ai deux Rois en main : 2 points de bonus ? Non, le bonus Roi vaut 1 point, même avec plusieurs Rois.")
    seed_says("le voisin de gauche du gagnant commence la manche suivante.")
    game = table()
    game.play(Called(1))
    rulings = game.play(GovernmentLaid(1, GOOD))
    assert keys(rulings) == ["compromis.government_ok", "compromis.king_prompt"] and game.turn.phase == "scored"
    assert game.king_due() == 1 and game.expects() == ("compromis.expect_next_round", {"player": 1})
    assert game.play(ShowKing(0, "KD")) == [] and game.play(ShowKing(1, "QD")) == []  # no bonus there
    assert keys(game.play(ShowKing(1, "KD"))) == ["compromis.king_bonus"]
    assert game.play(ShowKing(1, "KH")) == [] and game.scores() == [0, 2, 0]
    with pytest.raises(IllegalMove):
        game.play(Discard("QC"))  # the round is over
    assert keys(game.play(NextRound())) == ["compromis.round_start"]
    assert game.to_act == 2 and game.turn.phase == "first" and game.shouted == set()
