"""Le Compromis à la belge, rule by rule: every sentence and FAQ answer of seed
000_de7fdf0eefacbd60.txt about the game and every decision of rules-decisions.md about it."""

from __future__ import annotations

import random
import re

import pytest

from kiosk.decks import load_deck
from kiosk.games.base import IllegalMove
from kiosk.games.compromis import Compromis, _Turn
from kiosk.games.compromis_government import check_government
from kiosk.games.compromis_moves import (
    Arrange,
    Declare,
    Discard,
    DrawStock,
    Give,
    PlaySpecial,
    ShowJack,
    TakeDiscard,
    Target,
    Yield,
)
from tests.quotes import decided, seed_says

DECK = load_deck("affiche-belge")
# Lier 3♥ + Villers-la-Ville 3♣, De Panne 4♥ + Arlon 4♣, Laeken 7♠ + Spa 7♥: the seed's example.
EXAMPLE = ["3H", "3C", "4H", "4C", "7S", "7H"]


def rig(
    players: int = 3,
    hands: dict[int, list[str]] | None = None,
    discard: tuple[str, ...] = (),
    stock_top: tuple[str, ...] = (),
    stock_size: int | None = None,
    **options,
) -> Compromis:
    """An engine at the start of seat 0's turn with the given cards. Every other card is filled in
    (hands to 7, then the stock, ``stock_top[0]`` on top); with ``stock_size`` the stock is cut to
    that many cards and the rest parked aside, so the 54 cards stay accounted for."""
    game = Compromis(players, random.Random(1), options)
    hands = hands or {}
    used = {c for h in hands.values() for c in h} | set(discard) | set(stock_top)
    rest = [c for c in sorted(DECK.ids, key=_filler_order) if c not in used]
    game.hands = []
    for seat in range(players):
        hand = list(hands.get(seat, []))
        while len(hand) < 7:
            hand.append(rest.pop(0))
        game.hands.append(hand)
    stock = rest + list(reversed(stock_top))
    cut = 0 if stock_size is None else len(stock) - stock_size
    game.aside, game.stock, game.discard = stock[:cut], stock[cut:], list(discard)
    game.current, game.turn, game.skips = 0, _Turn(), [0] * players
    return game


def _filler_order(card: str) -> tuple[int, str]:
    """Queens and lone high cards first, so filled-in hands hold no accidental government."""
    order = [
        "QC",
        "QD",
        "QH",
        "QS",
        "JC",
        "JD",
        "JH",
        "9H",
        "8S",
        "6C",
        "2C",
        "10C",
        "5D",
        "9D",
        "2S",
    ]
    return (order.index(card) if card in order else len(order), card)


def locations_ok(game: Compromis) -> bool:
    ids = [c for c, _ in game.card_locations()]
    return len(ids) == 54 and set(ids) == set(DECK.ids)


# -- set-up and turn ---------------------------------------------------------------------------


def test_deal_seven_each_the_rest_is_the_stock_and_one_card_starts_the_discard():
    seed_says(
        "Distribuez 7 cartes à chaque joueur. Le reste forme la pioche, face cachée ; "
        "retournez la première carte pour commencer la défausse."
    )
    game = Compromis(4, random.Random(3))
    assert [len(h) for h in game.hands] == [7, 7, 7, 7]
    assert len(game.discard) == 1
    assert len(game.stock) == 54 - 28 - 1 - len(game.aside)
    assert locations_ok(game)


def test_youngest_starts():
    seed_says("Le plus jeune commence.")
    assert Compromis(4, random.Random(0), {"youngest": 2}).to_act == 2
    with pytest.raises(ValueError):
        Compromis(4, random.Random(0), {"youngest": 4})


def test_players_two_to_six():
    decided("Players: 2 to 6.")
    for n in (1, 7):
        with pytest.raises(ValueError):
            Compromis(n, random.Random(0))


