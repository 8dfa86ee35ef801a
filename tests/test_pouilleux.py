"""Pouilleux engine: every scoring case of seed 002_0523c4126fa103ae.txt (rule 1)."""

from __future__ import annotations

import random

import pytest

from kiosk.games.base import IllegalMove, Ruling
from kiosk.games.pouilleux import (
    Accept,
    CannotFinish,
    Draw,
    EndTurn,
    FoundBy,
    Laid,
    LaidSeen,
    LayPair,
    MistakeOf,
    OutOfCards,
    Pouilleux,
    Search,
    Spot,
    SpottedBy,
    Unspotted,
    finishing_points,
    search_points,
)
from tests.quotes import Quotes

SEED = "002_0523c4126fa103ae.txt"
quote = Quotes(SEED)


def start(hands: list[list[str]], pairs: int, **options: object) -> Pouilleux:
    """A round of ``level add-10`` dealt by seat 0 with these exact hands."""
    g = Pouilleux(len(hands), random.Random(0), {"level": "add-10", "pairs": pairs, **options})
    assert sorted(c for h in g.hands for c in h) == sorted(c for h in hands for c in h)
    g.hands = [list(h) for h in hands]
    return g


def draw(g: Pouilleux, card: str) -> None:
    g.play(Draw(g.hands[g.victim()].index(card)))


def accept_all(g: Pouilleux) -> None:
    while g.phase == "check":
        g.play(Accept())


def test_deck_size_follows_the_seed() -> None:
    quote("Nombre de joueurs : 2 à 4, avec pour nombre pair de cartes indicatif 16 ou 18 à 2, 24 à 3, 30 à 4.")
    for players, cards in ((2, 18), (3, 24), (4, 30)):
        g = Pouilleux(players, random.Random(0), {"level": "sub-20"})
        assert len(g.card_locations()) == cards + 1  # + the Pouilleux
        assert "pouilleux" in dict(g.card_locations())


def test_deal_starts_left_of_the_dealer_and_gives_every_card() -> None:
    quote(
        "Le premier joueur mélange, puis distribue toutes les cartes 1 par 1 dans un sens prédéfini entre les joueurs."
    )
    g = Pouilleux(3, random.Random(5), {"level": "add-20", "dealer": 2})
    assert [len(h) for h in g.hands] == [9, 8, 8]  # 25 cards from seat 0 (after the dealer)
    assert g.to_act == 0 and g.phase == "opening"


def test_finishing_order_scores_4_3_2_and_the_pouilleux_holder_0() -> None:
    quote("celui qui a reçu la première carte prend une carte à celui qui a distribué")
    quote("Puis le deuxième prend une carte à celui qui précède, etc.")
    quote(
        "le premier qui n’a plus de carte a gagné, il marque 4 points, la partie continue s’il y "
        "a plus de deux joueurs, qui marquent successivement lorsqu’ils n’ont plus de carte 3 "
        "points, 2 points"
    )
    g = start([["1+1", "3"], ["1+0", "2"], ["1", "2+1", "pouilleux"]], pairs=3)
    for _ in range(3):
        g.play(EndTurn())  # nobody holds a pair after the deal
    assert g.to_act == 1 and g.victim() == 0
    draw(g, "1+1")
    g.play(LayPair("1+1", "2"))
    accept_all(g)
    g.play(EndTurn())
    assert g.to_act == 2 and g.victim() == 1
    rulings = g.play(Draw(0))  # takes player 2's last card: player 2 is out first
    assert rulings[-1].key == "pouilleux.out" and rulings[-1].params == {"player": 2, "rank": 1, "points": 4}
    g.play(LayPair("1+0", "1"))
    accept_all(g)
    g.play(EndTurn())
    assert g.to_act == 0 and g.victim() == 2  # player 2 (seat 1) is out: skipped
    draw(g, "2+1")
    g.play(LayPair("2+1", "3"))
    rulings = []
    while g.phase == "check":
        rulings = g.play(Accept())
    assert rulings[-1].params == {"player": 1, "rank": 2, "points": 3}
    rulings = g.play(EndTurn())
    assert rulings[0].key == "pouilleux.round_over" and rulings[0].params == {"player": 3}
    assert g.over and g.scores() == [3, 4, 0] and g.winners() == [1]
    assert [finishing_points(n) for n in (1, 2, 3)] == [4, 3, 2]


