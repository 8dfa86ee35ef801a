"""Le Choux de Bruxelles / De Spruitjes, rule by rule: every sentence of seed
000_de7fdf0eefacbd60.txt about the game (with its naming variant) and rules-decisions.md."""

from __future__ import annotations

import random

import pytest

from kiosk.games.base import IllegalMove
from kiosk.games.choux import (
    Choux,
    Draw,
    LayPair,
    Name,
    ShowChoux,
    choux_deck,
    first_holder,
    is_pair,
    names_match,
    pairs_in,
)
from tests.quotes import decided, seed_says

DECK = choux_deck()


def rig(hands: dict[int, list[str]], current: int, players: int = 3, **options) -> Choux:
    """A game where seat ``current`` is about to draw; the cards not in ``hands`` lie as laid
    pairs."""
    game = Choux(players, random.Random(0), options)
    held = {c for h in hands.values() for c in h}
    game.hands = [list(hands.get(s, [])) for s in range(players)]
    game.laid = [[] for _ in range(players)]
    game.laid[0] = [c for c in DECK.ids if c not in held]
    game.current, game.naming, game.pending, game.finished = current, [], [], []
    return game


def test_49_cards_the_choux_stays_alone():
    seed_says(
        "Retire les 2 Manneken-Pis et les 3 Valets qui ne sont pas les Choux de Bruxelles "
        "(Gaufre de "
        "Bruxelles, Cuberdon et Frites). Les Choux de Bruxelles (Valet de ♠) restent seuls : ils "
        "ne "
        "pourront jamais faire de paire."
    )
    decided("49 cards (the 2 Manneken-Pis and the Jacks ♣ ♥ ♦ out; J♠ stays alone).")
    assert len(DECK) == 49 and "JS" in DECK
    assert not {"JK1", "JK2", "JC", "JD", "JH"} & set(DECK.ids)
    assert not any(is_pair("JS", other) for other in DECK.ids)


def test_a_pair_is_same_value_and_same_colour():
    seed_says(
        "Une paire, ce sont deux cartes de même valeur et de même couleur : deux noires (♣ et ♠) "
        "ou "
        "deux rouges (♥ et ♦)."
    )
    seed_says(
        "Exemples : Villers-la-Ville (3 ♣) + Ieper (3 ♠) · Lier (3 ♥) + Nivelles (3 ♦) · "
        "Anvers (Roi ♣) + Eupen (Roi ♠)."
    )
    decided("Pairs: same value and same colour.")
    assert is_pair("3C", "3S") and is_pair("3H", "3D") and is_pair("KC", "KS")
    assert not is_pair("3C", "3H") and not is_pair("3C", "4C") and not is_pair("3C", "3C")
    assert pairs_in(["3C", "3H", "3S", "JS"]) == [("3C", "3S")]