def test_take_from_the_pile_or_the_top_of_the_discard():
    seed_says("Prends une carte : sur la pioche ou sur le dessus de la défausse.")
    game = rig(discard=("9C",), stock_top=("2D",))
    assert set(game.legal_moves()) == {DrawStock(), TakeDiscard()}
    game.play(TakeDiscard())
    assert "9C" in game.hands[0] and game.discard == []
    game = rig(discard=("9C",), stock_top=("2D",))
    game.play(DrawStock())
    assert "2D" in game.hands[0] and game.discard == ["9C"]


def test_discard_one_or_play_an_ace_or_manneken_instead():
    seed_says("Défausse une carte, ou joue à la place un As ou un Manneken-Pis (voir les cartes spéciales).")
    game = rig(hands={0: ["AC", "JK1"]}, discard=("9C",), stock_top=("2D",))
    game.play(DrawStock())
    moves = game.legal_moves()
    assert PlaySpecial("AC") in moves and PlaySpecial("JK1") in moves
    assert Discard("2D") in moves
    game.play(Discard("2D"))
    assert game.discard[-1] == "2D" and game.to_act == 1


def test_seven_cards_in_hand_at_the_end_of_each_turn():
    seed_says("Tu as toujours 7 cartes en main à la fin de ton tour.")
    seed_says("À ton tour, tu prends une carte et tu en rejettes une.")
    game = rig(stock_top=("2D",))
    game.play(DrawStock())
    assert len(game.hands[0]) == 8
    game.play(Discard(game.hands[0][0]))
    assert len(game.hands[0]) == 7


def test_empty_stock_reshuffles_the_discard_pile_but_its_top():
    seed_says("Si la pioche est vide, remélange la défausse, sauf la carte du dessus.")
    game = rig(discard=("9C", "8C"), stock_size=1)
    game.play(DrawStock())
    game.play(Discard("QC"))  # the stock is empty now: seat 1's turn begins with the reshuffle
    assert game.to_act == 1
    assert game.discard == ["QC"]
    assert {"9C", "8C"} <= set(game.stock)
    assert locations_ok(game)


def test_exhausted_stock_ends_the_round_without_a_government():
    decided("Draw pile empty and only the top discard left: the round ends without a government.")
    game = rig(stock_size=1)
    game.play(DrawStock())
    rulings = game.play(Discard("QC"))
    assert "compromis.round_void" in [r.key for r in rulings]
    assert game.rounds == 2 and game.scores() == [0, 0, 0]
    assert [len(h) for h in game.hands] == [7, 7, 7]
    assert game.to_act == 1  # the left neighbour of the round's first player
    assert locations_ok(game)


# -- governments -------------------------------------------------------------------------------


def test_the_seed_example_is_a_government():
    seed_says(
        "Exemple : Lier (3) + Villers-la-Ville (3), De Panne (4) + Arlon (4), Laeken (7) + Spa "
        "(7) : "
        "c’est un gouvernement !"
    )
    verdict = check_government(EXAMPLE, DECK)
    assert verdict.ok
    assert set(verdict.pairs) == {("3H", "3C"), ("4H", "4C"), ("7S", "7H")}  # Laeken plays the lion


def test_a_pair_is_a_lion_and_a_coq_of_the_same_value():
    seed_says("Chaque carte de 2 à 10 est un ministre : flamand s’il porte un lion, wallon s’il porte un coq.")
    seed_says("Une paire = un lion + un coq de même valeur, de 2 à 10.")
    assert check_government(["2H", "2C", "10H", "10C", "3S", "3D"], DECK).ok
    verdict = check_government(["3H", "4C", "4H", "3C", "7S", "8D"], DECK)
    assert not verdict.ok  # Laeken (7) and Rochefort (8) have no partner of their value
    assert ("compromis.gov_alone", {"card": "7S"}) in verdict.problems


def test_brussels_plays_either_role():
    seed_says("Bruxelles est bilingue : Laeken (7) et le Cinquantenaire (5) jouent au choix le rôle flamand ou wallon.")
    assert check_government(["7S", "7C", "3H", "3C", "4H", "4C"], DECK).ok  # Laeken + Turnhout (lion)
    assert check_government(["5H", "5D", "3H", "3C", "4H", "4C"], DECK).ok  # Cinquantenaire + Waterloo (coq)