def test_error_spotted_by_a_player_in_the_game() -> None:
    quote(
        "Les autres vérifient si c’est juste : celui qui repère une erreur donne une carte de son "
        "jeu à celui qui s’est trompé, lequel reprend les 2 cartes non appariées."
    )
    g = start([["1+1", "3"], ["1+0", "2"], ["1", "2+1", "pouilleux"]], pairs=3)
    rulings = g.play(LayPair("1+0", "2"))
    assert rulings[0].params["calculation"] == "1 + 0"
    assert g.to_act == 2  # the others check, from the author's left
    with pytest.raises(IllegalMove):
        g.play(Spot(None))  # a player still in the game must give a card
    rulings = g.play(Spot("pouilleux"))
    assert rulings[0].key == "pouilleux.error_spotted"
    assert rulings[0].params == {"spotter": 3, "player": 2, "calculation": "1 + 0", "value": 1, "shown": "2"}
    assert sorted(g.hands[1]) == ["1+0", "2", "pouilleux"] and g.hands[2] == ["1", "2+1"]
    assert g.laid == [] and g.to_act == 1 and g.scores() == [0, 0, 0]


def test_spotting_a_right_pair_is_refused() -> None:
    g = start([["1+1", "3"], ["1+0", "1"], ["2", "2+1", "pouilleux"]], pairs=3)
    g.play(LayPair("1+0", "1"))
    with pytest.raises(IllegalMove) as exc:
        g.play(Spot("2"))
    assert exc.value.key == "pouilleux.pair_is_right"
    assert g.legal_moves() == [Accept()]


def test_error_spotted_by_a_player_already_out_scores_one_more_point() -> None:
    quote(
        "Le(s) joueur(s) qui n'a(ont) plus de carte continue(nt) de jouer, en vérifiant les "
        "erreurs : chaque erreur repérée rapporte alors 1 point de plus à celui qui la trouve, "
        "celui qui s'est trompé reprend les 2 cartes non appariées."
    )
    g = start([["1+1", "3"], ["1+0", "1"], ["2", "2+1", "pouilleux"]], pairs=3)
    g.play(LayPair("1+0", "1"))
    accept_all(g)
    assert g.out == [1] and g.scores() == [0, 4, 0]
    g.play(EndTurn())
    g.play(LayPair("2", "2+1"))  # wrong: 2 + 1 = 3
    g.play(Accept())  # player 1 sees nothing
    assert g.to_act == 1 and g.legal_moves() == [Accept(), Spot(None)]
    rulings = g.play(Spot(None))
    assert rulings[1].key == "pouilleux.spot_bonus"
    assert g.scores() == [0, 5, 0] and sorted(g.hands[2]) == ["2", "2+1", "pouilleux"]


def unfinishable() -> Pouilleux:
    """Player 2 lays a wrong pair nobody spots and goes out; the round can no longer end."""
    g = start([["1", "pouilleux"], ["1+0", "2"], ["1+1"]], pairs=2)
    g.play(LayPair("1+0", "2"))
    accept_all(g)
    assert g.scores() == [0, 4, 0]
    g.play(EndTurn())
    g.play(EndTurn())
    rulings = g.play(EndTurn())
    assert rulings[0].key == "pouilleux.unfinishable" and g.phase == "search"
    return g


def test_unfinishable_round_cancels_points_and_the_finder_scores_two() -> None:
    quote(
        "Si la partie ne peut pas finir (une partie est finie lorsque le dernier n’a plus que le "
        "Pouilleux !), on annule la distribution des points, on cherche les erreurs, la première "
        "erreur trouvée rapporte 2 points à celui qui l'a repérée, celui qui s'est trompé marque "
        "0 point, les autres marquent 1 point."
    )
    g = unfinishable()
    assert g.scores() == [0, 0, 0] and g.to_act == 1
    g.play(Search(None))
    with pytest.raises(IllegalMove):
        g.play(Search(5))
    rulings = g.play(Search(0))  # player 3 finds it
    assert rulings[0].key == "pouilleux.error_found" and rulings[0].params["finder"] == 3
    assert g.over and g.scores() == [1, 0, 2]


def test_unfinishable_round_author_finds_his_own_error() -> None:
    quote("Si celui qui s’est trompé repère lui-même son erreur, tout le monde marque 1 point.")
    g = unfinishable()
    rulings = g.play(Search(0))
    assert rulings[0].key == "pouilleux.own_error_found" and g.scores() == [1, 1, 1]


def test_unfinishable_round_nobody_finds_the_error() -> None:
    quote(
        "Si personne ne trouve d'erreur, on appelle le prof (ou la calculatrice !), et la "
        "première erreur trouvée rapporte 1 point à tout le monde, sauf à celui qui s'est trompé "
        "(0 point)"
    )
    g = unfinishable()
    for _ in range(3):
        rulings = g.play(Search(None))
    assert rulings[0].key == "pouilleux.calculator_found" and g.scores() == [1, 0, 1]
    assert search_points(3, 1, None) == [1, 0, 1]