@pytest.mark.parametrize("players, dealer", [(2, 0), (3, 1), (4, 3), (5, 0), (7, 2), (10, 4)])
def test_every_card_dealt_one_by_one_from_the_dealers_left(players, dealer):
    seed_says(
        "Distribue toutes les cartes, une par une. Certains joueurs auront une carte de plus : ce n’est pas grave."
    )
    game = Choux(players, random.Random(players), {"dealer": dealer})
    dealt = [len(game.hands[s]) + len(game.laid[s]) for s in range(players)]
    extra = 49 % players
    expected = [49 // players + ((s - dealer - 1) % players < extra) for s in range(players)]
    assert dealt == expected and sum(dealt) == 49


def test_everyone_lays_down_his_pairs_before_starting():
    seed_says("Avant de commencer, chacun pose devant lui, face visible, toutes les paires qu’il a déjà en main.")
    game = Choux(4, random.Random(5))
    assert all(pairs_in(hand) == [] for hand in game.hands)
    assert all(len(laid) % 2 == 0 for laid in game.laid)
    assert sum(len(laid) for laid in game.laid) > 0


def test_the_single_odd_hand_is_drawn_from_first_and_its_left_neighbour_starts():
    seed_says(
        "Comptez vos cartes : un seul joueur en a un nombre impair. C’est chez lui qu’on tire la "
        "première "
        "carte : son voisin de gauche commence."
    )
    for seed in range(5):
        game = Choux(3, random.Random(seed))
        odd = [s for s in range(3) if len(game.hands[s]) % 2]
        assert len(odd) == 1
        assert game.holder() == odd[0] and game.to_act == (odd[0] + 1) % 3


def test_no_single_odd_hand_the_dealers_left_neighbour_draws_from_the_dealer():
    decided(
        "When no single player holds an odd count (7 players, 9+), the dealer's left neighbour "
        "draws "
        "first, from the dealer."
    )
    assert first_holder([7] * 7, dealer=3) == 3
    assert first_holder([6, 6, 5, 5, 5, 5, 5, 6, 6], dealer=0) == 0
    assert first_holder([4, 5, 4], dealer=0) == 1
    game = Choux(7, random.Random(0), {"dealer": 3})
    assert game.to_act == 4 and game.holder() == 3


def test_draw_a_random_card_from_the_right_neighbour_and_lay_the_pair():
    seed_says("Ton voisin de droite tient ses cartes en éventail, face cachée. Tires-en une au hasard.")
    seed_says("Si elle forme une paire avec une de tes cartes, pose la paire devant toi.")
    game = rig({0: ["3S", "9H"], 1: ["3C", "JS"], 2: ["9D", "5H"]}, current=2)
    assert game.holder() == 1  # seat 2's right neighbour
    assert game.legal_moves() == [Draw(0), Draw(1)]
    rulings = game.play(Draw(0))  # takes 3C: no pair with 9D, 5H
    assert "3C" in game.hands[2] and game.hands[1] == ["JS"]
    assert "choux.pair" not in [r.key for r in rulings]
    game = rig({0: ["3S", "9H"], 1: ["3C", "JS"], 2: ["9D", "5H"]}, current=1)
    rulings = game.play(Draw(game.hands[0].index("9H")))
    assert "choux.pair" not in [r.key for r in rulings]
    game = rig({0: ["3S", "9H"], 1: ["3C", "JS"], 2: ["9D", "5H"]}, current=0)
    rulings = game.play(Draw(game.hands[2].index("9D")))  # seat 0 draws from seat 2 (its right)
    assert ("choux.pair", {"player": 0, "card_a": "9H", "card_b": "9D"}) in [(r.key, dict(r.params)) for r in rulings]
    assert game.hands[0] == ["3S"] and {"9H", "9D"} <= set(game.laid[0])


def test_then_the_left_neighbour_draws_from_your_hand():
    seed_says("C’est ensuite à ton voisin de gauche de tirer une carte dans ta main.")
    game = rig({0: ["3S", "9H"], 1: ["3C", "JS"], 2: ["9D", "5H", "5D"]}, current=2)
    game.play(Draw(0))
    assert game.to_act == 0 and game.holder() == 2


def test_a_player_already_out_is_skipped_when_drawing():
    seed_says("S’il est déjà sorti, tire chez le joueur suivant encore en jeu.")
    game = rig({0: ["3S", "9H"], 1: [], 2: ["3C", "JS", "9D"], 3: ["5H"]}, current=2, players=4)
    assert game.holder() == 0  # seat 1 is out
    game.play(Draw(game.hands[0].index("3S")))
    assert game.to_act == 3 and game.holder() == 2


def test_a_player_without_cards_is_out_and_has_won():
    seed_says("Un joueur qui n’a plus de cartes est sorti : il a gagné.")
    game = rig({0: ["3S"], 1: ["3C", "JS"], 2: ["5H"]}, current=0)
    rulings = game.play(Draw(0))  # seat 2 gives its last card: out
    assert ("choux.out", 2) in [(r.key, r.params.get("player")) for r in rulings]
    assert game.finished == [2] and game.to_act == 1 and game.holder() == 0


def test_the_last_one_with_the_choux_is_the_puant_and_deals_next():
    seed_says(
        "On continue jusqu’à ce que toutes les paires soient posées. Le dernier joueur, celui "
        "qui garde "
        "les Choux de Bruxelles, est le Puant ! Il mélange et distribue la manche suivante."
    )
    seed_says("Celui qui garde les Choux de Bruxelles à la fin est le Puant.")
    game = rig({0: ["JS", "3C"], 1: ["3S"]}, current=1, players=3, rounds=2)
    rulings = game.play(Draw(game.hands[0].index("3C")))
    assert [r.key for r in rulings][:3] == ["choux.drew", "choux.pair", "choux.out"]
    assert ("choux.puant", 0) in [(r.key, r.params.get("player")) for r in rulings]
    assert game.scores() == [0, 1, 1] and not game.over
    assert game.dealer == 0 and ("choux.round_start", 0) in [(r.key, r.params.get("by")) for r in rulings]
    game = rig({0: ["JS", "3C"], 1: ["3S"]}, current=1)
    game.play(Draw(game.hands[0].index("3C")))
    assert game.over and game.winners() == [1, 2] and game.to_act is None


def test_naming_variant_say_a_place_or_keep_the_pair_until_next_turn():
    seed_says(
        "Variante : pour poser une paire, il faut dire le nom d’un des deux lieux. Une erreur ? "
        "La paire "
        "reste en main jusqu’au tour suivant."
    )
    game = rig({0: ["3S", "9H"], 1: ["3C", "JS", "5H"], 2: ["9D", "QD"]}, current=0, naming=True)
    game.play(Draw(game.hands[2].index("9D")))  # 9H Tienen + 9D Stavelot
    assert game.pending == [("9H", "9D")] and game.to_act == 0
    with pytest.raises(IllegalMove):
        game.play(Draw(0))
    rulings = game.play(Name("Gent"))
    assert "choux.named_wrong" in [r.key for r in rulings]
    assert {"9H", "9D"} <= set(game.hands[0]) and game.to_act == 1  # kept in hand
    game.play(Draw(game.hands[0].index("3S")))  # seat 1: 3C + 3S, named in Dutch
    assert game.pending == [("3C", "3S")]
    game.play(Name("ieper"))
    assert {"3C", "3S"} <= set(game.laid[1])
    game.play(Draw(game.hands[1].index("5H")))  # seat 2 draws; then seat 0's next turn
    game.play(Draw(0))
    assert ("9H", "9D") in game.pending or ("9D", "9H") in game.pending
    game.play(Name("Tirlemont"))
    assert {"9H", "9D"} <= set(game.laid[0])


def test_names_match_any_language_ignoring_case_accents_and_hyphens():
    assert names_match("Villers la ville", ("3C", "3S"), DECK)
    assert names_match("YPERN", ("3C", "3S"), DECK)
    assert names_match("Luik", ("KH", "KD"), DECK) and names_match("Lüttich", ("KH", "KD"), DECK)
    assert names_match("luttich", ("KH", "KD"), DECK)
    assert not names_match("", ("3C", "3S"), DECK) and not names_match("Gent", ("3C", "3S"), DECK)


def test_bad_moves_are_refused_without_change():
    game = rig({0: ["3S"], 1: ["3C", "JS"], 2: ["5H"]}, current=0)
    before = game.card_locations()
    for move in (Draw(5), Name("Ieper")):
        with pytest.raises(IllegalMove):
            game.play(move)
    assert game.card_locations() == before
    with pytest.raises(ValueError):
        Choux(3, random.Random(0), {"dealer": 3})


def table(players: int = 3, **options) -> Choux:
    return Choux(players, random.Random(0), options, at_table=True)


@pytest.mark.parametrize("move", [LayPair(0, "3C", "3S"), ShowChoux(0)])
def test_the_table_moves_are_refused_by_a_dealing_engine(move):
    with pytest.raises(IllegalMove) as err:
        Choux(3, random.Random(0)).play(move)
    assert err.value.key == "choux.table_only"


def test_at_the_table_the_draws_are_unseen_and_the_pairs_laid_are_judged():
    seed_says("Avant de commencer, chacun pose devant lui, face visible, toutes les paires qu’il a déjà en main.")
    game = table()
    assert game.card_locations() == [] and game.to_act is None and not game.over
    assert [r.key for r in game.opening] == ["choux.round_start", "choux.turn"]
    assert game.opening[1].params == {"player": 2, "giver": 1}  # 17 cards from seat 1, the dealer's left
    with pytest.raises(IllegalMove) as err:
        game.play(Draw(0))
    assert err.value.key == "choux.draws_unseen"
    for a, b, key in (
        ("3C", "3H", "choux.not_pair_colour"),
        ("3C", "4C", "choux.not_pair_value"),
        ("JS", "3C", "choux.never_pairs"),
    ):
        with pytest.raises(IllegalMove) as err:
            game.play(LayPair(1, a, b))
        assert err.value.key == key
    assert [r.key for r in game.play(LayPair(1, "3C", "3S"))] == ["choux.pair"]
    with pytest.raises(IllegalMove) as err:
        game.play(LayPair(0, "3S", "3C"))  # already down
    assert err.value.key == "choux.illegal_laid"
    assert game.card_locations() == [("3C", "pairs:1"), ("3S", "pairs:1")] and game.pairs_down() == 1
    assert len(game.legal_moves()) == 3 * 23


def test_at_the_table_the_choux_shown_before_every_pair_is_down_is_refused_then_names_the_puant():
    seed_says("Le dernier joueur, celui qui garde les Choux de Bruxelles, est le Puant !")
    game = table()
    with pytest.raises(IllegalMove) as err:
        game.play(ShowChoux(2))
    assert err.value.key == "choux.never_pairs"
    for i, (a, b) in enumerate(pairs_in([c for c in DECK.ids if c != "JS"])):
        rulings = game.play(LayPair(i % 3, a, b))
    assert [r.key for r in rulings] == ["choux.pair", "choux.all_pairs"]
    assert game.legal_moves() == [ShowChoux(0), ShowChoux(1), ShowChoux(2)]
    assert [r.key for r in game.play(ShowChoux(2))] == ["choux.puant", "choux.match_won", "choux.match_won"]
    assert game.over and game.winners() == [0, 1] and game.scores() == [1, 1, 0]


def test_at_the_table_pairs_wait_for_their_names_in_the_order_they_were_laid():
    seed_says("Une erreur ? La paire reste en main jusqu’au tour suivant.")
    game = table(naming=True)
    assert [r.key for r in game.play(LayPair(2, "3C", "3S"))] == ["choux.name_it"]
    assert game.play(LayPair(0, "KC", "KS")) == []  # waits behind seat 2's pair
    assert game.to_act == 2 and game.expects() == ("choux.expect_name", {"player": 2, "card_a": "3C", "card_b": "3S"})
    rulings = game.play(Name("Gand"))
    assert [(r.key, r.params["player"]) for r in rulings] == [("choux.named_wrong", 2), ("choux.name_it", 0)]
    rulings = game.play(Name("Anvers"))
    assert [r.key for r in rulings] == ["choux.named_right", "choux.pair"] and game.to_act is None
    assert game.laid == [["KC", "KS"], [], []]
    assert [r.key for r in game.play(LayPair(2, "3S", "3C"))] == ["choux.name_it"]  # laid again next turn