def test_two_walloon_towns_of_one_value_are_not_a_pair():
    seed_says(
        "Deux villes wallonnes de même valeur, c’est une paire ? Non, il faut toujours un lion "
        "et un "
        "coq (ou Bruxelles dans le rôle manquant)."
    )
    verdict = check_government(["3C", "3D", "4H", "4C", "7S", "7H"], DECK)
    assert verdict.problems == (("compromis.gov_two_coqs", {"card_a": "3C", "card_b": "3D"}),)
    verdict = check_government(["3H", "3S", "4H", "4C", "7S", "7H"], DECK)
    assert verdict.problems == (("compromis.gov_two_lions", {"card_a": "3H", "card_b": "3S"}),)


def test_laeken_plays_one_role_and_both_brussels_cards_may_sit_together():
    seed_says(
        "Laeken peut-il être flamand et wallon en même temps ? Non : dans un gouvernement, il joue "
        "un seul rôle, à toi de choisir. Laeken et le Cinquantenaire peuvent être dans le même "
        "gouvernement si chacun a son partenaire."
    )
    decided("A Brussels card plays one role per government.")
    # Laeken + Spa (coq) + Turnhout (lion): Laeken would partner both.
    verdict = check_government(["7S", "7H", "7C", "5H", "5C", "5D"], DECK)
    assert (
        "compromis.gov_both_roles",
        {"card": "7S", "card_a": "7C", "card_b": "7H"},
    ) in verdict.problems
    assert (
        "compromis.gov_both_roles",
        {"card": "5H", "card_a": "5C", "card_b": "5D"},
    ) in verdict.problems
    assert check_government(["7S", "7H", "5H", "5C", "3H", "3C"], DECK).ok


def test_aces_and_kings_carry_a_symbol_but_never_pair():
    seed_says(
        "Les As et les Rois portent un symbole : peuvent-ils faire une paire ? Non. Seules les "
        "cartes "
        "de 2 à 10 sont des ministres."
    )
    assert DECK["KC"].region == "flanders" and DECK["KS"].region == "wallonia"
    verdict = check_government(["KC", "KS", "3H", "3C", "4H", "4C"], DECK)
    assert ("compromis.gov_not_minister", {"card": "KC"}) in verdict.problems
    assert ("compromis.gov_not_minister", {"card": "KS"}) in verdict.problems


def test_two_pairs_of_the_same_value_are_allowed():
    decided("Two pairs of the same value in one government are allowed.")
    assert check_government(["3H", "3C", "3S", "3D", "4H", "4C"], DECK).ok


def test_a_government_is_six_cards():
    assert check_government(EXAMPLE[:4], DECK).problems == (("compromis.gov_count", {"count": 4}),)


def declare_ready(king: bool = False, kings: int = 0, **options) -> Compromis:
    """Seat 0 holds the seed's example but Spa; Spa tops the discard pile."""
    extra = ["KD", "KH"][: max(kings, int(king))]
    return rig(hands={0: [c for c in EXAMPLE if c != "7H"] + extra}, discard=("7H",), **options)


def test_a_government_scores_one_point_after_drawing_with_eight_cards_in_hand():
    seed_says("Dès que tes 3 paires sont réunies, pose-les et crie « Compromis, une fois ! » : tu marques 1 point.")
    decided(
        "A government is declared mid-turn, after drawing or after an action, with 6 cards down; "
        "the "
        "hand may hold 8 cards at that moment (no discard owed)."
    )
    game = declare_ready()
    with pytest.raises(IllegalMove):
        game.play(Declare(frozenset(EXAMPLE)))  # not before drawing
    game.play(TakeDiscard())
    assert len(game.hands[0]) == 8
    rulings = game.play(Declare(frozenset(EXAMPLE)))
    assert game.scores() == [1, 0, 0]
    assert ("compromis.government_ok", 1) in [(r.key, r.params.get("points")) for r in rulings]