def test_next_round_turns_the_dealer_and_the_match_adds_rounds() -> None:
    quote("La partie suivante, on fait tourner celui qui mélange, puis distribue.")
    quote(
        "A la fin des parties (le nombre de parties peut être fixé au départ), celui qui a le plus de points a gagné."
    )
    g = start([["1", "pouilleux"], ["1+0", "2"], ["1+1"]], pairs=2, rounds=2)
    g.play(LayPair("1+0", "2"))
    accept_all(g)
    for _ in range(3):
        g.play(EndTurn())
    g.play(Search(0))  # own error: 1 point each
    assert not g.over and g.dealer == 1 and g.to_act == 2 and g.scores() == [1, 1, 1]
    while not g.over:
        g.play(g.bot_move())
    assert sum(g.scores()) == 3 + 4 + 3  # a clean 3-player round: 4 + 3 + 0
    assert g.winners() == [s for s in range(3) if g.scores()[s] == max(g.scores())]


def table(players: int = 3, **options: object) -> Pouilleux:
    return Pouilleux(players, random.Random(0), {"level": "add-10", **options}, at_table=True)


def test_table_moves_and_dealt_moves_do_not_mix() -> None:
    with pytest.raises(IllegalMove):
        start([["1+0", "1"], ["pouilleux"]], 1).play(LaidSeen(0, "1+0", "1"))
    g = table()
    assert g.hands == [[], [], []] and g.to_act is None and g.phase == "play"  # nothing dealt, turns unseen
    with pytest.raises(IllegalMove):
        g.play(EndTurn())
    assert g.legal_moves() == [OutOfCards(0), OutOfCards(1), OutOfCards(2), CannotFinish()]


def test_at_the_table_wrong_pairs_wait_in_turn_for_the_table_word() -> None:
    quote(
        "celui qui repère une erreur donne une carte de son jeu à celui qui s’est trompé, lequel reprend les 2 "
        "cartes non appariées."
    )
    g = table()
    assert g.play(LaidSeen(0, "1+0", "1"))[0].key == "pouilleux.pair_ok"
    assert g.play(LaidSeen(1, "1+1", "3"))[0].key == "pouilleux.wrong_pair"
    assert g.play(LaidSeen(2, "2+1", "4"))[0].key == "pouilleux.wrong_pair"  # laying goes on meanwhile
    assert g.phase == "check" and g.legal_moves() == [SpottedBy(0), SpottedBy(2), Unspotted()]
    with pytest.raises(IllegalMove):
        g.play(OutOfCards(0))  # the error first
    rulings = g.play(SpottedBy(2))
    assert [r.key for r in rulings] == ["pouilleux.card_given", "pouilleux.take_back"]
    assert rulings[-1].params == {"player": 2} and Laid(1, "1+1", "3") not in g.laid
    assert g.legal_moves() == [SpottedBy(0), SpottedBy(1), Unspotted()]  # the next one: player 3's
    assert g.play(Unspotted())[0].key == "pouilleux.error_stands"
    assert g.phase == "play" and Laid(2, "2+1", "4") in g.laid  # the error stands


def test_at_the_table_an_unfinishable_round_finds_the_error_the_calculator_saw() -> None:
    quote(
        "Si la partie ne peut pas finir (une partie est finie lorsque le dernier n’a plus que le Pouilleux !), "
        "on annule la distribution des points, on cherche les erreurs"
    )
    g = table(rounds=2)
    g.play(OutOfCards(1))
    g.play(LaidSeen(2, "2+1", "4"))
    g.play(Unspotted())
    assert g.play(CannotFinish())[0].key == "pouilleux.unfinishable" and g.scores() == [0, 0, 0]
    assert g.legal_moves() == [FoundBy(0), FoundBy(1), FoundBy(2), FoundBy(None)]
    rulings = g.play(FoundBy(None))
    assert rulings[0].key == "pouilleux.calculator_found" and rulings[0].params["player"] == 3
    assert rulings[-1] == Ruling("pouilleux.new_round", {"dealer": 2}) and g.scores() == [1, 1, 0]
    assert g.laid == [] and g.phase == "play" and g.out == []  # a new round at the table
    with pytest.raises(IllegalMove):
        g.play(FoundBy(0))  # no search in this round
    g.play(CannotFinish())
    assert g.play(FoundBy(1)) == [] and g.legal_moves() == [MistakeOf(0), MistakeOf(1), MistakeOf(2)]
    rulings = g.play(MistakeOf(1))
    assert rulings[0] == Ruling("pouilleux.own_error_found", {"player": 2}, "score")
    assert g.over and g.scores() == [2, 2, 1] and g.winners() == [0, 1] and g.legal_moves() == []