def test_a_king_doubles_the_point_once():
    seed_says("Un gouvernement rapporte 1 point, 2 avec un Roi.")
    seed_says("J’ai deux Rois en main : 2 points de bonus ? Non, le bonus Roi vaut 1 point, même avec plusieurs Rois.")
    decided("The King bonus (+1) needs a King in hand when declaring and is capped at +1.")
    for kings, expected in ((1, 2), (2, 2)):
        game = declare_ready(kings=kings)
        game.play(TakeDiscard())
        game.play(Declare(frozenset(EXAMPLE)))
        assert game.scores()[0] == expected


def test_a_false_government_goes_back_and_its_author_skips_his_next_turn():
    seed_says("Les autres vérifient. Un gouvernement faux ? Son auteur reprend ses cartes et passe son prochain tour.")
    decided("A false government: cards back to hand, the author skips the next turn, no score.")
    game = rig(hands={0: ["3C", "3D", "4H", "4C", "7S", "7H"]}, stock_top=("QC",))
    game.play(DrawStock())
    hand = list(game.hands[0])
    rulings = game.play(Declare(frozenset(["3C", "3D", "4H", "4C", "7S", "7H"])))
    assert [r.key for r in rulings][-1] == "compromis.gov_false"
    assert game.hands[0] == hand and game.scores() == [0, 0, 0]
    with pytest.raises(IllegalMove):
        game.play(Declare(frozenset(["3C", "3D", "4H", "4C", "7S", "7H"])))  # once per turn
    game.play(Discard("QC"))
    game.play(DrawStock())
    game.play(Discard(game.hands[1][0]))
    game.play(DrawStock())
    rulings = game.play(Discard(game.hands[2][0]))
    assert ("compromis.turn_skipped", {"player": 0}) in [(r.key, dict(r.params)) for r in rulings]
    assert game.to_act == 1


def test_forgetting_the_call_still_scores_but_pays_the_frites():
    seed_says(
        "J’ai oublié de crier « Compromis, une fois ! » Ton gouvernement compte quand même… mais tu paies les frites."
    )
    game = declare_ready()
    game.play(TakeDiscard())
    rulings = game.play(Declare(frozenset(EXAMPLE), called=False))
    assert game.scores() == [1, 0, 0]
    assert game.frites == [0]
    assert "compromis.forgot_call" in [r.key for r in rulings]


def test_winner_left_neighbour_starts_the_next_round_after_a_full_reshuffle():
    seed_says("On remélange toutes les cartes et le voisin de gauche du gagnant commence la manche suivante.")
    decided("Next round: the winner's left neighbour starts.")
    game = declare_ready(players=4)
    game.play(TakeDiscard())
    game.play(Declare(frozenset(EXAMPLE)))
    assert game.rounds == 2 and game.to_act == 1
    assert [len(h) for h in game.hands] == [7, 7, 7, 7]
    assert locations_ok(game)


@pytest.mark.parametrize("players, needed", [(2, 4), (3, 3), (6, 3)])
def test_first_to_three_points_four_with_two_players_and_the_last_pays_the_frites(players, needed):
    seed_says("Le premier à 3 points (4 à 2 joueurs) devient Premier ministre… et le dernier paie les frites.")
    decided("Win at 3 points (4 with 2 players).")
    game = declare_ready(players=players)
    game._scores = [needed - 1] + [0] * (players - 2) + [1]
    game.play(TakeDiscard())
    rulings = game.play(Declare(frozenset(EXAMPLE)))
    assert game.over and game.winners() == [0] and game.to_act is None
    payers = [r.params["player"] for r in rulings if r.key == "compromis.frites"]
    assert payers == list(range(1, players - 1)) if players > 2 else payers == [1]
    assert locations_ok(game)


# -- special cards -----------------------------------------------------------------------------


def test_specials_replace_the_discard_and_never_go_on_the_discard_pile():
    seed_says(
        "Un As ou un Manneken-Pis se joue à la place de ta défausse (un seul par tour) et se "
        "pose à part : "
        "il ne va jamais dans la défausse."
    )
    decided(
        "Special cards replace the discard, at most one Ace or Manneken-Pis per turn, and are "
        "set aside "
        "(never on the discard pile)."
    )
    game = rig(hands={0: ["AS", "AC"]}, discard=("9C",), stock_top=("QD",))
    game.play(DrawStock())
    with pytest.raises(IllegalMove) as err:
        game.play(Discard("AC"))
    assert err.value.key == "compromis.illegal_special_on_discard"
    game.play(PlaySpecial("AS"))  # Doudou: takes 9C, owes a card to the discard pile
    assert "AS" in game.aside and "AS" not in game.discard
    with pytest.raises(IllegalMove):
        game.play(PlaySpecial("AC"))  # one per turn
    assert PlaySpecial("AC") not in game.legal_moves()


def test_first_game_without_specials_they_are_simply_discarded():
    seed_says("Pour la première partie, jouez sans les cartes spéciales : on les défausse simplement.")
    decided("First game: no specials (option) — they are dead cards, discarded normally.")
    game = rig(hands={0: ["AS", "JK1"]}, stock_top=("QD",), first_game=True)
    game.play(DrawStock())
    assert not any(isinstance(m, PlaySpecial) for m in game.legal_moves())
    with pytest.raises(IllegalMove) as err:
        game.play(PlaySpecial("AS"))
    assert err.value.key == "compromis.illegal_first_game"
    game.play(Discard("JK1"))
    assert game.discard[-1] == "JK1"


def test_a_special_may_stay_in_hand_takes_a_place_and_never_pairs():
    seed_says(
        "Je peux garder un As ou un Manneken en main sans le jouer ? Oui, aussi longtemps que tu "
        "veux. "
        "Mais il occupe une place dans ta main et ne fait jamais partie d’une paire."
    )
    game = rig(hands={0: ["JK1"]}, stock_top=("QD",))
    game.play(DrawStock())
    game.play(Discard("QD"))
    assert "JK1" in game.hands[0] and len(game.hands[0]) == 7
    assert ("compromis.gov_not_minister", {"card": "JK1"}) in check_government(
        ["JK1", "3C", "3H", "4H", "4C", "7S"], DECK
    ).problems


def test_a_special_turned_first_is_set_aside():
    decided("First card turned for the discard pile is an Ace or Manneken-Pis: set it aside, turn the next.")
    seed = next(s for s in range(500) if Compromis(3, random.Random(s)).aside)
    game = Compromis(3, random.Random(seed))
    assert all(c in ("AS", "AH", "AD", "AC", "JK1", "JK2") for c in game.aside)
    assert game.discard[0] not in game.aside
    assert "compromis.first_card_aside" in [r.key for r in game.opening]
    assert locations_ok(game)


def test_the_discard_just_taken_cannot_be_discarded_again():
    decided("Taking the top discard and discarding it again the same turn is not allowed.")
    game = rig(discard=("9C",))
    game.play(TakeDiscard())
    with pytest.raises(IllegalMove) as err:
        game.play(Discard("9C"))
    assert err.value.key == "compromis.illegal_same_discard"
    assert Discard("9C") not in game.legal_moves()


def test_doudou_swaps_with_the_top_of_the_discard_pile():
    decided("swap — take the top card of the discard pile, put one card of your hand on the discard pile.")
    game = rig(hands={0: ["AS"]}, discard=("2D", "9C"), stock_top=("QD",))
    game.play(DrawStock())
    game.play(PlaySpecial("AS"))
    assert "9C" in game.hands[0] and game.discard == ["2D"]
    with pytest.raises(IllegalMove):
        game.play(Discard("9C"))
    game.play(Discard("QD"))
    assert game.discard == ["2D", "QD"] and len(game.hands[0]) == 7 and game.to_act == 1


def test_doudou_on_an_empty_discard_pile_does_nothing_and_ends_the_turn():
    seed_says(
        "Le Doudou, si la défausse est vide ? Il ne se passe rien : tu as joué ton As à la place "
        "de ta "
        "défausse, et ton tour est fini."
    )
    decided("Empty discard pile: nothing happens, the turn ends.")
    game = rig(hands={0: ["AS"]}, discard=("9C",))
    game.play(TakeDiscard())
    rulings = game.play(PlaySpecial("AS"))
    assert "compromis.doudou_empty" in [r.key for r in rulings]
    assert game.to_act == 1 and len(game.hands[0]) == 7 and game.discard == []


def test_government_right_after_the_action_that_brought_the_missing_card():
    seed_says(
        "Je peux poser mon gouvernement juste après une action ? Oui. Si l’action t’apporte la "
        "carte qui "
        "manquait, pose ton gouvernement tout de suite, sans rendre de carte."
    )
    game = rig(hands={0: [c for c in EXAMPLE if c != "7H"] + ["AS"]}, discard=("7H",), stock_top=("QD",))
    game.play(DrawStock())
    game.play(PlaySpecial("AS"))  # Doudou brings Spa
    assert Declare(frozenset(EXAMPLE)) in game.legal_moves()
    game.play(Declare(frozenset(EXAMPLE)))
    assert game.scores() == [1, 0, 0] and game.rounds == 2


def test_malmedy_takes_a_random_card_then_gives_one_of_choice():
    decided("draw one card at random from a chosen opponent's hand, then give that opponent one card of your choice.")
    game = rig(hands={0: ["AH"]}, stock_top=("QD",))
    game.play(DrawStock())
    game.play(PlaySpecial("AH"))
    game.play(Target(2))
    assert game.to_act == 2 and game.legal_moves() == [Yield()]  # no Jack to show
    before = set(game.hands[2])
    game.play(Yield())
    taken = before - set(game.hands[2])
    assert len(taken) == 1 and taken <= set(game.hands[0])
    game.play(Give("QD"))
    assert "QD" in game.hands[2] and [len(h) for h in game.hands] == [7, 7, 7]
    assert game.to_act == 1


def test_a_speciality_protects_against_malmedy_only():
    seed_says(
        "Une spécialité protège-t-elle aussi contre Binche ou les Ours ? Non, uniquement contre "
        "Malmedy, "
        "la seule action qui te prend une carte."
    )
    decided("A target who shows a Jack (spécialité) cancels it; the Jack stays.")
    decided("A Jack does not protect.")
    game = rig(hands={0: ["AH"], 1: ["JD"]}, stock_top=("QD",))
    game.play(DrawStock())
    game.play(PlaySpecial("AH"))
    game.play(Target(1))
    before = [list(h) for h in game.hands]
    rulings = game.play(ShowJack("JD"))
    assert "compromis.malmedy_blocked" in [r.key for r in rulings]
    assert "JD" in game.hands[1] and game.hands[1] == before[1] and game.to_act == 1
    # Binche hits a Jack holder all the same.
    game = rig(hands={0: ["AD"], 1: ["JD"]}, stock_top=("QD", "2D", "5D"))
    game.play(DrawStock())
    game.play(PlaySpecial("AD"))
    assert game.to_act == 1 and "2D" in game.hands[1]
    assert not any(isinstance(m, ShowJack) for m in game.legal_moves())


def test_binche_every_other_player_draws_then_discards():
    decided("every other player draws the top card of the draw pile and then discards one card.")
    game = rig(hands={0: ["AD"]}, stock_top=("QD", "2D", "5D"))
    game.play(DrawStock())
    game.play(PlaySpecial("AD"))
    assert game.to_act == 1 and len(game.hands[1]) == 8
    game.play(Discard("2D"))
    assert game.to_act == 2 and "5D" in game.hands[2]
    game.play(Discard(game.hands[2][0]))
    assert game.to_act == 1 and [len(h) for h in game.hands] == [7, 7, 7]
    assert game.discard[-2:][0] == "2D"


def test_andenne_the_next_player_skips():
    decided("the next player skips a turn (with 2 players you play again).")
    game = rig(hands={0: ["AC"]}, stock_top=("QD",))
    game.play(DrawStock())
    rulings = game.play(PlaySpecial("AC"))
    assert ("compromis.turn_skipped", {"player": 1}) in [(r.key, dict(r.params)) for r in rulings]
    assert game.to_act == 2


def test_a_table_gives_the_action_cards_other_effects_or_none():
    specials = {"AS": "andenne", "JK1": "binche"}  # AH, AD, AC and JK2 are dead cards here
    game = rig(hands={0: ["AS", "AC"]}, stock_top=("QD",), specials=specials)
    game.play(DrawStock())
    assert {m.card for m in game.legal_moves() if isinstance(m, PlaySpecial)} == {"AS"}
    with pytest.raises(IllegalMove) as err:
        game.play(PlaySpecial("AC"))
    assert err.value.key == "compromis.illegal_dead_card"
    rulings = game.play(PlaySpecial("AS"))  # Doudou's Ace skips the next player at this table
    assert rulings[0].key == "compromis.special_andenne" and game.to_act == 2
    game = rig(hands={0: ["AC"]}, stock_top=("QD",), specials=specials)
    game.play(DrawStock())
    game.play(Discard("AC"))  # a dead card goes on the discard pile
    assert game.discard[-1] == "AC"


@pytest.mark.parametrize(
    "specials, words",
    [
        ({"KS": "doudou"}, "'KS' is not an action card; allowed: AS, AH, AD, AC, JK1, JK2"),
        ({"AS": "teleport"}, "AS = 'teleport'; allowed: doudou, malmedy, binche, andenne, manneken"),
        (["AS"], "must be a table card = effect"),
    ],
)
def test_a_bad_specials_table_is_refused_with_what_is_allowed(specials, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        Compromis(3, random.Random(0), {"specials": specials})


def test_andenne_with_two_players_plays_again():
    seed_says("Andenne à 2 joueurs ? Ton adversaire passe son tour : tu rejoues immédiatement.")
    game = rig(players=2, hands={0: ["AC"]}, stock_top=("QD",))
    game.play(DrawStock())
    game.play(PlaySpecial("AC"))
    assert game.to_act == 0 and game.turn.phase == "draw"


def test_manneken_looks_at_three_and_puts_them_back_in_any_order():
    decided(
        "look alone at the top 3 cards of the draw pile (reshuffle first if fewer than 3), put them back in any order."
    )
    game = rig(hands={0: ["JK1"]}, stock_top=("QD", "2D", "5D", "9D"))
    game.play(DrawStock())
    game.play(PlaySpecial("JK1"))
    assert game.turn.looked == ("2D", "5D", "9D") and game.to_act == 0
    game.play(Arrange(("9D", "2D", "5D")))
    assert game.stock[-3:] == ["5D", "2D", "9D"] and game.to_act == 1


def test_manneken_with_fewer_than_three_cards_reshuffles_first():
    seed_says(
        "Le Manneken, s’il reste moins de 3 cartes dans la pioche ? Remélange d’abord la "
        "défausse (sauf "
        "la carte du dessus), puis regarde les 3 premières cartes. Toi seul les regardes."
    )
    game = rig(hands={0: ["JK1"]}, discard=("2H", "6H", "9C"), stock_top=("QD", "2D"), stock_size=2)
    game.play(DrawStock())
    game.play(PlaySpecial("JK1"))
    assert len(game.turn.looked) == 3 and game.turn.looked[0] == "2D"
    assert game.discard == ["9C"]
    with pytest.raises(IllegalMove):
        game.play(Arrange(("2D",)))
    game.play(Arrange(tuple(reversed(game.turn.looked))))
    assert locations_ok(game)


def test_queens_have_no_effect():
    decided("no effect; they only take a place in the hand.")
    game = rig(stock_top=("2D",))
    game.play(DrawStock())
    with pytest.raises(IllegalMove) as err:
        game.play(PlaySpecial("QC"))
    assert err.value.key == "compromis.illegal_not_special"


def test_illegal_moves_leave_the_state_unchanged():
    game = rig(stock_top=("2D",))
    before = (game.card_locations(), game.turn.phase, game.to_act)
    for move in (Discard("QC"), Give("QC"), Target(0), Arrange(()), TakeDiscard()):
        with pytest.raises(IllegalMove):
            game.play(move)
    assert (game.card_locations(), game.turn.phase, game.to_act) == before
